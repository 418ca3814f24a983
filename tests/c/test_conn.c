/* Connections: URLs, databases, unix sockets, AUTH, unreachable servers,
 * script cache and function flushes and killed connections. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <spawn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

extern char **environ;

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Puts a job through a client on url; returns the jid (owned) or NULL. */
static char *put_via(const char *url)
{
	qless_client *c = NULL;
	int rc = qless_client_new(&c, url, NULL);
	TH_OK(rc);
	if (rc != QLESS_OK)
		return NULL;
	char *jid = th_put(c, "q", "K", NULL, NULL);
	qless_client_free(c);
	return jid;
}

static long long exists_in_db(int db, const char *jid)
{
	redisReply *r = th_cmd("SELECT %d", db);
	if (r)
		freeReplyObject(r);
	long long n = th_int("EXISTS ql:j:%s", jid);
	r = th_cmd("SELECT 0");
	if (r)
		freeReplyObject(r);
	return n;
}

static void test_url_db(void)
{
	char url[256];
	char *jid = put_via(th_url_db(url, sizeof url, 3));
	CU_ASSERT_FATAL(th_is_jid(jid));
	CU_ASSERT_EQUAL(exists_in_db(3, jid), 1);
	CU_ASSERT_EQUAL(exists_in_db(0, jid), 0);
	qless_free(jid);

	/* Without a db: 0. */
	snprintf(url, sizeof url, "redis://127.0.0.1:%d", th_port());
	jid = put_via(url);
	CU_ASSERT_FATAL(th_is_jid(jid));
	CU_ASSERT_EQUAL(exists_in_db(0, jid), 1);
	qless_free(jid);

	/* localhost by name. */
	snprintf(url, sizeof url, "redis://localhost:%d/1", th_port());
	jid = put_via(url);
	CU_ASSERT_FATAL(th_is_jid(jid));
	CU_ASSERT_EQUAL(exists_in_db(1, jid), 1);
	qless_free(jid);
}

static void test_url_unix(void)
{
	char url[700];
	snprintf(url, sizeof url, "unix://%s?db=2", th_socket());
	char *jid = put_via(url);
	CU_ASSERT_FATAL(th_is_jid(jid));
	CU_ASSERT_EQUAL(exists_in_db(2, jid), 1);
	CU_ASSERT_EQUAL(exists_in_db(0, jid), 0);
	qless_free(jid);
	snprintf(url, sizeof url, "unix://%s", th_socket());
	jid = put_via(url);
	CU_ASSERT_FATAL(th_is_jid(jid));
	CU_ASSERT_EQUAL(exists_in_db(0, jid), 1);
	qless_free(jid);
}

static void test_url_env(void)
{
	char url[256];
	char *old = getenv("QLESS_URL") ? strdup(getenv("QLESS_URL")) : NULL;
	setenv("QLESS_URL", th_url_db(url, sizeof url, 5), 1);
	qless_client *c = NULL;
	TH_OK(qless_client_new(&c, NULL, NULL));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *jid = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_FATAL(th_is_jid(jid));
	CU_ASSERT_EQUAL(exists_in_db(5, jid), 1);
	qless_free(jid);
	qless_client_free(c);
	if (old) {
		setenv("QLESS_URL", old, 1);
		free(old);
	} else {
		unsetenv("QLESS_URL");
	}
}

static void test_url_bad(void)
{
	char url[256];
	const char *bad[] = {
		"", "http://127.0.0.1:6379/0", "redis://", "127.0.0.1:6379", "redis://127.0.0.1:notaport/0",
		"redis://127.0.0.1:99999/0", "redis://127.0.0.1:6379/notadb", "redis://127.0.0.1:6379/-1",
		"unix://", "unix:///tmp/x.sock?db=abc", NULL,
	};
	for (int i = 0; bad[i]; i++) {
		qless_client *c = NULL;
		int rc = qless_client_new(&c, bad[i], NULL);
		if (rc != QLESS_EINVAL)
			fprintf(stderr, "\n  url \"%s\": %d\n", bad[i], rc);
		CU_ASSERT_EQUAL(rc, QLESS_EINVAL);
		CU_ASSERT_PTR_NULL(c);
		if (c)
			qless_client_free(c);
	}
	/* A db the server does not have: SELECT fails at connect time. */
	qless_client *c = NULL;
	snprintf(url, sizeof url, "redis://127.0.0.1:%d/999", th_port());
	int rc = qless_client_new(&c, url, NULL);
	CU_ASSERT(rc < 0);
	CU_ASSERT_PTR_NULL(c);
	if (c)
		qless_client_free(c);
	/* Bad option: wrong version. */
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	o.version = 0;
	TH_RC(qless_client_new(&c, th_url(), &o), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(c);
}

/* Query parameters: each refusal names what is wrong; redis:// takes ?db=. */
static void test_url_query(void)
{
	static const char *const cases[][2] = {
		{ "redis://h:1/0?bogus=1", "unknown query parameter \"bogus\"" },
		{ "rediss://h:1/0?ca=/x&Ca=/y", "unknown query parameter \"Ca\"" },
		{ "redis://h:1/0?ca=/x", "need a rediss:// URL" },
		{ "unix:///tmp/x.sock?insecure", "need a rediss:// URL" },
		{ "rediss://h:1/0?key=/k", "key= needs cert=" },
		{ "rediss://h:1/0?insecure=no", "insecure takes no value" },
		{ "rediss://h:1/0?ca=", "\"ca\" needs a value" },
		{ "rediss://h:1/0?cert", "\"cert\" needs a value" },
		{ "rediss://h:1/0?=x", "without a name" },
		{ "rediss://h:1/0?ca=%zz", "bad percent escape in query parameter \"ca\"" },
		{ "redis://h:1?db=x", "db must be a non-negative integer" },
		{ "rediss://h:1/0?db=1&db", "db must be a non-negative integer" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		qless_client *c = NULL;
		TH_RC(qless_client_new(&c, cases[i][0], NULL), QLESS_EINVAL);
		CU_ASSERT_PTR_NULL(c);
		if (strstr(qless_error_last_message(), cases[i][1]) == NULL) {
			CU_FAIL("the message does not name the problem");
			fprintf(stderr, "\n  url %s -> %s\n", cases[i][0], qless_error_last_message());
		}
	}
	char url[128];
	qless_client *c = NULL;
	snprintf(url, sizeof url, "redis://127.0.0.1:%d?db=3", th_port());
	TH_OK(qless_client_new(&c, url, NULL));
	char *jid = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jid);
	CU_ASSERT_EQUAL(exists_in_db(3, jid), 1);
	CU_ASSERT_EQUAL(exists_in_db(0, jid), 0);
	qless_free(jid);
	qless_client_free(c);
}

static void test_unreachable(void)
{
	char url[128];
	snprintf(url, sizeof url, "redis://127.0.0.1:%d/0", th_closed_port());
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	o.connect_timeout_ms = 1000;
	qless_client *c = NULL;
	TH_RC(qless_client_new(&c, url, &o), QLESS_EIO);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_EQUAL(qless_error_last_code(), QLESS_EIO);
	CU_ASSERT(strlen(qless_error_last_message()) > 0);
	if (c)
		qless_client_free(c);
	snprintf(url, sizeof url, "unix:///nonexistent/dir/redis.sock");
	TH_RC(qless_client_new(&c, url, &o), QLESS_EIO);
	CU_ASSERT(strlen(qless_error_last_message()) > 0);
}

/* The server loses its script cache (restart, SCRIPT FLUSH): the library
 * loads the script again and the call succeeds. */
static void test_script_flush(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *a = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL(a);
	redisReply *r = th_cmd("SCRIPT FLUSH");
	CU_ASSERT(r && r->type == REDIS_REPLY_STATUS);
	freeReplyObject(r);
	char *b = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT(th_is_jid(b));
	int64_t len = 0;
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	TH_OK(qless_queue_length(&len, q));
	CU_ASSERT_EQUAL(len, 2);
	/* And a flush of everything (as after a restart without persistence). */
	r = th_cmd("SCRIPT FLUSH");
	freeReplyObject(r);
	th_flush();
	TH_OK(qless_queue_length(&len, q));
	CU_ASSERT_EQUAL(len, 0);
	qless_queue_free(q);
	qless_free(a);
	qless_free(b);
	qless_client_free(c);
}

/* Number of function libraries whose name starts with prefix. */
static long long libraries_named(const char *prefix)
{
	redisReply *r = th_cmd("FUNCTION LIST");
	long long n = 0;
	if (r && r->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i < r->elements; i++) {
			redisReply *lib = r->element[i];
			for (size_t k = 0; lib->type == REDIS_REPLY_ARRAY && k + 1 < lib->elements; k += 2)
				if (strcmp(lib->element[k]->str, "library_name") == 0 &&
				    strncmp(lib->element[k + 1]->str, prefix, strlen(prefix)) == 0)
					n++;
		}
	if (r)
		freeReplyObject(r);
	return n;
}

/* Where the server has Functions the library calls FCALL of its own
 * library (qless_<hash>); after FUNCTION FLUSH it loads it again. */
static void test_function_flush(void)
{
	redisReply *r = th_cmd("FUNCTION FLUSH");
	freeReplyObject(r);
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(libraries_named("qless_"), 1);
	char *a = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT(th_is_jid(a));
	r = th_cmd("FUNCTION FLUSH");
	CU_ASSERT(r && r->type == REDIS_REPLY_STATUS);
	freeReplyObject(r);
	CU_ASSERT_EQUAL(libraries_named("qless_"), 0);
	char *b = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT(th_is_jid(b));
	CU_ASSERT_EQUAL(libraries_named("qless_"), 1);
	/* Both flushes at once (a restart without persistence). */
	freeReplyObject(th_cmd("FUNCTION FLUSH"));
	freeReplyObject(th_cmd("SCRIPT FLUSH"));
	th_flush();
	qless_queue *q = NULL;
	int64_t len = -1;
	TH_OK(qless_queue_new(&q, c, "q"));
	TH_OK(qless_queue_length(&len, q));
	CU_ASSERT_EQUAL(len, 0);
	qless_queue_free(q);
	qless_free(a);
	qless_free(b);
	qless_client_free(c);
}

/* Other code already registered as "qless" (the published qless-lib.lua,
 * maybe of another version) or as another libqless version's library is
 * neither replaced nor used. */
static void test_function_other_versions(void)
{
	freeReplyObject(th_cmd("FUNCTION FLUSH"));
	redisReply *r = th_cmd("FUNCTION LOAD %s",
	                       "#!lua name=qless\nredis.register_function('qless', function() return 'other' end)");
	CU_ASSERT(r && r->type == REDIS_REPLY_STRING);
	freeReplyObject(r);
	r = th_cmd("FUNCTION LOAD %s", "#!lua name=qless_0000000000000000\n"
	           "redis.register_function('qless_0000000000000000', function() return 'older' end)");
	CU_ASSERT(r && r->type == REDIS_REPLY_STRING);
	freeReplyObject(r);
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *a = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT(th_is_jid(a));
	CU_ASSERT_EQUAL(libraries_named("qless_"), 2);
	r = th_cmd("FCALL qless 0");
	CU_ASSERT(r && r->type == REDIS_REPLY_STRING && strcmp(r->str, "other") == 0);
	freeReplyObject(r);
	r = th_cmd("FCALL qless_0000000000000000 0");
	CU_ASSERT(r && r->type == REDIS_REPLY_STRING && strcmp(r->str, "older") == 0);
	freeReplyObject(r);
	/* A second client of the same version shares the loaded library. */
	qless_client *c2 = th_client("w2");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
	char *b = th_put(c2, "q", "K", NULL, NULL);
	CU_ASSERT(th_is_jid(b));
	CU_ASSERT_EQUAL(libraries_named("qless_"), 2);
	freeReplyObject(th_cmd("FUNCTION FLUSH"));
	qless_free(a);
	qless_free(b);
	qless_client_free(c2);
	qless_client_free(c);
}

/* QLESS_EVALSHA=1: no library is loaded, the script runs by EVALSHA and is
 * loaded again after SCRIPT FLUSH. */
static void test_evalsha_env(void)
{
	freeReplyObject(th_cmd("FUNCTION FLUSH"));
	setenv("QLESS_EVALSHA", "1", 1);
	qless_client *c = th_client("w");
	unsetenv("QLESS_EVALSHA");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *a = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT(th_is_jid(a));
	CU_ASSERT_EQUAL(libraries_named(""), 0);
	freeReplyObject(th_cmd("SCRIPT FLUSH"));
	char *b = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT(th_is_jid(b));
	CU_ASSERT_EQUAL(libraries_named(""), 0);
	qless_free(a);
	qless_free(b);
	qless_client_free(c);
}

static void kill_other_clients(void)
{
	redisReply *r = th_cmd("CLIENT KILL TYPE normal SKIPME yes");
	CU_ASSERT(r && r->type == REDIS_REPLY_INTEGER && r->integer >= 1);
	if (r)
		freeReplyObject(r);
}

/* The connection is dropped while idle: the next call notices before
 * sending, reconnects (selecting the same db again) and succeeds. */
static void test_connection_killed(void)
{
	char url[256];
	qless_client *c = NULL;
	TH_OK(qless_client_new(&c, th_url_db(url, sizeof url, 4), NULL));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *a = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	kill_other_clients();
	qless_job *job = NULL;
	TH_OK(qless_client_get_job(&job, c, a));
	CU_ASSERT_PTR_NOT_NULL(job);
	if (job)
		TH_STREQ(qless_job_jid(job), a);
	qless_job_free(job);
	/* Still in db 4 after reconnecting. */
	char *b = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_FATAL(th_is_jid(b));
	CU_ASSERT_EQUAL(exists_in_db(4, b), 1);
	CU_ASSERT_EQUAL(exists_in_db(0, b), 0);
	qless_free(a);
	qless_free(b);
	qless_client_free(c);
}

/* Whether SIGPIPE is pending for this thread (blocked meanwhile). */
static int sigpipe_pending(void)
{
	sigset_t pending;
	sigemptyset(&pending);
	sigpending(&pending);
	return sigismember(&pending, SIGPIPE) == 1;
}

static int sigpipe_blocked(void)
{
	sigset_t now;
	pthread_sigmask(SIG_SETMASK, NULL, &now);
	return sigismember(&now, SIGPIPE) == 1;
}

/* Writing to a unix socket the server closed could raise SIGPIPE, whose
 * default action ends the process: the library reports QLESS_EIO instead,
 * leaving the thread's signal mask as it was and no signal pending.
 * The server closes while the request is being written: a bulk argument
 * longer than proto-max-bulk-len is refused on its header. */
static void test_sigpipe(void)
{
	char url[600];
	snprintf(url, sizeof url, "unix://%s", th_socket());
	struct sigaction dfl, old;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGPIPE, &dfl, &old);
	for (int caller_blocks = 0; caller_blocks < 2; caller_blocks++) {
		qless_client *c = NULL;
		TH_OK(qless_client_new(&c, url, NULL));
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		char *jid = th_put(c, "q", "K", NULL, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(jid);
		sigset_t set, before;
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		pthread_sigmask(caller_blocks ? SIG_BLOCK : SIG_UNBLOCK, &set, &before);
		size_t big = 4u << 20;
		char *huge = malloc(big + 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(huge);
		memset(huge, 'j', big);
		huge[big] = '\0';
		redisReply *r = th_cmd("CONFIG SET proto-max-bulk-len 1048576");
		if (r)
			freeReplyObject(r);
		qless_job *job = NULL;
		TH_RC(qless_client_get_job(&job, c, huge), QLESS_EIO);
		qless_job_free(job);
		free(huge);
		r = th_cmd("CONFIG SET proto-max-bulk-len 536870912");
		if (r)
			freeReplyObject(r);
		CU_ASSERT_EQUAL(sigpipe_blocked(), caller_blocks);
		/* Plain sockets write with MSG_NOSIGNAL (no signal at all); TLS
		 * writes with write(2), whose SIGPIPE is the caller's when it
		 * blocks the signal itself, and taken otherwise. */
		if (!caller_blocks)
			CU_ASSERT_EQUAL(sigpipe_pending(), 0);
		if (caller_blocks && sigpipe_pending()) {
			struct timespec zero = { 0, 0 };
			sigtimedwait(&set, NULL, &zero);
		}
		pthread_sigmask(SIG_SETMASK, &before, NULL);
		qless_free(jid);
		qless_client_free(c);
	}
	sigaction(SIGPIPE, &old, NULL);
}

/* Malformed URLs carrying a password (as userinfo, as a query parameter,
 * with '@' and '/' inside it, cut short, with random junk spliced in):
 * the error names what is wrong and never shows the password. Seeded. */
static void test_url_error_hides_password(void)
{
	static const char *const shapes[] = {
		"redis://:%s@127.0.0.1:notaport/0", "redis://user:%s@[::1/0", "redis://u:%s@h:1/notadb",
		"redis://u:%s@:1/0", "unix:///tmp/x.sock?password=%s&bogus=1", "unix://rel.sock?password=%s",
		"unix:///tmp/x.sock?db=x&password=%s", "redis://u:%s@h@h2:99999/0", "redis://u:%s@h:1/0/extra",
		"unix:///tmp/%%zz?password=%s",
	};
	static const char *const secrets[] = { "s3cret", "p@ss/w0rd", "a%40b", "x&y=z" };
	unsigned int seed = 20261123;
	int checked = 0;
	for (int round = 0; round < 200; round++) {
		const char *secret = secrets[rand_r(&seed) % 4];
		char url[256];
		qless_client *c = NULL;
		snprintf(url, sizeof url, shapes[rand_r(&seed) % (sizeof shapes / sizeof *shapes)], secret);
		if (rand_r(&seed) % 3 == 0) { /* junk spliced in after the secret */
			size_t len = strlen(url), at = (size_t)(strstr(url, secret) - url) + strlen(secret);
			if (at < len && len + 2 < sizeof url) {
				memmove(url + at + 1, url + at, len - at + 1);
				url[at] = "#%:?"[rand_r(&seed) % 4];
			}
		}
		int rc = qless_client_new(&c, url, NULL);
		qless_client_free(c);
		if (rc != QLESS_EINVAL)
			continue; /* e.g. a well-formed URL whose host is only unreachable (EIO, no URL shown) */
		checked++;
		const char *msg = qless_error_last_message();
		CU_ASSERT_PTR_NOT_NULL(strstr(msg, "malformed URL"));
		if (strstr(msg, secret) != NULL) {
			CU_FAIL("the password is in the error message");
			fprintf(stderr, "\n  url %s -> %s\n", url, msg);
		}
	}
	CU_ASSERT(checked > 100);
}

/* ---- a fake server on a unix socket: answers LOADING, or hangs up ---- */

typedef struct fake_server {
	int fd, hang_up, stop;
	char dir[40], path[96];
	pthread_t thread;
} fake_server;

/* LOADING mode: every command read is answered as a Redis restarting from
 * its append-only file answers. hang_up: each connection is closed as soon
 * as it is accepted, while the client is about to write. */
static void *fake_loop(void *arg)
{
	fake_server *f = arg;
	static const char loading[] = "-LOADING Redis is loading the dataset in memory\r\n";
	while (!f->stop) {
		int conn = accept(f->fd, NULL, NULL);
		if (conn < 0)
			break;
		if (!f->hang_up) {
			char buf[65536];
			ssize_t n;
			while ((n = read(conn, buf, sizeof buf)) > 0)
				if (memchr(buf, '\n', (size_t)n) != NULL && write(conn, loading, sizeof loading - 1) < 0)
					break;
		}
		close(conn);
	}
	return NULL;
}

static int fake_start(fake_server *f, int hang_up)
{
	struct sockaddr_un sa;
	memset(f, 0, sizeof *f);
	f->hang_up = hang_up;
	snprintf(f->dir, sizeof f->dir, "/tmp/qless-fake.XXXXXX");
	if (mkdtemp(f->dir) == NULL)
		return -1;
	snprintf(f->path, sizeof f->path, "%s/sock", f->dir);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", f->path);
	if ((f->fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 || bind(f->fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
	    listen(f->fd, 64) != 0)
		return -1;
	return pthread_create(&f->thread, NULL, fake_loop, f) == 0 ? 0 : -1;
}

static void fake_stop(fake_server *f)
{
	f->stop = 1;
	shutdown(f->fd, SHUT_RDWR);
	close(f->fd);
	pthread_join(f->thread, NULL);
	unlink(f->path);
	rmdir(f->dir);
}

/* A server loading its data is Redis away for now (QLESS_EIO, which the
 * worker engine waits out), not a protocol error. */
static void test_loading_is_eio(void)
{
	fake_server f;
	char url[160];
	qless_client *c = NULL;
	CU_ASSERT_EQUAL_FATAL(fake_start(&f, 0), 0);
	snprintf(url, sizeof url, "unix://%s", f.path);
	TH_RC(qless_client_new(&c, url, NULL), QLESS_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "LOADING"));
	CU_ASSERT_PTR_NULL(c);
	fake_stop(&f);
}

/* A server that hangs up while the client loads the protocol: the write
 * must not raise SIGPIPE (at its default action it would kill this test). */
static void test_hang_up_while_loading(void)
{
	struct sigaction dfl, old;
	fake_server f;
	char url[160];
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &dfl, &old);
	CU_ASSERT_EQUAL_FATAL(fake_start(&f, 1), 0);
	snprintf(url, sizeof url, "unix://%s", f.path);
	for (int i = 0; i < 50; i++) {
		qless_client *c = NULL;
		TH_RC(qless_client_new(&c, url, NULL), QLESS_EIO);
		qless_client_free(c);
	}
	fake_stop(&f);
	sigaction(SIGPIPE, &old, NULL);
}

/* ---- a second, private redis-server with a password ---- */

static pid_t auth_pid;
static int auth_port;

static int start_auth_server(void)
{
	auth_port = th_closed_port();
	char port[16];
	snprintf(port, sizeof port, "%d", auth_port);
	char *argv[] = {
		"redis-server", "--port", port, "--bind", "127.0.0.1", "--requirepass", "s3cret",
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning",
		"--logfile", "/dev/null", NULL,
	};
	if (posix_spawnp(&auth_pid, "redis-server", NULL, NULL, argv, environ) != 0) {
		auth_pid = 0;
		return -1;
	}
	for (int i = 0; i < 200; i++) {
		struct timeval tv = { 1, 0 };
		redisContext *rc = redisConnectWithTimeout("127.0.0.1", auth_port, tv);
		int ok = rc && !rc->err;
		if (rc)
			redisFree(rc);
		if (ok)
			return 0;
		sleep_ms(25);
	}
	return -1;
}

static void stop_auth_server(void)
{
	if (auth_pid > 0) {
		kill(auth_pid, SIGTERM);
		int st;
		for (int i = 0; i < 200; i++) {
			if (waitpid(auth_pid, &st, WNOHANG) == auth_pid) {
				auth_pid = 0;
				return;
			}
			sleep_ms(25);
		}
		kill(auth_pid, SIGKILL);
		waitpid(auth_pid, &st, 0);
		auth_pid = 0;
	}
}

static void test_auth(void)
{
	if (start_auth_server() != 0) {
		CU_FAIL("could not start a private redis-server");
		stop_auth_server();
		return;
	}
	/* Add an ACL user through a raw, authenticated connection. */
	struct timeval tv = { 2, 0 };
	redisContext *raw = redisConnectWithTimeout("127.0.0.1", auth_port, tv);
	CU_ASSERT_PTR_NOT_NULL(raw);
	if (raw && !raw->err) {
		redisReply *r = redisCommand(raw, "AUTH s3cret");
		CU_ASSERT(r && r->type == REDIS_REPLY_STATUS);
		if (r)
			freeReplyObject(r);
		r = redisCommand(raw, "ACL SETUSER alice on >wonder ~* &* +@all");
		CU_ASSERT(r && r->type == REDIS_REPLY_STATUS);
		if (r)
			freeReplyObject(r);
	}

	char url[256];
	qless_client *c = NULL;
	snprintf(url, sizeof url, "redis://:s3cret@127.0.0.1:%d/2", auth_port);
	TH_OK(qless_client_new(&c, url, NULL));
	if (c) {
		char *jid = th_put(c, "q", "K", NULL, NULL);
		CU_ASSERT(th_is_jid(jid));
		if (jid && raw && !raw->err) {
			redisReply *r = redisCommand(raw, "SELECT 2");
			freeReplyObject(r);
			r = redisCommand(raw, "EXISTS ql:j:%s", jid);
			CU_ASSERT(r && r->type == REDIS_REPLY_INTEGER && r->integer == 1);
			if (r)
				freeReplyObject(r);
		}
		qless_free(jid);
		qless_client_free(c);
	}

	/* ACL user and password. */
	c = NULL;
	snprintf(url, sizeof url, "redis://alice:wonder@127.0.0.1:%d", auth_port);
	TH_OK(qless_client_new(&c, url, NULL));
	if (c) {
		char *jid = th_put(c, "q", "K", NULL, NULL);
		CU_ASSERT(th_is_jid(jid));
		qless_free(jid);
		qless_client_free(c);
	}

	/* Wrong password, wrong user: refused at connect time with a message. */
	c = NULL;
	snprintf(url, sizeof url, "redis://:wrong@127.0.0.1:%d/0", auth_port);
	int rc = qless_client_new(&c, url, NULL);
	CU_ASSERT(rc < 0);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT(strlen(qless_error_last_message()) > 0);
	if (c)
		qless_client_free(c);
	c = NULL;
	snprintf(url, sizeof url, "redis://bob:wonder@127.0.0.1:%d/0", auth_port);
	rc = qless_client_new(&c, url, NULL);
	CU_ASSERT(rc < 0);
	CU_ASSERT_PTR_NULL(c);
	if (c)
		qless_client_free(c);

	/* No password: refused at connect time with the server's reason (not
	 * "connection reset", which Redis's cut-off of an unauthenticated large
	 * request would show), on both the FCALL and the EVALSHA path. */
	snprintf(url, sizeof url, "redis://127.0.0.1:%d/0", auth_port);
	for (int evalsha = 0; evalsha < 2; evalsha++) {
		c = NULL;
		if (evalsha)
			setenv("QLESS_EVALSHA", "1", 1);
		TH_RC(qless_client_new(&c, url, NULL), QLESS_EIO);
		CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "requires a password"));
		CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "NOAUTH"));
		CU_ASSERT_PTR_NULL(c);
		qless_client_free(c);
		unsetenv("QLESS_EVALSHA");
	}
	if (raw)
		redisFree(raw);
	stop_auth_server();
}

CU_TestInfo conn_tests[] = {
	{ "url_db", test_url_db },
	{ "url_unix", test_url_unix },
	{ "url_env", test_url_env },
	{ "url_bad", test_url_bad },
	{ "url_query", test_url_query },
	{ "url_error_hides_password", test_url_error_hides_password },
	{ "unreachable", test_unreachable },
	{ "script_flush", test_script_flush },
	{ "function_flush", test_function_flush },
	{ "function_other_versions", test_function_other_versions },
	{ "evalsha_env", test_evalsha_env },
	{ "connection_killed", test_connection_killed },
	{ "sigpipe", test_sigpipe },
	{ "loading_is_eio", test_loading_is_eio },
	{ "hang_up_while_loading", test_hang_up_while_loading },
	{ "auth", test_auth },
	CU_TEST_INFO_NULL,
};
