/* Client-side argument checks of qless/tree.h, generated: each round picks
 * a call and one of its arguments, gives that argument a bad value of its
 * kind (NULL, empty, not UTF-8, not JSON, not an object, dir or count out of
 * range, an empty or broken list) and every other argument a good one; the
 * call must be QLESS_EINVAL naming the function and the argument, with
 * nothing sent to the server. Seeded (QLESS_TEST_SEED). */
#include "helper.h"

#include <stdint.h>
#include <stdlib.h>

enum kind {
	K_HANDLE,   /* the client, queue or job: bad is NULL */
	K_OUT,      /* a required out-parameter: bad is NULL */
	K_TEXT,     /* a required name */
	K_OPT_TEXT, /* a name that may be NULL */
	K_JSON,     /* any JSON value */
	K_OBJECT,   /* a JSON object */
	K_OPT_OBJECT,
	K_DIR,
	K_COUNT,
	K_LIST,     /* one or more names */
	K_OPT_LIST, /* none (NULL, 0) or names */
	K_VALUES    /* one or more JSON values */
};

/* The arguments of one call: text slots s[0..3], then the rest. */
typedef struct cargs {
	qless_client *client;
	qless_queue *queue;
	qless_job *job;
	int null_out;
	const char *s[4];
	qless_port_dir dir;
	int64_t count;
	const char *const *list;
	size_t n;
} cargs;

enum { S0, S1, S2, S3, F_HANDLE, F_OUT, F_DIR, F_COUNT, F_LIST };

typedef struct slot {
	int field;
	enum kind kind;
	const char *name;   /* as the message names it */
} slot;

typedef struct call {
	const char *func;
	int (*run)(const cargs *a);
	slot slots[7];
} call;

static char *out_s;
static int64_t out_i;
static int out_flag;

#define OUT(p) (a->null_out ? NULL : (p))

static int run_features(const cargs *a) { return qless_client_features(OUT(&out_s), a->client); }
static int run_tree_get(const cargs *a) { return qless_client_tree_get(OUT(&out_s), a->client, a->s[0]); }
static int run_adopt(const cargs *a) { return qless_client_job_adopt(a->client, a->s[0], a->s[1], a->s[2]); }
static int run_disown(const cargs *a) { return qless_client_job_disown(&out_s, a->client, a->s[0], a->s[1]); }
static int run_started(const cargs *a) { return qless_job_started(a->job); }
static int run_suspend(const cargs *a) { return qless_job_suspend(&out_flag, a->job); }
static int run_terminated(const cargs *a) { return qless_job_terminated(a->job); }
static int run_run(const cargs *a) { return qless_client_job_run(&out_s, a->client, a->s[0], 0); }
static int run_terminate(const cargs *a) { return qless_client_job_terminate(&out_i, a->client, a->s[0], 1); }
static int run_delete(const cargs *a) { return qless_client_job_delete(&out_i, a->client, a->s[0]); }
static int run_alias_set(const cargs *a) { return qless_client_alias_set(&out_i, a->client, a->s[0], a->list, a->n); }
static int run_alias_get(const cargs *a) { return qless_client_alias_get(OUT(&out_s), a->client, a->s[0]); }
static int run_alias_del(const cargs *a) { return qless_client_alias_del(&out_i, a->client, a->list, a->n); }
static int run_define(const cargs *a) { return qless_port_define(a->client, a->s[0], a->dir, a->s[1]); }
static int run_remove(const cargs *a)
{
	return qless_port_remove(&out_i, a->client, a->s[0], a->dir, a->list, a->n);
}
static int run_write(const cargs *a) { return qless_port_write(a->client, a->s[0], a->dir, a->s[1], a->list, a->n); }
static int run_read(const cargs *a)
{
	return qless_port_read(OUT(&out_s), a->client, a->s[0], a->dir, a->s[1], a->count);
}
static int run_peek(const cargs *a)
{
	return qless_port_peek(OUT(&out_s), a->client, a->s[0], a->dir, a->s[1], a->count);
}
static int run_size(const cargs *a) { return qless_port_size(OUT(&out_i), a->client, a->s[0], a->dir, a->s[1]); }
static int run_connect(const cargs *a)
{
	return qless_port_connect(&out_i, a->client, a->s[0], a->dir, a->s[1], a->list, a->n);
}
static int run_disconnect(const cargs *a)
{
	return qless_port_disconnect(&out_i, a->client, a->s[0], a->dir, a->s[1], a->list, a->n);
}
static int run_publish(const cargs *a) { return qless_channel_publish(&out_i, a->client, a->s[0], a->s[1], a->s[2]); }
static int run_subscribers(const cargs *a) { return qless_channel_subscribers(OUT(&out_s), a->client, a->s[0]); }
static int run_state_get(const cargs *a) { return qless_state_get(OUT(&out_s), a->client, a->s[0], a->s[1]); }
static int run_state_set(const cargs *a) { return qless_state_set(a->client, a->s[0], a->s[1], a->s[2]); }
static int run_state_del(const cargs *a) { return qless_state_del(&out_i, a->client, a->s[0], a->list, a->n); }
static int run_register(const cargs *a) { return qless_queue_register_klass(&out_flag, a->queue, a->s[0], a->s[1]); }
static int run_config(const cargs *a) { return qless_queue_klass_config(OUT(&out_s), a->queue, a->s[0]); }
static int run_unregister(const cargs *a) { return qless_queue_unregister_klass(&out_flag, a->queue, a->s[0]); }
/* Put options version 3: s[0] parent, s[1] name, s[2] inports, s[3]
 * by, the list the aliases. */
static int run_put(const cargs *a)
{
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	o.parent = a->s[0];
	o.name = a->s[1];
	o.inports = a->s[2];
	o.outports = a->s[2];
	o.by = a->s[3];
	o.aliases = a->list;
	o.naliases = a->n;
	return qless_queue_put(&out_s, a->queue, "K", NULL, &o);
}

#define CLIENT { F_HANDLE, K_HANDLE, "client" }
#define JID { S0, K_TEXT, "jid" }
#define DIR { F_DIR, K_DIR, "dir" }
#define PORT { S1, K_TEXT, "port" }
#define OUTP(name) { F_OUT, K_OUT, name }

static const call calls[] = {
	{ "qless_client_features", run_features, { CLIENT, OUTP("out_json") } },
	{ "qless_client_tree_get", run_tree_get, { CLIENT, JID, OUTP("out_json") } },
	{ "qless_client_job_adopt", run_adopt,
	  { CLIENT, { S0, K_TEXT, "parent" }, { S1, K_TEXT, "name" }, { S2, K_TEXT, "child" } } },
	{ "qless_client_job_disown", run_disown, { CLIENT, { S0, K_TEXT, "parent" }, { S1, K_TEXT, "name" } } },
	{ "qless_job_started", run_started, { { F_HANDLE, K_HANDLE, "job" } } },
	{ "qless_job_suspend", run_suspend, { { F_HANDLE, K_HANDLE, "job" } } },
	{ "qless_job_terminated", run_terminated, { { F_HANDLE, K_HANDLE, "job" } } },
	{ "qless_client_job_run", run_run, { CLIENT, JID } },
	{ "qless_client_job_terminate", run_terminate, { CLIENT, JID } },
	{ "qless_client_job_delete", run_delete, { CLIENT, JID } },
	{ "qless_client_alias_set", run_alias_set, { CLIENT, JID, { F_LIST, K_LIST, "aliases" } } },
	{ "qless_client_alias_get", run_alias_get, { CLIENT, { S0, K_TEXT, "alias" }, OUTP("out_jid") } },
	{ "qless_client_alias_del", run_alias_del, { CLIENT, { F_LIST, K_LIST, "aliases" } } },
	{ "qless_port_define", run_define, { CLIENT, JID, DIR, { S1, K_OBJECT, "ports_json" } } },
	{ "qless_port_remove", run_remove, { CLIENT, JID, DIR, { F_LIST, K_LIST, "ports" } } },
	{ "qless_port_write", run_write, { CLIENT, JID, DIR, PORT, { F_LIST, K_VALUES, "values" } } },
	{ "qless_port_read", run_read, { CLIENT, JID, DIR, PORT, { F_COUNT, K_COUNT, "count" }, OUTP("out_json") } },
	{ "qless_port_peek", run_peek, { CLIENT, JID, DIR, PORT, { F_COUNT, K_COUNT, "count" }, OUTP("out_json") } },
	{ "qless_port_size", run_size, { CLIENT, JID, DIR, PORT, OUTP("out") } },
	{ "qless_port_connect", run_connect, { CLIENT, JID, DIR, PORT, { F_LIST, K_LIST, "channels" } } },
	{ "qless_port_disconnect", run_disconnect, { CLIENT, JID, DIR, PORT, { F_LIST, K_LIST, "channels" } } },
	{ "qless_channel_publish", run_publish,
	  { CLIENT, { S0, K_TEXT, "channel" }, { S1, K_JSON, "json" }, { S2, K_OPT_TEXT, "from_jid" } } },
	{ "qless_channel_subscribers", run_subscribers, { CLIENT, { S0, K_TEXT, "channel" }, OUTP("out_json") } },
	{ "qless_state_get", run_state_get, { CLIENT, JID, { S1, K_OPT_TEXT, "key" }, OUTP("out_json") } },
	{ "qless_state_set", run_state_set, { CLIENT, JID, { S1, K_TEXT, "key" }, { S2, K_JSON, "json" } } },
	{ "qless_state_del", run_state_del, { CLIENT, JID, { F_LIST, K_LIST, "keys" } } },
	{ "qless_queue_register_klass", run_register,
	  { { F_HANDLE, K_HANDLE, "queue" }, { S0, K_TEXT, "klass" }, { S1, K_OBJECT, "config_json" } } },
	{ "qless_queue_klass_config", run_config,
	  { { F_HANDLE, K_HANDLE, "queue" }, { S0, K_OPT_TEXT, "klass" }, OUTP("out_json") } },
	{ "qless_queue_unregister_klass", run_unregister, { { F_HANDLE, K_HANDLE, "queue" }, { S0, K_TEXT, "klass" } } },
	{ "qless_queue_put", run_put,
	  { { S0, K_TEXT, "parent" }, { S1, K_TEXT, "name" }, { S2, K_OPT_OBJECT, "inports" },
	    { S3, K_OPT_TEXT, "by" }, { F_LIST, K_OPT_LIST, "aliases" } } },
};
#define NCALLS (sizeof calls / sizeof *calls)

static unsigned int seed;

static int pick(int n)
{
	return (int)(rand_r(&seed) % (unsigned)n);
}

static const char *const not_utf8[] = { "\xff", "a\xc3", "\xed\xa0\x80", "\xc0\xaf", "ok\xf5\x80\x80\x80" };
static const char *const not_json[] = { "", "{", "NaN", "[1,]", "0x10", "'a'", "{\"a\":1,}", "\xff" };
static const char *const not_object[] = { "[]", "1", "\"{}\"", "null", " [ {} ]" };
static const char *const names[] = { "j1", "alpha", "x_y", "/a/b", "\xc3\xa9t\xc3\xa9" };
static const char *const jsons[] = { "1", "{\"a\":[1]}", "\"s\"", "[]", "null" };
static const char *const objects[] = { "{}", "{\"a\":{}}", " {\"in\":{\"default\":5}}" };

/* List storage: good names, with one element spoiled when asked. */
static const char *list_buf[3];

static const char *bad_text(int may_null)
{
	int r = pick(may_null ? 3 : 2);
	if (r == 2)
		return NULL;
	return r == 0 ? "" : not_utf8[pick(5)];
}

static void good(cargs *a, const slot *s)
{
	switch (s->kind) {
	case K_TEXT: case K_OPT_TEXT: a->s[s->field] = names[pick(5)]; break;
	case K_JSON: a->s[s->field] = jsons[pick(5)]; break;
	case K_OBJECT: case K_OPT_OBJECT: a->s[s->field] = objects[pick(3)]; break;
	case K_DIR: a->dir = pick(2) ? QLESS_PORT_IN : QLESS_PORT_OUT; break;
	case K_COUNT: a->count = 1 + pick(1000); break;
	case K_LIST: case K_OPT_LIST: case K_VALUES:
		a->n = 1 + (size_t)pick(3);
		for (size_t i = 0; i < a->n; i++)
			list_buf[i] = s->kind == K_VALUES ? jsons[pick(5)] : names[pick(4)];
		a->list = list_buf;
		break;
	default: break;
	}
}

static void bad(cargs *a, const slot *s)
{
	static const int64_t counts[] = { 0, -1, 1001, INT64_MAX, INT64_MIN };
	static const int dirs[] = { 2, -1, 1000000, INT32_MIN };
	size_t at;
	switch (s->kind) {
	case K_HANDLE: a->client = NULL; a->queue = NULL; a->job = NULL; break;
	case K_OUT: a->null_out = 1; break;
	case K_TEXT: a->s[s->field] = bad_text(1); break;
	case K_OPT_TEXT: a->s[s->field] = bad_text(0); break;
	case K_JSON: a->s[s->field] = pick(4) ? not_json[pick(8)] : NULL; break;
	case K_OBJECT: case K_OPT_OBJECT:
		a->s[s->field] = pick(2) ? not_object[pick(5)] : not_json[pick(8)];
		if (s->kind == K_OBJECT && pick(5) == 0)
			a->s[s->field] = NULL;
		break;
	case K_DIR: a->dir = (qless_port_dir)dirs[pick(4)]; break;
	case K_COUNT: a->count = pick(2) ? counts[pick(5)] : 1001 + pick(1 << 20); break;
	case K_LIST: case K_OPT_LIST: case K_VALUES:
		good(a, s);
		switch (pick(s->kind == K_OPT_LIST ? 3 : 4)) {
		case 0: a->list = NULL; break;          /* n > 0 without a list */
		case 1:
			at = (size_t)pick((int)a->n);
			list_buf[at] = s->kind == K_VALUES ? (pick(3) ? not_json[pick(8)] : NULL) : bad_text(1);
			break;
		case 2: list_buf[pick((int)a->n)] = NULL; break;
		default: a->n = 0; break;          /* none where one is needed */
		}
		break;
	}
}

static void test_generated(void)
{
	const char *env = getenv("QLESS_TEST_SEED");
	unsigned int first = env ? (unsigned int)strtoul(env, NULL, 10) : 20261123u;
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	char *jid = NULL;
	int failures = 0;

	seed = first;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_OK(qless_queue_new(&q, c, "q"));
	jid = th_put(c, "q", "K", NULL, NULL);
	qless_job *job = jid ? th_get(c, jid) : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	long long keys = th_int("DBSIZE");
	for (int round = 0; round < 600 && failures < 5; round++) {
		const call *k = &calls[pick((int)NCALLS)];
		int nslots = 0, victim;
		cargs a = { c, q, job, 0, { NULL, NULL, NULL, NULL }, QLESS_PORT_IN, 1, NULL, 0 };
		while (nslots < 7 && k->slots[nslots].name != NULL)
			nslots++;
		for (int i = 0; i < nslots; i++)
			good(&a, &k->slots[i]);
		victim = pick(nslots);
		bad(&a, &k->slots[victim]);
		long long before = th_commands();
		out_s = NULL;
		int rc = k->run(&a);
		unsigned int was = CU_get_number_of_failures();
		th_refused_unsent(rc, before, k->func, k->slots[victim].name);
		if (CU_get_number_of_failures() != was) {
			failures++;
			fprintf(stderr, "\n  tree args: %s, bad %s, round %d, QLESS_TEST_SEED=%u\n", k->func,
			        k->slots[victim].name, round, first);
		}
		qless_free(out_s);
	}
	CU_ASSERT_EQUAL(th_int("DBSIZE"), keys);
	qless_job_free(job);
	qless_free(jid);
	qless_queue_free(q);
	qless_client_free(c);
}

CU_TestInfo tree_arg_tests[] = {
	{ "generated", test_generated },
	CU_TEST_INFO_NULL,
};
