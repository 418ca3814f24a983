/* Library-wide functions, client options, raw calls and configuration. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_version(void)
{
	TH_STREQ(qless_version(), QLESS_VERSION);
	CU_ASSERT_EQUAL(qless_version_number(), QLESS_VERSION_NUMBER);
	CU_ASSERT_EQUAL(QLESS_VERSION_NUMBER, 10000);
	TH_STREQ(QLESS_VERSION, "1.0.0");
}

static void test_error_names(void)
{
	TH_STREQ(qless_error_name(QLESS_OK), "QLESS_OK");
	TH_STREQ(qless_error_name(QLESS_EINVAL), "QLESS_EINVAL");
	TH_STREQ(qless_error_name(QLESS_ENOTFOUND), "QLESS_ENOTFOUND");
	TH_STREQ(qless_error_name(QLESS_ELOCK), "QLESS_ELOCK");
	TH_STREQ(qless_error_name(QLESS_ESTATE), "QLESS_ESTATE");
	TH_STREQ(qless_error_name(QLESS_EPROTOCOL), "QLESS_EPROTOCOL");
	TH_STREQ(qless_error_name(QLESS_EIO), "QLESS_EIO");
	TH_STREQ(qless_error_name(QLESS_ENOMEM), "QLESS_ENOMEM");
	CU_ASSERT_PTR_NOT_NULL(qless_error_name(-12345));
	CU_ASSERT_PTR_NOT_NULL(qless_error_name(7));
}

static void test_error_state(void)
{
	qless_error_clear();
	CU_ASSERT_EQUAL(qless_error_last_code(), QLESS_OK);
	TH_STREQ(qless_error_last_message(), "");
	/* A failing call records its code and a message. */
	qless_client_options o;
	int rc = qless_client_options_init(&o, 999);
	CU_ASSERT_EQUAL(rc, QLESS_EINVAL);
	CU_ASSERT_EQUAL(qless_error_last_code(), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(qless_error_last_message());
	CU_ASSERT(strlen(qless_error_last_message()) > 0);
	qless_error_clear();
	CU_ASSERT_EQUAL(qless_error_last_code(), QLESS_OK);
	TH_STREQ(qless_error_last_message(), "");
	qless_free(NULL); /* no-op */
}

static void test_options_init(void)
{
	qless_client_options o;
	memset(&o, 0x5a, sizeof o);
	TH_OK(qless_client_options_init(&o, QLESS_CLIENT_OPTIONS_VERSION));
	CU_ASSERT_EQUAL(o.version, QLESS_CLIENT_OPTIONS_VERSION);
	CU_ASSERT_EQUAL(o.connect_timeout_ms, 0);
	CU_ASSERT_EQUAL(o.command_timeout_ms, 0);
	CU_ASSERT_PTR_NULL(o.worker_name);
	TH_RC(qless_client_options_init(NULL, QLESS_CLIENT_OPTIONS_VERSION), QLESS_EINVAL);
	TH_RC(qless_client_options_init(&o, 0), QLESS_EINVAL);

	qless_put_options p;
	memset(&p, 0x5a, sizeof p);
	TH_OK(qless_put_options_init(&p, QLESS_PUT_OPTIONS_VERSION));
	qless_put_options pi = QLESS_PUT_OPTIONS_INIT;
	CU_ASSERT_EQUAL(p.version, pi.version);
	CU_ASSERT_PTR_NULL(p.jid);
	CU_ASSERT_EQUAL(p.delay, 0);
	CU_ASSERT_EQUAL(p.has_priority, 0);
	CU_ASSERT_EQUAL(p.retries, -1);
	CU_ASSERT_PTR_NULL(p.tags);
	CU_ASSERT_EQUAL(p.ntags, 0);
	CU_ASSERT_PTR_NULL(p.depends);
	CU_ASSERT_EQUAL(p.ndepends, 0);
	CU_ASSERT_EQUAL(p.unique, 0);
	CU_ASSERT_PTR_NULL(p.unique_key);
	TH_RC(qless_put_options_init(&p, QLESS_PUT_OPTIONS_VERSION + 1), QLESS_EINVAL);
	TH_RC(qless_put_options_init(NULL, 1), QLESS_EINVAL);

	qless_complete_options c;
	memset(&c, 0x5a, sizeof c);
	TH_OK(qless_complete_options_init(&c, QLESS_COMPLETE_OPTIONS_VERSION));
	CU_ASSERT_EQUAL(c.version, QLESS_COMPLETE_OPTIONS_VERSION);
	CU_ASSERT_PTR_NULL(c.next);
	CU_ASSERT_EQUAL(c.delay, 0);
	CU_ASSERT_PTR_NULL(c.depends);
	CU_ASSERT_EQUAL(c.ndepends, 0);
	TH_RC(qless_complete_options_init(&c, 0), QLESS_EINVAL);
	TH_RC(qless_complete_options_init(NULL, 1), QLESS_EINVAL);

	qless_recur_options r;
	memset(&r, 0x5a, sizeof r);
	TH_OK(qless_recur_options_init(&r, QLESS_RECUR_OPTIONS_VERSION));
	CU_ASSERT_EQUAL(r.version, QLESS_RECUR_OPTIONS_VERSION);
	CU_ASSERT_PTR_NULL(r.jid);
	CU_ASSERT_EQUAL(r.offset, 0);
	CU_ASSERT_EQUAL(r.priority, 0);
	CU_ASSERT_EQUAL(r.retries, 0);
	CU_ASSERT_EQUAL(r.backlog, 0);
	CU_ASSERT_PTR_NULL(r.tags);
	CU_ASSERT_EQUAL(r.ntags, 0);
	CU_ASSERT_EQUAL(r.unique, 0);
	CU_ASSERT_PTR_NULL(r.unique_key);
	TH_RC(qless_recur_options_init(&r, 5), QLESS_EINVAL);
	TH_RC(qless_recur_options_init(NULL, 1), QLESS_EINVAL);

	qless_worker_options w;
	memset(&w, 0x5a, sizeof w);
	TH_OK(qless_worker_options_init(&w, QLESS_WORKER_OPTIONS_VERSION));
	CU_ASSERT_EQUAL(w.version, QLESS_WORKER_OPTIONS_VERSION);
	CU_ASSERT_EQUAL(w.order, QLESS_RESERVE_ORDERED);
	CU_ASSERT_EQUAL(w.watch_locks, 1);
	TH_RC(qless_worker_options_init(&w, 0), QLESS_EINVAL);
	TH_RC(qless_worker_options_init(NULL, 1), QLESS_EINVAL);
}

static void test_worker_name(void)
{
	/* Default: <hostname>-<pid>. */
	qless_client *c = th_client(NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char host[256] = "";
	gethostname(host, sizeof host - 1);
	char expect[320];
	snprintf(expect, sizeof expect, "%s-%ld", host, (long)getpid());
	TH_STREQ(qless_client_worker_name(c), expect);
	qless_client_free(c);

	/* Given: copied, not borrowed. */
	char name[32];
	strcpy(name, "my-worker");
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	o.worker_name = name;
	TH_OK(qless_client_new(&c, th_url(), &o));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	strcpy(name, "changed");
	TH_STREQ(qless_client_worker_name(c), "my-worker");
	CU_ASSERT_PTR_NULL(qless_client_worker_name(NULL));
	qless_client_free(c);
	qless_client_free(NULL);
}

/* A worker name that is not UTF-8 would be sent with every pop, settle and
 * heartbeat and refused there each time: the client refuses it up front. */
static void test_worker_name_utf8(void)
{
	static const char *const bad[] = {
		"w\xff",             /* never a UTF-8 byte */
		"w\xc0\xaf",         /* overlong '/' */
		"w\xe2\x82",         /* truncated sequence */
		"w\xed\xa0\x80",     /* a surrogate */
		"\x80w",             /* continuation byte first */
	};
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	qless_client *c = NULL;
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		long long before = th_commands();
		c = (qless_client *)&o; /* must come back NULL */
		o.worker_name = bad[i];
		int rc = qless_client_new(&c, th_url(), &o);
		th_refused_unsent(rc, before, "qless_client_new", "worker name");
		TH_STREQ(qless_error_last_message(), "qless_client_new: worker name is not valid UTF-8 text");
		CU_ASSERT_PTR_NULL(c);
		if (c != NULL && c != (qless_client *)&o)
			qless_client_free(c);
	}

	/* Non-ASCII UTF-8 is a name like any other: it pops and completes. */
	o.worker_name = "w\xc3\xb6rker-\xe2\x82\xac";
	TH_OK(qless_client_new(&c, th_url(), &o));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *jid = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL(jid);
	qless_job *job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_worker(job), o.worker_name);
	TH_OK(qless_job_complete(job, NULL));
	qless_job_free(job);
	qless_free(jid);
	qless_client_free(c);
}

static void test_time_offset(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	double t = qless_client_now(c);
	CU_ASSERT(fabs(t - wall_now()) < 2.0);
	TH_OK(qless_client_set_time_offset(c, 1000.5));
	t = qless_client_now(c);
	CU_ASSERT(fabs(t - (wall_now() + 1000.5)) < 2.0);
	/* The offset is what the protocol sees: put history records it. */
	char *jid = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jid);
	qless_job *job = th_get(c, jid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	CU_ASSERT_EQUAL(qless_job_history_count(job), 1);
	CU_ASSERT(fabs(qless_job_history_when(job, 0) - (wall_now() + 1000)) < 3.0);
	TH_OK(qless_client_set_time_offset(c, -50));
	CU_ASSERT(fabs(qless_client_now(c) - (wall_now() - 50)) < 2.0);
	TH_RC(qless_client_set_time_offset(NULL, 1), QLESS_EINVAL);
	qless_job_free(job);
	qless_free(jid);
	qless_client_free(c);
}

static void test_call(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *out = NULL;

	/* Bulk string. */
	const char *key[] = { "heartbeat" };
	TH_OK(qless_client_call(&out, c, "config.get", key, 1));
	TH_STREQ(out, "60");
	qless_free(out);

	/* nil. */
	out = (char *)"sentinel";
	const char *kv[] = { "foo", "bar" };
	TH_OK(qless_client_call(&out, c, "config.set", kv, 2));
	CU_ASSERT_PTR_NULL(out);

	/* Integer in decimal. */
	char *jid = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jid);
	const char *qn[] = { "q" };
	out = NULL;
	TH_OK(qless_client_call(&out, c, "length", qn, 1));
	TH_STREQ(out, "1");
	qless_free(out);

	/* Array: a JSON array of strings. */
	const char *jids[] = { jid, "unknown-jid" };
	out = NULL;
	TH_OK(qless_client_call(&out, c, "cancel", jids, 2));
	json_t *arr = th_json(out);
	CU_ASSERT_FATAL(json_is_array(arr));
	CU_ASSERT_EQUAL(json_array_size(arr), 2);
	TH_STREQ(json_string_value(json_array_get(arr, 0)), jid);
	TH_STREQ(json_string_value(json_array_get(arr, 1)), "unknown-jid");
	json_decref(arr);
	qless_free(out);
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:%s", jid), 0);

	/* No arguments at all. */
	out = NULL;
	TH_OK(qless_client_call(&out, c, "config.get", NULL, 0));
	json_t *cfg = th_json(out);
	CU_ASSERT(json_is_object(cfg));
	TH_STREQ(json_string_value(json_object_get(cfg, "foo")), "bar");
	json_decref(cfg);
	qless_free(out);

	/* Script errors: negative code with the script's message. */
	out = NULL;
	int rc = qless_client_call(&out, c, "no-such-command", NULL, 0);
	CU_ASSERT(rc == QLESS_EPROTOCOL || rc == QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "Unknown command"));
	CU_ASSERT_EQUAL(qless_error_last_code(), rc);
	const char *bad[] = { "q", "w", "notanumber" };
	rc = qless_client_call(&out, c, "pop", bad, 3);
	CU_ASSERT(rc < 0);
	CU_ASSERT(strlen(qless_error_last_message()) > 0);

	TH_RC(qless_client_call(&out, c, NULL, NULL, 0), QLESS_EINVAL);
	TH_RC(qless_client_call(&out, c, "", NULL, 0), QLESS_EINVAL);
	TH_RC(qless_client_call(&out, c, "get", NULL, 1), QLESS_EINVAL);
	TH_RC(qless_client_call(&out, NULL, "get", key, 1), QLESS_EINVAL);
	TH_RC(qless_client_call(NULL, c, "get", key, 1), QLESS_EINVAL);
	qless_free(jid);
	qless_client_free(c);
}

/* calls[i]: put of job jids[i] (class K, data {}, no delay) into queue by
 * worker w; args[i] holds its arguments. */
static void put_calls(qless_call *calls, const char *(*args)[6], int n, const char *queue,
                      const char *const *jids)
{
	for (int i = 0; i < n; i++) {
		args[i][0] = "w";
		args[i][1] = queue;
		args[i][2] = jids[i];
		args[i][3] = "K";
		args[i][4] = "{}";
		args[i][5] = "0";
		calls[i].command = "put";
		calls[i].argv = args[i];
		calls[i].argc = 6;
	}
}

/* Pipelined raw calls: every reply lands in its call; a failing call does
 * not stop the others; the first failure's code is returned. */
static void test_call_batch(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	enum { N = 60 };
	qless_call calls[N];
	char jids[N][24];
	const char *jidp[N], *args[N][6];
	for (int i = 0; i < N; i++) {
		snprintf(jids[i], sizeof jids[i], "batch-%d", i);
		jidp[i] = jids[i];
	}
	put_calls(calls, args, N, "q", jidp);
	TH_OK(qless_client_call_batch(c, calls, N));
	for (int i = 0; i < N; i++) {
		TH_OK(calls[i].rc);
		TH_STREQ(calls[i].out, jids[i]);
		qless_free(calls[i].out);
	}
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:q-work"), N);

	/* One pop of all, then completes with one bad call in the middle. */
	char *out = NULL;
	const char *pop[] = { "q", "w", "60" };
	TH_OK(qless_client_call(&out, c, "pop", pop, 3));
	qless_free(out);
	const char *comp[N][4];
	for (int i = 0; i < N; i++) {
		comp[i][0] = i == 7 ? "no-such-jid" : jids[i];
		comp[i][1] = "w";
		comp[i][2] = "q";
		comp[i][3] = "{}";
		calls[i].command = "complete";
		calls[i].argv = comp[i];
		calls[i].argc = 4;
	}
	int rc = qless_client_call_batch(c, calls, N);
	CU_ASSERT(rc < 0);
	CU_ASSERT_EQUAL(calls[7].rc, rc);
	CU_ASSERT_PTR_NULL(calls[7].out);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "no-such-jid"));
	for (int i = 0; i < N; i++) {
		if (i == 7)
			continue;
		TH_OK(calls[i].rc);
		TH_STREQ(calls[i].out, "complete");
		qless_free(calls[i].out);
	}
	CU_ASSERT_EQUAL(th_int("ZCARD ql:completed"), N - 1);

	/* After the protocol was flushed, the batch loads it again and runs. */
	freeReplyObject(th_cmd("FUNCTION FLUSH"));
	freeReplyObject(th_cmd("SCRIPT FLUSH"));
	const char *qn[] = { "q" }, *hb[] = { "heartbeat" };
	for (int i = 0; i < 3; i++) {
		calls[i].command = i == 1 ? "config.get" : "length";
		calls[i].argv = i == 1 ? hb : qn;
		calls[i].argc = 1;
	}
	TH_OK(qless_client_call_batch(c, calls, 3));
	TH_STREQ(calls[0].out, "1");
	TH_STREQ(calls[1].out, "60");
	TH_STREQ(calls[2].out, "1");
	for (int i = 0; i < 3; i++)
		qless_free(calls[i].out);

	TH_OK(qless_client_call_batch(c, NULL, 0));
	TH_RC(qless_client_call_batch(NULL, calls, 1), QLESS_EINVAL);
	calls[0].command = "";
	TH_RC(qless_client_call_batch(c, calls, 1), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(calls[0].out);
	qless_client_free(c);
}

/* Generated jids: 32 lowercase hex digits, each sorting below the one made
 * before it, so a batch of puts sharing one `now` pops in put order (the
 * work set orders equal scores by jid). */
static void test_jid_generate(void)
{
	enum { N = 40 };
	char jids[N][QLESS_JID_SIZE];
	const char *jidp[N];
	for (int i = 0; i < N; i++) {
		jidp[i] = jids[i];
		TH_OK(qless_jid_generate(jids[i]));
		CU_ASSERT_EQUAL(strlen(jids[i]), 32);
		CU_ASSERT_EQUAL(strspn(jids[i], "0123456789abcdef"), 32);
		if (i > 0)
			CU_ASSERT(strcmp(jids[i], jids[i - 1]) < 0);
	}
	TH_RC(qless_jid_generate(NULL), QLESS_EINVAL);

	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	qless_call calls[N];
	const char *args[N][6];
	put_calls(calls, args, N, "fifo", jidp);
	TH_OK(qless_client_call_batch(c, calls, N));
	for (int i = 0; i < N; i++)
		qless_free(calls[i].out);
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "fifo"));
	qless_joblist *jobs = NULL;
	TH_OK(qless_queue_pop(&jobs, q, N));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(jobs), N);
	for (int i = 0; i < N; i++)
		TH_STREQ(qless_job_jid(qless_joblist_get(jobs, (size_t)i)), jids[i]);
	qless_joblist_free(jobs);

	/* put without a jid makes one of the same kind. */
	char *jid = NULL;
	TH_OK(qless_queue_put(&jid, q, "K", "{}", NULL));
	CU_ASSERT_EQUAL(strlen(jid), 32);
	CU_ASSERT(strcmp(jid, jids[N - 1]) < 0);
	qless_free(jid);
	qless_queue_free(q);
	qless_client_free(c);
}

static void test_config(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *v = NULL;
	TH_OK(qless_client_config_get(&v, c, "heartbeat"));
	TH_STREQ(v, "60");
	qless_free(v);
	v = NULL;
	TH_OK(qless_client_config_get(&v, c, "grace-period"));
	TH_STREQ(v, "10");
	qless_free(v);
	v = (char *)"sentinel";
	TH_OK(qless_client_config_get(&v, c, "never-set"));
	CU_ASSERT_PTR_NULL(v);

	TH_OK(qless_client_config_set(c, "foo", "bar"));
	v = NULL;
	TH_OK(qless_client_config_get(&v, c, "foo"));
	TH_STREQ(v, "bar");
	qless_free(v);
	char *stored = th_str("HGET ql:config foo");
	TH_STREQ(stored, "bar");
	free(stored);

	TH_OK(qless_client_config_set(c, "heartbeat", "30"));
	char *all = NULL;
	TH_OK(qless_client_config_all(&all, c));
	json_t *o = th_json(all);
	CU_ASSERT_FATAL(json_is_object(o));
	TH_STREQ(json_string_value(json_object_get(o, "application")), "qless");
	TH_STREQ(json_string_value(json_object_get(o, "foo")), "bar");
	TH_STREQ(json_string_value(json_object_get(o, "heartbeat")), "30");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(o, "jobs-history-count")), 50000);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(o, "grace-period")), 10);
	json_decref(o);
	qless_free(all);

	TH_OK(qless_client_config_unset(c, "foo"));
	TH_OK(qless_client_config_unset(c, "heartbeat"));
	v = (char *)"sentinel";
	TH_OK(qless_client_config_get(&v, c, "foo"));
	CU_ASSERT_PTR_NULL(v);
	v = NULL;
	TH_OK(qless_client_config_get(&v, c, "heartbeat"));
	TH_STREQ(v, "60");
	qless_free(v);
	CU_ASSERT_EQUAL(th_int("HEXISTS ql:config foo"), 0);

	TH_RC(qless_client_config_get(&v, c, NULL), QLESS_EINVAL);
	TH_RC(qless_client_config_get(&v, c, ""), QLESS_EINVAL);
	TH_RC(qless_client_config_get(NULL, c, "foo"), QLESS_EINVAL);
	TH_RC(qless_client_config_get(&v, NULL, "foo"), QLESS_EINVAL);
	TH_RC(qless_client_config_set(c, NULL, "x"), QLESS_EINVAL);
	TH_RC(qless_client_config_set(c, "", "x"), QLESS_EINVAL);
	TH_RC(qless_client_config_set(c, "foo", NULL), QLESS_EINVAL);
	TH_RC(qless_client_config_set(NULL, "foo", "x"), QLESS_EINVAL);
	TH_RC(qless_client_config_unset(c, NULL), QLESS_EINVAL);
	TH_RC(qless_client_config_unset(NULL, "foo"), QLESS_EINVAL);
	TH_RC(qless_client_config_all(NULL, c), QLESS_EINVAL);
	TH_RC(qless_client_config_all(&all, NULL), QLESS_EINVAL);
	qless_client_free(c);
}

/* Handles keep the client alive: free the client first, then use them. */
static void test_refcount(void)
{
	int64_t base = qless_handle_count();
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(qless_handle_count(), base + 1);
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	char *jid = NULL;
	TH_OK(qless_queue_put(&jid, q, "K", "{}", NULL));
	qless_job *job = th_get(c, jid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	CU_ASSERT_EQUAL(qless_handle_count(), base + 3);
	qless_strlist *names = NULL;
	TH_OK(qless_client_queue_names(&names, c));
	CU_ASSERT_EQUAL(qless_handle_count(), base + 4);
	qless_strlist_free(names);
	CU_ASSERT_EQUAL(qless_handle_count(), base + 3);
	qless_client_free(c);
	int64_t len = -1;
	TH_OK(qless_queue_length(&len, q));
	CU_ASSERT_EQUAL(len, 1);
	qless_queue_free(q);
	TH_OK(qless_job_set_priority(job, 7));
	TH_OK(qless_job_refresh(job));
	CU_ASSERT_EQUAL(qless_job_priority(job), 7);
	qless_job_free(job);
	qless_free(jid);
	CU_ASSERT_EQUAL(qless_handle_count(), base);
}

CU_TestInfo client_tests[] = {
	{ "call_batch", test_call_batch },
	{ "jid_generate", test_jid_generate },
	{ "version", test_version },
	{ "error_names", test_error_names },
	{ "error_state", test_error_state },
	{ "options_init", test_options_init },
	{ "worker_name", test_worker_name },
	{ "worker_name_utf8", test_worker_name_utf8 },
	{ "time_offset", test_time_offset },
	{ "call", test_call },
	{ "config", test_config },
	{ "refcount", test_refcount },
	CU_TEST_INFO_NULL,
};
