/* Namespaces (docs/cluster.md): the client option and URL parameter, the
 * keys and channels a namespaced client uses, and the names refused. */
#include "helper.h"

#include <stdlib.h>
#include <string.h>

static qless_client *ns_client(const char *url, const char *ns)
{
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	qless_client *c = NULL;
	o.namespace_name = ns;
	TH_OK(qless_client_new(&c, url, &o));
	return c;
}

static void test_option_keys(void)
{
	qless_client *a = ns_client(th_url(), "a"), *plain = ns_client(th_url(), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
	TH_STREQ(qless_client_namespace(a), "a");
	CU_ASSERT_PTR_NULL(qless_client_namespace(plain));
	char *jid = th_put(a, "q", "K", NULL, NULL);
	CU_ASSERT_FATAL(th_is_jid(jid));
	CU_ASSERT_EQUAL(th_int("EXISTS {a}:ql:j:%s", jid), 1);
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:%s", jid), 0);
	CU_ASSERT_EQUAL(th_int("ZCARD {a}:ql:q:q-work"), 1);
	/* The default database does not see it, the namespace does. */
	qless_job *j = NULL;
	CU_ASSERT_EQUAL(qless_client_get_job(&j, plain, jid), QLESS_ENOTFOUND);
	qless_job *got = th_get(a, jid);
	CU_ASSERT_PTR_NOT_NULL(got);
	qless_job_free(got);
	qless_job *popped = th_pop1(plain, "q");
	CU_ASSERT_PTR_NULL(popped);
	popped = th_pop1(a, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(popped);
	TH_OK(qless_job_complete(popped, NULL));
	qless_job_free(popped);
	/* Every key it wrote is the namespace's (the plain client's pop
	 * registered its worker in ql:workers). */
	redisReply *r = th_cmd("KEYS *");
	CU_ASSERT_FATAL(r != NULL && r->type == REDIS_REPLY_ARRAY);
	CU_ASSERT(r->elements > 3);
	for (size_t i = 0; i < r->elements; i++)
		if (strncmp(r->element[i]->str, "{a}:ql:", 7) != 0 && strcmp(r->element[i]->str, "ql:workers") != 0) {
			fprintf(stderr, "\n  key outside the namespace: %s\n", r->element[i]->str);
			CU_FAIL("key outside the namespace");
		}
	freeReplyObject(r);
	qless_free(jid);
	qless_client_free(a);
	qless_client_free(plain);
}

static void test_url_parameter(void)
{
	char url[700];
	snprintf(url, sizeof url, "redis://127.0.0.1:%d/0?namespace=u1", th_port());
	qless_client *c = ns_client(url, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_STREQ(qless_client_namespace(c), "u1");
	char *jid = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_EQUAL(th_int("EXISTS {u1}:ql:j:%s", jid), 1);
	qless_free(jid);
	qless_client_free(c);
	/* Without a path, on a unix socket, and with the same option. */
	snprintf(url, sizeof url, "redis://127.0.0.1:%d?namespace=u2", th_port());
	c = ns_client(url, "u2");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	jid = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_EQUAL(th_int("EXISTS {u2}:ql:j:%s", jid), 1);
	qless_free(jid);
	qless_client_free(c);
	snprintf(url, sizeof url, "unix://%s?db=0&namespace=u3", th_socket());
	c = ns_client(url, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	jid = th_put(c, "q", "K", NULL, NULL);
	CU_ASSERT_EQUAL(th_int("EXISTS {u3}:ql:j:%s", jid), 1);
	qless_free(jid);
	qless_client_free(c);
}

static void test_bad_names(void)
{
	char url[700], long_name[70];
	const char *bad[] = { "", "a/b", "{a", "a}", "a b", "tab\t", "\xc3\xa9", long_name, NULL };
	memset(long_name, 'n', 65);
	long_name[65] = '\0';
	for (int i = 0; bad[i]; i++) {
		qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
		qless_client *c = NULL;
		o.namespace_name = bad[i];
		long long before = th_commands();
		int rc = qless_client_new(&c, th_url(), &o);
		CU_ASSERT_EQUAL(rc, QLESS_EINVAL);
		CU_ASSERT_PTR_NULL(c);
		CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "namespace"));
		CU_ASSERT_EQUAL(th_commands(), before + 1); /* only the INFO of th_commands */
		if (c)
			qless_client_free(c);
	}
	/* 64 characters are fine. */
	long_name[64] = '\0';
	qless_client *c = ns_client(th_url(), long_name);
	CU_ASSERT_PTR_NOT_NULL(c);
	qless_client_free(c);
	/* The option and the URL disagree. */
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	o.namespace_name = "x";
	snprintf(url, sizeof url, "redis://127.0.0.1:%d/0?namespace=y", th_port());
	c = NULL;
	CU_ASSERT_EQUAL(qless_client_new(&c, url, &o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "differ"));
	CU_ASSERT_PTR_NULL(c);
	snprintf(url, sizeof url, "redis://127.0.0.1:%d/0?namespace=", th_port());
	CU_ASSERT_EQUAL(qless_client_new(&c, url, NULL), QLESS_EINVAL);
	snprintf(url, sizeof url, "redis://127.0.0.1:%d/0?namespace=a%%2Fb", th_port());
	CU_ASSERT_EQUAL(qless_client_new(&c, url, NULL), QLESS_EINVAL);
	/* A version-1 options struct (no namespace field) still works. */
	qless_client_options v1 = QLESS_CLIENT_OPTIONS_INIT;
	v1.version = 1;
	v1.namespace_name = "ignored";
	TH_OK(qless_client_new(&c, th_url(), &v1));
	CU_ASSERT_PTR_NULL(qless_client_namespace(c));
	qless_client_free(c);
}

static void test_events_and_tags(void)
{
	qless_client *a = ns_client(th_url(), "ev"), *plain = ns_client(th_url(), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	const char *channels[] = { "log" };
	qless_events *ev = NULL;
	TH_OK(qless_events_new(&ev, a, channels, 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	char *jid = th_put(plain, "q", "K", NULL, NULL); /* not this namespace's */
	qless_free(jid);
	jid = th_put(a, "q", "K", NULL, NULL);
	char *ch = NULL, *msg = NULL;
	TH_OK(qless_events_next(&ch, &msg, ev, 5000));
	TH_STREQ(ch, "log");
	CU_ASSERT_PTR_NOT_NULL(msg && strstr(msg, jid));
	qless_free(ch);
	qless_free(msg);
	TH_OK(qless_events_next(&ch, &msg, ev, 100));
	CU_ASSERT_PTR_NULL(ch);
	qless_events_free(ev);
	/* Tag counts come from the namespace's ql:tags. */
	qless_job *j = th_get(a, jid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	const char *tags[] = { "t" };
	TH_OK(qless_job_tag_add(j, tags, 1));
	TH_OK(qless_job_tag_add(j, tags, 1));
	char *jid2 = th_put(a, "q", "K", NULL, NULL);
	qless_job *j2 = th_get(a, jid2);
	TH_OK(qless_job_tag_add(j2, tags, 1));
	qless_strlist *top = NULL;
	TH_OK(qless_client_top_tags(&top, a, 0, 10));
	CU_ASSERT_FATAL(top != NULL && qless_strlist_size(top) == 1);
	CU_ASSERT_EQUAL(qless_strlist_number(top, 0), 3); /* each tag_add counts */
	qless_strlist_free(top);
	qless_job_free(j);
	qless_job_free(j2);
	qless_free(jid);
	qless_free(jid2);
	qless_client_free(a);
	qless_client_free(plain);
}

static void test_features_per_namespace(void)
{
	/* A feature recorded in one namespace is that namespace's only: a newer
	 * script's data elsewhere does not refuse this one. */
	redisReply *r = th_cmd("HSET ql:features future 9.9.9");
	freeReplyObject(r);
	qless_client *a = ns_client(th_url(), "f");
	CU_ASSERT_PTR_NOT_NULL(a);
	qless_client_free(a);
	r = th_cmd("HSET {f}:ql:features future 9.9.9");
	freeReplyObject(r);
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	o.namespace_name = "f";
	qless_client *c = NULL;
	CU_ASSERT_EQUAL(qless_client_new(&c, th_url(), &o), QLESS_ESTATE);
	CU_ASSERT_PTR_NULL(c);
}

static void test_cross_namespace_refused(void)
{
	qless_client *a = ns_client(th_url(), "a"), *plain = ns_client(th_url(), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	char *jid = th_put(a, "q", "K", NULL, NULL);
	const char *deps[] = { "b/x" };
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.depends = deps;
	o.ndepends = 1;
	long long before = th_commands();
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, a, "q"));
	char *out = NULL;
	CU_ASSERT_EQUAL(qless_queue_put(&out, q, "K", NULL, &o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "namespace \"b\""));
	CU_ASSERT_PTR_NULL(out);
	o.depends = NULL;
	o.ndepends = 0;
	o.parent = "b/root";
	o.name = "kid";
	CU_ASSERT_EQUAL(qless_queue_put(&out, q, "K", NULL, &o), QLESS_EINVAL);
	CU_ASSERT_EQUAL(qless_client_job_adopt(a, jid, "kid", "c/j"), QLESS_EINVAL);
	CU_ASSERT_EQUAL(th_commands(), before + 1);
	qless_job *j = th_get(a, jid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(qless_job_depends_add(j, deps, 1), QLESS_EINVAL);
	qless_job_free(j);
	/* Without a namespace a '/' is just part of a jid (as ever). */
	qless_queue *pq = NULL;
	TH_OK(qless_queue_new(&pq, plain, "q"));
	o = (qless_put_options)QLESS_PUT_OPTIONS_INIT;
	o.depends = deps;
	o.ndepends = 1;
	TH_OK(qless_queue_put(&out, pq, "K", NULL, &o));
	qless_free(out);
	qless_queue_free(pq);
	qless_queue_free(q);
	qless_free(jid);
	qless_client_free(a);
	qless_client_free(plain);
}

static void test_worker_queues(void)
{
	qless_client *a = ns_client(th_url(), "a"), *plain = ns_client(th_url(), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	const char *mine[] = { "a/q", "q2" }, *theirs[] = { "b/q" }, *bad[] = { "a{/q" };
	qless_worker *w = NULL;
	/* Another namespace's queue (or any, from a client without one): refused. */
	CU_ASSERT_EQUAL(qless_worker_new(&w, a, theirs, 1, NULL), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "one worker serves one namespace"));
	CU_ASSERT_EQUAL(qless_worker_new(&w, plain, mine, 1, NULL), QLESS_EINVAL);
	CU_ASSERT_EQUAL(qless_worker_new(&w, a, bad, 1, NULL), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(w);
	/* Its own namespace's: the queue itself. */
	TH_OK(qless_worker_new(&w, a, mine, 2, NULL));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	char *jid = th_put(a, "q", "K", NULL, NULL);
	qless_job *job = NULL;
	TH_OK(qless_worker_reserve(&job, w));
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_jid(job), jid);
	TH_STREQ(qless_job_queue(job), "q");
	qless_job_free(job);
	qless_worker_free(w);
	qless_free(jid);
	qless_client_free(a);
	qless_client_free(plain);
}

CU_TestInfo namespace_tests[] = {
	{ "worker_queues", test_worker_queues },
	{ "cross_namespace_refused", test_cross_namespace_refused },
	{ "option_keys", test_option_keys },
	{ "url_parameter", test_url_parameter },
	{ "bad_names", test_bad_names },
	{ "events_and_tags", test_events_and_tags },
	{ "features_per_namespace", test_features_per_namespace },
	CU_TEST_INFO_NULL,
};
