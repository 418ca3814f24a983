/* Queues: put, pop, peek, counts, pause, names, concurrency, stats. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <math.h>
#include <stdlib.h>

static qless_client *C;
static qless_queue *Q;

static void open_q(const char *name)
{
	C = th_client("worker-1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(C);
	Q = NULL;
	TH_OK(qless_queue_new(&Q, C, name));
	CU_ASSERT_PTR_NOT_NULL_FATAL(Q);
}

static void close_q(void)
{
	qless_queue_free(Q);
	qless_client_free(C);
	Q = NULL;
	C = NULL;
}

static void test_new_and_name(void)
{
	open_q("my-queue");
	TH_STREQ(qless_queue_name(Q), "my-queue");
	CU_ASSERT_PTR_NULL(qless_queue_name(NULL));
	/* Making a queue does no I/O: nothing appears in Redis. */
	CU_ASSERT_EQUAL(th_int("DBSIZE"), 0);
	qless_queue *q2 = NULL;
	TH_RC(qless_queue_new(&q2, C, NULL), QLESS_EINVAL);
	TH_RC(qless_queue_new(&q2, C, ""), QLESS_EINVAL);
	TH_RC(qless_queue_new(&q2, NULL, "x"), QLESS_EINVAL);
	TH_RC(qless_queue_new(NULL, C, "x"), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(q2);
	qless_queue_free(NULL);
	close_q();
}

static void test_put_basic(void)
{
	open_q("q");
	char *jid = NULL;
	TH_OK(qless_queue_put(&jid, Q, "My.Klass", "{\"foo\": \"bar\"}", NULL));
	CU_ASSERT(th_is_jid(jid));
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:%s", jid), 1);
	char *data = th_str("HGET ql:j:%s data", jid);
	TH_STREQ(data, "{\"foo\": \"bar\"}"); /* verbatim */
	free(data);
	char *state = th_str("HGET ql:j:%s state", jid);
	TH_STREQ(state, "waiting");
	free(state);
	/* Two puts give two different jids. */
	char *jid2 = NULL;
	TH_OK(qless_queue_put(&jid2, Q, "K", NULL, NULL));
	CU_ASSERT(th_is_jid(jid2));
	CU_ASSERT(jid && jid2 && strcmp(jid, jid2) != 0);
	data = th_str("HGET ql:j:%s data", jid2);
	TH_STREQ(data, "{}"); /* NULL data means {} */
	free(data);
	/* out_jid may be NULL. */
	TH_OK(qless_queue_put(NULL, Q, "K", "[]", NULL));
	int64_t n = -1;
	TH_OK(qless_queue_length(&n, Q));
	CU_ASSERT_EQUAL(n, 3);
	qless_free(jid);
	qless_free(jid2);
	close_q();
}

static void test_put_invalid(void)
{
	open_q("q");
	char *jid = NULL;
	TH_RC(qless_queue_put(&jid, Q, "K", "{bad json", NULL), QLESS_EINVAL);
	TH_RC(qless_queue_put(&jid, Q, "K", "{\"a\":1", NULL), QLESS_EINVAL);
	TH_RC(qless_queue_put(&jid, Q, "K", "", NULL), QLESS_EINVAL);
	TH_RC(qless_queue_put(&jid, Q, NULL, "{}", NULL), QLESS_EINVAL);
	TH_RC(qless_queue_put(&jid, Q, "", "{}", NULL), QLESS_EINVAL);
	TH_RC(qless_queue_put(&jid, NULL, "K", "{}", NULL), QLESS_EINVAL);
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.version = 77;
	TH_RC(qless_queue_put(&jid, Q, "K", "{}", &o), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(jid);
	CU_ASSERT(strlen(qless_error_last_message()) > 0);
	/* Refused before any I/O: nothing was written. */
	CU_ASSERT_EQUAL(th_int("DBSIZE"), 0);
	close_q();
}

static void test_put_options(void)
{
	open_q("q");
	const char *tags[] = { "red", "blue" };
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.jid = "my-own-jid";
	o.has_priority = 1;
	o.priority = 12.5;
	o.retries = 2;
	o.tags = tags;
	o.ntags = 2;
	char *jid = NULL;
	TH_OK(qless_queue_put(&jid, Q, "K", "{\"x\":1}", &o));
	TH_STREQ(jid, "my-own-jid");
	qless_job *job = th_get(C, "my-own-jid");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	CU_ASSERT_EQUAL(qless_job_priority(job), 12.5);
	CU_ASSERT_EQUAL(qless_job_retries(job), 2);
	CU_ASSERT_EQUAL(qless_job_remaining(job), 2);
	CU_ASSERT_EQUAL(qless_job_tag_count(job), 2);
	TH_STREQ(qless_job_tag(job, 0), "red");
	TH_STREQ(qless_job_tag(job, 1), "blue");
	TH_STREQ(qless_job_state(job), "waiting");
	qless_job_free(job);

	/* Re-put without options keeps priority, retries and tags. */
	qless_put_options keep = QLESS_PUT_OPTIONS_INIT;
	keep.jid = "my-own-jid";
	TH_OK(qless_queue_put(NULL, Q, "K", "{}", &keep));
	job = th_get(C, "my-own-jid");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	CU_ASSERT_EQUAL(qless_job_priority(job), 12.5);
	CU_ASSERT_EQUAL(qless_job_retries(job), 2);
	CU_ASSERT_EQUAL(qless_job_tag_count(job), 2);
	CU_ASSERT_EQUAL(qless_job_history_count(job), 2);
	qless_job_free(job);

	/* Delay: scheduled. */
	qless_put_options d = QLESS_PUT_OPTIONS_INIT;
	d.delay = 3600;
	char *later = NULL;
	TH_OK(qless_queue_put(&later, Q, "K", NULL, &d));
	job = th_get(C, later);
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_state(job), "scheduled");
	qless_job_free(job);
	qless_joblist *l = NULL;
	TH_OK(qless_queue_pop(&l, Q, 10));
	CU_ASSERT_EQUAL(qless_joblist_size(l), 1); /* only my-own-jid */
	if (qless_joblist_size(l) == 1)
		TH_STREQ(qless_job_jid(qless_joblist_get(l, 0)), "my-own-jid");
	qless_joblist_free(l);
	qless_free(jid);
	qless_free(later);
	close_q();
}

static void test_pop_peek_order(void)
{
	open_q("q");
	double prios[] = { 0, 10, 5, -3 };
	char *jids[4];
	for (int i = 0; i < 4; i++) {
		qless_put_options o = QLESS_PUT_OPTIONS_INIT;
		o.has_priority = 1;
		o.priority = prios[i];
		jids[i] = NULL;
		TH_OK(qless_queue_put(&jids[i], Q, "K", NULL, &o));
	}
	qless_joblist *l = NULL;
	TH_OK(qless_queue_peek(&l, Q, 10));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(l), 4);
	int order[] = { 1, 2, 0, 3 };
	for (int i = 0; i < 4; i++) {
		TH_STREQ(qless_job_jid(qless_joblist_get(l, i)), jids[order[i]]);
		TH_STREQ(qless_job_state(qless_joblist_get(l, i)), "waiting");
		TH_STREQ(qless_job_worker(qless_joblist_get(l, i)), "");
	}
	CU_ASSERT_PTR_NULL(qless_joblist_get(l, 4));
	qless_joblist_free(l);

	l = NULL;
	TH_OK(qless_queue_pop(&l, Q, 2));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(l), 2);
	TH_STREQ(qless_job_jid(qless_joblist_get(l, 0)), jids[1]);
	TH_STREQ(qless_job_jid(qless_joblist_get(l, 1)), jids[2]);
	qless_job *j0 = qless_joblist_get(l, 0);
	TH_STREQ(qless_job_state(j0), "running");
	TH_STREQ(qless_job_worker(j0), "worker-1");
	TH_STREQ(qless_job_queue(j0), "q");
	CU_ASSERT(fabs(qless_job_expires(j0) - (qless_client_now(C) + 60)) < 3);
	/* take transfers ownership; the slot then holds NULL. */
	qless_job *taken = qless_joblist_take(l, 1);
	CU_ASSERT_PTR_NOT_NULL(taken);
	CU_ASSERT_PTR_NULL(qless_joblist_get(l, 1));
	CU_ASSERT_PTR_NULL(qless_joblist_take(l, 1));
	CU_ASSERT_PTR_NULL(qless_joblist_take(l, 9));
	qless_joblist_free(l);
	TH_STREQ(qless_job_jid(taken), jids[2]);
	qless_job_free(taken);

	l = NULL;
	TH_OK(qless_queue_pop(&l, Q, 10));
	CU_ASSERT_EQUAL(qless_joblist_size(l), 2);
	qless_joblist_free(l);
	l = NULL;
	TH_OK(qless_queue_pop(&l, Q, 10));
	CU_ASSERT_PTR_NOT_NULL(l);
	CU_ASSERT_EQUAL(qless_joblist_size(l), 0);
	qless_joblist_free(l);
	qless_joblist_free(NULL);
	CU_ASSERT_EQUAL(qless_joblist_size(NULL), 0);

	TH_RC(qless_queue_pop(NULL, Q, 1), QLESS_EINVAL);
	TH_RC(qless_queue_pop(&l, NULL, 1), QLESS_EINVAL);
	TH_RC(qless_queue_peek(NULL, Q, 1), QLESS_EINVAL);
	TH_RC(qless_queue_peek(&l, NULL, 1), QLESS_EINVAL);
	for (int i = 0; i < 4; i++)
		qless_free(jids[i]);
	close_q();
}

static void test_counts_length(void)
{
	open_q("q");
	char *a = NULL, *b = NULL;
	TH_OK(qless_queue_put(&a, Q, "K", NULL, NULL));           /* will run */
	TH_OK(qless_queue_put(&b, Q, "K", NULL, NULL));           /* waiting */
	qless_put_options d = QLESS_PUT_OPTIONS_INIT;
	d.delay = 1000;
	TH_OK(qless_queue_put(NULL, Q, "K", NULL, &d));           /* scheduled */
	qless_put_options dep = QLESS_PUT_OPTIONS_INIT;
	const char *on[] = { b };
	dep.depends = on;
	dep.ndepends = 1;
	TH_OK(qless_queue_put(NULL, Q, "K", NULL, &dep));         /* depends */
	qless_recur_options ro = QLESS_RECUR_OPTIONS_INIT;
	ro.offset = 1000;
	TH_OK(qless_queue_recur(NULL, Q, "K", NULL, 60, &ro));    /* recurring */
	qless_job *job = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_jid(job), a);

	qless_queue_counts qc = QLESS_QUEUE_COUNTS_INIT;
	TH_OK(qless_queue_counts_get(&qc, Q));
	CU_ASSERT_EQUAL(qc.waiting, 1);
	CU_ASSERT_EQUAL(qc.running, 1);
	CU_ASSERT_EQUAL(qc.stalled, 0);
	CU_ASSERT_EQUAL(qc.scheduled, 1);
	CU_ASSERT_EQUAL(qc.depends, 1);
	CU_ASSERT_EQUAL(qc.recurring, 1);
	CU_ASSERT_EQUAL(qc.paused, 0);
	int64_t len = -1;
	TH_OK(qless_queue_length(&len, Q));
	CU_ASSERT_EQUAL(len, 3); /* running + waiting + scheduled */

	qless_queue_counts bad = QLESS_QUEUE_COUNTS_INIT;
	bad.version = 0;
	TH_RC(qless_queue_counts_get(&bad, Q), QLESS_EINVAL);
	TH_RC(qless_queue_counts_get(NULL, Q), QLESS_EINVAL);
	TH_RC(qless_queue_counts_get(&qc, NULL), QLESS_EINVAL);
	TH_RC(qless_queue_length(NULL, Q), QLESS_EINVAL);
	TH_RC(qless_queue_length(&len, NULL), QLESS_EINVAL);

	/* The protocol's JSON view agrees. */
	char *js = NULL;
	TH_OK(qless_client_queues_json(&js, C));
	json_t *arr = th_json(js);
	CU_ASSERT_FATAL(json_is_array(arr));
	CU_ASSERT_EQUAL(json_array_size(arr), 1);
	json_t *q0 = json_array_get(arr, 0);
	TH_STREQ(json_string_value(json_object_get(q0, "name")), "q");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(q0, "waiting")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(q0, "running")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(q0, "depends")), 1);
	CU_ASSERT(json_is_false(json_object_get(q0, "paused")));
	json_decref(arr);
	qless_free(js);
	TH_RC(qless_client_queues_json(NULL, C), QLESS_EINVAL);
	qless_job_free(job);
	qless_free(a);
	qless_free(b);
	close_q();
}

static void test_pause(void)
{
	open_q("q");
	TH_OK(qless_queue_put(NULL, Q, "K", NULL, NULL));
	TH_OK(qless_queue_pause(Q));
	CU_ASSERT_EQUAL(th_int("SISMEMBER ql:paused_queues q"), 1);
	qless_joblist *l = NULL;
	TH_OK(qless_queue_pop(&l, Q, 5));
	CU_ASSERT_PTR_NOT_NULL(l);
	CU_ASSERT_EQUAL(qless_joblist_size(l), 0);
	qless_joblist_free(l);
	qless_queue_counts qc = QLESS_QUEUE_COUNTS_INIT;
	TH_OK(qless_queue_counts_get(&qc, Q));
	CU_ASSERT_EQUAL(qc.paused, 1);
	CU_ASSERT_EQUAL(qc.waiting, 1);
	TH_OK(qless_queue_unpause(Q));
	l = NULL;
	TH_OK(qless_queue_pop(&l, Q, 5));
	CU_ASSERT_EQUAL(qless_joblist_size(l), 1);
	qless_joblist_free(l);
	TH_OK(qless_queue_counts_get(&qc, Q));
	CU_ASSERT_EQUAL(qc.paused, 0);
	TH_RC(qless_queue_pause(NULL), QLESS_EINVAL);
	TH_RC(qless_queue_unpause(NULL), QLESS_EINVAL);
	close_q();
}

static void test_names_forget(void)
{
	open_q("alpha");
	qless_queue *b = NULL;
	TH_OK(qless_queue_new(&b, C, "beta"));
	TH_OK(qless_queue_put(NULL, Q, "K", NULL, NULL));
	TH_OK(qless_queue_put(NULL, b, "K", NULL, NULL));
	qless_strlist *names = NULL;
	TH_OK(qless_client_queue_names(&names, C));
	CU_ASSERT_EQUAL_FATAL(qless_strlist_size(names), 2);
	TH_STREQ(qless_strlist_get(names, 0), "alpha");
	TH_STREQ(qless_strlist_get(names, 1), "beta");
	CU_ASSERT_PTR_NULL(qless_strlist_get(names, 2));
	qless_strlist_free(names);
	TH_OK(qless_queue_forget(Q));
	names = NULL;
	TH_OK(qless_client_queue_names(&names, C));
	CU_ASSERT_EQUAL(qless_strlist_size(names), 1);
	TH_STREQ(qless_strlist_get(names, 0), "beta");
	qless_strlist_free(names);
	/* Its jobs are untouched. */
	int64_t len = 0;
	TH_OK(qless_queue_length(&len, Q));
	CU_ASSERT_EQUAL(len, 1);
	TH_RC(qless_queue_forget(NULL), QLESS_EINVAL);
	TH_RC(qless_client_queue_names(NULL, C), QLESS_EINVAL);
	qless_strlist_free(NULL);
	CU_ASSERT_EQUAL(qless_strlist_size(NULL), 0);
	CU_ASSERT_PTR_NULL(qless_strlist_get(NULL, 0));
	qless_queue_free(b);
	close_q();
}

static void test_heartbeat_concurrency(void)
{
	open_q("q");
	TH_OK(qless_queue_set_heartbeat(Q, 300));
	char *v = NULL;
	TH_OK(qless_client_config_get(&v, C, "q-heartbeat"));
	TH_STREQ(v, "300");
	qless_free(v);
	TH_OK(qless_queue_set_max_concurrency(Q, 2));
	v = NULL;
	TH_OK(qless_client_config_get(&v, C, "q-max-concurrency"));
	TH_STREQ(v, "2");
	qless_free(v);
	for (int i = 0; i < 4; i++)
		TH_OK(qless_queue_put(NULL, Q, "K", NULL, NULL));
	qless_joblist *l = NULL;
	TH_OK(qless_queue_pop(&l, Q, 4));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(l), 2);
	double exp = qless_job_expires(qless_joblist_get(l, 0));
	CU_ASSERT(fabs(exp - (qless_client_now(C) + 300)) < 3);
	/* Completing one frees one slot. */
	TH_OK(qless_job_complete(qless_joblist_get(l, 0), NULL));
	qless_joblist *l2 = NULL;
	TH_OK(qless_queue_pop(&l2, Q, 4));
	CU_ASSERT_EQUAL(qless_joblist_size(l2), 1);
	qless_joblist_free(l2);
	qless_joblist_free(l);
	/* 0 = unlimited. */
	TH_OK(qless_queue_set_max_concurrency(Q, 0));
	l = NULL;
	TH_OK(qless_queue_pop(&l, Q, 4));
	CU_ASSERT_EQUAL(qless_joblist_size(l), 1);
	qless_joblist_free(l);
	TH_RC(qless_queue_set_heartbeat(NULL, 10), QLESS_EINVAL);
	TH_RC(qless_queue_set_heartbeat(Q, -5), QLESS_EINVAL); /* issue 12: was accepted */
	TH_RC(qless_queue_set_heartbeat(Q, 0), QLESS_EINVAL);
	TH_RC(qless_queue_set_max_concurrency(NULL, 1), QLESS_EINVAL);
	close_q();
}

static int64_t hist_sum(const qless_timing_stats *t)
{
	int64_t s = 0;
	for (int i = 0; i < QLESS_STATS_BUCKETS; i++)
		s += t->histogram[i];
	return s;
}

static void test_stats(void)
{
	open_q("q");
	qless_stats st;
	memset(&st, 0x33, sizeof st);
	st.version = QLESS_STATS_VERSION;
	TH_OK(qless_queue_stats(&st, Q, qless_client_now(C)));
	CU_ASSERT_EQUAL(st.wait.count, 0);
	CU_ASSERT_EQUAL(st.run.count, 0);
	CU_ASSERT_EQUAL(st.failures, 0);
	CU_ASSERT_EQUAL(hist_sum(&st.wait), 0);

	for (int i = 0; i < 3; i++)
		TH_OK(qless_queue_put(NULL, Q, "K", NULL, NULL));
	qless_joblist *l = NULL;
	TH_OK(qless_queue_pop(&l, Q, 3));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(l), 3);
	TH_OK(qless_job_complete(qless_joblist_get(l, 0), NULL));
	TH_OK(qless_job_complete(qless_joblist_get(l, 1), NULL));
	TH_OK(qless_job_fail(qless_joblist_get(l, 2), "boom", "it broke"));
	qless_joblist_free(l);

	memset(&st, 0, sizeof st);
	st.version = QLESS_STATS_VERSION;
	TH_OK(qless_queue_stats(&st, Q, qless_client_now(C)));
	CU_ASSERT_EQUAL(st.wait.count, 3);
	CU_ASSERT_EQUAL(st.run.count, 2);
	CU_ASSERT(st.wait.mean >= 0 && st.wait.mean < 5);
	CU_ASSERT(st.run.std >= 0 && st.run.std < 5);
	CU_ASSERT_EQUAL(st.wait.histogram[0], 3); /* all waited < 1 s */
	CU_ASSERT_EQUAL(hist_sum(&st.wait), 3);
	CU_ASSERT_EQUAL(hist_sum(&st.run), 2);
	CU_ASSERT_EQUAL(st.failures, 1);
	CU_ASSERT_EQUAL(st.failed, 1);
	CU_ASSERT_EQUAL(st.retries, 0);

	/* Another day is empty. */
	memset(&st, 0, sizeof st);
	st.version = QLESS_STATS_VERSION;
	TH_OK(qless_queue_stats(&st, Q, qless_client_now(C) - 3 * 86400));
	CU_ASSERT_EQUAL(st.wait.count, 0);
	CU_ASSERT_EQUAL(st.failures, 0);

	st.version = 0;
	TH_RC(qless_queue_stats(&st, Q, 0), QLESS_EINVAL);
	TH_RC(qless_queue_stats(NULL, Q, 0), QLESS_EINVAL);
	st.version = QLESS_STATS_VERSION;
	TH_RC(qless_queue_stats(&st, NULL, 0), QLESS_EINVAL);
	close_q();
}

CU_TestInfo queue_tests[] = {
	{ "new_and_name", test_new_and_name },
	{ "put_basic", test_put_basic },
	{ "put_invalid", test_put_invalid },
	{ "put_options", test_put_options },
	{ "pop_peek_order", test_pop_peek_order },
	{ "counts_length", test_counts_length },
	{ "pause", test_pause },
	{ "names_forget", test_names_forget },
	{ "heartbeat_concurrency", test_heartbeat_concurrency },
	{ "stats", test_stats },
	CU_TEST_INFO_NULL,
};
