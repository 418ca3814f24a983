/* The C ABI of job trees (qless/tree.h, jobtrees.md §10): each call against
 * the server, and put options version 3. */
#include "helper.h"

#include <stdlib.h>

/* A tree job "t" (aliases "nightly", created by "cli") with child "c" named
 * "kid", in queue "q", put with version-3 options. */
static void put_tree(qless_client *c)
{
	qless_queue *q = NULL;
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	const char *aliases[] = { "nightly" };
	char *jid = NULL;

	TH_OK(qless_queue_new(&q, c, "q"));
	o.jid = "t";
	o.tree = 1;
	o.aliases = aliases;
	o.naliases = 1;
	o.by = "cli";
	TH_OK(qless_queue_put(&jid, q, "K", NULL, &o));
	TH_STREQ(jid, "t");
	qless_free(jid);
	qless_put_options_init(&o, QLESS_PUT_OPTIONS_VERSION);
	o.jid = "c";
	o.parent = "t";
	o.name = "kid";
	TH_OK(qless_queue_put(NULL, q, "K", NULL, &o));
	qless_queue_free(q);
}

/* The tree record of jid as JSON (NULL when the call fails). */
static json_t *tree_of(qless_client *c, const char *jid)
{
	char *text = NULL;
	json_t *j;
	TH_OK(qless_client_tree_get(&text, c, jid));
	j = text ? th_json(text) : NULL;
	qless_free(text);
	return j;
}

static const char *jstr(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* Put options v3 reach the script: tree, aliases, by, parent and name. */
static void test_put_v3(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_tree(c);
	json_t *t = tree_of(c, "t"), *k = tree_of(c, "c");
	CU_ASSERT_FATAL(t != NULL && k != NULL);
	TH_STREQ(jstr(t, "created_by"), "cli");
	TH_STREQ(jstr(json_object_get(t, "children"), "kid"), "c");
	TH_STREQ(json_string_value(json_array_get(json_object_get(t, "aliases"), 0)), "nightly");
	TH_STREQ(jstr(k, "parent"), "t");
	TH_STREQ(jstr(k, "name"), "kid");
	TH_STREQ(jstr(k, "created_by"), "w");   /* no created_by: the worker */
	json_decref(t);
	json_decref(k);
	qless_client_free(c);
}

/* A version-2 struct (without the tree fields) is read only that far:
 * ASan and valgrind watch a heap block of exactly that size; the job is a
 * plain one. */
static void test_put_options_v2(void)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	struct put_options_v2 *o = malloc(sizeof *o);
	char *out = NULL;
	CU_ASSERT_FATAL(c != NULL && o != NULL);
	CU_ASSERT_EQUAL(sizeof *o, offsetof(qless_put_options, tree));
	TH_OK(qless_queue_new(&q, c, "q"));
	TH_OK(qless_put_options_init((qless_put_options *)o, 2));
	CU_ASSERT_EQUAL(o->v1.version, 2);
	CU_ASSERT_EQUAL(o->v1.retries, -1);
	o->v1.jid = "v2";
	TH_OK(qless_queue_put(NULL, q, "K", NULL, (qless_put_options *)o));
	TH_RC(qless_client_tree_get(&out, c, "v2"), QLESS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "is not a tree job"));
	CU_ASSERT_PTR_NULL(out);
	free(o);
	qless_queue_free(q);
	qless_client_free(c);
}

static void test_tree_get_missing(void)
{
	qless_client *c = th_client("w");
	char *out = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_RC(qless_client_tree_get(&out, c, "nobody"), QLESS_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "qless_client_tree_get: job nobody does not exist"));
	CU_ASSERT_PTR_NULL(out);
	qless_client_free(c);
}

/* adopt/disown and the mapping of their refusals. */
static void test_adopt_disown(void)
{
	qless_client *c = th_client("w");
	char *child = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_tree(c);
	TH_OK(qless_client_job_disown(&child, c, "t", "kid"));
	TH_STREQ(child, "c");
	qless_free(child);
	CU_ASSERT_EQUAL(th_int("HEXISTS ql:j:c parent"), 0);
	TH_RC(qless_client_job_disown(NULL, c, "t", "kid"), QLESS_ENOTFOUND);
	TH_OK(qless_client_job_adopt(c, "t", "again", "c"));
	TH_RC(qless_client_job_adopt(c, "c", "up", "t"), QLESS_ESTATE);           /* cycle */
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "cycle"));
	TH_RC(qless_client_job_adopt(c, "t", "other", "c"), QLESS_ESTATE);        /* already has parent */
	TH_RC(qless_client_job_adopt(c, "t", "bad name!", "c"), QLESS_EINVAL);
	TH_RC(qless_client_job_adopt(c, "t", "x", "nobody"), QLESS_ENOTFOUND);
	json_t *t = tree_of(c, "t");
	TH_STREQ(jstr(json_object_get(t, "children"), "again"), "c");
	CU_ASSERT_EQUAL(json_object_size(json_object_get(t, "children")), 1);
	json_decref(t);
	qless_client_free(c);
}

/* started, suspend (asleep, and woken at once by job.run during the run),
 * job.run in each state it is allowed in. */
static void test_run_cycle(void)
{
	qless_client *c = th_client("w"), *other = th_client("other");
	char *state = NULL;
	int requeued = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.tree = 1;
	char *jid = th_put(c, "q", "K", NULL, &o);
	qless_free(jid);
	qless_job *job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	qless_job *theirs = th_get(other, qless_job_jid(job));
	CU_ASSERT_PTR_NOT_NULL_FATAL(theirs);
	TH_RC(qless_job_started(theirs), QLESS_ELOCK);
	TH_RC(qless_job_suspend(&requeued, theirs), QLESS_ELOCK);
	CU_ASSERT_EQUAL(requeued, 0);
	TH_OK(qless_job_started(job));
	json_t *t = tree_of(c, qless_job_jid(job));
	CU_ASSERT(json_is_number(json_object_get(t, "started")));
	json_decref(t);
	TH_OK(qless_job_suspend(&requeued, job));
	CU_ASSERT_EQUAL(requeued, 0);
	TH_STREQ(qless_job_state(job), "suspended");
	TH_STREQ(qless_job_worker(job), "");
	CU_ASSERT_EQUAL(qless_job_expires(job), 0);
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:q-suspended"), 1);
	TH_OK(qless_client_job_run(&state, c, qless_job_jid(job), 0));
	TH_STREQ(state, "waiting");
	qless_free(state);
	TH_OK(qless_client_job_run(NULL, c, qless_job_jid(job), 0));   /* queued: no change */
	qless_job_free(job);
	job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_OK(qless_client_job_run(&state, c, qless_job_jid(job), 0));
	TH_STREQ(state, "running");
	qless_free(state);
	TH_OK(qless_job_suspend(&requeued, job));
	CU_ASSERT_EQUAL(requeued, 1);
	TH_STREQ(qless_job_state(job), "waiting");
	TH_RC(qless_job_suspend(NULL, job), QLESS_ELOCK);
	TH_RC(qless_client_job_run(NULL, c, "nobody", 0), QLESS_ENOTFOUND);
	qless_job_free(theirs);
	qless_job_free(job);
	qless_client_free(other);
	qless_client_free(c);
}

static void test_aliases(void)
{
	qless_client *c = th_client("w");
	const char *two[] = { "nightly", "b" }, *gone[] = { "b", "never" }, *bad[] = { "has space" };
	int64_t n = -1;
	char *jid = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_tree(c);
	TH_OK(qless_client_alias_set(&n, c, "t", two, 2));
	CU_ASSERT_EQUAL(n, 1);   /* nightly was the job's already */
	TH_OK(qless_client_alias_get(&jid, c, "b"));
	TH_STREQ(jid, "t");
	qless_free(jid);
	TH_RC(qless_client_alias_set(&n, c, "c", two, 1), QLESS_ESTATE);   /* already used */
	CU_ASSERT_EQUAL(n, 0);
	TH_RC(qless_client_alias_set(NULL, c, "c", bad, 1), QLESS_EINVAL);
	TH_OK(qless_client_alias_del(&n, c, gone, 2));
	CU_ASSERT_EQUAL(n, 1);
	TH_OK(qless_client_alias_get(&jid, c, "b"));
	CU_ASSERT_PTR_NULL(jid);
	qless_client_free(c);
}

/* K2: the features a database records are read at connect; one this
 * library lacks refuses every call before its command is sent. */
static void test_features(void)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	char *f = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_OK(qless_client_features(&f, c));
	TH_STREQ(f, "{}");
	qless_free(f);
	TH_OK(qless_queue_new(&q, c, "q"));
	TH_OK(qless_queue_recur_cron(NULL, q, "K", NULL, "@daily", NULL));
	qless_queue_free(q);
	freeReplyObject(th_cmd("HSET ql:features later 9.0"));
	/* A client connects when made. */
	qless_client *late = NULL;
	TH_RC(qless_client_new(&late, th_url(), NULL), QLESS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "feature \"later\" (script version 9.0)"));
	CU_ASSERT_PTR_NULL(late);
	/* One connected before: at its next connect. */
	long long keys = th_int("DBSIZE");
	freeReplyObject(th_cmd("CLIENT KILL TYPE normal SKIPME yes"));
	TH_RC(qless_client_job_run(NULL, c, "t", 0), QLESS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "feature \"later\""));
	CU_ASSERT_EQUAL(th_int("DBSIZE"), keys);
	freeReplyObject(th_cmd("HDEL ql:features later"));
	late = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(late);
	TH_OK(qless_client_features(&f, late));
	json_t *j = th_json(f);
	CU_ASSERT(j != NULL && json_object_size(j) == 1 && json_is_string(json_object_get(j, "cron")));
	json_decref(j);
	qless_free(f);
	qless_client_free(late);
	qless_client_free(c);
}

/* job_terminate (recursive, idempotent), the shutdown run handed out as
 * terminating and ended by qless_job_terminated, and the refusals of each
 * mapped to their codes. */
static void test_terminate(void)
{
	qless_client *c = th_client("w");
	char *out = NULL, *list = NULL;
	int64_t n = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_tree(c);
	qless_job *job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	const char *jid = qless_job_jid(job);
	TH_OK(qless_job_started(job));
	TH_RC(qless_job_terminated(job), QLESS_ESTATE);   /* is not terminating */
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "is not terminating"));
	TH_OK(qless_client_job_terminate(&n, c, "t", 0));
	CU_ASSERT_EQUAL(n, 1);
	TH_OK(qless_client_job_terminate(&n, c, "t", 1));   /* only the child changes now */
	CU_ASSERT_EQUAL(n, 1);
	TH_OK(qless_client_job_terminate(&n, c, "t", 1));
	CU_ASSERT_EQUAL(n, 0);
	TH_RC(qless_client_job_run(&out, c, "t", 0), QLESS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "cannot go from terminating to waiting"));
	CU_ASSERT_PTR_NULL(out);
	qless_strlist *terminating = NULL;
	TH_OK(qless_client_jobs(&terminating, c, "terminating", "q", 0, 25));
	CU_ASSERT(qless_strlist_size(terminating) == 1 && strcmp(qless_strlist_get(terminating, 0), jid) == 0);
	qless_strlist_free(terminating);
	/* The started one holds a shutdown run; its old lock went with the termination. */
	TH_RC(qless_job_terminated(job), QLESS_ELOCK);
	qless_job_free(job);
	job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_state(job), "terminating");
	qless_job *theirs = NULL;
	qless_client *other = th_client("other");
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	TH_OK(qless_client_get_job(&theirs, other, qless_job_jid(job)));
	TH_RC(qless_job_terminated(theirs), QLESS_ELOCK);   /* another worker */
	TH_OK(qless_job_terminated(job));
	TH_STREQ(qless_job_state(job), "terminated");
	TH_STREQ(qless_job_worker(job), "");
	TH_OK(qless_client_tree_get(&list, c, "t"));
	json_t *t = list ? th_json(list) : NULL;
	TH_STREQ(jstr(t, "state"), "terminated");
	json_decref(t);
	qless_free(list);
	TH_OK(qless_client_job_run(&out, c, "t", 0));   /* a restart */
	TH_STREQ(out, "waiting");
	qless_free(out);
	qless_job_free(theirs);
	qless_job_free(job);
	qless_client_free(other);
	qless_client_free(c);
}

CU_TestInfo tree_tests[] = {
	{ "put_v3", test_put_v3 },
	{ "put_options_v2", test_put_options_v2 },
	{ "tree_get_missing", test_tree_get_missing },
	{ "adopt_disown", test_adopt_disown },
	{ "run_cycle", test_run_cycle },
	{ "aliases", test_aliases },
	{ "features", test_features },
	{ "terminate", test_terminate },
	CU_TEST_INFO_NULL,
};
