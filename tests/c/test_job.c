/* Jobs: fields, complete/fail/retry/heartbeat, tags, tracking, dependencies,
 * failures and the client's job listings. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <math.h>
#include <stdlib.h>

static qless_client *C;

static void open_c(void)
{
	C = th_client("worker-1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(C);
}

static void test_fields(void)
{
	open_c();
	const char *tags[] = { "t1" };
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.tags = tags;
	o.ntags = 1;
	char *jid = th_put(C, "q", "Klass", "{\"a\": [1, 2]}", &o);
	CU_ASSERT_FATAL(th_is_jid(jid));
	double now = qless_client_now(C);
	qless_job *job = th_get(C, jid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_jid(job), jid);
	TH_STREQ(qless_job_klass(job), "Klass");
	TH_STREQ(qless_job_queue(job), "q");
	TH_STREQ(qless_job_state(job), "waiting");
	TH_STREQ(qless_job_worker(job), "");
	TH_STREQ(qless_job_data(job), "{\"a\": [1, 2]}");
	CU_ASSERT_EQUAL(qless_job_priority(job), 0);
	CU_ASSERT_EQUAL(qless_job_expires(job), 0);
	CU_ASSERT_EQUAL(qless_job_retries(job), 5);
	CU_ASSERT_EQUAL(qless_job_remaining(job), 5);
	CU_ASSERT_EQUAL(qless_job_tracked(job), 0);
	CU_ASSERT_PTR_NULL(qless_job_spawned_from_jid(job));
	CU_ASSERT_EQUAL(qless_job_tag_count(job), 1);
	TH_STREQ(qless_job_tag(job, 0), "t1");
	CU_ASSERT_PTR_NULL(qless_job_tag(job, 1));
	CU_ASSERT_EQUAL(qless_job_dependency_count(job), 0);
	CU_ASSERT_PTR_NULL(qless_job_dependency(job, 0));
	CU_ASSERT_EQUAL(qless_job_dependent_count(job), 0);
	CU_ASSERT_PTR_NULL(qless_job_dependent(job, 0));
	CU_ASSERT_EQUAL_FATAL(qless_job_history_count(job), 1);
	TH_STREQ(qless_job_history_what(job, 0), "put");
	CU_ASSERT(fabs(qless_job_history_when(job, 0) - now) < 3);
	json_t *h = th_json(qless_job_history_json(job, 0));
	CU_ASSERT(json_is_object(h));
	TH_STREQ(json_string_value(json_object_get(h, "q")), "q");
	TH_STREQ(json_string_value(json_object_get(h, "what")), "put");
	json_decref(h);
	CU_ASSERT_PTR_NULL(qless_job_history_what(job, 1));
	CU_ASSERT_PTR_NULL(qless_job_history_json(job, 1));
	CU_ASSERT_PTR_NULL(qless_job_failure_group(job));
	CU_ASSERT_EQUAL(qless_job_failure_when(job), 0);

	/* Whole object: 17 keys, lists always arrays. */
	json_t *js = th_json(qless_job_json(job));
	CU_ASSERT_FATAL(json_is_object(js));
	CU_ASSERT_EQUAL(json_object_size(js), 17);
	TH_STREQ(json_string_value(json_object_get(js, "jid")), jid);
	CU_ASSERT(json_is_array(json_object_get(js, "tags")));
	CU_ASSERT(json_is_array(json_object_get(js, "dependents")));
	CU_ASSERT(json_is_array(json_object_get(js, "dependencies")));
	CU_ASSERT(json_is_array(json_object_get(js, "history")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(js, "dependents")), 0);
	json_decref(js);

	/* NULL job. */
	CU_ASSERT_PTR_NULL(qless_job_jid(NULL));
	CU_ASSERT_PTR_NULL(qless_job_klass(NULL));
	CU_ASSERT_PTR_NULL(qless_job_queue(NULL));
	CU_ASSERT_PTR_NULL(qless_job_state(NULL));
	CU_ASSERT_PTR_NULL(qless_job_worker(NULL));
	CU_ASSERT_PTR_NULL(qless_job_data(NULL));
	CU_ASSERT_PTR_NULL(qless_job_json(NULL));
	CU_ASSERT_PTR_NULL(qless_job_tag(NULL, 0));
	CU_ASSERT_EQUAL(qless_job_tag_count(NULL), 0);
	CU_ASSERT_EQUAL(qless_job_history_count(NULL), 0);
	CU_ASSERT_EQUAL(qless_job_priority(NULL), 0);
	qless_job_free(NULL);
	qless_job_free(job);
	qless_free(jid);
	qless_client_free(C);
}

static void test_get_jobs(void)
{
	open_c();
	char *a = th_put(C, "q", "A", NULL, NULL);
	char *b = th_put(C, "q", "B", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	qless_job *job = (qless_job *)0x1;
	TH_RC(qless_client_get_job(&job, C, "no-such-jid"), QLESS_ENOTFOUND);
	CU_ASSERT(job == (qless_job *)0x1 || job == NULL);
	CU_ASSERT(strlen(qless_error_last_message()) > 0);
	job = NULL;
	TH_RC(qless_client_get_job(&job, C, NULL), QLESS_EINVAL);
	TH_RC(qless_client_get_job(&job, C, ""), QLESS_EINVAL);
	TH_RC(qless_client_get_job(NULL, C, a), QLESS_EINVAL);
	TH_RC(qless_client_get_job(&job, NULL, a), QLESS_EINVAL);

	const char *ids[] = { b, "missing", a, b };
	qless_joblist *l = NULL;
	TH_OK(qless_client_get_jobs(&l, C, ids, 4));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(l), 3);
	TH_STREQ(qless_job_jid(qless_joblist_get(l, 0)), b);
	TH_STREQ(qless_job_klass(qless_joblist_get(l, 0)), "B");
	TH_STREQ(qless_job_jid(qless_joblist_get(l, 1)), a);
	TH_STREQ(qless_job_jid(qless_joblist_get(l, 2)), b);
	qless_joblist_free(l);
	const char *none[] = { "x", "y" };
	l = NULL;
	TH_OK(qless_client_get_jobs(&l, C, none, 2));
	CU_ASSERT_PTR_NOT_NULL(l);
	CU_ASSERT_EQUAL(qless_joblist_size(l), 0);
	qless_joblist_free(l);
	TH_RC(qless_client_get_jobs(NULL, C, ids, 1), QLESS_EINVAL);
	TH_RC(qless_client_get_jobs(&l, C, NULL, 1), QLESS_EINVAL);
	const char *withnull[] = { a, NULL };
	TH_RC(qless_client_get_jobs(&l, C, withnull, 2), QLESS_EINVAL);
	qless_free(a);
	qless_free(b);
	qless_client_free(C);
}

static void test_refresh(void)
{
	open_c();
	char *jid = th_put(C, "q", "K", NULL, NULL);
	qless_job *job = th_get(C, jid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	/* Changed behind the handle's back. */
	qless_client *other = th_client("other");
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	qless_job *j2 = th_get(other, jid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j2);
	TH_OK(qless_job_set_priority(j2, 42));
	CU_ASSERT_EQUAL(qless_job_priority(j2), 42); /* updated locally */
	CU_ASSERT_EQUAL(qless_job_priority(job), 0);  /* snapshot */
	TH_OK(qless_job_refresh(job));
	CU_ASSERT_EQUAL(qless_job_priority(job), 42);
	TH_OK(qless_job_cancel(j2));
	TH_RC(qless_job_refresh(job), QLESS_ENOTFOUND);
	TH_RC(qless_job_refresh(NULL), QLESS_EINVAL);
	qless_job_free(j2);
	qless_job_free(job);
	qless_client_free(other);
	qless_free(jid);
	qless_client_free(C);
}

static void test_complete(void)
{
	open_c();
	char *jid = th_put(C, "q", "K", "{\"in\":1}", NULL);
	qless_job *job = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_jid(job), jid);
	TH_RC(qless_job_set_data(job, "{not json"), QLESS_EINVAL);
	TH_RC(qless_job_set_data(job, NULL), QLESS_EINVAL);
	TH_RC(qless_job_set_data(NULL, "{}"), QLESS_EINVAL);
	TH_STREQ(qless_job_data(job), "{\"in\":1}");
	TH_OK(qless_job_set_data(job, "{\"out\": 2}"));
	TH_STREQ(qless_job_data(job), "{\"out\": 2}");
	TH_OK(qless_job_complete(job, NULL));
	TH_STREQ(qless_job_state(job), "complete");
	TH_OK(qless_job_refresh(job));
	TH_STREQ(qless_job_state(job), "complete");
	TH_STREQ(qless_job_queue(job), "");
	TH_STREQ(qless_job_worker(job), "");
	TH_STREQ(qless_job_data(job), "{\"out\": 2}");
	size_t n = qless_job_history_count(job);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	TH_STREQ(qless_job_history_what(job, 0), "put");
	TH_STREQ(qless_job_history_what(job, 1), "popped");
	TH_STREQ(qless_job_history_what(job, 2), "done");
	json_t *h = th_json(qless_job_history_json(job, 1));
	TH_STREQ(json_string_value(json_object_get(h, "worker")), "worker-1");
	json_decref(h);
	/* Completing twice: not running any more. */
	TH_RC(qless_job_complete(job, NULL), QLESS_ELOCK);
	qless_strlist *done = NULL;
	TH_OK(qless_client_jobs(&done, C, "complete", NULL, 0, 0));
	CU_ASSERT_EQUAL(qless_strlist_size(done), 1);
	TH_STREQ(qless_strlist_get(done, 0), jid);
	qless_strlist_free(done);
	qless_job_free(job);
	qless_free(jid);
	qless_client_free(C);
}

static void test_complete_next(void)
{
	open_c();
	char *a = th_put(C, "q", "K", NULL, NULL);
	char *b = th_put(C, "q", "K", NULL, NULL);
	char *c = th_put(C, "q", "K", NULL, NULL);
	char *blocker = th_put(C, "other", "K", NULL, NULL);
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, C, "q"));
	qless_joblist *l = NULL;
	TH_OK(qless_queue_pop(&l, q, 3));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(l), 3);

	qless_complete_options o = QLESS_COMPLETE_OPTIONS_INIT;
	o.next = "q2";
	TH_OK(qless_job_complete(qless_joblist_get(l, 0), &o));
	TH_STREQ(qless_job_state(qless_joblist_get(l, 0)), "waiting");

	qless_complete_options od = QLESS_COMPLETE_OPTIONS_INIT;
	od.next = "q2";
	od.delay = 500;
	TH_OK(qless_job_complete(qless_joblist_get(l, 1), &od));
	TH_STREQ(qless_job_state(qless_joblist_get(l, 1)), "scheduled");

	const char *deps[] = { blocker };
	qless_complete_options odep = QLESS_COMPLETE_OPTIONS_INIT;
	odep.next = "q2";
	odep.depends = deps;
	odep.ndepends = 1;
	TH_OK(qless_job_complete(qless_joblist_get(l, 2), &odep));
	TH_STREQ(qless_job_state(qless_joblist_get(l, 2)), "depends");

	/* Only the first is poppable from q2. */
	qless_job *j = th_pop1(C, "q2");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	TH_STREQ(qless_job_jid(j), a);
	TH_STREQ(qless_job_queue(j), "q2");
	qless_job_free(j);
	CU_ASSERT_PTR_NULL(th_pop1(C, "q2"));

	qless_strlist *s = NULL;
	TH_OK(qless_client_jobs(&s, C, "scheduled", "q2", 0, 0));
	CU_ASSERT(th_strlist_has(s, b, NULL));
	qless_strlist_free(s);
	s = NULL;
	TH_OK(qless_client_jobs(&s, C, "depends", "q2", 0, 0));
	CU_ASSERT_EQUAL(qless_strlist_size(s), 1);
	CU_ASSERT(th_strlist_has(s, c, NULL));
	qless_strlist_free(s);

	/* Bad option: delay without next. */
	char *d = th_put(C, "q", "K", NULL, NULL);
	qless_job *jd = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(jd);
	qless_complete_options bad = QLESS_COMPLETE_OPTIONS_INIT;
	bad.delay = 5;
	TH_RC(qless_job_complete(jd, &bad), QLESS_EINVAL);
	bad.version = 3;
	TH_RC(qless_job_complete(jd, &bad), QLESS_EINVAL);
	TH_RC(qless_job_complete(NULL, NULL), QLESS_EINVAL);
	TH_STREQ(qless_job_state(jd), "running");
	TH_OK(qless_job_complete(jd, NULL));
	qless_job_free(jd);
	qless_joblist_free(l);
	qless_queue_free(q);
	qless_free(a); qless_free(b); qless_free(c); qless_free(d); qless_free(blocker);
	qless_client_free(C);
}

static void test_fail_unfail(void)
{
	open_c();
	char *jid = th_put(C, "q", "K", NULL, NULL);
	qless_job *job = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_RC(qless_job_fail(job, NULL, "m"), QLESS_EINVAL);
	TH_RC(qless_job_fail(job, "g", NULL), QLESS_EINVAL);
	TH_RC(qless_job_fail(job, "", "m"), QLESS_EINVAL);
	TH_RC(qless_job_fail(NULL, "g", "m"), QLESS_EINVAL);
	TH_OK(qless_job_fail(job, "grp", "went wrong"));
	TH_STREQ(qless_job_state(job), "failed");
	TH_OK(qless_job_refresh(job));
	TH_STREQ(qless_job_state(job), "failed");
	TH_STREQ(qless_job_failure_group(job), "grp");
	TH_STREQ(qless_job_failure_message(job), "went wrong");
	TH_STREQ(qless_job_failure_worker(job), "worker-1");
	CU_ASSERT(fabs(qless_job_failure_when(job) - qless_client_now(C)) < 3);
	TH_STREQ(qless_job_queue(job), "q");
	TH_RC(qless_job_fail(job, "grp", "again"), QLESS_ELOCK);

	qless_strlist *groups = NULL;
	TH_OK(qless_client_failed_groups(&groups, C));
	CU_ASSERT_EQUAL_FATAL(qless_strlist_size(groups), 1);
	TH_STREQ(qless_strlist_get(groups, 0), "grp");
	CU_ASSERT_EQUAL(qless_strlist_number(groups, 0), 1);
	qless_strlist_free(groups);
	qless_strlist *f = NULL;
	int64_t total = -1;
	TH_OK(qless_client_failed(&f, &total, C, "grp", 0, 0));
	CU_ASSERT_EQUAL(total, 1);
	CU_ASSERT_EQUAL(qless_strlist_size(f), 1);
	TH_STREQ(qless_strlist_get(f, 0), jid);
	CU_ASSERT_EQUAL(qless_strlist_number(f, 0), 0);
	qless_strlist_free(f);
	f = NULL;
	TH_OK(qless_client_failed(&f, NULL, C, "nogroup", 0, 10));
	CU_ASSERT_EQUAL(qless_strlist_size(f), 0);
	qless_strlist_free(f);
	TH_RC(qless_client_failed(&f, NULL, C, NULL, 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_failed_groups(NULL, C), QLESS_EINVAL);

	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, C, "q"));
	int64_t moved = -1;
	TH_OK(qless_queue_unfail(&moved, q, "grp", 0));
	CU_ASSERT_EQUAL(moved, 1);
	TH_OK(qless_job_refresh(job));
	TH_STREQ(qless_job_state(job), "waiting");
	groups = NULL;
	TH_OK(qless_client_failed_groups(&groups, C));
	CU_ASSERT_EQUAL(qless_strlist_size(groups), 0);
	qless_strlist_free(groups);
	TH_OK(qless_queue_unfail(NULL, q, "grp", 10));
	TH_RC(qless_queue_unfail(NULL, q, NULL, 10), QLESS_EINVAL);
	TH_RC(qless_queue_unfail(NULL, NULL, "grp", 10), QLESS_EINVAL);
	qless_queue_free(q);
	qless_job_free(job);
	qless_free(jid);
	qless_client_free(C);
}

static void test_retry(void)
{
	open_c();
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.retries = 1;
	char *jid = th_put(C, "q", "K", NULL, &o);
	qless_job *job = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	int64_t rem = 99;
	TH_RC(qless_job_retry(&rem, job, 0, "g", NULL), QLESS_EINVAL); /* both or neither */
	TH_RC(qless_job_retry(&rem, NULL, 0, NULL, NULL), QLESS_EINVAL);
	TH_OK(qless_job_retry(&rem, job, 0, NULL, NULL));
	CU_ASSERT_EQUAL(rem, 0);
	TH_RC(qless_job_retry(&rem, job, 0, NULL, NULL), QLESS_ELOCK);
	qless_job_free(job);
	job = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_jid(job), jid);
	CU_ASSERT_EQUAL(qless_job_remaining(job), 0);
	rem = 99;
	TH_OK(qless_job_retry(&rem, job, 0, "retry-grp", "gave up"));
	CU_ASSERT_EQUAL(rem, -1);
	TH_OK(qless_job_refresh(job));
	TH_STREQ(qless_job_state(job), "failed");
	TH_STREQ(qless_job_failure_group(job), "retry-grp");
	TH_STREQ(qless_job_failure_message(job), "gave up");
	qless_job_free(job);

	/* Delay: scheduled, not poppable now; out_remaining may be NULL. */
	char *j2 = th_put(C, "q", "K", NULL, NULL);
	job = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_OK(qless_job_retry(NULL, job, 600, NULL, NULL));
	CU_ASSERT_PTR_NULL(th_pop1(C, "q"));
	TH_OK(qless_job_refresh(job));
	TH_STREQ(qless_job_state(job), "scheduled");
	CU_ASSERT_EQUAL(qless_job_remaining(job), 4);
	qless_job_free(job);
	qless_free(jid);
	qless_free(j2);
	qless_client_free(C);
}

static void test_heartbeat(void)
{
	open_c();
	char *jid = th_put(C, "q", "K", NULL, NULL);
	qless_job *job = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	double exp = 0;
	TH_OK(qless_client_set_time_offset(C, 30));
	TH_OK(qless_job_heartbeat(&exp, job));
	CU_ASSERT(fabs(exp - (qless_client_now(C) + 60)) < 3);
	CU_ASSERT(fabs(qless_job_expires(job) - exp) < 1.01);
	TH_OK(qless_job_set_data(job, "{\"progress\": 50}"));
	TH_OK(qless_job_heartbeat(NULL, job));
	char *data = th_str("HGET ql:j:%s data", jid);
	json_t *d = th_json(data);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "progress")), 50);
	json_decref(d);
	free(data);
	TH_RC(qless_job_heartbeat(&exp, NULL), QLESS_EINVAL);
	/* A waiting job cannot be heartbeated. */
	char *w = th_put(C, "q", "K", NULL, NULL);
	qless_job *wj = th_get(C, w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(wj);
	TH_RC(qless_job_heartbeat(NULL, wj), QLESS_ELOCK);
	qless_job_free(wj);
	qless_job_free(job);
	qless_free(jid);
	qless_free(w);
	qless_client_free(C);
}

static void test_cancel_requeue(void)
{
	open_c();
	char *a = th_put(C, "q", "K", NULL, NULL);
	char *b = th_put(C, "q", "K", NULL, NULL);
	qless_job *ja = th_get(C, a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ja);
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.has_priority = 1;
	o.priority = 3;
	TH_OK(qless_job_requeue(ja, "elsewhere", &o));
	TH_STREQ(qless_job_queue(ja), "elsewhere");
	TH_OK(qless_job_refresh(ja));
	TH_STREQ(qless_job_queue(ja), "elsewhere");
	CU_ASSERT_EQUAL(qless_job_priority(ja), 3);
	TH_STREQ(qless_job_jid(ja), a);
	TH_OK(qless_job_requeue(ja, "q", NULL));
	TH_RC(qless_job_requeue(ja, NULL, NULL), QLESS_EINVAL);
	TH_RC(qless_job_requeue(ja, "", NULL), QLESS_EINVAL);
	TH_OK(qless_job_cancel(ja));
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:%s", a), 0);
	TH_RC(qless_job_requeue(ja, "q", NULL), QLESS_ENOTFOUND);
	TH_RC(qless_job_cancel(NULL), QLESS_EINVAL);

	/* client_cancel: several at once, unknown skipped. */
	const char *ids[] = { b, "never-existed" };
	TH_OK(qless_client_cancel(C, ids, 2));
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:%s", b), 0);
	TH_RC(qless_client_cancel(C, NULL, 1), QLESS_EINVAL);
	TH_RC(qless_client_cancel(NULL, ids, 1), QLESS_EINVAL);
	qless_job_free(ja);
	qless_free(a);
	qless_free(b);
	qless_client_free(C);
}

static void test_priority_log(void)
{
	open_c();
	char *a = th_put(C, "q", "K", NULL, NULL);
	char *b = th_put(C, "q", "K", NULL, NULL);
	qless_job *jb = th_get(C, b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jb);
	TH_OK(qless_job_set_priority(jb, 5));
	CU_ASSERT_EQUAL(qless_job_priority(jb), 5);
	qless_job *first = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(first);
	TH_STREQ(qless_job_jid(first), b);
	qless_job_free(first);
	TH_RC(qless_job_set_priority(NULL, 1), QLESS_EINVAL);

	TH_OK(qless_job_log(jb, "checkpoint", "{\"step\":\"x\"}"));
	TH_OK(qless_job_log(jb, "plain", NULL));
	TH_RC(qless_job_log(jb, "bad", "{nope"), QLESS_EINVAL);
	TH_RC(qless_job_log(jb, NULL, NULL), QLESS_EINVAL);
	TH_RC(qless_job_log(jb, "", NULL), QLESS_EINVAL);
	TH_RC(qless_job_log(NULL, "m", NULL), QLESS_EINVAL);
	TH_OK(qless_job_refresh(jb));
	size_t n = qless_job_history_count(jb);
	CU_ASSERT_EQUAL_FATAL(n, 4); /* put, popped, checkpoint, plain */
	TH_STREQ(qless_job_history_what(jb, 2), "checkpoint");
	TH_STREQ(qless_job_history_what(jb, 3), "plain");
	json_t *h = th_json(qless_job_history_json(jb, 2));
	TH_STREQ(json_string_value(json_object_get(h, "step")), "x");
	json_decref(h);
	qless_job_free(jb);
	qless_free(a);
	qless_free(b);
	qless_client_free(C);
}

static void test_tags(void)
{
	open_c();
	char *a = th_put(C, "q", "K", NULL, NULL);
	char *b = th_put(C, "q", "K", NULL, NULL);
	qless_job *ja = th_get(C, a), *jb = th_get(C, b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ja);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jb);
	const char *t1[] = { "shared", "only-a" };
	TH_OK(qless_job_tag_add(ja, t1, 2));
	CU_ASSERT_EQUAL(qless_job_tag_count(ja), 2);
	TH_STREQ(qless_job_tag(ja, 0), "shared");
	TH_STREQ(qless_job_tag(ja, 1), "only-a");
	const char *t2[] = { "shared" };
	TH_OK(qless_job_tag_add(jb, t2, 1));
	qless_strlist *l = NULL;
	int64_t total = -1;
	TH_OK(qless_client_tagged(&l, &total, C, "shared", 0, 0));
	CU_ASSERT_EQUAL(total, 2);
	CU_ASSERT_EQUAL_FATAL(qless_strlist_size(l), 2);
	TH_STREQ(qless_strlist_get(l, 0), a);
	TH_STREQ(qless_strlist_get(l, 1), b);
	qless_strlist_free(l);
	l = NULL;
	TH_OK(qless_client_tagged(&l, NULL, C, "shared", 1, 1));
	CU_ASSERT_EQUAL(qless_strlist_size(l), 1);
	TH_STREQ(qless_strlist_get(l, 0), b);
	qless_strlist_free(l);

	l = NULL;
	TH_OK(qless_client_top_tags(&l, C, 0, 0));
	CU_ASSERT_EQUAL_FATAL(qless_strlist_size(l), 1); /* only-a is used once */
	TH_STREQ(qless_strlist_get(l, 0), "shared");
	CU_ASSERT_EQUAL(qless_strlist_number(l, 0), 2);
	qless_strlist_free(l);
	/* A tag the job already has is not added twice (the protocol still
	 * counts the use in ql:tags). */
	TH_OK(qless_job_tag_add(ja, t1, 1));
	CU_ASSERT_EQUAL(qless_job_tag_count(ja), 2);
	TH_OK(qless_job_refresh(ja));
	CU_ASSERT_EQUAL(qless_job_tag_count(ja), 2);

	const char *rm[] = { "shared", "absent" };
	TH_OK(qless_job_tag_remove(ja, rm, 2));
	CU_ASSERT_EQUAL(qless_job_tag_count(ja), 1);
	TH_STREQ(qless_job_tag(ja, 0), "only-a");
	TH_OK(qless_job_refresh(ja));
	CU_ASSERT_EQUAL(qless_job_tag_count(ja), 1);
	l = NULL;
	TH_OK(qless_client_tagged(&l, &total, C, "shared", 0, 0));
	CU_ASSERT_EQUAL(total, 1);
	qless_strlist_free(l);

	TH_RC(qless_job_tag_add(ja, NULL, 1), QLESS_EINVAL);
	TH_RC(qless_job_tag_add(NULL, t2, 1), QLESS_EINVAL);
	TH_RC(qless_job_tag_remove(NULL, t2, 1), QLESS_EINVAL);
	TH_RC(qless_client_tagged(&l, NULL, C, NULL, 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_tagged(NULL, NULL, C, "x", 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_top_tags(NULL, C, 0, 0), QLESS_EINVAL);
	qless_job_free(ja);
	qless_job_free(jb);
	qless_free(a);
	qless_free(b);
	qless_client_free(C);
}

static void test_tracking(void)
{
	open_c();
	char *a = th_put(C, "q", "K", NULL, NULL);
	char *b = th_put(C, "q", "K", NULL, NULL);
	qless_job *ja = th_get(C, a), *jb = th_get(C, b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ja);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jb);
	TH_OK(qless_job_track(ja));
	CU_ASSERT_EQUAL(qless_job_tracked(ja), 1);
	TH_OK(qless_job_track(jb));
	TH_OK(qless_job_refresh(ja));
	CU_ASSERT_EQUAL(qless_job_tracked(ja), 1);
	TH_OK(qless_job_cancel(jb));

	qless_joblist *jobs = NULL;
	qless_strlist *expired = NULL;
	TH_OK(qless_client_tracked(&jobs, &expired, C));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(jobs), 1);
	TH_STREQ(qless_job_jid(qless_joblist_get(jobs, 0)), a);
	CU_ASSERT_EQUAL(qless_job_tracked(qless_joblist_get(jobs, 0)), 1);
	CU_ASSERT_EQUAL(qless_strlist_size(expired), 1);
	TH_STREQ(qless_strlist_get(expired, 0), b);
	qless_joblist_free(jobs);
	qless_strlist_free(expired);
	/* Either out may be NULL. */
	jobs = NULL;
	TH_OK(qless_client_tracked(&jobs, NULL, C));
	CU_ASSERT_EQUAL(qless_joblist_size(jobs), 1);
	qless_joblist_free(jobs);
	expired = NULL;
	TH_OK(qless_client_tracked(NULL, &expired, C));
	CU_ASSERT_EQUAL(qless_strlist_size(expired), 1);
	qless_strlist_free(expired);

	TH_OK(qless_job_untrack(ja));
	CU_ASSERT_EQUAL(qless_job_tracked(ja), 0);
	TH_OK(qless_job_refresh(ja));
	CU_ASSERT_EQUAL(qless_job_tracked(ja), 0);
	TH_RC(qless_job_track(NULL), QLESS_EINVAL);
	TH_RC(qless_job_untrack(NULL), QLESS_EINVAL);
	TH_RC(qless_job_track(jb), QLESS_ENOTFOUND); /* canceled */
	qless_job_free(ja);
	qless_job_free(jb);
	qless_free(a);
	qless_free(b);
	qless_client_free(C);
}

static void test_dependencies(void)
{
	open_c();
	char *a = th_put(C, "q", "K", NULL, NULL);
	char *x = th_put(C, "q", "K", NULL, NULL);
	const char *on[] = { a };
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.depends = on;
	o.ndepends = 1;
	char *b = th_put(C, "q", "K", NULL, &o);
	qless_job *jb = th_get(C, b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jb);
	TH_STREQ(qless_job_state(jb), "depends");
	CU_ASSERT_EQUAL(qless_job_dependency_count(jb), 1);
	TH_STREQ(qless_job_dependency(jb, 0), a);
	qless_job *ja = th_get(C, a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ja);
	CU_ASSERT_EQUAL(qless_job_dependent_count(ja), 1);
	TH_STREQ(qless_job_dependent(ja, 0), b);

	/* a cannot be canceled alone, only together with b. */
	const char *only_a[] = { a };
	TH_RC(qless_client_cancel(C, only_a, 1), QLESS_ESTATE);
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:%s", a), 1);

	const char *more[] = { x };
	TH_OK(qless_job_depends_add(jb, more, 1));
	TH_OK(qless_job_refresh(jb));
	CU_ASSERT_EQUAL(qless_job_dependency_count(jb), 2);
	TH_OK(qless_job_depends_remove(jb, on, 1));
	TH_OK(qless_job_refresh(jb));
	CU_ASSERT_EQUAL(qless_job_dependency_count(jb), 1);
	TH_STREQ(qless_job_dependency(jb, 0), x);
	TH_STREQ(qless_job_state(jb), "depends");
	TH_OK(qless_job_depends_clear(jb));
	TH_OK(qless_job_refresh(jb));
	CU_ASSERT_EQUAL(qless_job_dependency_count(jb), 0);
	TH_STREQ(qless_job_state(jb), "waiting");

	/* Not in state depends. */
	TH_RC(qless_job_depends_add(ja, more, 1), QLESS_ESTATE);
	TH_RC(qless_job_depends_remove(ja, more, 1), QLESS_ESTATE);
	TH_RC(qless_job_depends_clear(ja), QLESS_ESTATE);
	TH_RC(qless_job_depends_add(NULL, more, 1), QLESS_EINVAL);
	TH_RC(qless_job_depends_add(jb, NULL, 1), QLESS_EINVAL);
	TH_RC(qless_job_depends_remove(NULL, more, 1), QLESS_EINVAL);
	TH_RC(qless_job_depends_clear(NULL), QLESS_EINVAL);

	/* Completing the dependency releases the dependent. */
	char *c = th_put(C, "q2", "K", NULL, &o);
	qless_job *ja2 = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ja2);
	while (ja2 && strcmp(qless_job_jid(ja2), a) != 0) {
		TH_OK(qless_job_complete(ja2, NULL));
		qless_job_free(ja2);
		ja2 = th_pop1(C, "q");
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(ja2);
	CU_ASSERT_PTR_NULL(th_pop1(C, "q2"));
	TH_OK(qless_job_complete(ja2, NULL));
	qless_job *jc = th_pop1(C, "q2");
	CU_ASSERT_PTR_NOT_NULL(jc);
	if (jc)
		TH_STREQ(qless_job_jid(jc), c);
	qless_job_free(jc);
	qless_job_free(ja2);
	qless_job_free(ja);
	qless_job_free(jb);
	qless_free(a); qless_free(b); qless_free(c); qless_free(x);
	qless_client_free(C);
}

static void test_client_jobs_workers(void)
{
	open_c();
	char *r = th_put(C, "q", "K", NULL, NULL);
	qless_put_options d = QLESS_PUT_OPTIONS_INIT;
	d.delay = 100;
	char *s = th_put(C, "q", "K", NULL, &d);
	qless_job *job = th_pop1(C, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	qless_strlist *l = NULL;
	TH_OK(qless_client_jobs(&l, C, "running", "q", 0, 0));
	CU_ASSERT_EQUAL(qless_strlist_size(l), 1);
	TH_STREQ(qless_strlist_get(l, 0), r);
	qless_strlist_free(l);
	l = NULL;
	TH_OK(qless_client_jobs(&l, C, "scheduled", "q", 0, 10));
	CU_ASSERT_EQUAL(qless_strlist_size(l), 1);
	TH_STREQ(qless_strlist_get(l, 0), s);
	qless_strlist_free(l);
	l = NULL;
	TH_OK(qless_client_jobs(&l, C, "stalled", "q", 0, 0));
	CU_ASSERT_EQUAL(qless_strlist_size(l), 0);
	qless_strlist_free(l);
	l = NULL;
	TH_OK(qless_client_jobs(&l, C, "recurring", "q", 0, 0));
	CU_ASSERT_EQUAL(qless_strlist_size(l), 0);
	qless_strlist_free(l);
	l = NULL;
	TH_RC(qless_client_jobs(&l, C, "bogus", "q", 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_jobs(&l, C, NULL, "q", 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_jobs(&l, C, "running", NULL, 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_jobs(NULL, C, "complete", NULL, 0, 0), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(l);

	/* Workers and their jobs. */
	qless_strlist *w = NULL;
	TH_OK(qless_client_workers(&w, C));
	size_t at = 99;
	CU_ASSERT_FATAL(th_strlist_has(w, "worker-1", &at));
	CU_ASSERT_EQUAL(qless_strlist_number(w, at), 1);
	qless_strlist_free(w);
	qless_strlist *jobs = NULL, *stalled = NULL;
	TH_OK(qless_client_worker_jobs(&jobs, &stalled, C, "worker-1"));
	CU_ASSERT_EQUAL(qless_strlist_size(jobs), 1);
	TH_STREQ(qless_strlist_get(jobs, 0), r);
	CU_ASSERT_EQUAL(qless_strlist_size(stalled), 0);
	qless_strlist_free(jobs);
	qless_strlist_free(stalled);
	jobs = NULL;
	TH_OK(qless_client_worker_jobs(&jobs, NULL, C, "nobody"));
	CU_ASSERT_EQUAL(qless_strlist_size(jobs), 0);
	qless_strlist_free(jobs);
	TH_RC(qless_client_worker_jobs(&jobs, NULL, C, NULL), QLESS_EINVAL);
	const char *dereg[] = { "worker-1" };
	TH_OK(qless_client_deregister_workers(C, dereg, 1));
	w = NULL;
	TH_OK(qless_client_workers(&w, C));
	CU_ASSERT_FALSE(th_strlist_has(w, "worker-1", NULL));
	qless_strlist_free(w);
	TH_RC(qless_client_deregister_workers(C, NULL, 1), QLESS_EINVAL);
	TH_RC(qless_client_workers(NULL, C), QLESS_EINVAL);

	/* client_timeout: running job stalled, popped first by the next pop. */
	const char *ids[] = { r };
	TH_OK(qless_client_timeout(C, ids, 1));
	TH_OK(qless_job_refresh(job));
	TH_STREQ(qless_job_state(job), "stalled");
	TH_RC(qless_client_timeout(C, NULL, 1), QLESS_EINVAL);
	qless_job_free(job);
	qless_free(r);
	qless_free(s);
	qless_client_free(C);
}

static void test_jid_format(void)
{
	open_c();
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, C, "q"));
	int good = 0;
	char *prev = NULL;
	for (int i = 0; i < 20; i++) {
		char *jid = NULL;
		TH_OK(qless_queue_put(&jid, q, "K", NULL, NULL));
		if (th_is_jid(jid) && (!prev || strcmp(prev, jid) != 0))
			good++;
		else
			fprintf(stderr, "\n  bad jid %s\n", jid ? jid : "(null)");
		qless_free(prev);
		prev = jid;
	}
	qless_free(prev);
	CU_ASSERT_EQUAL(good, 20);
	qless_queue_free(q);
	qless_client_free(C);
}

/* The snapshot after depends and timeout is the script's: a dependency on a
 * finished job is not made (§5.14), `off all` leaves the job waiting even
 * with a delay pending, and a timed-out job reads as stalled. */
static void test_state_from_script(void)
{
	open_c();
	char *a = th_put(C, "q", "K", NULL, NULL);
	char *done = th_put(C, "d", "K", NULL, NULL);
	const char *deps[] = { a };
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.delay = 600;
	o.depends = deps;
	o.ndepends = 1;
	char *b = th_put(C, "q", "K", NULL, &o);
	qless_queue *d = NULL;
	qless_joblist *l = NULL;
	TH_OK(qless_queue_new(&d, C, "d"));
	TH_OK(qless_queue_pop(&l, d, 1));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(l), 1);
	TH_OK(qless_job_complete(qless_joblist_get(l, 0), NULL));
	qless_joblist_free(l);

	qless_job *jb = NULL;
	TH_OK(qless_client_get_job(&jb, C, b));
	TH_STREQ(qless_job_state(jb), "depends");
	const char *more[] = { done };
	TH_OK(qless_job_depends_add(jb, more, 1));
	CU_ASSERT_EQUAL(qless_job_dependency_count(jb), 1); /* the complete one is not a dependency */
	TH_STREQ(qless_job_dependency(jb, 0), a);
	TH_OK(qless_job_depends_clear(jb));
	TH_STREQ(qless_job_state(jb), "waiting");
	CU_ASSERT_EQUAL(qless_job_dependency_count(jb), 0);

	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, C, "q"));
	TH_OK(qless_queue_pop(&l, q, 1));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(l), 1);
	qless_job *ja = qless_joblist_get(l, 0);
	TH_OK(qless_job_timeout(ja));
	TH_STREQ(qless_job_state(ja), "stalled");
	CU_ASSERT_EQUAL(qless_job_expires(ja), 0);
	qless_joblist_free(l);
	qless_queue_free(q);
	qless_queue_free(d);
	qless_job_free(jb);
	qless_free(a);
	qless_free(b);
	qless_free(done);
	qless_client_free(C);
}

CU_TestInfo job_tests[] = {
	{ "state_from_script", test_state_from_script },
	{ "fields", test_fields },
	{ "get_jobs", test_get_jobs },
	{ "refresh", test_refresh },
	{ "complete", test_complete },
	{ "complete_next", test_complete_next },
	{ "fail_unfail", test_fail_unfail },
	{ "retry", test_retry },
	{ "heartbeat", test_heartbeat },
	{ "cancel_requeue", test_cancel_requeue },
	{ "priority_log", test_priority_log },
	{ "tags", test_tags },
	{ "tracking", test_tracking },
	{ "dependencies", test_dependencies },
	{ "client_jobs_workers", test_client_jobs_workers },
	{ "jid_format", test_jid_format },
	CU_TEST_INFO_NULL,
};
