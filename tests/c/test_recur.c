/* Recurring job templates. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <stdlib.h>

static void test_recur_basic(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	const char *tags[] = { "nightly" };
	qless_recur_options o = QLESS_RECUR_OPTIONS_INIT;
	o.priority = 4;
	o.retries = 2;
	o.tags = tags;
	o.ntags = 1;
	char *rjid = NULL;
	TH_OK(qless_queue_recur(&rjid, q, "Rec.Klass", "{\"r\":1}", 60, &o));
	CU_ASSERT_FATAL(th_is_jid(rjid));
	CU_ASSERT_EQUAL(th_int("EXISTS ql:r:%s", rjid), 1);

	qless_recur *r = NULL;
	TH_OK(qless_client_get_recur(&r, c, rjid));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	TH_STREQ(qless_recur_jid(r), rjid);
	TH_STREQ(qless_recur_klass(r), "Rec.Klass");
	TH_STREQ(qless_recur_queue(r), "q");
	TH_STREQ(qless_recur_data(r), "{\"r\":1}");
	CU_ASSERT_EQUAL(qless_recur_priority(r), 4);
	CU_ASSERT_EQUAL(qless_recur_interval(r), 60);
	CU_ASSERT_EQUAL(qless_recur_retries(r), 2);
	CU_ASSERT_EQUAL(qless_recur_backlog(r), 0);
	CU_ASSERT_EQUAL(qless_recur_count(r), 0);
	CU_ASSERT_EQUAL(qless_recur_tag_count(r), 1);
	TH_STREQ(qless_recur_tag(r, 0), "nightly");
	CU_ASSERT_PTR_NULL(qless_recur_tag(r, 1));
	qless_recur_free(r);

	/* The first instance is due now: <jid>-1, spawned from the template. */
	qless_job *job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	char expect[80];
	snprintf(expect, sizeof expect, "%s-1", rjid);
	TH_STREQ(qless_job_jid(job), expect);
	TH_STREQ(qless_job_spawned_from_jid(job), rjid);
	TH_STREQ(qless_job_klass(job), "Rec.Klass");
	TH_STREQ(qless_job_data(job), "{\"r\":1}");
	CU_ASSERT_EQUAL(qless_job_priority(job), 4);
	CU_ASSERT_EQUAL(qless_job_retries(job), 2);
	CU_ASSERT_EQUAL(qless_job_tag_count(job), 1);
	qless_job_free(job);
	CU_ASSERT_PTR_NULL(th_pop1(c, "q")); /* next one in 60 s */

	/* Two intervals later (client clock moved) two more are due. */
	TH_OK(qless_client_set_time_offset(c, 125));
	qless_joblist *l = NULL;
	TH_OK(qless_queue_pop(&l, q, 10));
	CU_ASSERT_EQUAL(qless_joblist_size(l), 2);
	qless_joblist_free(l);
	r = NULL;
	TH_OK(qless_client_get_recur(&r, c, rjid));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(qless_recur_count(r), 3);
	qless_recur_free(r);

	qless_strlist *js = NULL;
	TH_OK(qless_client_jobs(&js, c, "recurring", "q", 0, 0));
	CU_ASSERT_EQUAL(qless_strlist_size(js), 1);
	TH_STREQ(qless_strlist_get(js, 0), rjid);
	qless_strlist_free(js);

	r = (qless_recur *)0x1;
	TH_RC(qless_client_get_recur(&r, c, "no-such-template"), QLESS_ENOTFOUND);
	CU_ASSERT(r == (qless_recur *)0x1 || r == NULL);
	r = NULL;
	TH_RC(qless_client_get_recur(&r, c, NULL), QLESS_EINVAL);
	TH_RC(qless_client_get_recur(NULL, c, rjid), QLESS_EINVAL);
	qless_free(rjid);
	qless_queue_free(q);
	qless_client_free(c);
}

static void test_recur_invalid(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	char *jid = NULL;
	TH_RC(qless_queue_recur(&jid, q, "K", NULL, 0, NULL), QLESS_EINVAL);
	TH_RC(qless_queue_recur(&jid, q, "K", NULL, -5, NULL), QLESS_EINVAL);
	TH_RC(qless_queue_recur(&jid, q, "K", "{bad", 60, NULL), QLESS_EINVAL);
	TH_RC(qless_queue_recur(&jid, q, NULL, NULL, 60, NULL), QLESS_EINVAL);
	TH_RC(qless_queue_recur(&jid, q, "", NULL, 60, NULL), QLESS_EINVAL);
	qless_recur_options o = QLESS_RECUR_OPTIONS_INIT;
	o.version = 0;
	TH_RC(qless_queue_recur(&jid, q, "K", NULL, 60, &o), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(jid);
	CU_ASSERT_EQUAL(th_int("DBSIZE"), 0);
	/* Given jid, out_jid NULL. */
	qless_recur_options named = QLESS_RECUR_OPTIONS_INIT;
	named.jid = "tmpl";
	named.offset = 3600;
	TH_OK(qless_queue_recur(NULL, q, "K", "[]", 30, &named));
	CU_ASSERT_EQUAL(th_int("EXISTS ql:r:tmpl"), 1);
	CU_ASSERT_PTR_NULL(th_pop1(c, "q")); /* first due in an hour */
	qless_queue_free(q);
	qless_client_free(c);
}

static void test_recur_update(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	qless_recur_options o = QLESS_RECUR_OPTIONS_INIT;
	o.jid = "tmpl";
	o.offset = 1000;
	TH_OK(qless_queue_recur(NULL, q, "K", NULL, 60, &o));
	qless_recur *r = NULL;
	TH_OK(qless_client_get_recur(&r, c, "tmpl"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);

	TH_OK(qless_recur_set_priority(r, 9));
	CU_ASSERT_EQUAL(qless_recur_priority(r), 9);
	TH_OK(qless_recur_set_retries(r, 7));
	CU_ASSERT_EQUAL(qless_recur_retries(r), 7);
	TH_OK(qless_recur_set_interval(r, 120));
	CU_ASSERT_EQUAL(qless_recur_interval(r), 120);
	TH_OK(qless_recur_set_backlog(r, 3));
	CU_ASSERT_EQUAL(qless_recur_backlog(r), 3);
	TH_OK(qless_recur_set_data(r, "{\"v\": 2}"));
	TH_STREQ(qless_recur_data(r), "{\"v\": 2}");
	TH_OK(qless_recur_set_klass(r, "New.Klass"));
	TH_STREQ(qless_recur_klass(r), "New.Klass");
	const char *add[] = { "a", "b" };
	TH_OK(qless_recur_tag_add(r, add, 2));
	CU_ASSERT_EQUAL(qless_recur_tag_count(r), 2);
	const char *rm[] = { "a" };
	TH_OK(qless_recur_tag_remove(r, rm, 1));
	CU_ASSERT_EQUAL(qless_recur_tag_count(r), 1);
	TH_STREQ(qless_recur_tag(r, 0), "b");
	TH_OK(qless_recur_set_queue(r, "q2"));
	TH_STREQ(qless_recur_queue(r), "q2");

	/* Invalid values are refused and change nothing. */
	TH_RC(qless_recur_set_interval(r, 0), QLESS_EINVAL);
	TH_RC(qless_recur_set_data(r, "{nope"), QLESS_EINVAL);
	TH_RC(qless_recur_set_data(r, NULL), QLESS_EINVAL);
	TH_RC(qless_recur_set_klass(r, NULL), QLESS_EINVAL);
	TH_RC(qless_recur_set_klass(r, ""), QLESS_EINVAL);
	TH_RC(qless_recur_set_queue(r, ""), QLESS_EINVAL);
	TH_RC(qless_recur_set_queue(r, NULL), QLESS_EINVAL);
	TH_RC(qless_recur_tag_add(r, NULL, 1), QLESS_EINVAL);
	CU_ASSERT_EQUAL(qless_recur_interval(r), 120);
	TH_STREQ(qless_recur_klass(r), "New.Klass");

	/* Stored as shown. */
	qless_recur *r2 = NULL;
	TH_OK(qless_client_get_recur(&r2, c, "tmpl"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r2);
	CU_ASSERT_EQUAL(qless_recur_priority(r2), 9);
	CU_ASSERT_EQUAL(qless_recur_retries(r2), 7);
	CU_ASSERT_EQUAL(qless_recur_interval(r2), 120);
	CU_ASSERT_EQUAL(qless_recur_backlog(r2), 3);
	TH_STREQ(qless_recur_data(r2), "{\"v\": 2}");
	TH_STREQ(qless_recur_klass(r2), "New.Klass");
	TH_STREQ(qless_recur_queue(r2), "q2");
	CU_ASSERT_EQUAL(qless_recur_tag_count(r2), 1);
	qless_recur_free(r2);

	/* The next instance (in q2) has the new attributes. Changing the
	 * interval from 60 to 120 moved the first due time from +1000 to +1060. */
	TH_OK(qless_client_set_time_offset(c, 1050));
	CU_ASSERT_PTR_NULL(th_pop1(c, "q2"));
	TH_OK(qless_client_set_time_offset(c, 1070));
	qless_job *job = th_pop1(c, "q2");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_jid(job), "tmpl-1");
	TH_STREQ(qless_job_klass(job), "New.Klass");
	CU_ASSERT_EQUAL(qless_job_priority(job), 9);
	CU_ASSERT_EQUAL(qless_job_retries(job), 7);
	TH_STREQ(qless_job_data(job), "{\"v\": 2}");
	qless_job_free(job);

	/* Cancel: gone; instances already made stay. */
	TH_OK(qless_recur_cancel(r));
	CU_ASSERT_EQUAL(th_int("EXISTS ql:r:tmpl"), 0);
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:tmpl-1"), 1);
	qless_recur *gone = NULL;
	TH_RC(qless_client_get_recur(&gone, c, "tmpl"), QLESS_ENOTFOUND);
	TH_RC(qless_recur_set_priority(r, 1), QLESS_ENOTFOUND);
	qless_recur_free(r);
	qless_queue_free(q);
	qless_client_free(c);
}

CU_TestInfo recur_tests[] = {
	{ "basic", test_recur_basic },
	{ "invalid", test_recur_invalid },
	{ "update", test_recur_update },
	CU_TEST_INFO_NULL,
};
