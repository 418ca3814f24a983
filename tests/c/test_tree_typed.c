/* The typed results of job trees and schedules (qless/tree.h, schedule.h):
 * each accessor against what the server holds, and the one schedule add. */
#include "helper.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

/* Tree job "t" (alias "nightly") with children "c" (named "kid") and "a"
 * (named "alpha"); t has input ports "in1" (default 7) and "*", output
 * port "out" linked to /x/b and /x/a; two values wait in "in1"; its store
 * holds b=[1,2] and a="x". */
static void put_tree(qless_client *c)
{
	qless_queue *q = NULL;
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	const char *aliases[] = { "nightly" };
	const char *chans[] = { "/x/b", "/x/a" };
	const char *values[] = { "1", "{\"v\":2}" };

	TH_OK(qless_queue_new(&q, c, "q"));
	o.jid = "t";
	o.tree = 1;
	o.aliases = aliases;
	o.naliases = 1;
	o.inports = "{\"in1\":{\"default\":7},\"*\":{}}";
	o.outports = "{\"out\":{}}";
	TH_OK(qless_queue_put(NULL, q, "K", NULL, &o));
	qless_put_options_init(&o, QLESS_PUT_OPTIONS_VERSION);
	o.jid = "c";
	o.parent = "t";
	o.name = "kid";
	TH_OK(qless_queue_put(NULL, q, "K", NULL, &o));
	o.jid = "a";
	o.name = "alpha";
	TH_OK(qless_queue_put(NULL, q, "K", NULL, &o));
	TH_OK(qless_port_connect(NULL, c, "t", QLESS_PORT_OUT, "out", chans, 2));
	TH_OK(qless_port_write(c, "t", QLESS_PORT_IN, "in1", values, 2));
	TH_OK(qless_state_set(c, "t", "b", "[1,2]"));
	TH_OK(qless_state_set(c, "t", "a", "\"x\""));
	qless_queue_free(q);
}

static void test_tree_record(void)
{
	qless_client *c = th_client("w");
	qless_tree *t = NULL;
	const qless_store *s;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_tree(c);
	TH_OK(qless_tree_get(&t, c, "t"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	TH_STREQ(qless_tree_jid(t), "t");
	TH_STREQ(qless_tree_klass(t), "K");
	TH_STREQ(qless_tree_queue(t), "q");
	TH_STREQ(qless_tree_status(t), "waiting");
	CU_ASSERT_PTR_NULL(qless_tree_parent(t));
	CU_ASSERT_PTR_NULL(qless_tree_name(t));
	TH_STREQ(qless_tree_created_by(t), "w");
	CU_ASSERT_EQUAL(qless_tree_started(t), 0);
	CU_ASSERT_EQUAL(qless_tree_runs(t), 0);
	/* children sorted by name */
	CU_ASSERT_EQUAL(qless_tree_child_count(t), 2);
	TH_STREQ(qless_tree_child_name(t, 0), "alpha");
	TH_STREQ(qless_tree_child_jid(t, 0), "a");
	TH_STREQ(qless_tree_child_name(t, 1), "kid");
	TH_STREQ(qless_tree_child(t, "kid"), "c");
	CU_ASSERT_PTR_NULL(qless_tree_child(t, "nobody"));
	CU_ASSERT_PTR_NULL(qless_tree_child_name(t, 2));
	CU_ASSERT_EQUAL(qless_tree_alias_count(t), 1);
	TH_STREQ(qless_tree_alias(t, 0), "nightly");
	/* ports sorted by name, "*" first; sizes, defaults, channels sorted */
	CU_ASSERT_EQUAL_FATAL(qless_tree_port_count(t, QLESS_PORT_IN), 2);
	TH_STREQ(qless_tree_port_name(t, QLESS_PORT_IN, 0), "*");
	CU_ASSERT_EQUAL(qless_tree_port_size(t, QLESS_PORT_IN, 0), -1);
	TH_STREQ(qless_tree_port_name(t, QLESS_PORT_IN, 1), "in1");
	CU_ASSERT_EQUAL(qless_tree_port_size(t, QLESS_PORT_IN, 1), 2);
	TH_STREQ(qless_tree_port_default(t, QLESS_PORT_IN, 1), "7");
	CU_ASSERT_PTR_NULL(qless_tree_port_default(t, QLESS_PORT_IN, 0));
	CU_ASSERT_EQUAL_FATAL(qless_tree_port_count(t, QLESS_PORT_OUT), 1);
	CU_ASSERT_EQUAL(qless_tree_port_size(t, QLESS_PORT_OUT, 0), 0);
	CU_ASSERT_EQUAL_FATAL(qless_tree_port_channel_count(t, QLESS_PORT_OUT, 0), 2);
	TH_STREQ(qless_tree_port_channel(t, QLESS_PORT_OUT, 0, 0), "/x/a");
	TH_STREQ(qless_tree_port_channel(t, QLESS_PORT_OUT, 0, 1), "/x/b");
	CU_ASSERT_EQUAL(qless_tree_port_count(t, (qless_port_dir)7), 0);
	/* the store read with it, sorted */
	s = qless_tree_store(t);
	CU_ASSERT_EQUAL_FATAL(qless_store_size(s), 2);
	TH_STREQ(qless_store_key(s, 0), "a");
	TH_STREQ(qless_store_value(s, 0), "\"x\"");
	TH_STREQ(qless_store_find(s, "b"), "[1,2]");
	CU_ASSERT_PTR_NULL(qless_store_find(s, "zz"));
	/* JSON stays one accessor away */
	json_t *j = th_json(qless_tree_json(t));
	TH_STREQ(json_string_value(json_object_get(j, "jid")), "t");
	json_decref(j);
	qless_tree_free(t);

	TH_OK(qless_tree_get(&t, c, "c"));
	TH_STREQ(qless_tree_parent(t), "t");
	TH_STREQ(qless_tree_name(t), "kid");
	CU_ASSERT_EQUAL(qless_tree_child_count(t), 0);
	CU_ASSERT_EQUAL(qless_store_size(qless_tree_store(t)), 0);
	TH_STREQ(qless_store_json(qless_tree_store(t)), "{}");
	qless_tree_free(t);
	qless_client_free(c);
}

static void test_tree_errors(void)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	qless_tree *t = (qless_tree *)1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_RC(qless_tree_get(&t, c, "nope"), QLESS_ENOTFOUND);
	CU_ASSERT_PTR_NULL(t);
	TH_RC(qless_tree_get(NULL, c, "t"), QLESS_EINVAL);
	TH_RC(qless_tree_get(&t, c, ""), QLESS_EINVAL);
	TH_OK(qless_queue_new(&q, c, "q"));
	char *jid = th_put(c, "q", "K", NULL, NULL);   /* a plain job */
	TH_RC(qless_tree_get(&t, c, jid), QLESS_ESTATE);
	qless_free(jid);
	/* the accessors of nothing are nothing */
	CU_ASSERT_PTR_NULL(qless_tree_jid(NULL));
	CU_ASSERT_EQUAL(qless_tree_child_count(NULL), 0);
	CU_ASSERT_PTR_NULL(qless_store_key(NULL, 0));
	qless_tree_free(NULL);
	qless_queue_free(q);
	qless_client_free(c);
}

static void test_values_subscribers(void)
{
	qless_client *c = th_client("w");
	qless_strlist *l = NULL;
	qless_subscribers *s = NULL;
	qless_store *st = NULL;
	char *jid = NULL;
	const char *chans[] = { "/news" };
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_tree(c);
	TH_OK(qless_port_peek_values(&l, c, "t", QLESS_PORT_IN, "in1", 10));
	CU_ASSERT_EQUAL_FATAL(qless_strlist_size(l), 2);
	TH_STREQ(qless_strlist_get(l, 0), "1");
	TH_STREQ(qless_strlist_get(l, 1), "{\"v\":2}");
	qless_strlist_free(l);
	TH_OK(qless_port_read_values(&l, c, "t", QLESS_PORT_IN, "in1", 1));
	CU_ASSERT_EQUAL(qless_strlist_size(l), 1);
	TH_STREQ(qless_strlist_get(l, 0), "1");
	qless_strlist_free(l);
	TH_OK(qless_port_read_values(&l, c, "t", QLESS_PORT_IN, "in1", 5));
	CU_ASSERT_EQUAL(qless_strlist_size(l), 1);
	qless_strlist_free(l);
	/* empty with a default: the default */
	TH_OK(qless_port_read_values(&l, c, "t", QLESS_PORT_IN, "in1", 5));
	CU_ASSERT_EQUAL(qless_strlist_size(l), 1);
	TH_STREQ(qless_strlist_get(l, 0), "7");
	qless_strlist_free(l);
	TH_RC(qless_port_read_values(&l, c, "t", QLESS_PORT_IN, "in1", 0), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(l);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "qless_port_read_values"));
	TH_OK(qless_port_read_values(&l, c, "t", QLESS_PORT_IN, "nope", 1));   /* "*" holds any name */
	CU_ASSERT_EQUAL(qless_strlist_size(l), 0);
	qless_strlist_free(l);

	TH_OK(qless_subscribers_get(&s, c, "/news"));
	CU_ASSERT_EQUAL(qless_subscribers_size(s), 0);
	qless_subscribers_free(s);
	TH_OK(qless_port_define(c, "c", QLESS_PORT_IN, "{\"inbox\":{}}"));
	TH_OK(qless_port_connect(NULL, c, "c", QLESS_PORT_IN, "inbox", chans, 1));
	TH_OK(qless_port_connect(NULL, c, "t", QLESS_PORT_IN, "in1", chans, 1));
	TH_OK(qless_subscribers_get(&s, c, "/news"));
	CU_ASSERT_EQUAL_FATAL(qless_subscribers_size(s), 2);
	TH_STREQ(qless_subscribers_jid(s, 0), "c");
	TH_STREQ(qless_subscribers_port(s, 0), "inbox");
	TH_STREQ(qless_subscribers_jid(s, 1), "t");
	TH_STREQ(qless_subscribers_port(s, 1), "in1");
	CU_ASSERT_PTR_NULL(qless_subscribers_jid(s, 2));
	qless_subscribers_free(s);
	TH_RC(qless_subscribers_get(&s, c, ""), QLESS_EINVAL);

	TH_OK(qless_store_get(&st, c, "t"));
	CU_ASSERT_EQUAL(qless_store_size(st), 2);
	qless_store_free(st);

	TH_OK(qless_alias_resolve(&jid, c, "nightly"));
	TH_STREQ(jid, "t");
	qless_free(jid);
	TH_OK(qless_alias_resolve(&jid, c, "nobody"));
	CU_ASSERT_PTR_NULL(jid);
	qless_client_free(c);
}

/* One add: exactly one of the time fields, each choice reaching its add. */
static void test_schedule_put(void)
{
	qless_client *c = th_client("w");
	qless_schedule *s = NULL;
	qless_schedule_add_options o = QLESS_SCHEDULE_ADD_OPTIONS_INIT;
	qless_entries *e = NULL;
	char *jid = NULL;
	int inserted = 0;
	size_t i, seen = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_OK(qless_schedule_new(&s, c, "sq"));

	TH_RC(qless_schedule_put(&jid, &inserted, s, "K", NULL, &o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "given: none"));
	o.has_in = 1;
	o.in_seconds = 60;
	o.cron = "0 9 * * *";
	TH_RC(qless_schedule_put(&jid, &inserted, s, "K", NULL, &o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "given: in, cron"));
	CU_ASSERT_EQUAL(th_int("EXISTS ql:q:sq-scheduled"), 0);
	TH_RC(qless_schedule_put(&jid, &inserted, s, "K", NULL, NULL), QLESS_EINVAL);

	o.cron = NULL;   /* in 60 s */
	TH_OK(qless_schedule_put(&jid, &inserted, s, "K", "{\"n\":1}", &o));
	CU_ASSERT(inserted);
	qless_free(jid);
	TH_OK(qless_schedule_put(&jid, &inserted, s, "K", "{\"n\":1}", &o));
	CU_ASSERT(!inserted);   /* unique by default */
	qless_free(jid);
	qless_schedule_add_options_init(&o, QLESS_SCHEDULE_ADD_OPTIONS_VERSION);
	o.cron = "0 9 * * *";
	TH_OK(qless_schedule_put(&jid, &inserted, s, "Cron", NULL, &o));
	qless_free(jid);
	qless_schedule_add_options_init(&o, QLESS_SCHEDULE_ADD_OPTIONS_VERSION);
	o.every_text = "2 hours";
	TH_OK(qless_schedule_put(NULL, NULL, s, "Every", NULL, &o));
	qless_schedule_add_options_init(&o, QLESS_SCHEDULE_ADD_OPTIONS_VERSION);
	o.at_text = "nonsense o'clock";
	TH_RC(qless_schedule_put(NULL, NULL, s, "At", NULL, &o), QLESS_EINVAL);
	/* a time more than a minute past is refused by put as by add_at */
	qless_schedule_add_options_init(&o, QLESS_SCHEDULE_ADD_OPTIONS_VERSION);
	o.has_at = 1;
	o.at = 1000000000;
	TH_RC(qless_schedule_put(NULL, NULL, s, "At", NULL, &o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "when 2001-09-09T01:46:40Z is in the past"));

	TH_OK(qless_entries_get(&e, s));
	CU_ASSERT_EQUAL_FATAL(qless_entries_size(e), 3);
	for (i = 0; i < qless_entries_size(e); i++) {
		const char *k = qless_entries_klass(e, i);
		if (strcmp(k, "Cron") == 0) {
			CU_ASSERT_EQUAL(qless_entries_kind(e, i), QLESS_ENTRY_CRON);
			TH_STREQ(qless_entries_kind_name(e, i), "cron");
			TH_STREQ(qless_entries_cron(e, i), "0 9 * * *");
			CU_ASSERT_PTR_NOT_NULL(qless_entries_description(e, i));
			seen |= 1;
		} else if (strcmp(k, "Every") == 0) {
			CU_ASSERT_EQUAL(qless_entries_kind(e, i), QLESS_ENTRY_INTERVAL);
			CU_ASSERT_EQUAL(qless_entries_interval(e, i), 7200);
			TH_STREQ(qless_entries_description(e, i), "every 7200 seconds");
			CU_ASSERT_PTR_NULL(qless_entries_cron(e, i));
			seen |= 2;
		} else {
			double times_n;
			double *times = NULL;
			size_t n = 0;
			CU_ASSERT_EQUAL(qless_entries_kind(e, i), QLESS_ENTRY_AT);
			CU_ASSERT(fabs(qless_entries_next(e, i) - (qless_client_now(c) + 60)) < 5);
			CU_ASSERT_EQUAL(strncmp(qless_entries_description(e, i), "once at ", 8), 0);
			TH_OK(qless_schedule_next_times(&times, &n, s, qless_entries_jid(e, i), 3));
			CU_ASSERT_EQUAL_FATAL(n, 1);
			times_n = times[0];
			CU_ASSERT_EQUAL(times_n, qless_entries_next(e, i));
			qless_free(times);
			seen |= 4;
		}
		CU_ASSERT_PTR_NOT_NULL(qless_entries_json(e, i));
	}
	CU_ASSERT_EQUAL(seen, 7);
	for (i = 0; i < qless_entries_size(e); i++) {
		double *times = NULL;
		size_t n = 0;
		if (qless_entries_kind(e, i) != QLESS_ENTRY_CRON)
			continue;
		TH_OK(qless_schedule_next_times(&times, &n, s, qless_entries_jid(e, i), 3));
		CU_ASSERT_EQUAL_FATAL(n, 3);
		CU_ASSERT(times[1] - times[0] == 86400);
		qless_free(times);
	}
	qless_entries_free(e);
	{
		double *times = NULL;
		size_t n = 0;
		TH_RC(qless_schedule_next_times(&times, &n, s, "nope", 3), QLESS_ENOTFOUND);
		TH_RC(qless_schedule_next_times(&times, &n, s, "nope", 0), QLESS_EINVAL);
	}
	qless_schedule_free(s);
	qless_client_free(c);
}

/* A bound port or channel keeps its client: usable after the caller's free. */
static void test_bound_handles(void)
{
	qless_client *c = th_client("w");
	qless_port *p = NULL;
	qless_channel *ch = NULL;
	qless_strlist *l = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_tree(c);
	TH_RC(qless_port_open(&p, c, "t", (qless_port_dir)3, "in1"), QLESS_EINVAL);
	TH_RC(qless_port_open(&p, c, "", QLESS_PORT_IN, "in1"), QLESS_EINVAL);
	TH_RC(qless_channel_open(&ch, c, ""), QLESS_EINVAL);
	TH_OK(qless_port_open(&p, c, "t", QLESS_PORT_IN, "in1"));
	TH_OK(qless_channel_open(&ch, c, "/x"));
	qless_client_free(c);
	TH_STREQ(qless_port_jid(p), "t");
	TH_STREQ(qless_port_name(p), "in1");
	CU_ASSERT_EQUAL(qless_port_direction(p), QLESS_PORT_IN);
	TH_STREQ(qless_channel_name(ch), "/x");
	TH_OK(qless_port_peek_values(&l, qless_port_client(p), qless_port_jid(p), qless_port_direction(p),
	                             qless_port_name(p), 5));
	CU_ASSERT_EQUAL(qless_strlist_size(l), 2);
	qless_strlist_free(l);
	TH_OK(qless_channel_publish(NULL, qless_channel_client(ch), qless_channel_name(ch), "1", NULL));
	qless_port_free(p);
	qless_channel_free(ch);
}

/* ---- the typed listen of a language's run ---- */

static int perform_nothing(qless_job *job, void *userdata)
{
	(void)job;
	(void)userdata;
	return 0;
}

typedef struct runs {
	int calls;
	char klass[64];
} runs;

static void run_perform(void *ctx, qless_job *job, qless_result *result)
{
	runs *r = ctx;
	(void)result;
	__atomic_add_fetch(&r->calls, 1, __ATOMIC_SEQ_CST);
	snprintf(r->klass, sizeof r->klass, "%s", qless_job_klass(job));
}

static void quiet(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
}

static void test_listen_run(void)
{
	qless_client *c = th_client("lsn");
	qless_schedule *s = NULL;
	qless_worker_run_options run = QLESS_WORKER_RUN_OPTIONS_INIT;
	qless_listen_options o = QLESS_LISTEN_OPTIONS_INIT;
	const char *allow[] = { "app.*" };
	runs r = { 0, "" };
	int i;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_OK(qless_schedule_new(&s, c, "lq"));
	/* other.Job pops first: the allow-list fails it (no perform; one of max_jobs) */
	TH_OK(qless_schedule_add_now(NULL, NULL, s, "other.Job", "{\"o\":1}", NULL));
	for (i = 0; i < 3; i++) {
		char data[32];
		snprintf(data, sizeof data, "{\"i\":%d}", i);
		TH_OK(qless_schedule_add_now(NULL, NULL, s, "app.Job", data, NULL));
	}
	run.perform = run_perform;
	run.ctx = &r;
	run.log = quiet;
	run.resolves_classes = 1;

	/* a run that resolves classes needs an allow-list: nothing runs without one */
	unsetenv("QLESS_WORKER_ALLOW");
	TH_RC(qless_schedule_listen_run(s, &run, &o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "no job classes are allowed"));
	o.pool = (qless_pool_kind)9;
	TH_RC(qless_schedule_listen_run(s, &run, &o), QLESS_EINVAL);
	o.pool = QLESS_POOL_PROCESSES;
	TH_RC(qless_schedule_listen(s, NULL, NULL, &o), QLESS_EINVAL);   /* perform first */
	CU_ASSERT_EQUAL(r.calls, 0);
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:lq-work"), 4);

	/* typed options, no command line: 2 threads, the allow-list, 4 jobs */
	qless_listen_options_init(&o, QLESS_LISTEN_OPTIONS_VERSION);
	o.threads = 2;
	o.interval = 0.05;
	o.max_jobs = 4;
	o.allow = allow;
	o.nallow = 1;
	TH_OK(qless_schedule_listen_run(s, &run, &o));
	CU_ASSERT_EQUAL(r.calls, 3);
	TH_STREQ(r.klass, "app.Job");
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:lq-work"), 0);
	CU_ASSERT_EQUAL(th_int("LLEN ql:f:qless.ClassNotAllowed"), 1);   /* other.Job failed, not run */

	/* $QLESS_WORKER_ALLOW stands in for a missing allow-list */
	TH_OK(qless_schedule_add_now(NULL, NULL, s, "app.Job", "{\"n\":2}", NULL));
	setenv("QLESS_WORKER_ALLOW", " zz.* , app.Job ", 1);
	o.allow = NULL;
	o.nallow = 0;
	o.max_jobs = 1;
	TH_OK(qless_schedule_listen_run(s, &run, &o));
	CU_ASSERT_EQUAL(r.calls, 4);
	unsetenv("QLESS_WORKER_ALLOW");
	qless_schedule_free(s);
	qless_client_free(c);
}

/* A version-1 listen options struct is read only that far (ASan watches a
 * heap block of exactly its size). */
static void test_listen_options_v1(void)
{
	qless_client *c = th_client("lsn");
	qless_schedule *s = NULL;
	struct listen_v1 { unsigned int version; int threads; double interval; int64_t max_jobs; } *o = malloc(sizeof *o);
	CU_ASSERT_FATAL(c != NULL && o != NULL);
	CU_ASSERT_EQUAL(sizeof *o, offsetof(qless_listen_options, pool));
	TH_OK(qless_listen_options_init((qless_listen_options *)o, 1));
	o->max_jobs = -1;
	TH_OK(qless_schedule_new(&s, c, "lq"));
	TH_RC(qless_schedule_listen(s, perform_nothing, NULL, (qless_listen_options *)o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "max_jobs"));
	free(o);
	qless_schedule_free(s);
	qless_client_free(c);
}

CU_TestInfo tree_typed_tests[] = {
	{ "listen_run", test_listen_run },
	{ "listen_options_v1", test_listen_options_v1 },
	{ "bound_handles", test_bound_handles },
	{ "tree_record", test_tree_record },
	{ "tree_errors", test_tree_errors },
	{ "values_subscribers", test_values_subscribers },
	{ "schedule_put", test_schedule_put },
	CU_TEST_INFO_NULL,
};
