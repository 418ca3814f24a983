/* Unique jids, canonical JSON and unique puts (schedules.md §4, §6.2; UNQ-8, UNQ-9). */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <stddef.h>
#include <stdlib.h>
#include <time.h>

static void expect_jid(int rc, const char *jid, const char *want, const char *what)
{
	if (rc != QLESS_OK || strcmp(jid, want) != 0)
		fprintf(stderr, "\n  %s: rc %d \"%s\", jid %s, want %s\n", what, rc, qless_error_last_message(), jid,
		        want);
	CU_ASSERT(rc == QLESS_OK && strcmp(jid, want) == 0);
}

/* UNQ-8: the jids of §4.3. */
static void test_unique_examples(void)
{
	char jid[QLESS_UNIQUE_JID_SIZE];
	expect_jid(qless_unique_jid(jid, "mail", "Mailer", "{ \"to\" : \"a@b\" }", NULL, 0), jid,
	           "b6eb329bdfb0f1b96bc14c4570da531b100a1a75", "one-off");
	expect_jid(qless_unique_jid(jid, "reports", "Report", "{}", "0 9 * * 1-5", 0), jid,
	           "be4080f17a420f6640e30b360724ea554a5b8b43", "cron");
	expect_jid(qless_unique_jid(jid, "ops", "Ping", "{}", NULL, 300), jid,
	           "becb55413111b205921465fa56cc9c2941e4d5d5", "interval");
	expect_jid(qless_unique_jid_for_key(jid, "mail", "invoice-42"), jid,
	           "a86c123b7a84cd3dffb80a222479e2d0333d7f05", "key");
	expect_jid(qless_unique_jid(jid, "q", "K", "{\"name\":\"Zo\\u00eb\",\"n\":1.0}", NULL, 0), jid,
	           "ea8cb8c041e2c119ab73197ab498504607231857", "unicode and real");
	/* NULL data is {} (§4.1). */
	expect_jid(qless_unique_jid(jid, "ops", "Ping", NULL, NULL, 300), jid,
	           "becb55413111b205921465fa56cc9c2941e4d5d5", "NULL data");
}

/* S6: spellings of one cron schedule share a jid; §4.1: 300 = 300.0. */
static void test_unique_spellings(void)
{
	static const char *const same_as_weekdays[] = { "0 9 * * MON-FRI", "  0  9 * *\tmon-fri ", "0 9 * * 1-5" };
	static const char *const pairs[][2] = {
		{ "@daily", "0 0 * * *" }, { "@MIDNIGHT", "0 0 * * *" }, { "@weekly", "0 0 * * 0" },
		{ "0 0 * * 7", "0 0 * * 0" }, { "0 0 * * 7L,7#2", "0 0 * * 0L,0#2" }, { "0 0 * jan-mar sun", "0 0 * 1-3 0" },
		{ "2026 DEC * Sat 0 0 0", "2026 12 * 6 0 0 0" },
	};
	char a[QLESS_UNIQUE_JID_SIZE], b[QLESS_UNIQUE_JID_SIZE];
	size_t i;
	for (i = 0; i < sizeof same_as_weekdays / sizeof *same_as_weekdays; i++)
		expect_jid(qless_unique_jid(a, "reports", "Report", "{}", same_as_weekdays[i], 0), a,
		           "be4080f17a420f6640e30b360724ea554a5b8b43", same_as_weekdays[i]);
	for (i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		TH_OK(qless_unique_jid(a, "q", "K", "{}", pairs[i][0], 0));
		TH_OK(qless_unique_jid(b, "q", "K", "{}", pairs[i][1], 0));
		TH_STREQ(a, b);
	}
	/* A range ending in 7 keeps it: 5-0 is reversed, refused by the full
	 * syntax check the identity shares with qless_cron_check. */
	TH_OK(qless_unique_jid(a, "q", "K", "{}", "0 0 * * 5-7", 0));
	CU_ASSERT_EQUAL(qless_unique_jid(b, "q", "K", "{}", "0 0 * * 5-0", 0), QLESS_EINVAL);
	CU_ASSERT_EQUAL(qless_unique_jid(b, "q", "K", "{}", "0 0 * 13 *", 0), QLESS_EINVAL);
	TH_OK(qless_unique_jid(a, "ops", "Ping", "{}", NULL, 300.0));
	TH_OK(qless_unique_jid(b, "ops", "Ping", "{}", NULL, 300.5));
	TH_STREQ(a, "becb55413111b205921465fa56cc9c2941e4d5d5");
	CU_ASSERT(strcmp(a, b) != 0);
	/* Every part of the identity counts. */
	TH_OK(qless_unique_jid(b, "ops", "Ping", "{}", NULL, 0));
	CU_ASSERT(strcmp(a, b) != 0);
	TH_OK(qless_unique_jid(a, "ops", "Ping", "{\"a\":1}", NULL, 0));
	CU_ASSERT(strcmp(a, b) != 0);
	TH_OK(qless_unique_jid(a, "ops", "Pong", "{}", NULL, 0));
	CU_ASSERT(strcmp(a, b) != 0);
}

static void test_unique_refused(void)
{
	char jid[QLESS_UNIQUE_JID_SIZE];
	static const char *const bad_cron[] = { "", " \t ", "1 2 3", "1 2 3 4 5 6", "1 2 3 4 5 6 7 8 9", "@reboot" };
	size_t i;
	char *longer = malloc(1026);
	CU_ASSERT_PTR_NOT_NULL_FATAL(longer);
	memset(longer, '1', 1025);
	longer[1025] = '\0';
	TH_RC(qless_unique_jid(jid, "q", "K", "{}", "0 0 * * *", 60), QLESS_EINVAL);
	TH_RC(qless_unique_jid(jid, "q", "K", "{}", NULL, -1), QLESS_EINVAL);
	TH_RC(qless_unique_jid(jid, "q", "K", "{}", NULL, 1.0 / 0.0), QLESS_EINVAL);
	TH_RC(qless_unique_jid(jid, NULL, "K", "{}", NULL, 0), QLESS_EINVAL);
	TH_RC(qless_unique_jid(jid, "q", "", "{}", NULL, 0), QLESS_EINVAL);
	TH_RC(qless_unique_jid(jid, "q\xff", "K", "{}", NULL, 0), QLESS_EINVAL);
	TH_RC(qless_unique_jid(jid, "q", "K", "{\"a\":1,\"a\":2}", NULL, 0), QLESS_EINVAL);
	CU_ASSERT(strstr(qless_error_last_message(), "qless_unique_jid: data") != NULL);
	TH_RC(qless_unique_jid(NULL, "q", "K", "{}", NULL, 0), QLESS_EINVAL);
	TH_RC(qless_unique_jid_for_key(jid, "q", NULL), QLESS_EINVAL);
	TH_RC(qless_unique_jid_for_key(jid, "", "k"), QLESS_EINVAL);
	for (i = 0; i < sizeof bad_cron / sizeof *bad_cron; i++)
		TH_RC(qless_unique_jid(jid, "q", "K", "{}", bad_cron[i], 0), QLESS_EINVAL);
	TH_RC(qless_unique_jid(jid, "q", "K", "{}", longer, 0), QLESS_EINVAL);
	CU_ASSERT(strstr(qless_error_last_message(), "longer than 1024 bytes") != NULL);
	TH_RC(qless_unique_jid(jid, "q", "K", "{}", "1 2 3 4 5 6 7 8 9", 0), QLESS_EINVAL);
	CU_ASSERT(strstr(qless_error_last_message(), "expected 5 or 7 fields, got 9") != NULL);
	TH_RC(qless_unique_jid(jid, "q", "K", "{}", "@Reboot", 0), QLESS_EINVAL);
	/* lower-cased, as the script and qless_cron_check write it */
	CU_ASSERT(strstr(qless_error_last_message(), "unknown macro \"@reboot\"") != NULL);
	free(longer);
}

/* UNQ-8: the §4.2 texts. */
static void test_canonical_examples(void)
{
	static const char *const cases[][2] = {
		{ "{\"\xc3\xa9\": 4, \"ab\": 1, \"a\": 2, \"B\": 3}", "{\"B\":3,\"a\":2,\"ab\":1,\"\xc3\xa9\":4}" },
		{ "\"\\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f/\\u007f\\u2028\\u00e9\"",
		  "\"\\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001F/\x7f\xe2\x80\xa8\xc3\xa9\"" },
		{ "\"a\\/b\"", "\"a/b\"" },
		{ "-0", "0" }, { "123", "123" }, { "-9223372036854775808", "-9223372036854775808" },
		{ "1.0", "1.0" }, { "2.50", "2.5" }, { "3.0e2", "300.0" }, { "0.1", "0.10000000000000001" },
		{ "1E-7", "9.9999999999999995e-8" }, { "1e20", "1e20" }, { "-0.0", "-0.0" },
		{ " [ true , false , null , 1 , \"x\" ] ", "[true,false,null,1,\"x\"]" },
		{ "{\"z\": {\"y\": [ {\"b\":1, \"a\":2} ]}, \"\": 0}", "{\"\":0,\"z\":{\"y\":[{\"a\":2,\"b\":1}]}}" },
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *out = NULL;
		TH_OK(qless_json_canonicalize(&out, cases[i][0]));
		TH_STREQ(out, cases[i][1]);
		qless_free(out);
	}
}

static void test_canonical_refused(void)
{
	static const char *const bad[] = {
		"", "{", "{}x", "[1,]", "\"\xff\"", "\"\xc0\x80\"", "{\"a\":1,\"a\":2}", "\"a\\u0000b\"",
		"9223372036854775808", "-9223372036854775809", "1e400", "NaN", "Infinity", "-Infinity", "0x10",
		"[01]", "'x'",
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *out = (char *)"untouched";
		TH_RC(qless_json_canonicalize(&out, bad[i]), QLESS_EINVAL);
		CU_ASSERT_PTR_NULL(out);
	}
	TH_RC(qless_json_canonicalize(NULL, NULL), QLESS_EINVAL);
}

/* A random JSON value of depth at most `depth`, keys inserted in random
 * order (jansson keeps insertion order, so dumps without sorting differ). */
static json_t *random_value(unsigned int *seed, int depth)
{
	static const char *const keys[] = { "a", "b", "B", "ab", "", "\xc3\xa9", "a\x01", "z", "\xe2\x80\xa8" };
	int kind = rand_r(seed) % (depth > 0 ? 8 : 6);
	json_t *v;
	int i, n;
	switch (kind) {
	case 0: return json_integer((json_int_t)rand_r(seed) - RAND_MAX / 2);
	case 1: return json_real((double)rand_r(seed) / (1 + rand_r(seed) % 1000) - 1000);
	case 2: return json_string(keys[rand_r(seed) % 9]);
	case 3: return json_true();
	case 4: return json_false();
	case 5: return json_null();
	case 6:
		v = json_array();
		for (i = 0, n = rand_r(seed) % 4; i < n; i++)
			json_array_append_new(v, random_value(seed, depth - 1));
		return v;
	default:
		v = json_object();
		for (i = 0, n = rand_r(seed) % 6; i < n; i++)
			json_object_set_new(v, keys[rand_r(seed) % 9], random_value(seed, depth - 1));
		return v;
	}
}

/* Whether every object in text (canonical output) has its keys in strictly
 * increasing byte order, read back in text order. */
static int keys_sorted(const json_t *v)
{
	const char *key, *prev = NULL;
	json_t *item;
	size_t i;
	if (json_is_array(v)) {
		json_array_foreach(v, i, item)
			if (!keys_sorted(item))
				return 0;
	}
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, item) {
			if ((prev && strcmp(prev, key) >= 0) || !keys_sorted(item))
				return 0;
			prev = key;
		}
	}
	return 1;
}

/* Seeded: random values written with random spacing and key order have one
 * canonical text, which is its own canonical form, has sorted keys and no
 * whitespace outside strings. */
static void test_canonical_generative(void)
{
	const char *env = getenv("QLESS_TEST_SEED");
	unsigned int seed = env ? (unsigned int)strtoul(env, NULL, 10) : (unsigned int)time(NULL);
	unsigned int start = seed;
	int round, failures = 0;
	for (round = 0; round < 300 && failures < 3; round++) {
		json_t *v = random_value(&seed, 3), *back;
		char *loose = json_dumps(v, JSON_ENCODE_ANY | JSON_INDENT(rand_r(&seed) % 3) | JSON_PRESERVE_ORDER);
		char *canon = NULL, *again = NULL;
		const char *p;
		int in_string = 0, ok;
		CU_ASSERT_PTR_NOT_NULL_FATAL(loose);
		ok = qless_json_canonicalize(&canon, loose) == QLESS_OK && qless_json_canonicalize(&again, canon) == QLESS_OK &&
		     strcmp(canon, again) == 0;
		for (p = canon; ok && *p; p++) {
			if (*p == '"' && (p == canon || p[-1] != '\\' || (p - canon >= 2 && p[-2] == '\\')))
				in_string = !in_string;
			else if (!in_string && strchr(" \t\n\r", *p))
				ok = 0;
		}
		back = ok ? json_loads(canon, JSON_DECODE_ANY, NULL) : NULL;
		ok = ok && back && keys_sorted(back) && json_equal(back, v);
		if (!ok) {
			fprintf(stderr, "\n  canonical (seed %u, QLESS_TEST_SEED): %s -> %s\n", start, loose,
			        canon ? canon : qless_error_last_message());
			failures++;
		}
		CU_ASSERT(ok);
		json_decref(back);
		json_decref(v);
		free(loose);
		qless_free(canon);
		qless_free(again);
	}
}

/* A queue on a fresh client (the queue keeps the client alive). */
static qless_queue *test_queue(const char *name)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	if (c != NULL)
		TH_OK(qless_queue_new(&q, c, name));
	qless_client_free(c);
	return q;
}

/* UNQ-9: equal data in other spacing gives the same jid; a repeat inserts nothing. */
static void test_unique_put(void)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	char want[QLESS_UNIQUE_JID_SIZE];
	char *a = NULL, *b = NULL, *k = NULL;
	int inserted = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_OK(qless_queue_new(&q, c, "q"));
	o.unique = 1;
	TH_OK(qless_queue_put(&a, q, "K", "{\"a\":1,\"b\":[1,2]}", &o));
	o.delay = 30;   /* the first put's time stands (§4.1) */
	TH_OK(qless_queue_put(&b, q, "K", "{ \"b\" : [1, 2], \"a\" : 1 }", &o));
	TH_OK(qless_unique_jid(want, "q", "K", "{\"b\":[1,2],\"a\":1}", NULL, 0));
	TH_STREQ(a, want);
	TH_STREQ(b, want);
	qless_job *got = th_get(c, want);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(qless_job_history_count(got), 1);
	qless_job_free(got);
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:q-work"), 1);
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:q-scheduled"), 0);

	o.delay = 0;
	TH_OK(qless_queue_put_unique(&k, &inserted, q, "K", "{}", &o));
	CU_ASSERT_EQUAL(inserted, 1);
	qless_free(k);
	TH_OK(qless_queue_put_unique(&k, &inserted, q, "K", "{}", &o));
	CU_ASSERT_EQUAL(inserted, 0);
	TH_OK(qless_unique_jid(want, "q", "K", "{}", NULL, 0));
	TH_STREQ(k, want);
	qless_free(k);
	k = NULL;

	/* Key form; and put_unique needs no opts at all. */
	o.unique_key = "invoice-42";
	TH_OK(qless_queue_put_unique(&k, &inserted, q, "Other", "{\"x\":1}", &o));
	CU_ASSERT_EQUAL(inserted, 1);
	TH_OK(qless_unique_jid_for_key(want, "q", "invoice-42"));
	TH_STREQ(k, want);
	qless_free(k);
	TH_OK(qless_queue_put_unique(NULL, NULL, q, "Third", "{}", &o));
	inserted = -1;
	TH_OK(qless_queue_put_unique(NULL, &inserted, q, "K", NULL, NULL));
	CU_ASSERT_EQUAL(inserted, 0);   /* K {} was put above */

	/* A complete job runs again. */
	qless_job *job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	char *jid = strdup(qless_job_jid(job));
	TH_OK(qless_job_complete(job, NULL));
	qless_job_free(job);
	o.unique_key = NULL;
	o.jid = jid;
	TH_OK(qless_queue_put_unique(NULL, &inserted, q, "K", "{}", &o));
	CU_ASSERT_EQUAL(inserted, 1);
	free(jid);

	/* Refused before any I/O: data not canonical JSON, key without unique. */
	o.jid = NULL;
	TH_RC(qless_queue_put(NULL, q, "K", "{\"a\":1,\"a\":1}", &o), QLESS_EINVAL);
	CU_ASSERT(strstr(qless_error_last_message(), "qless_queue_put") != NULL);
	o.unique = 0;
	o.unique_key = "k";
	TH_RC(qless_queue_put(NULL, q, "K", "{}", &o), QLESS_EINVAL);

	qless_free(a);
	qless_free(b);
	qless_queue_free(q);
	qless_client_free(c);
}

/* The option structs as version 1 declared them: what a program built
 * against the older header passes (put_options_v1: helper.h). */
struct recur_options_v1 {
	unsigned int version;
	const char *jid;
	double offset, priority;
	int retries, backlog;
	const char *const *tags;
	size_t ntags;
};

/* FAC-9: a version-1 struct (without the new fields) is still accepted and
 * never read or written past its end (ASan and valgrind watch the heap
 * block of exactly that size). */
static void test_options_v1(void)
{
	qless_queue *q = test_queue("q");
	struct put_options_v1 *po = malloc(sizeof *po);
	struct recur_options_v1 *ro = malloc(sizeof *ro);
	char *jid = NULL;
	CU_ASSERT_FATAL(q != NULL && po != NULL && ro != NULL);
	CU_ASSERT_EQUAL(sizeof *po, offsetof(qless_put_options, unique));
	CU_ASSERT_EQUAL(sizeof *ro, offsetof(qless_recur_options, unique));
	TH_OK(qless_put_options_init((qless_put_options *)po, 1));
	CU_ASSERT_EQUAL(po->version, 1);
	CU_ASSERT_EQUAL(po->retries, -1);
	po->jid = "v1";
	po->delay = 5;
	TH_OK(qless_queue_put(&jid, q, "K", "{}", (qless_put_options *)po));
	TH_STREQ(jid, "v1");
	qless_free(jid);
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:q-scheduled"), 1);
	TH_OK(qless_recur_options_init((qless_recur_options *)ro, 1));
	ro->jid = "r1";
	ro->priority = 3;
	TH_OK(qless_queue_recur(NULL, q, "K", "{}", 60, (qless_recur_options *)ro));
	CU_ASSERT_EQUAL(th_int("EXISTS ql:r:r1"), 1);
	TH_RC(qless_put_options_init((qless_put_options *)po, QLESS_PUT_OPTIONS_VERSION + 1), QLESS_EINVAL);
	po->version = 0;
	TH_RC(qless_queue_put(NULL, q, "K", "{}", (qless_put_options *)po), QLESS_EINVAL);
	free(po);
	free(ro);
	qless_queue_free(q);
}

/* recur with unique: the same template again leaves it and its due time. */
static void test_unique_recur(void)
{
	qless_queue *q = test_queue("ops");
	qless_recur_options o = QLESS_RECUR_OPTIONS_INIT;
	char want[QLESS_UNIQUE_JID_SIZE];
	char *a = NULL, *b = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	o.unique = 1;
	o.offset = 100;
	TH_OK(qless_queue_recur(&a, q, "Ping", NULL, 300, &o));
	TH_STREQ(a, "becb55413111b205921465fa56cc9c2941e4d5d5");
	char *score = th_str("ZSCORE ql:q:ops-recur %s", a);
	o.offset = 0;
	o.priority = 9;
	TH_OK(qless_queue_recur(&b, q, "Ping", "{ }", 300, &o));
	TH_STREQ(b, a);
	char *after = th_str("ZSCORE ql:q:ops-recur %s", a);
	TH_STREQ(after, score);
	char *priority = th_str("HGET ql:r:%s priority", a);
	TH_STREQ(priority, "0");
	o.unique_key = "nightly";
	qless_free(b);
	TH_OK(qless_queue_recur(&b, q, "Ping", NULL, 60, &o));
	TH_OK(qless_unique_jid_for_key(want, "ops", "nightly"));
	TH_STREQ(b, want);
	free(score);
	free(after);
	free(priority);
	qless_free(a);
	qless_free(b);
	qless_queue_free(q);
}

CU_TestInfo unique_tests[] = {
	{ "examples", test_unique_examples },
	{ "spellings", test_unique_spellings },
	{ "refused", test_unique_refused },
	{ "canonical_examples", test_canonical_examples },
	{ "canonical_refused", test_canonical_refused },
	{ "canonical_generative", test_canonical_generative },
	{ "put", test_unique_put },
	{ "options_v1", test_options_v1 },
	{ "recur", test_unique_recur },
	CU_TEST_INFO_NULL,
};
