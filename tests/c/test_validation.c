/* Argument checks shared by the API: JSON the script can decode (nesting
 * included), finite numbers, and messages that name the argument as the
 * caller knows it. */
#include "helper.h"

#include <stdlib.h>

/* depth nested arrays, or objects when objects is set: "[[...]]". */
static char *nested(int depth, int objects)
{
	size_t unit = objects ? 5 : 1, n = (size_t)depth * (unit + 1) + 2;
	char *s = malloc(n), *p = s;
	if (s == NULL)
		return NULL;
	for (int i = 0; i < depth; i++) {
		memcpy(p, objects ? "{\"a\":" : "[", unit);
		p += unit;
	}
	if (objects)
		*p++ = '1';
	for (int i = 0; i < depth; i++)
		*p++ = objects ? '}' : ']';
	*p = '\0';
	return s;
}

/* Queue "q" on a new client (both owned; NULL on failure). */
static qless_queue *queue_q(qless_client **c)
{
	qless_queue *q = NULL;
	*c = th_client(NULL);
	if (*c != NULL)
		TH_OK(qless_queue_new(&q, *c, "q"));
	return q;
}

static void no_c_names(void)
{
	const char *msg = qless_error_last_message();
	if (strstr(msg, "->") != NULL) {
		CU_FAIL("the message names a C expression");
		fprintf(stderr, "\n  %s\n", msg);
	}
}

/* The script's decoder takes 1000 levels: that much is stored and read
 * back, one more is QLESS_EINVAL before anything is sent, for every call
 * that takes JSON data; brackets inside strings do not count. */
static void test_json_depth(void)
{
	qless_client *c = NULL;
	qless_queue *q = queue_q(&c);
	char *jid = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	for (int objects = 0; objects < 2; objects++) {
		char *ok = nested(1000, objects), *deep = nested(1001, objects);
		CU_ASSERT_FATAL(ok != NULL && deep != NULL);
		TH_OK(qless_queue_put(&jid, q, "K", ok, NULL));
		qless_job *job = jid ? th_get(c, jid) : NULL;
		CU_ASSERT_PTR_NOT_NULL(job);
		if (job != NULL) {
			json_t *a = th_json(qless_job_data(job)), *b = th_json(ok);
			CU_ASSERT(a != NULL && json_equal(a, b));
			json_decref(a);
			json_decref(b);
			TH_RC(qless_job_set_data(job, deep), QLESS_EINVAL);
			TH_RC(qless_job_log(job, "m", deep), QLESS_EINVAL);
		}
		qless_job_free(job);
		qless_free(jid);
		jid = NULL;
		long long keys = th_int("DBSIZE");
		TH_RC(qless_queue_put(&jid, q, "K", deep, NULL), QLESS_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "qless_queue_put: data is nested deeper"));
		TH_RC(qless_queue_recur(&jid, q, "K", deep, 60, NULL), QLESS_EINVAL);
		CU_ASSERT_EQUAL(th_int("DBSIZE"), keys);
		free(ok);
		free(deep);
	}
	/* Brackets in strings are text, not nesting. */
	char *text = nested(1500, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	json_t *s = json_string(text);
	char *data = json_dumps(s, JSON_ENCODE_ANY);
	TH_OK(qless_queue_put(&jid, q, "K", data, NULL));
	qless_free(jid);
	free(data);
	json_decref(s);
	free(text);
	qless_queue_free(q);
	qless_client_free(c);
}

/* Refused options name the field (jid, delay, priority, ...), not the C
 * expression opts->field. */
static void test_messages_name_arguments(void)
{
	qless_client *c = NULL;
	qless_queue *q = queue_q(&c);
	char *jid = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	qless_put_options po = QLESS_PUT_OPTIONS_INIT;
	po.jid = "";
	TH_RC(qless_queue_put(&jid, q, "K", NULL, &po), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "qless_queue_put: jid is empty");
	po.jid = NULL;
	po.delay = 1.0 / 0.0;
	TH_RC(qless_queue_put(&jid, q, "K", NULL, &po), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "qless_queue_put: delay is not finite");
	qless_recur_options ro = QLESS_RECUR_OPTIONS_INIT;
	ro.priority = 0.0 / 0.0;
	TH_RC(qless_queue_recur(&jid, q, "K", NULL, 60, &ro), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "qless_queue_recur: priority is not finite");
	no_c_names();
	ro = (qless_recur_options)QLESS_RECUR_OPTIONS_INIT;
	ro.jid = "";
	TH_RC(qless_queue_recur(&jid, q, "K", NULL, 60, &ro), QLESS_EINVAL);
	no_c_names();
	qless_queue *bad = NULL;
	TH_RC(qless_queue_new(&bad, c, ""), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "qless_queue_new: queue name is empty");
	qless_client_options co = QLESS_CLIENT_OPTIONS_INIT;
	qless_client *c2 = NULL;
	co.worker_name = "";
	TH_RC(qless_client_new(&c2, th_url(), &co), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "qless_client_new: worker name is empty");
	qless_queue_free(q);
	qless_client_free(c);
}

CU_TestInfo validation_tests[] = {
	{ "json_depth", test_json_depth },
	{ "messages_name_arguments", test_messages_name_arguments },
	CU_TEST_INFO_NULL,
};
