/* Redis restarting or freezing under a client: a connection the server
 * closed while it sat idle is replaced before the next call is sent, and a
 * server that accepts connections but never answers costs the client's
 * timeouts, not more. Each test runs a redis-server of its own (a unix
 * socket in a temporary directory plus a free loopback port, append-only
 * file with fsync always), stopped and continued by its pid. */
#define _XOPEN_SOURCE 700
#include "helper.h"

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

extern char **environ;

typedef struct private_redis {
	pid_t pid;
	int port;
	char dir[40];
	char sock[80];
} private_redis;

static void nap(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Answers PING (not LOADING: the append-only file is read by then). */
static int answers(const char *sock)
{
	struct timeval tv = { 1, 0 };
	redisContext *c = redisConnectUnixWithTimeout(sock, tv);
	int ok = 0;
	if (c != NULL && !c->err) {
		redisReply *r = redisCommand(c, "PING");
		ok = r != NULL && r->type == REDIS_REPLY_STATUS;
		if (r != NULL)
			freeReplyObject(r);
	}
	if (c != NULL)
		redisFree(c);
	return ok;
}

/* Starts the server; the first start picks the directory and the port,
 * later ones reuse them (a restart on the same socket, port and data). */
static int pr_start(private_redis *r)
{
	char port[16];
	if (r->dir[0] == '\0') {
		snprintf(r->dir, sizeof r->dir, "/tmp/qless-restart.XXXXXX");
		if (mkdtemp(r->dir) == NULL)
			return -1;
		snprintf(r->sock, sizeof r->sock, "%s/redis.sock", r->dir);
		r->port = th_closed_port();
	}
	snprintf(port, sizeof port, "%d", r->port);
	char *argv[] = {
		"redis-server", "--port", port, "--bind", "127.0.0.1", "--unixsocket", r->sock,
		"--unixsocketperm", "700", "--dir", r->dir, "--save", "", "--appendonly", "yes",
		"--appendfsync", "always", "--daemonize", "no", "--loglevel", "warning", "--logfile", "/dev/null",
		NULL,
	};
	if (posix_spawnp(&r->pid, "redis-server", NULL, NULL, argv, environ) != 0) {
		r->pid = 0;
		return -1;
	}
	for (int i = 0; i < 400; i++) {
		if (answers(r->sock))
			return 0;
		nap(25);
	}
	return -1;
}

static void pr_stop(private_redis *r)
{
	int st;
	if (r->pid <= 0)
		return;
	kill(r->pid, SIGCONT);
	kill(r->pid, SIGTERM);
	for (int i = 0; i < 400; i++) {
		if (waitpid(r->pid, &st, WNOHANG) == r->pid) {
			r->pid = 0;
			return;
		}
		nap(25);
	}
	kill(r->pid, SIGKILL);
	waitpid(r->pid, &st, 0);
	r->pid = 0;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void pr_remove(private_redis *r)
{
	pr_stop(r);
	if (r->dir[0] != '\0')
		nftw(r->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static const char *pr_url(const private_redis *r, int tcp, char *buf, size_t size)
{
	if (tcp)
		snprintf(buf, size, "redis://127.0.0.1:%d", r->port);
	else
		snprintf(buf, size, "unix://%s", r->sock);
	return buf;
}

/* The client connects and idles; the server restarts (stopped, then
 * started again on the same socket and port with its data): the next call,
 * and the next batch after another restart, succeed on a new connection. */
static void restart_under_idle_client(int tcp)
{
	private_redis r = { 0 };
	char url[128];
	qless_client *c = NULL;
	if (pr_start(&r) != 0) {
		CU_FAIL("could not start a private redis-server");
		pr_remove(&r);
		return;
	}
	TH_OK(qless_client_new(&c, pr_url(&r, tcp, url, sizeof url), NULL));
	char *jid = c != NULL ? th_put(c, "q", "K", NULL, NULL) : NULL;
	CU_ASSERT(th_is_jid(jid));
	pr_stop(&r);
	CU_ASSERT_EQUAL(pr_start(&r), 0);
	if (c != NULL && jid != NULL) {
		qless_job *job = NULL;
		TH_OK(qless_client_get_job(&job, c, jid));
		if (job != NULL)
			TH_STREQ(qless_job_jid(job), jid);
		qless_job_free(job);
	}
	pr_stop(&r);
	CU_ASSERT_EQUAL(pr_start(&r), 0);
	if (c != NULL && jid != NULL) {
		const char *argv[] = { jid };
		qless_call calls[2] = { { "get", argv, 1, NULL, 0 }, { "get", argv, 1, NULL, 0 } };
		TH_OK(qless_client_call_batch(c, calls, 2));
		CU_ASSERT(calls[0].rc == QLESS_OK && calls[0].out != NULL && strstr(calls[0].out, jid) != NULL);
		CU_ASSERT(calls[1].rc == QLESS_OK);
		qless_free(calls[0].out);
		qless_free(calls[1].out);
	}
	qless_free(jid);
	qless_client_free(c);
	pr_remove(&r);
}

static void test_restart_unix(void)
{
	restart_under_idle_client(0);
}

static void test_restart_tcp(void)
{
	restart_under_idle_client(1);
}

/* Makes a client that must fail: QLESS_EIO naming the connect timeout.
 * The command timeout is a minute, so the old way (reads bounded by the
 * command timeout only) would show as a hang, caught by the guard, which is
 * far above the 300 ms asked for. */
static void new_client_times_out(const char *url)
{
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	qless_client *c = NULL;
	o.connect_timeout_ms = 300;
	o.command_timeout_ms = 60000;
	long long t0 = mono_ms();
	TH_RC(qless_client_new(&c, url, &o), QLESS_EIO);
	CU_ASSERT(mono_ms() - t0 < 15000);
	CU_ASSERT_PTR_NULL(c);
	if (strstr(qless_error_last_message(), "connect timeout (300 ms)") == NULL) {
		CU_FAIL("the message does not name the connect timeout");
		fprintf(stderr, "\n  %s: %s\n", url, qless_error_last_message());
	}
	CU_ASSERT_PTR_NULL(strstr(qless_error_last_message(), "s3cret"));
	qless_client_free(c);
}

/* A listening socket nobody accepts from: the kernel completes the TCP
 * handshake (the backlog), then nothing ever answers. */
static void test_silent_listener(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	char url[128];
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CU_ASSERT_FATAL(fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(fd, 16) == 0 &&
	                getsockname(fd, (struct sockaddr *)&a, &len) == 0);
	/* the protocol's first question, then AUTH, then SELECT */
	snprintf(url, sizeof url, "redis://127.0.0.1:%d", ntohs(a.sin_port));
	new_client_times_out(url);
	snprintf(url, sizeof url, "redis://:s3cret@127.0.0.1:%d/2", ntohs(a.sin_port));
	new_client_times_out(url);
	close(fd);
}

/* A stopped (SIGSTOP) redis-server: a new client fails within the connect
 * timeout, a call on a kept connection within the command timeout, each
 * saying so; continued, the server serves both again. */
static void test_stopped_server(void)
{
	private_redis r = { 0 };
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	char url[128];
	qless_client *c = NULL;
	qless_job *job = NULL;
	if (pr_start(&r) != 0) {
		CU_FAIL("could not start a private redis-server");
		pr_remove(&r);
		return;
	}
	o.connect_timeout_ms = 300;
	o.command_timeout_ms = 300;
	TH_OK(qless_client_new(&c, pr_url(&r, 0, url, sizeof url), &o));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *jid = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT(th_is_jid(jid));
	kill(r.pid, SIGSTOP);
	new_client_times_out(url);
	new_client_times_out(pr_url(&r, 1, url, sizeof url));
	long long t0 = mono_ms();
	TH_RC(qless_client_get_job(&job, c, jid ? jid : "x"), QLESS_EIO);
	CU_ASSERT(mono_ms() - t0 < 15000);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "command timeout (300 ms)"));
	qless_job_free(job);
	job = NULL;
	kill(r.pid, SIGCONT);
	if (jid != NULL) {
		TH_OK(qless_client_get_job(&job, c, jid));
		CU_ASSERT_PTR_NOT_NULL(job);
	}
	qless_job_free(job);
	qless_free(jid);
	qless_client_free(c);
	pr_remove(&r);
}

/* A listener whose Redis goes away (schedules.md §6.5): stopped while a
 * job runs, the job's settle cannot go out and listen returns QLESS_EIO
 * once 3 x interval have passed; listening again while the server is still
 * down fails the same way, at connecting. Should a listener wait for ever
 * instead, the watchdog brings the server back and stops it, so the test
 * fails rather than hangs. */
typedef struct outage {
	private_redis *r;
	qless_schedule *s;
	int performed;
	int done; /* atomic: the watchdog may leave */
} outage;

static int stop_server(qless_job *job, void *userdata)
{
	outage *o = userdata;
	o->performed++;
	pr_stop(o->r);
	return 0;
}

static void *watchdog(void *arg)
{
	outage *o = arg;
	for (int i = 0; i < 300 && !__atomic_load_n(&o->done, __ATOMIC_ACQUIRE); i++)
		nap(100);
	if (!__atomic_load_n(&o->done, __ATOMIC_ACQUIRE)) {
		pr_start(o->r);
		qless_schedule_stop(o->s);
	}
	return NULL;
}

static void test_listener_gives_up(void)
{
	private_redis r = { 0 };
	char url[128];
	qless_client *c = NULL;
	pthread_t t;
	if (pr_start(&r) != 0) {
		CU_FAIL("could not start a private redis-server");
		pr_remove(&r);
		return;
	}
	TH_OK(qless_client_new(&c, pr_url(&r, 0, url, sizeof url), NULL));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	outage o = { &r, NULL, 0, 0 };
	TH_OK(qless_schedule_new(&o.s, c, "gone"));
	char *jid = th_put(c, "gone", "K", NULL, NULL);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, watchdog, &o), 0);
	qless_listen_options lo = QLESS_LISTEN_OPTIONS_INIT;
	lo.threads = 2;
	lo.interval = 0.1;
	int rc = qless_schedule_listen(o.s, stop_server, &o, &lo);
	TH_RC(rc, QLESS_EIO);
	CU_ASSERT_EQUAL(o.performed, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "qless_schedule_listen: Redis was unreachable"));
	if (rc == QLESS_EIO) { /* else the watchdog is spent: a second run could wait for ever */
		TH_RC(qless_schedule_listen(o.s, stop_server, &o, &lo), QLESS_EIO);
		CU_ASSERT_EQUAL(o.performed, 1);
	}
	__atomic_store_n(&o.done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	qless_free(jid);
	qless_schedule_free(o.s);
	qless_client_free(c);
	pr_remove(&r);
}

CU_TestInfo restart_tests[] = {
	{ "restart_unix", test_restart_unix },
	{ "restart_tcp", test_restart_tcp },
	{ "silent_listener", test_silent_listener },
	{ "listener_gives_up", test_listener_gives_up },
	{ "stopped_server", test_stopped_server },
	CU_TEST_INFO_NULL,
};
