/* Cron templates and due times through the C API (schedules.md §6.1's
 * qless_client_cron_next, §6.3, RNX-1/2): fire times against a test-side
 * oracle, set_cron/set_interval round trips, and bad input refused before
 * anything is sent. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <stdlib.h>
#include <time.h>

/* N of schedules.md §9: 2026-03-04T10:15:30Z, a Wednesday. */
#define N 1772619330.0

static void assert_times(const double *got, size_t n, const double *want, size_t nwant)
{
	CU_ASSERT_EQUAL(n, nwant);
	for (size_t i = 0; i < n && i < nwant; i++) {
		if (got[i] != want[i])
			fprintf(stderr, "\n  time %zu: %.0f, expected %.0f\n", i, got[i], want[i]);
		CU_ASSERT_EQUAL(got[i], want[i]);
	}
}

/* ---- a small 5-field grammar and its brute-force oracle ---- */

typedef struct field_gen {
	char text[48];
	unsigned char on[60];   /* on[v]: value v matches */
} field_gen;

/* A random field over lo..hi: "*", a value, a range, a step, a list. */
static void gen_field(field_gen *f, unsigned *seed, int lo, int hi, int allow_star)
{
	int kind = rand_r(seed) % (allow_star ? 5 : 4), span = hi - lo + 1;
	int a = lo + rand_r(seed) % span, b = lo + rand_r(seed) % span, step = 1 + rand_r(seed) % 7;
	memset(f->on, 0, sizeof f->on);
	if (a > b) {
		int t = a;
		a = b;
		b = t;
	}
	switch (kind) {
	case 0:
		snprintf(f->text, sizeof f->text, "%d", a);
		f->on[a] = 1;
		break;
	case 1:
		snprintf(f->text, sizeof f->text, "%d-%d", a, b);
		for (int v = a; v <= b; v++)
			f->on[v] = 1;
		break;
	case 2:
		snprintf(f->text, sizeof f->text, "%d-%d/%d", a, b, step);
		for (int v = a; v <= b; v += step)
			f->on[v] = 1;
		break;
	case 3:
		snprintf(f->text, sizeof f->text, "%d,%d", a, b);
		f->on[a] = f->on[b] = 1;
		break;
	default:
		snprintf(f->text, sizeof f->text, "*/%d", step);
		for (int v = lo; v <= hi; v += step)
			f->on[v] = 1;
	}
}

/* The first count minutes after t (t mid-minute) that match, found by
 * walking days, then minutes of matching days. */
static size_t oracle(const field_gen *min, const field_gen *hour, const field_gen *dom, const field_gen *dow,
                     double t, double *out, size_t count)
{
	time_t day = (time_t)t / 86400 * 86400;
	size_t n = 0;
	for (int d = 0; d < 400 && n < count; d++, day += 86400) {
		struct tm tm;
		gmtime_r(&day, &tm);
		if (!dom->on[tm.tm_mday] || !dow->on[tm.tm_wday])
			continue;
		for (int m = 0; m < 1440 && n < count; m++) {
			double at = (double)day + 60.0 * m;
			if (at > t && hour->on[m / 60] && min->on[m % 60])
				out[n++] = at;
		}
	}
	return n;
}

/* RNX-2 by qless_client_cron_next, and random expressions whose times
 * agree with the oracle both from cron_next and from a template made at the
 * same now (recur_next). */
static void test_cron_next(void)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	double *t = NULL;
	size_t n = 99;
	th_clock_at(c, N);
	TH_OK(qless_client_cron_next(&t, &n, c, "0 9 * * 1-5", 3));
	const double rnx2[] = { 1772701200, 1772787600, 1773046800 };
	assert_times(t, n, rnx2, 3);
	qless_free(t);
	CU_ASSERT_EQUAL(th_int("DBSIZE"), 0);

	unsigned seed = 20261123;
	for (int i = 0; i < 40; i++) {
		field_gen min, hour, dom, dow, star;
		memset(star.on, 1, sizeof star.on);
		strcpy(star.text, "*");
		gen_field(&min, &seed, 0, 59, 1);
		gen_field(&hour, &seed, 0, 23, 1);
		/* One of day-of-month (1-28: every month has it) and day-of-week
		 * restricted: when both are, cron's union rule applies (CRN-10). */
		if (rand_r(&seed) % 2)
			gen_field(&dom, &seed, 1, 28, 0), dow = star;
		else
			gen_field(&dow, &seed, 0, 6, 0), dom = star;
		char expr[256], jid[16];
		snprintf(expr, sizeof expr, "%s %s %s * %s", min.text, hour.text, dom.text, dow.text);
		double base = N + 60.0 * (rand_r(&seed) % 600000), want[4];
		size_t nwant = oracle(&min, &hour, &dom, &dow, base, want, 4);
		CU_ASSERT_EQUAL_FATAL(nwant, 4);

		th_clock_at(c, base);
		TH_OK(qless_client_cron_next(&t, &n, c, expr, 4));
		assert_times(t, n, want, 4);
		qless_free(t);

		snprintf(jid, sizeof jid, "g%d", i);
		qless_recur_options o = QLESS_RECUR_OPTIONS_INIT;
		o.jid = jid;
		th_clock_at(c, base);
		TH_OK(qless_queue_recur_cron(NULL, q, "K", NULL, expr, &o));
		qless_recur *r = NULL;
		TH_OK(qless_client_get_recur(&r, c, jid));
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		TH_STREQ(qless_recur_cron(r), expr);
		CU_ASSERT_EQUAL(qless_recur_interval(r), 0);
		TH_OK(qless_recur_next(&t, &n, r, 4));
		assert_times(t, n, want, 4);
		qless_free(t);
		qless_recur_free(r);
		if (CU_get_number_of_failures() > 0) {
			fprintf(stderr, "\n  seed %u, expression %d: \"%s\" from %.0f\n", 20261123u, i, expr, base);
			break;
		}
	}
	qless_queue_free(q);
	qless_client_free(c);
}

/* Interval -> cron -> interval -> cron through one handle; every change
 * is seen by a fresh read and by recur_next. */
static void test_set_cron_and_interval(void)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	qless_recur_options o = QLESS_RECUR_OPTIONS_INIT;
	o.jid = "tmpl";
	o.offset = 10;
	th_clock_at(c, N);
	TH_OK(qless_queue_recur(NULL, q, "K", NULL, 60, &o));
	qless_recur *r = NULL, *fresh = NULL;
	TH_OK(qless_client_get_recur(&r, c, "tmpl"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NULL(qless_recur_cron(r));
	double *t = NULL;
	size_t n = 0;
	/* Created at N plus the microseconds the call took to start. */
	TH_OK(qless_recur_next(&t, &n, r, 3));
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT(t[0] >= N + 10 && t[0] < N + 11);
	CU_ASSERT(t[1] - t[0] == 60 && t[2] - t[1] == 60);
	qless_free(t);

	/* Names are kept as written (upper-cased): NORM, not the identity. */
	TH_OK(qless_recur_set_cron(r, "0  9 * * mon-fri"));
	TH_STREQ(qless_recur_cron(r), "0 9 * * MON-FRI");
	CU_ASSERT_EQUAL(qless_recur_interval(r), 0);
	TH_OK(qless_client_get_recur(&fresh, c, "tmpl"));
	TH_STREQ(qless_recur_cron(fresh), "0 9 * * MON-FRI");
	CU_ASSERT_EQUAL(qless_recur_interval(fresh), 0);
	qless_recur_free(fresh);
	TH_OK(qless_recur_next(&t, &n, r, 2));
	const double weekdays9[] = { 1772701200, 1772787600 };
	assert_times(t, n, weekdays9, 2);
	qless_free(t);

	/* §3.4: the next run stays where the cron would have fired. */
	TH_OK(qless_recur_set_interval(r, 600));
	CU_ASSERT_PTR_NULL(qless_recur_cron(r));
	CU_ASSERT_EQUAL(qless_recur_interval(r), 600);
	TH_OK(qless_client_get_recur(&fresh, c, "tmpl"));
	CU_ASSERT_PTR_NULL(qless_recur_cron(fresh));
	CU_ASSERT_EQUAL(qless_recur_interval(fresh), 600);
	qless_recur_free(fresh);
	TH_OK(qless_recur_next(&t, &n, r, 3));
	const double every600[] = { 1772701200, 1772701800, 1772702400 };
	assert_times(t, n, every600, 3);
	qless_free(t);

	TH_OK(qless_recur_set_cron(r, "@hourly"));
	TH_STREQ(qless_recur_cron(r), "@hourly");
	TH_OK(qless_recur_next(&t, &n, r, 1));
	const double hourly[] = { 1772622000 };
	assert_times(t, n, hourly, 1);
	qless_free(t);

	/* A template that fires no more has no next times. */
	TH_OK(qless_recur_set_cron(r, "2026 3 4 * 11 0 0"));
	th_clock_at(c, 1772622000);
	qless_job *job = th_pop1(c, "q");
	CU_ASSERT_PTR_NOT_NULL(job);
	qless_job_free(job);
	t = (double *)&n;
	TH_OK(qless_recur_next(&t, &n, r, 5));
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NULL(t);
	qless_recur_free(r);
	qless_queue_free(q);
	qless_client_free(c);
}

/* Unique cron templates: the identity spelling (S6) makes "@daily" and
 * "0 0 * * *" one entry; version-1 options still work. */
static void test_recur_cron_unique(void)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	qless_recur_options o = QLESS_RECUR_OPTIONS_INIT;
	o.unique = 1;
	o.backlog = 1000;
	char *a = NULL, *b = NULL, want[QLESS_UNIQUE_JID_SIZE];
	TH_OK(qless_queue_recur_cron(&a, q, "K", "{\"x\": 1}", "@daily", &o));
	TH_OK(qless_queue_recur_cron(&b, q, "K", "{\"x\":1}", "0 0 * * *", &o));
	TH_OK(qless_unique_jid(want, "q", "K", "{\"x\":1}", "0 0 * * *", 0));
	TH_STREQ(a, want);
	TH_STREQ(b, want);
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:q-cron"), 1);
	char *cron = th_str("HGET ql:r:%s cron", want);
	TH_STREQ(cron, "@daily"); /* the first add was kept */
	free(cron);
	qless_free(a);
	qless_free(b);

	struct { unsigned int version; const char *jid; double offset, priority; int retries, backlog;
	         const char *const *tags; size_t ntags; } v1 = { 1, "old", 99, 3, 2, 1, NULL, 0 };
	TH_OK(qless_queue_recur_cron(NULL, q, "K", NULL, "*/5 * * * *", (const qless_recur_options *)&v1));
	qless_recur *r = NULL;
	TH_OK(qless_client_get_recur(&r, c, "old"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(qless_recur_priority(r), 3);
	CU_ASSERT_EQUAL(qless_recur_retries(r), 2);
	CU_ASSERT_EQUAL(qless_recur_backlog(r), 1);
	TH_STREQ(qless_recur_cron(r), "*/5 * * * *");
	qless_recur_free(r);
	qless_queue_free(q);
	qless_client_free(c);
}

/* Bad input: QLESS_EINVAL naming the function and argument, nothing sent
 * (syntax and counts are checked in C) or nothing written (an expression
 * that never fires is the server's to refuse). */
static void test_bad_input(void)
{
	qless_client *c = th_client("w");
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	double *t = (double *)&t;
	size_t n = 7;
	long long before;
	static const char *const bad[] = { "", "   ", "0 24 * * *", "* * * *", "@reboot", "1,,2 * * * *",
	                                   "0 0 * * 1#6", "*/0 * * * *", "2014 3 * FRI-MON 9 0 0" };

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		before = th_commands();
		th_refused_unsent(qless_client_cron_next(&t, &n, c, bad[i], 1), before, "qless_client_cron_next", "cron");
		CU_ASSERT_PTR_NULL(t);
		CU_ASSERT_EQUAL(n, 0);
		before = th_commands();
		th_refused_unsent(qless_queue_recur_cron(NULL, q, "K", NULL, bad[i], NULL), before,
		               "qless_queue_recur_cron", "cron");
	}
	const int64_t counts[] = { 0, -1, 1001, INT64_MAX };
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
		before = th_commands();
		th_refused_unsent(qless_client_cron_next(&t, &n, c, "* * * * *", counts[i]), before,
		               "qless_client_cron_next", "count");
	}
	before = th_commands();
	th_refused_unsent(qless_client_cron_next(&t, &n, c, NULL, 1), before, "qless_client_cron_next", "expr");
	before = th_commands();
	th_refused_unsent(qless_client_cron_next(NULL, &n, c, "* * * * *", 1), before, "qless_client_cron_next", "out");
	before = th_commands();
	th_refused_unsent(qless_client_cron_next(&t, NULL, c, "* * * * *", 1), before, "qless_client_cron_next", "n");
	before = th_commands();
	th_refused_unsent(qless_client_cron_next(&t, &n, NULL, "* * * * *", 1), before, "qless_client_cron_next",
	               "client");

	qless_recur_options o = QLESS_RECUR_OPTIONS_INIT;
	o.backlog = 1001;
	before = th_commands();
	th_refused_unsent(qless_queue_recur_cron(NULL, q, "K", NULL, "* * * * *", &o), before, "qless_queue_recur_cron",
	               "backlog");
	before = th_commands();
	th_refused_unsent(qless_queue_recur_cron(NULL, q, "K", "{bad", "* * * * *", NULL), before,
	               "qless_queue_recur_cron", "data");
	before = th_commands();
	th_refused_unsent(qless_queue_recur_cron(NULL, q, NULL, NULL, "* * * * *", NULL), before,
	               "qless_queue_recur_cron", "klass");

	/* Never fires: refused by the server, nothing written. */
	TH_RC(qless_client_cron_next(&t, &n, c, "0 0 31 2 *", 1), QLESS_EINVAL);
	TH_RC(qless_queue_recur_cron(NULL, q, "K", NULL, "2020 1 1 * 0 0 0", NULL), QLESS_EINVAL);
	CU_ASSERT_EQUAL(th_int("DBSIZE"), 0);

	qless_recur_options named = QLESS_RECUR_OPTIONS_INIT;
	named.jid = "tmpl";
	TH_OK(qless_queue_recur_cron(NULL, q, "K", NULL, "0 * * * *", &named));
	qless_recur *r = NULL;
	TH_OK(qless_client_get_recur(&r, c, "tmpl"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		before = th_commands();
		th_refused_unsent(qless_recur_set_cron(r, bad[i]), before, "qless_recur_set_cron", "cron");
	}
	before = th_commands();
	th_refused_unsent(qless_recur_set_cron(r, NULL), before, "qless_recur_set_cron", "expr");
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
		before = th_commands();
		th_refused_unsent(qless_recur_next(&t, &n, r, counts[i]), before, "qless_recur_next", "count");
	}
	TH_RC(qless_recur_set_cron(r, "0 0 30 2 *"), QLESS_EINVAL);
	TH_STREQ(qless_recur_cron(r), "0 * * * *");
	char *stored = th_str("HGET ql:r:tmpl cron");
	TH_STREQ(stored, "0 * * * *");
	free(stored);

	/* RNX-1: a template that is gone. */
	TH_OK(qless_recur_cancel(r));
	TH_RC(qless_recur_next(&t, &n, r, 1), QLESS_ENOTFOUND);
	qless_recur_free(r);
	qless_queue_free(q);
	qless_client_free(c);
}

CU_TestInfo recur_cron_tests[] = {
	{ "cron_next", test_cron_next },
	{ "set_cron_and_interval", test_set_cron_and_interval },
	{ "unique", test_recur_cron_unique },
	{ "bad_input", test_bad_input },
	CU_TEST_INFO_NULL,
};
