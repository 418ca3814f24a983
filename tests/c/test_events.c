/* qless_events: pub/sub on the protocol's channels, exact messages (§9.2). */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <stdlib.h>

/* Expects the next message (within 2 s) to be exactly channel/message. */
static void expect_msg(qless_events *ev, const char *channel, const char *message)
{
	char *ch = NULL, *msg = NULL;
	TH_OK(qless_events_next(&ch, &msg, ev, 2000));
	CU_ASSERT_PTR_NOT_NULL(ch);
	CU_ASSERT_PTR_NOT_NULL(msg);
	if (ch && msg) {
		TH_STREQ(ch, channel);
		TH_STREQ(msg, message);
	} else {
		fprintf(stderr, "\n  no message, expected %s: %s\n", channel, message);
	}
	qless_free(ch);
	qless_free(msg);
}

static void expect_nothing(qless_events *ev, int timeout_ms)
{
	char *ch = (char *)"x", *msg = (char *)"y";
	TH_OK(qless_events_next(&ch, &msg, ev, timeout_ms));
	CU_ASSERT_PTR_NULL(ch);
	CU_ASSERT_PTR_NULL(msg);
	if (ch && strcmp(ch, "x") != 0) {
		fprintf(stderr, "\n  unexpected %s: %s\n", ch, msg ? msg : "");
		qless_free(ch);
		qless_free(msg);
	}
}

static void test_log_put(void)
{
	qless_client *c = th_client("worker");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	const char *chans[] = { "log" };
	qless_events *ev = NULL;
	TH_OK(qless_events_new(&ev, c, chans, 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	expect_nothing(ev, 0);
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.jid = "jid";
	char *jid = th_put(c, "queue", "klass", NULL, &o);
	TH_STREQ(jid, "jid");
	expect_msg(ev, "log", "{\"jid\":\"jid\",\"event\":\"put\",\"queue\":\"queue\"}");
	/* A random jid, and a queue name that needs cjson's escaping of '/'. */
	char *j2 = th_put(c, "a/b", "klass", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j2);
	char want[200];
	snprintf(want, sizeof want, "{\"jid\":\"%s\",\"event\":\"put\",\"queue\":\"a\\/b\"}", j2);
	expect_msg(ev, "log", want);
	expect_nothing(ev, 100);
	qless_free(jid);
	qless_free(j2);
	qless_events_free(ev);
	qless_client_free(c);
}

static void test_lifecycle_messages(void)
{
	qless_client *c = th_client("worker");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	const char *chans[] = { "log", "track", "completed", "failed", "popped", "put", "canceled", "w:worker" };
	qless_events *ev = NULL;
	TH_OK(qless_events_new(&ev, c, chans, 8));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);

	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.jid = "jid";
	char *jid = th_put(c, "queue", "klass", NULL, &o);
	expect_msg(ev, "log", "{\"jid\":\"jid\",\"event\":\"put\",\"queue\":\"queue\"}");
	qless_job *job = th_get(c, "jid");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_OK(qless_job_track(job));
	expect_msg(ev, "track", "jid");
	qless_job *run = th_pop1(c, "queue");
	CU_ASSERT_PTR_NOT_NULL_FATAL(run);
	expect_msg(ev, "popped", "jid");
	TH_OK(qless_job_complete(run, NULL));
	expect_msg(ev, "completed", "jid");
	expect_msg(ev, "log", "{\"jid\":\"jid\",\"event\":\"completed\",\"queue\":\"queue\"}");

	/* put again (tracked), pop, fail. */
	TH_OK(qless_job_requeue(job, "queue", NULL));
	expect_msg(ev, "log", "{\"jid\":\"jid\",\"event\":\"put\",\"queue\":\"queue\"}");
	expect_msg(ev, "put", "jid");
	qless_job_free(run);
	run = th_pop1(c, "queue");
	CU_ASSERT_PTR_NOT_NULL_FATAL(run);
	expect_msg(ev, "popped", "jid");
	TH_OK(qless_job_fail(run, "grp", "mess"));
	expect_msg(ev, "log", "{\"message\":\"mess\",\"jid\":\"jid\",\"group\":\"grp\",\"event\":\"failed\",\"worker\":\"worker\"}");
	expect_msg(ev, "failed", "jid");

	/* Running job canceled: log, then the worker's channel, then canceled. */
	TH_OK(qless_job_requeue(job, "queue", NULL));
	expect_msg(ev, "log", "{\"jid\":\"jid\",\"event\":\"put\",\"queue\":\"queue\"}");
	expect_msg(ev, "put", "jid");
	qless_job_free(run);
	run = th_pop1(c, "queue");
	CU_ASSERT_PTR_NOT_NULL_FATAL(run);
	expect_msg(ev, "popped", "jid");
	TH_OK(qless_job_cancel(job));
	const char *cm = "{\"jid\":\"jid\",\"queue\":\"queue\",\"event\":\"canceled\",\"worker\":\"worker\"}";
	expect_msg(ev, "log", cm);
	expect_msg(ev, "w:worker", cm);
	expect_msg(ev, "canceled", "jid");

	/* config events. */
	TH_OK(qless_client_config_set(c, "foo", "bar"));
	expect_msg(ev, "log", "{\"option\":\"foo\",\"event\":\"config_set\",\"value\":\"bar\"}");
	TH_OK(qless_client_config_unset(c, "foo"));
	expect_msg(ev, "log", "{\"event\":\"config_unset\",\"option\":\"foo\"}");
	expect_nothing(ev, 50);

	qless_job_free(run);
	qless_job_free(job);
	qless_free(jid);
	qless_events_free(ev);
	qless_client_free(c);
}

static void test_lock_lost(void)
{
	qless_client *c = th_client("worker");
	qless_client *other = th_client("another");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	const char *chans[] = { "w:worker", "log" };
	qless_events *ev = NULL;
	TH_OK(qless_events_new(&ev, c, chans, 2));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.jid = "jid";
	char *jid = th_put(c, "queue", "klass", NULL, &o);
	expect_msg(ev, "log", "{\"jid\":\"jid\",\"event\":\"put\",\"queue\":\"queue\"}");
	qless_job *job = th_pop1(c, "queue");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	expect_nothing(ev, 50); /* pop publishes nothing for an untracked job */
	const char *lost = "{\"jid\":\"jid\",\"event\":\"lock_lost\",\"worker\":\"worker\"}";
	/* timeout: the worker's channel first, then log. */
	TH_OK(qless_job_timeout(job));
	expect_msg(ev, "w:worker", lost);
	expect_msg(ev, "log", lost);
	/* Moved by another worker (§9.3 put order). */
	qless_job_free(job);
	job = th_pop1(c, "queue");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	qless_job *view = th_get(other, "jid");
	CU_ASSERT_PTR_NOT_NULL_FATAL(view);
	TH_OK(qless_job_requeue(view, "another", NULL));
	expect_msg(ev, "log", "{\"jid\":\"jid\",\"event\":\"put\",\"queue\":\"another\"}");
	expect_msg(ev, "w:worker", lost);
	expect_msg(ev, "log", lost);
	expect_nothing(ev, 50);
	qless_job_free(view);
	qless_job_free(job);
	qless_free(jid);
	qless_events_free(ev);
	qless_client_free(other);
	qless_client_free(c);
}

static void test_events_invalid(void)
{
	qless_client *c = th_client("worker");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	qless_events *ev = NULL;
	const char *chans[] = { "log" };
	TH_RC(qless_events_new(&ev, c, chans, 0), QLESS_EINVAL);
	TH_RC(qless_events_new(&ev, c, NULL, 1), QLESS_EINVAL);
	const char *withnull[] = { "log", NULL };
	TH_RC(qless_events_new(&ev, c, withnull, 2), QLESS_EINVAL);
	const char *empty[] = { "" };
	TH_RC(qless_events_new(&ev, c, empty, 1), QLESS_EINVAL);
	TH_RC(qless_events_new(NULL, c, chans, 1), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(ev);
	TH_OK(qless_events_new(&ev, c, chans, 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	char *ch = NULL, *msg = NULL;
	TH_RC(qless_events_next(NULL, &msg, ev, 0), QLESS_EINVAL);
	TH_RC(qless_events_next(&ch, NULL, ev, 0), QLESS_EINVAL);
	/* The subscription outlives the client handle. */
	qless_client_free(c);
	qless_client *c2 = th_client("other");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
	TH_OK(qless_client_config_set(c2, "k", "v"));
	TH_OK(qless_events_next(&ch, &msg, ev, 2000));
	TH_STREQ(ch, "log");
	TH_STREQ(msg, "{\"option\":\"k\",\"event\":\"config_set\",\"value\":\"v\"}");
	qless_free(ch);
	qless_free(msg);
	qless_events_free(ev);
	qless_client_free(c2);
}

CU_TestInfo event_tests[] = {
	{ "log_put", test_log_put },
	{ "lifecycle_messages", test_lifecycle_messages },
	{ "lock_lost", test_lock_lost },
	{ "invalid", test_events_invalid },
	CU_TEST_INFO_NULL,
};
