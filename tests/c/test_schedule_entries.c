/* The schedule facade's entries (schedules.md §6.4, FAC-1..6, FAC-9):
 * adds of every kind, uniqueness, removal, listing, and bad input refused
 * before anything is sent. */
#define _GNU_SOURCE /* dladdr */
#include "helper.h"

#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>

/* N of schedules.md §9: 2026-03-04T10:15:30Z. */
#define N 1772619330.0

static double zscore(const char *key, const char *member)
{
	char *s = th_str("ZSCORE %s %s", key, member);
	double v = s ? atof(s) : -1;
	free(s);
	return v;
}

static char *state_of(const char *jid)
{
	return th_str("HGET ql:j:%s state", jid);
}

/* Times the facade turns into delays land exactly: its call sends the now
 * the delay was computed from. */
static void exact(double got, double want)
{
	if (got != want)
		fprintf(stderr, "\n  %.6f is not %.6f\n", got, want);
	CU_ASSERT(got == want);
}

/* For times relative to the call's own now, which only brackets know. */
static void between(double got, double lo, double hi)
{
	if (got < lo || got > hi)
		fprintf(stderr, "\n  %.6f is not in [%.6f, %.6f]\n", got, lo, hi);
	CU_ASSERT(got >= lo && got <= hi);
}

static qless_schedule *open_schedule(qless_client **c, const char *name)
{
	qless_schedule *s = NULL;
	*c = th_client("w");
	TH_OK(qless_schedule_new(&s, *c, name));
	return s;
}

/* FAC-1, FAC-2: one-off entries and their times. */
static void test_one_off(void)
{
	qless_client *c;
	qless_schedule *s = open_schedule(&c, "sq");
	char *jid = NULL, *st;
	int inserted = -1;

	th_clock_at(c, N);
	/* more than a minute in the past is refused, naming the time; nothing sent */
	long long before = th_commands();
	th_refused_unsent(qless_schedule_add_at(&jid, &inserted, s, N - 3600, "K", NULL, NULL), before,
	                  "qless_schedule_add_at", "when 2026-03-04T09:15:30Z is in the past");
	CU_ASSERT_PTR_NULL(jid);
	before = th_commands();
	th_refused_unsent(qless_schedule_add_at(&jid, &inserted, s, N - 61, "K", NULL, NULL), before,
	                  "qless_schedule_add_at", "when 2026-03-04T10:14:29Z is in the past");
	before = th_commands();
	th_refused_unsent(qless_schedule_add_in(&jid, &inserted, s, -3600, "K", NULL, NULL), before,
	                  "qless_schedule_add_in", "seconds 2026-03-04T09:15:30");
	before = th_commands();
	th_refused_unsent(qless_schedule_add_at_text(&jid, &inserted, s, "today at 9am", "K", NULL, NULL), before,
	                  "qless_schedule_add_at_text", "at_text 2026-03-04T09:00:00Z is in the past");
	before = th_commands();
	th_refused_unsent(qless_schedule_add(&jid, &inserted, s, "yesterday at 10:30", "K", NULL, NULL), before,
	                  "qless_schedule_add", "when_text 2026-03-03T10:30:00Z is in the past");
	CU_ASSERT_PTR_NULL(jid);
	/* within the minute, and "now", run at once */
	TH_OK(qless_schedule_add_at(&jid, &inserted, s, N - 59, "K", NULL, NULL));
	CU_ASSERT_EQUAL(inserted, 1);
	TH_STREQ(st = state_of(jid), "waiting");
	free(st);
	qless_free(jid);
	TH_OK(qless_schedule_add_at_text(&jid, &inserted, s, "now", "KNow", NULL, NULL));
	TH_STREQ(st = state_of(jid), "waiting");
	free(st);
	qless_free(jid);

	TH_OK(qless_schedule_add_at(&jid, &inserted, s, N + 3600, "K", "{\"a\":1}", NULL));
	TH_STREQ(st = state_of(jid), "scheduled");
	free(st);
	exact(zscore("ql:q:sq-scheduled", jid), N + 3600);
	qless_free(jid);

	/* (One-off identities have no time: another klass, another entry.) */
	TH_OK(qless_schedule_add(&jid, &inserted, s, "7pm tomorrow", "K2", NULL, NULL));
	CU_ASSERT_EQUAL(inserted, 1);
	exact(zscore("ql:q:sq-scheduled", jid), 1772737200);
	qless_free(jid);

	double t0 = qless_client_now(c);
	TH_OK(qless_schedule_add_in(&jid, NULL, s, 300, "K3", NULL, NULL));
	between(zscore("ql:q:sq-scheduled", jid), t0 + 300, qless_client_now(c) + 300);
	qless_free(jid);
	TH_OK(qless_schedule_add_in(&jid, NULL, s, -5, "K4", NULL, NULL));
	TH_STREQ(st = state_of(jid), "waiting");
	free(st);
	qless_free(jid);

	/* add_now is unique too; the same entry pending again inserts nothing. */
	char *again = NULL;
	TH_OK(qless_schedule_add_now(&jid, &inserted, s, "Now", "{\"b\": [1, 2]}", NULL));
	CU_ASSERT_EQUAL(inserted, 1);
	TH_OK(qless_schedule_add_now(&again, &inserted, s, "Now", "{\"b\":[1,2]}", NULL));
	CU_ASSERT_EQUAL(inserted, 0);
	TH_STREQ(jid, again);
	qless_free(jid);
	qless_free(again);
	qless_schedule_free(s);
	qless_client_free(c);
}

/* FAC-3, FAC-4: templates, unique by default. */
static void test_templates(void)
{
	qless_client *c;
	qless_schedule *s = open_schedule(&c, "tq");
	char *a = NULL, *b = NULL;
	int inserted = -1;
	qless_recur *r = NULL;

	th_clock_at(c, N);
	TH_OK(qless_schedule_add_cron(&a, &inserted, s, "0 9 * * MON-FRI", "K", "{\"x\": 1}", NULL));
	CU_ASSERT_EQUAL(inserted, 1);
	TH_OK(qless_schedule_add_cron(&b, &inserted, s, "0 9 * * 1-5", "K", "{\"x\":1}", NULL));
	CU_ASSERT_EQUAL(inserted, 0);
	TH_STREQ(a, b);
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:tq-cron"), 1);
	qless_free(a);
	qless_free(b);
	qless_schedule_options plain = QLESS_SCHEDULE_OPTIONS_INIT;
	plain.unique = 0;
	TH_OK(qless_schedule_add_cron(&a, &inserted, s, "0 9 * * 1-5", "K", "{\"x\":1}", &plain));
	CU_ASSERT_EQUAL(inserted, 1);
	TH_OK(qless_schedule_add_cron(&b, &inserted, s, "0 9 * * 1-5", "K", "{\"x\":1}", &plain));
	CU_ASSERT_EQUAL(inserted, 1);
	CU_ASSERT(strcmp(a, b) != 0);
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:tq-cron"), 3);
	qless_free(a);
	qless_free(b);

	/* Every 300 s from now (offset 0), options passed through. */
	const char *tags[] = { "t1" };
	qless_schedule_options o = QLESS_SCHEDULE_OPTIONS_INIT;
	o.has_priority = 1;
	o.priority = 7;
	o.tags = tags;
	o.ntags = 1;
	o.backlog = 2;
	double t0 = qless_client_now(c);
	TH_OK(qless_schedule_add_every(&a, &inserted, s, 300, 0, "E", NULL, &o));
	double t1 = qless_client_now(c);
	CU_ASSERT_EQUAL(inserted, 1);
	TH_OK(qless_client_get_recur(&r, c, a));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(qless_recur_interval(r), 300);
	CU_ASSERT_PTR_NULL(qless_recur_cron(r));
	CU_ASSERT_EQUAL(qless_recur_priority(r), 7);
	CU_ASSERT_EQUAL(qless_recur_retries(r), 0);
	CU_ASSERT_EQUAL(qless_recur_backlog(r), 2);
	TH_STREQ(qless_recur_tag(r, 0), "t1");
	qless_recur_free(r);
	between(zscore("ql:q:tq-recur", a), t0, t1);
	char want[QLESS_UNIQUE_JID_SIZE];
	TH_OK(qless_unique_jid(want, "tq", "E", "{}", NULL, 300));
	TH_STREQ(a, want);
	qless_free(a);

	/* FAC-4: "every 2 days at 9am" at N: first due at 9am tomorrow. */
	TH_OK(qless_schedule_add(&a, &inserted, s, "every 2 days at 9am", "E2", NULL, NULL));
	TH_OK(qless_client_get_recur(&r, c, a));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	double *t = NULL;
	size_t n = 0;
	TH_OK(qless_recur_next(&t, &n, r, 2));
	CU_ASSERT_EQUAL_FATAL(n, 2);
	exact(t[0], 1772701200);
	exact(t[1], 1772701200 + 2 * 86400);
	qless_free(t);
	qless_recur_free(r);
	qless_free(a);

	/* A text that is a cron expression, and a key as the identity. */
	o = (qless_schedule_options)QLESS_SCHEDULE_OPTIONS_INIT;
	o.key = "nightly";
	TH_OK(qless_schedule_add(&a, &inserted, s, "every monday 9am", "W", NULL, &o));
	CU_ASSERT_EQUAL(inserted, 1);
	TH_OK(qless_unique_jid_for_key(want, "tq", "nightly"));
	TH_STREQ(a, want);
	TH_OK(qless_schedule_add_every(&b, &inserted, s, 60, 0, "Other", NULL, &o));
	CU_ASSERT_EQUAL(inserted, 0);
	TH_STREQ(b, want);
	char *cron = th_str("HGET ql:r:%s cron", want);
	TH_STREQ(cron, "0 9 * * 1"); /* the key's first entry was kept */
	free(cron);
	qless_free(a);
	qless_free(b);

	/* An explicit jid overrides the unique one. */
	o = (qless_schedule_options)QLESS_SCHEDULE_OPTIONS_INIT;
	o.jid = "mine";
	o.retries = 4;
	TH_OK(qless_schedule_add_cron(&a, &inserted, s, "@hourly", "K", NULL, &o));
	TH_STREQ(a, "mine");
	char *retries = th_str("HGET ql:r:mine retries");
	TH_STREQ(retries, "4");
	free(retries);
	qless_free(a);
	qless_schedule_free(s);
	qless_client_free(c);
}

/* FAC-5, FAC-6: remove and list. */
static void test_remove_and_list(void)
{
	qless_client *c;
	qless_schedule *s = open_schedule(&c, "lq");
	char *cronjid = NULL, *everyjid = NULL, *atjid = NULL, *nowjid = NULL, *json = NULL;
	int removed = -1;

	th_clock_at(c, N);
	TH_OK(qless_schedule_list(&json, s));
	TH_STREQ(json, "[]");
	qless_free(json);
	TH_OK(qless_schedule_add_cron(&cronjid, NULL, s, "0 12 * * *", "C", NULL, NULL));
	TH_OK(qless_schedule_add_every(&everyjid, NULL, s, 60, N + 30, "E", NULL, NULL));
	TH_OK(qless_schedule_add_at(&atjid, NULL, s, N + 7200, "A", NULL, NULL));
	TH_OK(qless_schedule_add_now(&nowjid, NULL, s, "Now", NULL, NULL));

	TH_OK(qless_schedule_list(&json, s));
	json_t *l = th_json(json);
	qless_free(json);
	CU_ASSERT_FATAL(json_is_array(l) && json_array_size(l) == 3);
	/* Templates by next time (the interval one is due first), then jobs. */
	json_t *e0 = json_array_get(l, 0), *e1 = json_array_get(l, 1), *e2 = json_array_get(l, 2);
	TH_STREQ(json_string_value(json_object_get(e0, "jid")), everyjid);
	TH_STREQ(json_string_value(json_object_get(e0, "kind")), "interval");
	CU_ASSERT_EQUAL(json_number_value(json_object_get(e0, "interval")), 60);
	exact(json_number_value(json_object_get(e0, "next")), N + 30);
	TH_STREQ(json_string_value(json_object_get(e1, "jid")), cronjid);
	TH_STREQ(json_string_value(json_object_get(e1, "kind")), "cron");
	TH_STREQ(json_string_value(json_object_get(e1, "cron")), "0 12 * * *");
	TH_STREQ(json_string_value(json_object_get(e1, "klass")), "C");
	CU_ASSERT(json_is_array(json_object_get(e1, "tags"))); /* not cjson's {} */
	CU_ASSERT_EQUAL(json_number_value(json_object_get(e1, "next")), 1772625600);
	TH_STREQ(json_string_value(json_object_get(e2, "jid")), atjid);
	TH_STREQ(json_string_value(json_object_get(e2, "kind")), "at");
	exact(json_number_value(json_object_get(e2, "next")), N + 7200);
	json_decref(l);

	/* A waiting job is not an entry: left alone. */
	TH_OK(qless_schedule_remove(&removed, s, nowjid));
	CU_ASSERT_EQUAL(removed, 0);
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:%s", nowjid), 1);
	TH_OK(qless_schedule_remove(&removed, s, cronjid));
	CU_ASSERT_EQUAL(removed, 1);
	qless_recur *r = NULL;
	TH_RC(qless_client_get_recur(&r, c, cronjid), QLESS_ENOTFOUND);
	TH_OK(qless_schedule_remove(&removed, s, atjid));
	CU_ASSERT_EQUAL(removed, 1);
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:%s", atjid), 0);
	TH_OK(qless_schedule_remove(&removed, s, "no-such-jid"));
	CU_ASSERT_EQUAL(removed, 0);
	TH_OK(qless_schedule_remove(NULL, s, atjid));

	TH_OK(qless_schedule_list(&json, s));
	l = th_json(json);
	qless_free(json);
	CU_ASSERT(json_is_array(l) && json_array_size(l) == 1);
	json_decref(l);
	qless_free(cronjid);
	qless_free(everyjid);
	qless_free(atjid);
	qless_free(nowjid);
	qless_schedule_free(s);
	qless_client_free(c);
}

/* Lists longer than one schedule.list page (1000) come back whole. */
static void test_list_pages(void)
{
	qless_client *c;
	qless_schedule *s = open_schedule(&c, "big");
	char *json = NULL;
	for (int i = 0; i < 1003; i++) {
		redisReply *rr = th_cmd("ZADD ql:q:big-scheduled %d j%04d", 100 + i, i);
		freeReplyObject(rr);
		rr = th_cmd("HSET ql:j:j%04d klass K priority 0 tags {}", i);
		freeReplyObject(rr);
	}
	TH_OK(qless_schedule_list(&json, s));
	json_t *l = th_json(json);
	qless_free(json);
	CU_ASSERT_EQUAL(json_array_size(l), 1003);
	TH_STREQ(json_string_value(json_object_get(json_array_get(l, 1002), "jid")), "j1002");
	json_decref(l);
	qless_schedule_free(s);
	qless_client_free(c);
}

/* Every bad argument: QLESS_EINVAL naming the function and argument,
 * nothing sent, *out_jid NULL. Texts are generated: a valid text with one
 * character changed, kept when qless_when_parse refuses it. */
static void test_bad_input(void)
{
	qless_client *c;
	qless_schedule *s = open_schedule(&c, "bad");
	char *jid = (char *)&jid;
	int inserted = -1;
	long long before;
	qless_schedule_options o = QLESS_SCHEDULE_OPTIONS_INIT;

#define REFUSED(call, func, arg) do { before = th_commands(); th_refused_unsent((call), before, func, arg); \
	CU_ASSERT_PTR_NULL(jid); jid = (char *)&jid; } while (0)
	REFUSED(qless_schedule_add_at(&jid, &inserted, s, NAN, "K", NULL, NULL), "qless_schedule_add_at", "when");
	REFUSED(qless_schedule_add_at(&jid, &inserted, s, INFINITY, "K", NULL, NULL), "qless_schedule_add_at",
	        "when");
	REFUSED(qless_schedule_add_in(&jid, &inserted, s, NAN, "K", NULL, NULL), "qless_schedule_add_in", "seconds");
	REFUSED(qless_schedule_add_every(&jid, &inserted, s, 0, 0, "K", NULL, NULL), "qless_schedule_add_every",
	        "interval");
	REFUSED(qless_schedule_add_every(&jid, &inserted, s, -60, 0, "K", NULL, NULL), "qless_schedule_add_every",
	        "interval");
	REFUSED(qless_schedule_add_every(&jid, &inserted, s, 60, NAN, "K", NULL, NULL), "qless_schedule_add_every",
	        "first");
	REFUSED(qless_schedule_add_cron(&jid, &inserted, s, "0 24 * * *", "K", NULL, NULL), "qless_schedule_add_cron",
	        "cron");
	REFUSED(qless_schedule_add_cron(&jid, &inserted, s, NULL, "K", NULL, NULL), "qless_schedule_add_cron", "expr");
	REFUSED(qless_schedule_add_now(&jid, &inserted, s, NULL, NULL, NULL), "qless_schedule_add_now", "klass");
	REFUSED(qless_schedule_add_now(&jid, &inserted, s, "", NULL, NULL), "qless_schedule_add_now", "klass");
	REFUSED(qless_schedule_add_now(&jid, &inserted, s, "K", "{nope", NULL), "qless_schedule_add_now", "data");
	REFUSED(qless_schedule_add_cron(&jid, &inserted, s, "@daily", "K", "[1,", NULL), "qless_schedule_add_cron",
	        "data");
	REFUSED(qless_schedule_add_every(&jid, &inserted, s, 5, 0, "K", "nan", NULL), "qless_schedule_add_every",
	        "data");
	REFUSED(qless_schedule_add_now(&jid, &inserted, NULL, "K", NULL, NULL), "qless_schedule_add_now", "s");
	REFUSED(qless_schedule_add(&jid, &inserted, s, NULL, "K", NULL, NULL), "qless_schedule_add", "when_text");
	REFUSED(qless_schedule_add(&jid, &inserted, s, "tomorow", "K", NULL, NULL), "qless_schedule_add",
	        "\"tomorow\" at column 1");
	o.backlog = -1;
	REFUSED(qless_schedule_add_every(&jid, &inserted, s, 60, 0, "K", NULL, &o), "qless_schedule_add_every",
	        "backlog");
	o.backlog = 1001;
	REFUSED(qless_schedule_add_cron(&jid, &inserted, s, "@daily", "K", NULL, &o), "qless_schedule_add_cron",
	        "backlog");
	o = (qless_schedule_options)QLESS_SCHEDULE_OPTIONS_INIT;
	o.unique = 0;
	o.key = "k";
	REFUSED(qless_schedule_add_now(&jid, &inserted, s, "K", NULL, &o), "qless_schedule_add_now", "key");
	o = (qless_schedule_options)QLESS_SCHEDULE_OPTIONS_INIT;
	o.has_priority = 1;
	o.priority = NAN;
	REFUSED(qless_schedule_add_in(&jid, &inserted, s, 5, "K", NULL, &o), "qless_schedule_add_in", "priority");
	o = (qless_schedule_options)QLESS_SCHEDULE_OPTIONS_INIT;
	const char *badtags[] = { "ok", "" };
	o.tags = badtags;
	o.ntags = 2;
	REFUSED(qless_schedule_add_in(&jid, &inserted, s, 5, "K", NULL, &o), "qless_schedule_add_in", "tags");
	o = (qless_schedule_options)QLESS_SCHEDULE_OPTIONS_INIT;
	o.version = 2;
	REFUSED(qless_schedule_add_now(&jid, &inserted, s, "K", NULL, &o), "qless_schedule_add_now", "version");

	static const char *const texts[] = { "7pm tomorrow", "in 5 minutes", "every monday 9am", "every 2 days at 9am",
	                                     "next friday at noon", "every 15 minutes", "2026-03-10T08:00:00Z" };
	static const char subst[] = "xq#9:-/ zQ";
	unsigned seed = 1411;
	int tried = 0;
	for (int i = 0; i < 400 && tried < 60; i++) {
		char text[64];
		qless_when w = QLESS_WHEN_INIT;
		snprintf(text, sizeof text, "%s", texts[rand_r(&seed) % (sizeof texts / sizeof *texts)]);
		text[rand_r(&seed) % strlen(text)] = subst[rand_r(&seed) % (sizeof subst - 1)];
		if (qless_when_parse(&w, text, N) == QLESS_OK)
			continue;
		tried++;
		REFUSED(qless_schedule_add(&jid, &inserted, s, text, "K", NULL, NULL), "qless_schedule_add",
		        "when_text");
	}
	CU_ASSERT(tried >= 30);
	CU_ASSERT_EQUAL(inserted, 0);
	CU_ASSERT_EQUAL(th_int("DBSIZE"), 0);

	/* The rest of the functions. */
	char *json = (char *)&json;
	before = th_commands();
	th_refused_unsent(qless_schedule_list(&json, NULL), before, "qless_schedule_list", "s");
	CU_ASSERT_PTR_NULL(json);
	before = th_commands();
	th_refused_unsent(qless_schedule_list(NULL, s), before, "qless_schedule_list", "out_json");
	before = th_commands();
	th_refused_unsent(qless_schedule_remove(&inserted, s, ""), before, "qless_schedule_remove", "jid");
	before = th_commands();
	th_refused_unsent(qless_schedule_remove(&inserted, NULL, "j"), before, "qless_schedule_remove", "s");
	before = th_commands();
	th_refused_unsent(qless_schedule_options_init(&o, 2), before, "qless_schedule_options_init", "version");
	before = th_commands();
	th_refused_unsent(qless_schedule_options_init(NULL, 1), before, "qless_schedule_options_init", "opts");
#undef REFUSED
	qless_schedule_free(s);
	qless_client_free(c);
}

/* FAC-9: the facade's symbols come from the shared library, and structs of
 * the versions before unique (put and recur options v1) still work. */
static void test_abi(void)
{
	qless_schedule_options o;
	TH_OK(qless_schedule_options_init(&o, QLESS_SCHEDULE_OPTIONS_VERSION));
	CU_ASSERT(o.version == 1 && o.unique == 1 && o.retries == -1 && o.key == NULL && o.jid == NULL);
#ifndef QLESS_BUILDING
	/* (The ASan build links the core in; there the library is the program.) */
	static const char *const names[] = { "qless_schedule_options_init", "qless_schedule_add_now",
	                                     "qless_schedule_add_at", "qless_schedule_add_in", "qless_schedule_add_every",
	                                     "qless_schedule_add_cron", "qless_schedule_add", "qless_schedule_remove",
	                                     "qless_schedule_list", "qless_queue_recur_cron", "qless_recur_cron",
	                                     "qless_recur_set_cron", "qless_recur_next", "qless_client_cron_next" };
	void *self = dlopen(NULL, RTLD_NOW);
	Dl_info info;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		void *f = dlsym(self, names[i]);
		CU_ASSERT(f != NULL && dladdr(f, &info) && strstr(info.dli_fname, "libqless") != NULL);
		if (f == NULL)
			fprintf(stderr, "\n  %s is not exported\n", names[i]);
	}
	dlclose(self);
#endif
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "v1"));
	struct { unsigned int version; const char *jid; double delay; int has_priority; double priority; int retries;
	         const char *const *tags; size_t ntags; const char *const *depends; size_t ndepends; }
		put1 = { 1, "p1", 0, 1, 3, 2, NULL, 0, NULL, 0 };
	TH_OK(qless_queue_put(NULL, q, "K", NULL, (const qless_put_options *)&put1));
	char *pri = th_str("HGET ql:j:p1 priority");
	TH_STREQ(pri, "3");
	free(pri);
	qless_queue_free(q);
	qless_client_free(c);
}

CU_TestInfo schedule_entry_tests[] = {
	{ "one_off", test_one_off },
	{ "templates", test_templates },
	{ "remove_and_list", test_remove_and_list },
	{ "list_pages", test_list_pages },
	{ "bad_input", test_bad_input },
	{ "abi", test_abi },
	CU_TEST_INFO_NULL,
};
