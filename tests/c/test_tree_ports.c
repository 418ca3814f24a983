/* The C ABI of ports, channels, per-job state and the worker registry
 * (qless/tree.h), and the §11 pipeline of jobtrees.md run through it. */
#include "helper.h"

#include <stdlib.h>

/* A tree job jid in queue "pipes" of klass klass, with version-3 options
 * parent/name (NULL: a root) and inports. */
static void put_job(qless_client *c, const char *jid, const char *klass, const char *parent, const char *name,
                    const char *inports)
{
	qless_queue *q = NULL;
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	TH_OK(qless_queue_new(&q, c, "pipes"));
	o.jid = jid;
	o.tree = 1;
	o.parent = parent;
	o.name = name;
	o.inports = inports;
	TH_OK(qless_queue_put(NULL, q, klass, NULL, &o));
	qless_queue_free(q);
}

/* *out of a call returning owned text, compared and freed. */
#define TH_TEXT(call_with_out, out, want) do { \
	out = NULL; \
	TH_OK(call_with_out); \
	TH_STREQ(out, want); \
	qless_free(out); \
} while (0)

static void test_ports(void)
{
	qless_client *c = th_client("w");
	const char *values[] = { "{\"a\": 1}", "2", "[3]" }, *star[] = { "*" }, *gone[] = { "x", "never" };
	char *out;
	int64_t n = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_job(c, "j", "K", NULL, NULL, "{\"x\":{},\"d\":{\"default\":5}}");
	TH_OK(qless_port_write(c, "j", QLESS_PORT_IN, "x", values, 3));
	TH_OK(qless_port_size(&n, c, "j", QLESS_PORT_IN, "x"));
	CU_ASSERT_EQUAL(n, 3);
	TH_TEXT(qless_port_peek(&out, c, "j", QLESS_PORT_IN, "x", 1), out, "[{\"a\": 1}]");
	TH_TEXT(qless_port_read(&out, c, "j", QLESS_PORT_IN, "x", 2), out, "[{\"a\": 1},2]");
	TH_TEXT(qless_port_read(&out, c, "j", QLESS_PORT_IN, "x", 1000), out, "[[3]]");
	TH_TEXT(qless_port_read(&out, c, "j", QLESS_PORT_IN, "x", 1), out, "[]");
	TH_TEXT(qless_port_read(&out, c, "j", QLESS_PORT_IN, "d", 1), out, "[5]");
	TH_RC(qless_port_read(&out, c, "j", QLESS_PORT_IN, "undefined", 1), QLESS_ENOTFOUND);
	CU_ASSERT_PTR_NULL(out);
	TH_RC(qless_port_write(c, "j", QLESS_PORT_IN, "*", values, 1), QLESS_EINVAL);
	TH_RC(qless_port_write(c, "j", QLESS_PORT_IN, "a-b", values, 1), QLESS_EINVAL);
	/* Output ports without channels keep what is written for a reader. */
	TH_OK(qless_port_define(c, "j", QLESS_PORT_OUT, "{\"*\":{}}"));
	TH_OK(qless_port_write(c, "j", QLESS_PORT_OUT, "o", values + 1, 1));
	TH_TEXT(qless_port_read(&out, c, "j", QLESS_PORT_OUT, "o", 5), out, "[2]");
	TH_OK(qless_port_remove(&n, c, "j", QLESS_PORT_IN, gone, 2));
	CU_ASSERT_EQUAL(n, 1);
	TH_OK(qless_port_remove(NULL, c, "j", QLESS_PORT_OUT, star, 1));
	json_t *t = NULL;
	TH_OK(qless_client_tree_get(&out, c, "j"));
	t = th_json(out);
	qless_free(out);
	CU_ASSERT(t != NULL && json_object_size(json_object_get(t, "outports")) == 1 &&
	          json_object_get(json_object_get(t, "inports"), "x") == NULL);
	json_decref(t);
	qless_client_free(c);
}

static void test_channels(void)
{
	qless_client *c = th_client("w");
	const char *ab[] = { "/a/b" }, *a[] = { "/a", "/a/b" }, *reserved[] = { "/qless" };
	char *out;
	int64_t n = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_job(c, "s1", "K", NULL, NULL, "{\"in\":{}}");
	put_job(c, "s2", "K", NULL, NULL, "{\"in\":{}}");
	TH_OK(qless_port_connect(&n, c, "s1", QLESS_PORT_IN, "in", ab, 1));
	CU_ASSERT_EQUAL(n, 1);
	TH_OK(qless_port_connect(&n, c, "s2", QLESS_PORT_IN, "in", a, 2));
	CU_ASSERT_EQUAL(n, 2);
	TH_OK(qless_port_connect(&n, c, "s2", QLESS_PORT_IN, "in", a, 2));
	CU_ASSERT_EQUAL(n, 0);
	TH_TEXT(qless_channel_subscribers(&out, c, "/a/b"), out, "[[\"s1\",\"in\"],[\"s2\",\"in\"]]");
	TH_TEXT(qless_channel_subscribers(&out, c, "/nobody"), out, "[]");
	TH_OK(qless_channel_publish(&n, c, "/a/b", "7", NULL));
	CU_ASSERT_EQUAL(n, 2);   /* s2 once, though it subscribes to two levels */
	const char *log[] = { "ch:/qless/log" };
	qless_events *ev = NULL;
	char *channel = NULL, *msg = NULL;
	TH_OK(qless_events_new(&ev, c, log, 1));
	TH_OK(qless_channel_publish(&n, c, "/a", "8", "s1"));
	CU_ASSERT_EQUAL(n, 1);
	/* The publisher named in the log; already published, so not waited for. */
	while (qless_events_next(&channel, &msg, ev, 2000) == QLESS_OK && msg != NULL && !strstr(msg, "\"publish\"")) {
		qless_free(channel);
		qless_free(msg);
	}
	CU_ASSERT(msg != NULL && strstr(msg, "\"job\":\"s1\"") != NULL);
	qless_free(channel);
	qless_free(msg);
	qless_events_free(ev);
	TH_TEXT(qless_port_read(&out, c, "s2", QLESS_PORT_IN, "in", 5), out, "[7,8]");
	TH_OK(qless_port_disconnect(&n, c, "s2", QLESS_PORT_IN, "in", a, 1));
	CU_ASSERT_EQUAL(n, 1);
	TH_RC(qless_channel_publish(&n, c, "/qless/x", "1", NULL), QLESS_EINVAL);   /* K5: reserved */
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "is reserved"));
	TH_RC(qless_port_connect(NULL, c, "s1", QLESS_PORT_OUT, "o", reserved, 1), QLESS_EINVAL);
	TH_RC(qless_channel_publish(NULL, c, "no-slash", "1", NULL), QLESS_EINVAL);
	qless_client_free(c);
}

static void test_state(void)
{
	qless_client *c = th_client("w");
	const char *keys[] = { "a", "none" };
	char *out;
	int64_t n = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_job(c, "j", "K", NULL, NULL, NULL);
	TH_TEXT(qless_state_get(&out, c, "j", NULL), out, "{}");
	TH_OK(qless_state_set(c, "j", "b", "[2]"));
	TH_OK(qless_state_set(c, "j", "a", "{\"x\": 1}"));
	TH_TEXT(qless_state_get(&out, c, "j", "a"), out, "{\"x\": 1}");
	TH_TEXT(qless_state_get(&out, c, "j", NULL), out, "{\"a\":{\"x\": 1},\"b\":[2]}");
	TH_OK(qless_state_get(&out, c, "j", "none"));
	CU_ASSERT_PTR_NULL(out);
	TH_OK(qless_state_del(&n, c, "j", keys, 2));
	CU_ASSERT_EQUAL(n, 1);
	TH_RC(qless_state_set(c, "nobody", "a", "1"), QLESS_ENOTFOUND);
	qless_client_free(c);
}

static void test_registry(void)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	char *out;
	int flag = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_OK(qless_queue_new(&q, c, "pipes"));
	TH_OK(qless_queue_klass_config(&out, q, NULL));
	TH_STREQ(out, "{}");
	qless_free(out);
	TH_OK(qless_queue_register_klass(&flag, q, "Consumer", "{\"inports\":{\"in\":{}}}"));
	CU_ASSERT_EQUAL(flag, 1);
	TH_OK(qless_queue_register_klass(&flag, q, "Consumer", "{\"inports\":{\"in\":{}},\"n\":1}"));
	CU_ASSERT_EQUAL(flag, 0);
	TH_TEXT(qless_queue_klass_config(&out, q, "Consumer"), out, "{\"inports\":{\"in\":{}},\"n\":1}");
	TH_OK(qless_queue_klass_config(&out, q, "Other"));
	CU_ASSERT_PTR_NULL(out);
	TH_RC(qless_queue_register_klass(NULL, q, "Bad", "{\"inports\":[]}"), QLESS_EINVAL);
	put_job(c, "b", "Consumer", NULL, NULL, NULL);
	int64_t n = -1;
	TH_OK(qless_port_size(&n, c, "b", QLESS_PORT_IN, "in"));   /* the registry's port */
	CU_ASSERT_EQUAL(n, 0);
	TH_OK(qless_queue_unregister_klass(&flag, q, "Consumer"));
	CU_ASSERT_EQUAL(flag, 1);
	TH_OK(qless_queue_unregister_klass(&flag, q, "Consumer"));
	CU_ASSERT_EQUAL(flag, 0);
	qless_queue_free(q);
	qless_client_free(c);
}

/* Termination and deletion, and the refusals each maps to a code. */
static void test_terminate_delete(void)
{
	qless_client *c = th_client("w");
	const char *one[] = { "1" };
	char *out = NULL;
	int64_t n = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	put_job(c, "parent-71", "K", NULL, NULL, "{\"in\":{}}");
	put_job(c, "kid-72", "K", "parent-71", "kid", NULL);
	qless_job *job = th_pop1(c, "pipes");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_OK(qless_job_started(job));
	TH_RC(qless_job_terminated(job), QLESS_ESTATE);   /* is not terminating */
	TH_RC(qless_client_job_delete(&n, c, "parent-71"), QLESS_ESTATE);   /* is not terminated */
	TH_OK(qless_client_job_terminate(&n, c, "parent-71", 1));
	CU_ASSERT_EQUAL(n, 2);
	TH_OK(qless_client_job_terminate(&n, c, "parent-71", 1));
	CU_ASSERT_EQUAL(n, 0);
	TH_RC(qless_job_terminated(job), QLESS_ELOCK);   /* its lock went with the termination */
	TH_RC(qless_client_job_run(&out, c, qless_job_jid(job), 0), QLESS_ESTATE);   /* cannot go from terminating */
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "cannot go from terminating"));
	qless_job_free(job);
	job = th_pop1(c, "pipes");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_state(job), "terminating");
	TH_OK(qless_job_terminated(job));
	TH_STREQ(qless_job_state(job), "terminated");
	TH_STREQ(qless_job_worker(job), "");
	TH_RC(qless_port_write(c, "parent-71", QLESS_PORT_IN, "in", one, 1), QLESS_ESTATE);   /* is terminated */
	TH_OK(qless_client_job_delete(&n, c, "parent-71"));
	CU_ASSERT_EQUAL(n, 2);
	for (int i = 0; i < 2; i++) {
		redisReply *r = th_cmd(i ? "KEYS *kid-72*" : "KEYS *parent-71*");
		CU_ASSERT(r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 0);
		freeReplyObject(r);
	}
	TH_RC(qless_client_job_delete(&n, c, "parent-71"), QLESS_ENOTFOUND);
	qless_job_free(job);
	qless_client_free(c);
}

CU_TestInfo tree_port_tests[] = {
	{ "ports", test_ports },
	{ "channels", test_channels },
	{ "state", test_state },
	{ "registry", test_registry },
	{ "terminate_delete", test_terminate_delete },
	CU_TEST_INFO_NULL,
};
