/* qless_heartbeater: background lock renewal, and lost-lock detection. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <stdlib.h>
#include <time.h>

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static double stored_expires(const char *jid)
{
	char *s = th_str("HGET ql:j:%s expires", jid);
	double v = s ? strtod(s, NULL) : -1;
	free(s);
	return v;
}

static void test_beats(void)
{
	qless_client *c = th_client("hb-worker");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *jid = th_put(c, "q", "K", NULL, NULL);
	qless_job *job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	double first = stored_expires(jid);
	CU_ASSERT(first > 0);

	qless_heartbeater *hb = NULL;
	TH_RC(qless_heartbeater_new(&hb, job, 0), QLESS_EINVAL);
	TH_RC(qless_heartbeater_new(&hb, job, -1), QLESS_EINVAL);
	TH_RC(qless_heartbeater_new(&hb, NULL, 1), QLESS_EINVAL);
	TH_RC(qless_heartbeater_new(NULL, job, 1), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(hb);

	/* Later heartbeats are sent at a later "now": move the client clock so
	 * the renewed expiry is visibly larger. */
	TH_OK(qless_client_set_time_offset(c, 30));
	TH_OK(qless_heartbeater_new(&hb, job, 0.05));
	CU_ASSERT_PTR_NOT_NULL_FATAL(hb);
	/* The job handle stays usable by this thread meanwhile. */
	TH_STREQ(qless_job_jid(job), jid);
	int64_t beats = 0;
	for (int i = 0; i < 100 && beats < 3; i++) {
		sleep_ms(30);
		beats = qless_heartbeater_beats(hb);
	}
	CU_ASSERT(beats >= 3);
	CU_ASSERT_EQUAL(qless_heartbeater_lost(hb), 0);
	CU_ASSERT(stored_expires(jid) > first + 20);
	qless_heartbeater_free(hb);
	/* Stopped: no more beats after free (expiry stays put). */
	double after = stored_expires(jid);
	sleep_ms(150);
	CU_ASSERT_EQUAL(stored_expires(jid), after);
	TH_OK(qless_job_complete(job, NULL));
	qless_heartbeater_free(NULL);
	CU_ASSERT_EQUAL(qless_heartbeater_beats(NULL), 0);
	CU_ASSERT_EQUAL(qless_heartbeater_lost(NULL), 0);
	qless_job_free(job);
	qless_free(jid);
	qless_client_free(c);
}

static void test_lost(void)
{
	qless_client *c = th_client("hb-worker");
	qless_client *other = th_client("other");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	char *jid = th_put(c, "q", "K", NULL, NULL);
	qless_job *job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	qless_heartbeater *hb = NULL;
	TH_OK(qless_heartbeater_new(&hb, job, 0.05));
	CU_ASSERT_PTR_NOT_NULL_FATAL(hb);
	/* Free the job and client handles: the thread keeps its own copies. */
	qless_job_free(job);
	qless_client_free(c);
	/* Another worker moves the job away: the next heartbeat is refused. */
	qless_job *view = th_get(other, jid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(view);
	TH_OK(qless_job_requeue(view, "elsewhere", NULL));
	int lost = 0;
	for (int i = 0; i < 100 && !lost; i++) {
		sleep_ms(30);
		lost = qless_heartbeater_lost(hb);
	}
	CU_ASSERT_EQUAL(lost, 1);
	int64_t beats = qless_heartbeater_beats(hb);
	sleep_ms(150);
	CU_ASSERT_EQUAL(qless_heartbeater_beats(hb), beats); /* thread stopped */
	qless_heartbeater_free(hb);
	qless_job_free(view);
	qless_free(jid);
	qless_client_free(other);
}

CU_TestInfo heartbeater_tests[] = {
	{ "beats", test_beats },
	{ "lost", test_lost },
	CU_TEST_INFO_NULL,
};
