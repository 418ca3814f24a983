#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

static int port_;
static char socket_[512];
static char url_[256];
static redisContext *raw_;

static void read_state(void)
{
	if (port_)
		return;
	const char *dir = getenv("QLESS_TEST_STATE");
	if (!dir || !*dir) {
		fprintf(stderr, "QLESS_TEST_STATE is not set (run through ctest)\n");
		exit(2);
	}
	char path[1024];
	snprintf(path, sizeof path, "%s/port", dir);
	FILE *f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &port_) != 1 || port_ <= 0) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	snprintf(path, sizeof path, "%s/socket", dir);
	f = fopen(path, "r");
	if (!f || !fgets(socket_, sizeof socket_, f)) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	socket_[strcspn(socket_, "\r\n")] = '\0';
	/* QLESS_TEST_URL: the suite's clients go there (the tls suite runs it
	 * over rediss://); raw connections stay on the plain port. */
	const char *over = getenv("QLESS_TEST_URL");
	if (over && *over)
		snprintf(url_, sizeof url_, "%s", over);
	else
		snprintf(url_, sizeof url_, "redis://127.0.0.1:%d/0", port_);
}

int th_port(void) { read_state(); return port_; }
const char *th_socket(void) { read_state(); return socket_; }
const char *th_url(void) { read_state(); return url_; }

const char *th_url_db(char *buf, size_t size, int db)
{
	snprintf(buf, size, "redis://127.0.0.1:%d/%d", th_port(), db);
	return buf;
}

redisContext *th_raw(void)
{
	if (raw_ && raw_->err) {
		redisFree(raw_);
		raw_ = NULL;
	}
	if (!raw_) {
		struct timeval tv = { 5, 0 };
		raw_ = redisConnectWithTimeout("127.0.0.1", th_port(), tv);
		if (!raw_ || raw_->err) {
			fprintf(stderr, "raw connection failed: %s\n", raw_ ? raw_->errstr : "oom");
			exit(2);
		}
	}
	return raw_;
}

static redisReply *vcmd(const char *fmt, va_list ap)
{
	return redisvCommand(th_raw(), fmt, ap);
}

redisReply *th_cmd(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	redisReply *r = vcmd(fmt, ap);
	va_end(ap);
	return r;
}

long long th_int(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	redisReply *r = vcmd(fmt, ap);
	va_end(ap);
	long long v = -999999;
	if (r && r->type == REDIS_REPLY_INTEGER)
		v = r->integer;
	if (r)
		freeReplyObject(r);
	return v;
}

char *th_str(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	redisReply *r = vcmd(fmt, ap);
	va_end(ap);
	char *s = NULL;
	if (r && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS))
		s = strdup(r->str);
	if (r)
		freeReplyObject(r);
	return s;
}

void th_flush(void)
{
	redisReply *r = th_cmd("FLUSHALL");
	if (!r || r->type != REDIS_REPLY_STATUS) {
		fprintf(stderr, "FLUSHALL failed\n");
		exit(2);
	}
	freeReplyObject(r);
}

/* Every test must free every handle it made (clients, queues, jobs, lists,
 * workers, events, ...): the library counts live handles. */
int th_handle_leaks;
static int64_t handles_before;

void th_setup(void)
{
	th_flush();
	qless_error_clear();
	handles_before = qless_handle_count();
}

void th_teardown(void)
{
	int64_t now = qless_handle_count();
	if (now != handles_before) {
		CU_pTest t = CU_get_current_test();
		fprintf(stderr, "\n  HANDLE LEAK: %s left %lld handle(s) alive\n", t ? t->pName : "?",
		        (long long)(now - handles_before));
		th_handle_leaks++;
		handles_before = now;
	}
	qless_error_clear();
}

void th_close_raw(void);
void th_close_raw(void)
{
	if (raw_)
		redisFree(raw_);
	raw_ = NULL;
}

qless_client *th_client(const char *worker)
{
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	o.worker_name = worker;
	o.connect_timeout_ms = 2000;
	o.command_timeout_ms = 5000;
	qless_client *c = NULL;
	int rc = qless_client_new(&c, th_url(), &o);
	if (rc != QLESS_OK) {
		fprintf(stderr, "\n  qless_client_new(%s): %d %s\n", th_url(), rc, qless_error_last_message());
		return NULL;
	}
	return c;
}

char *th_put(qless_client *c, const char *queue, const char *klass, const char *data,
             const qless_put_options *opts)
{
	qless_queue *q = NULL;
	char *jid = NULL;
	if (qless_queue_new(&q, c, queue) != QLESS_OK)
		return NULL;
	int rc = qless_queue_put(&jid, q, klass, data, opts);
	if (rc != QLESS_OK) {
		fprintf(stderr, "\n  put into %s: %d %s\n", queue, rc, qless_error_last_message());
		jid = NULL;
	}
	qless_queue_free(q);
	return jid;
}

qless_job *th_pop1(qless_client *c, const char *queue)
{
	qless_queue *q = NULL;
	qless_joblist *l = NULL;
	qless_job *job = NULL;
	if (qless_queue_new(&q, c, queue) != QLESS_OK)
		return NULL;
	int rc = qless_queue_pop(&l, q, 1);
	if (rc == QLESS_OK && qless_joblist_size(l) > 0)
		job = qless_joblist_take(l, 0);
	else if (rc != QLESS_OK)
		fprintf(stderr, "\n  pop from %s: %d %s\n", queue, rc, qless_error_last_message());
	qless_joblist_free(l);
	qless_queue_free(q);
	return job;
}

qless_job *th_get(qless_client *c, const char *jid)
{
	qless_job *job = NULL;
	if (qless_client_get_job(&job, c, jid) != QLESS_OK)
		return NULL;
	return job;
}

int th_is_jid(const char *s)
{
	if (!s || strlen(s) != 32)
		return 0;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s) || isupper((unsigned char)*s))
			return 0;
	return 1;
}

int th_strlist_has(const qless_strlist *list, const char *s, size_t *at)
{
	size_t n = qless_strlist_size(list);
	for (size_t i = 0; i < n; i++) {
		const char *v = qless_strlist_get(list, i);
		if (v && strcmp(v, s) == 0) {
			if (at)
				*at = i;
			return 1;
		}
	}
	return 0;
}

json_t *th_json(const char *text)
{
	if (!text)
		return NULL;
	json_error_t err;
	return json_loads(text, JSON_DECODE_ANY, &err);
}

int th_closed_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	socklen_t len = sizeof a;
	int port = 1;
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

long long th_commands(void)
{
	char *info = th_str("INFO stats");
	const char *p = info ? strstr(info, "total_commands_processed:") : NULL;
	long long n = p ? atoll(p + strlen("total_commands_processed:")) : -1;
	free(info);
	return n;
}

void th_clock_at(qless_client *c, double t)
{
	TH_OK(qless_client_set_time_offset(c, 0));
	TH_OK(qless_client_set_time_offset(c, t - qless_client_now(c)));
}

void th_refused_unsent(int rc, long long before, const char *func, const char *arg)
{
	const char *m = qless_error_last_message();
	long long after;
	TH_RC(rc, QLESS_EINVAL);
	if (strstr(m, func) == NULL || strstr(m, arg) == NULL)
		fprintf(stderr, "\n  message \"%s\" should name %s and %s\n", m, func, arg);
	CU_ASSERT(strstr(m, func) != NULL && strstr(m, arg) != NULL);
	after = th_commands();
	if (after != before + 1)
		fprintf(stderr, "\n  %s (%s) sent %lld commands\n", func, arg, after - before - 1);
	CU_ASSERT_EQUAL(after, before + 1);
}
