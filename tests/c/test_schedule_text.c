/* The time-text adds (qless_schedule_add_at_text, _in_text, _every_text):
 * each reads its text as the bindings' at=, in= and every= mean it. The
 * oracle is qless_when_parse of the text with "in "/"every " put before
 * it, its columns moved back into the text as given. */
#include "helper.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

/* N of schedules.md §9: 2026-03-04T10:15:30Z, a Wednesday. */
#define N 1772619330.0
#define Q "texts"

typedef int (*text_add_fn)(qless_schedule *, char **, int *, const char *, const char *, const char *,
                           const qless_schedule_options *);

typedef struct text_fn {
	const char *name, *arg, *lead;
	text_add_fn add;
	int one_off;            /* 1: a recurring text is refused */
} text_fn;

/* The adds called by name, not through a pointer to them, so a change of
 * their argument order is a change of these calls. */
static int add_at_text(qless_schedule *s, char **jid, int *inserted, const char *text, const char *klass,
                       const char *data, const qless_schedule_options *opts)
{
	return qless_schedule_add_at_text(jid, inserted, s, text, klass, data, opts);
}

static int add_in_text(qless_schedule *s, char **jid, int *inserted, const char *text, const char *klass,
                       const char *data, const qless_schedule_options *opts)
{
	return qless_schedule_add_in_text(jid, inserted, s, text, klass, data, opts);
}

static int add_every_text(qless_schedule *s, char **jid, int *inserted, const char *text, const char *klass,
                          const char *data, const qless_schedule_options *opts)
{
	return qless_schedule_add_every_text(jid, inserted, s, text, klass, data, opts);
}

static const text_fn AT = { "qless_schedule_add_at_text", "at_text", NULL, add_at_text, 1 };
static const text_fn IN = { "qless_schedule_add_in_text", "in_text", "in", add_in_text, 1 };
static const text_fn EVERY = { "qless_schedule_add_every_text", "every_text", "every", add_every_text, 0 };

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* 1 when text's first word (blanks and a trailing comma apart) is word. */
static int first_word_is(const char *text, const char *word)
{
	size_t n = strlen(word);
	while (blank(*text))
		text++;
	if (strncasecmp(text, word, n) != 0)
		return 0;
	text += n;
	return *text == '\0' || blank(*text) || (*text == ',' && (text[1] == '\0' || blank(text[1])));
}

/* What fn should say about text it cannot add: the oracle's message with
 * the function and argument before it, its column counted in text. */
static void expected_error(const text_fn *fn, const char *parsed_msg, int shift, char *out, size_t size)
{
	static const char PARSE[] = "qless_when_parse: ";
	const char *m = strncmp(parsed_msg, PARSE, sizeof PARSE - 1) == 0 ? parsed_msg + sizeof PARSE - 1 : parsed_msg;
	const char *col = strstr(m, " at column ");
	if (col == NULL) {
		snprintf(out, size, "%s: %s: %s", fn->name, fn->arg, m);
		return;
	}
	int column = atoi(col + strlen(" at column ")) - shift;
	snprintf(out, size, "%s: %s: %.*s at column %d", fn->name, fn->arg, (int)(col - m), m, column < 1 ? 1 : column);
}

static double zscore(const char *key, const char *member)
{
	char *s = member ? th_str("ZSCORE %s %s", key, member) : NULL;
	double v = s ? atof(s) : -1;
	free(s);
	return v;
}

static int stored_is(const char *jid, const char *field, const char *want)
{
	char *got = jid ? th_str("HGET ql:r:%s %s", jid, field) : NULL;
	int same = got != NULL && strcmp(got, want) == 0;
	if (!same)
		fprintf(stderr, "\n  %s of %s is %s, not %s\n", field, jid, got ? got : "(nil)", want);
	free(got);
	return same;
}

/* t lies in [lo, hi], give or take the server's rounding of times. */
static int within(double t, double lo, double hi)
{
	int ok = t >= lo - 1e-3 && t <= hi + 1e-3;
	if (!ok)
		fprintf(stderr, "\n  %.6f is not in [%.6f, %.6f]\n", t, lo, hi);
	return ok;
}

/* What fn made of text matches what the oracle read at the call's start
 * (w0, now0) and end (w1). */
static void check_added(const char *jid, const qless_when *w0, double now0, const qless_when *w1, double now1)
{
	char *state = th_str("HGET ql:j:%s state", jid), num[64];
	if (w0->kind == QLESS_WHEN_AT) {
		/* now (or a past time within the minute) waits at once; a future one is scheduled at it */
		int scheduled = state != NULL && strcmp(state, "scheduled") == 0;
		CU_ASSERT(scheduled || (state != NULL && strcmp(state, "waiting") == 0 && w0->at <= now1 + 1e-3));
		if (scheduled)
			CU_ASSERT(within(zscore("ql:q:" Q "-scheduled", jid), w0->at, w1->at));
	} else if (w0->kind == QLESS_WHEN_INTERVAL) {
		snprintf(num, sizeof num, "%.17g", w0->interval);
		CU_ASSERT(stored_is(jid, "type", "interval") && stored_is(jid, "interval", num));
		if (w0->at > now1)
			CU_ASSERT(within(zscore("ql:q:" Q "-recur", jid), w0->at, w1->at));
	} else {
		CU_ASSERT(stored_is(jid, "type", "cron") && stored_is(jid, "cron", w0->cron));
	}
	(void)now0;
	free(state);
}

/* One call of fn on text against the oracle. */
static void check_text(qless_client *c, qless_schedule *s, const text_fn *fn, const char *text)
{
	qless_schedule_options o = QLESS_SCHEDULE_OPTIONS_INIT;
	qless_when w0 = QLESS_WHEN_INIT, w1 = QLESS_WHEN_INIT;
	char full[600], want[1000], msg[800];
	const char *t = text;
	int shift = 0, rc0, rc, inserted = -1;
	char *jid = NULL;

	while (blank(*t))
		t++;
	if (fn->lead != NULL && *t != '\0' && !first_word_is(text, fn->lead)) {
		snprintf(full, sizeof full, "%s %s", fn->lead, text);
		shift = (int)strlen(fn->lead) + 1;
	} else {
		snprintf(full, sizeof full, "%s", text);
	}
	o.unique = 0;
	double now0 = qless_client_now(c);
	rc0 = qless_when_parse(&w0, full, now0);
	snprintf(msg, sizeof msg, "%s", qless_error_last_message());
	long long before = th_commands();
	rc = fn->add(s, &jid, &inserted, text, "K", NULL, &o);
	double now1 = qless_client_now(c);

	if (rc0 != QLESS_OK) {
		expected_error(fn, msg, shift, want, sizeof want);
		th_refused_unsent(rc, before, fn->name, fn->arg);
		if (strcmp(qless_error_last_message(), want) != 0)
			fprintf(stderr, "\n  [%s] \"%s\"\n  said \"%s\"\n  want \"%s\"\n", fn->arg, text,
			        qless_error_last_message(), want);
		CU_ASSERT_STRING_EQUAL(qless_error_last_message(), want);
	} else if (fn->one_off && w0.kind == QLESS_WHEN_AT && w0.at < now0 - 60) {
		/* more than a minute past: refused, naming the time (relative text
		 * moves with the clock: to the second, as read at the start or end) */
		char iso0[QLESS_TIME_SIZE], iso1[QLESS_TIME_SIZE], part[80];
		th_refused_unsent(rc, before, fn->name, "is in the past");
		TH_OK(qless_when_parse(&w1, full, now1));
		TH_OK(qless_time_format(iso0, w0.at));
		TH_OK(qless_time_format(iso1, w1.at));
		snprintf(part, sizeof part, "%s %.19s", fn->arg, iso0);
		const char *m = qless_error_last_message();
		if (strstr(m, part) == NULL)
			snprintf(part, sizeof part, "%s %.19s", fn->arg, iso1);
		CU_ASSERT_PTR_NOT_NULL(strstr(m, part));
	} else if (fn->one_off && w0.kind != QLESS_WHEN_AT) {
		th_refused_unsent(rc, before, fn->name, "not a one-off time");
		const char *m = qless_error_last_message();
		CU_ASSERT(strstr(m, fn->arg) && strstr(m, "add_every_text") && strstr(m, "add_cron"));
	} else {
		TH_OK(rc);
		CU_ASSERT_EQUAL(inserted, 1);
		TH_OK(qless_when_parse(&w1, full, now1));
		if (rc == QLESS_OK && jid != NULL)
			check_added(jid, &w0, now0, &w1, now1);
	}
	CU_ASSERT(rc == QLESS_OK || jid == NULL);
	qless_free(jid);
}

/* text with random case and random blanks around its words. */
static void shake(const char *text, unsigned *seed, char *out, size_t size)
{
	static const char *const BLANKS[] = { " ", "  ", "\t", " \t " };
	size_t o = 0;
	for (const char *p = text; *p != '\0' && o + 4 < size; p++) {
		if (*p == ' ' || p == text) {
			const char *b = BLANKS[rand_r(seed) % 4];
			if (*p == ' ' || rand_r(seed) % 2)
				for (; *b && o + 4 < size; b++)
					out[o++] = *b;
			if (*p == ' ')
				continue;
		}
		out[o++] = (char)(rand_r(seed) % 2 ? toupper((unsigned char)*p) : tolower((unsigned char)*p));
	}
	out[o] = '\0';
}

/* Every row of §5.6, as written, without its leading "in"/"every", and
 * shaken, through each of the three functions. */
static void test_rows(void)
{
	qless_client *c = th_client("w");
	qless_schedule *s = NULL;
	unsigned seed = 5602;
	const char *row;
	char text[300];
	size_t tried = 0;

	TH_OK(qless_schedule_new(&s, c, Q));
	th_clock_at(c, N);
	for (size_t i = 0; (row = th_when_row_text(i)) != NULL; i++) {
		const char *bare = row;
		if (first_word_is(row, "in") || first_word_is(row, "every"))
			bare = strchr(row, ' ') ? strchr(row, ' ') + 1 : "";
		shake(rand_r(&seed) % 2 ? row : bare, &seed, text, sizeof text);
		const char *texts[] = { row, bare, text };
		for (size_t k = 0; k < 3; k++) {
			check_text(c, s, &AT, texts[k]);
			check_text(c, s, &IN, texts[k]);
			check_text(c, s, &EVERY, texts[k]);
			tried += 3;
		}
	}
	CU_ASSERT(tried >= 3 * 3 * 60);
	qless_schedule_free(s);
	qless_client_free(c);
}

/* One-off identities have no time: each one-off here has a klass of its own. */
static void jid_of(qless_schedule *s, const text_fn *fn, const char *text, const char *klass, char **jid,
                   int *inserted)
{
	TH_OK(fn->add(s, jid, inserted, text, klass, NULL, NULL));
}

/* The rules one by one: the word put before the text or not, its case and
 * blanks, the dispatch of every text, and at text that repeats. */
static void test_rules(void)
{
	qless_client *c = th_client("w");
	qless_schedule *s = NULL;
	char *a = NULL, *b = NULL;
	int inserted = -1;
	long long before;

	TH_OK(qless_schedule_new(&s, c, Q));
	th_clock_at(c, N);
	/* the same template, whether "every" is written or not: inserted once */
	static const char *const weekly[] = { "every monday 9am", "  EVERY Monday\t9AM", "Every monday 9am" };
	jid_of(s, &EVERY, "monday 9am", "Digest", &a, &inserted);
	CU_ASSERT_EQUAL(inserted, 1);
	CU_ASSERT(stored_is(a, "type", "cron") && stored_is(a, "cron", "0 9 * * 1"));
	for (size_t i = 0; i < sizeof weekly / sizeof *weekly; i++) {
		jid_of(s, &EVERY, weekly[i], "Digest", &b, &inserted);
		CU_ASSERT_EQUAL(inserted, 0);
		TH_STREQ(b, a);
		qless_free(b);
	}
	TH_OK(qless_schedule_add(&b, &inserted, s, "every monday 9am", "Digest", NULL, NULL));
	CU_ASSERT_EQUAL(inserted, 0);
	TH_STREQ(b, a);
	qless_free(a);
	qless_free(b);

	/* an interval, its first run where the text says */
	jid_of(s, &EVERY, "2 days at 9am", "Digest", &a, &inserted);
	CU_ASSERT(stored_is(a, "type", "interval") && stored_is(a, "interval", "172800"));
	CU_ASSERT_EQUAL(zscore("ql:q:" Q "-recur", a), 1772701200);
	qless_free(a);

	/* in: a one-off after the duration, "in" written or not */
	double t0 = qless_client_now(c);
	jid_of(s, &IN, "5 minutes", "In1", &a, &inserted);
	double t1 = qless_client_now(c);
	CU_ASSERT(within(zscore("ql:q:" Q "-scheduled", a), t0 + 300, t1 + 300));
	qless_free(a);
	jid_of(s, &IN, "\tIn 2 hours", "In2", &a, &inserted);
	CU_ASSERT(within(zscore("ql:q:" Q "-scheduled", a), t0 + 7200, qless_client_now(c) + 7200));
	qless_free(a);

	/* at: one-off text of any shape, "in ..." included */
	jid_of(s, &AT, "7pm tomorrow", "At1", &a, &inserted);
	CU_ASSERT_EQUAL(zscore("ql:q:" Q "-scheduled", a), 1772737200);
	qless_free(a);
	static const char *const repeats[] = { "every monday 9am", "every 2 days", "EVERY day" };
	for (size_t i = 0; i < sizeof repeats / sizeof *repeats; i++) {
		before = th_commands();
		th_refused_unsent(qless_schedule_add_at_text(&a, &inserted, s, repeats[i], "K", NULL, NULL), before,
		                  "qless_schedule_add_at_text: at_text", "not a one-off time; use "
		                  "qless_schedule_add_every_text or qless_schedule_add_cron");
		CU_ASSERT_PTR_NULL(a);
	}
	qless_schedule_free(s);
	qless_client_free(c);
}

/* Bad arguments and text: QLESS_EINVAL naming function and argument, the
 * column counted in the text as given, nothing sent, *out_jid NULL. */
static void test_refused(void)
{
	qless_client *c = th_client("w");
	qless_schedule *s = NULL;
	char *jid = (char *)&jid;
	int inserted = -1;
	long long before;

	TH_OK(qless_schedule_new(&s, c, Q));
#define REFUSED(call, func, arg) do { before = th_commands(); th_refused_unsent((call), before, func, arg); \
	CU_ASSERT_PTR_NULL(jid); jid = (char *)&jid; } while (0)
	static const struct { const text_fn *fn; const char *text, *says; } cases[] = {
		{ &IN, "5 blorps", "in_text: unknown word \"blorps\" at column 3" },
		{ &IN, "in 5 blorps", "in_text: unknown word \"blorps\" at column 6" },
		{ &IN, "  5 blorps", "in_text: unknown word \"blorps\" at column 5" },
		{ &IN, "in", "in_text: missing duration after \"in\" at column 1" },
		{ &IN, "", "in_text: empty text" },
		{ &IN, " \t ", "in_text: empty text" },
		{ &EVERY, "monday blorp", "every_text: unknown word \"blorp\" at column 8" },
		{ &EVERY, "every monday blorp", "every_text: unknown word \"blorp\" at column 14" },
		{ &EVERY, "0 minutes", "every_text: interval must be positive \"0\" at column 1" },
		{ &EVERY, "", "every_text: empty text" },
		{ &AT, "tomorow", "at_text: unknown word \"tomorow\" at column 1" },
		{ &AT, "", "at_text: empty text" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		REFUSED(cases[i].fn->add(s, &jid, &inserted, cases[i].text, "K", NULL, NULL), cases[i].fn->name,
		        cases[i].says);
	const text_fn *fns[] = { &AT, &IN, &EVERY };
	qless_schedule_options o = QLESS_SCHEDULE_OPTIONS_INIT;
	o.backlog = -1;
	for (size_t i = 0; i < 3; i++) {
		char null_arg[64];
		snprintf(null_arg, sizeof null_arg, ": %s", fns[i]->arg);
		REFUSED(fns[i]->add(s, &jid, &inserted, NULL, "K", NULL, NULL), fns[i]->name, null_arg);
		REFUSED(fns[i]->add(NULL, &jid, &inserted, "5 minutes", "K", NULL, NULL), fns[i]->name, "s");
		REFUSED(fns[i]->add(s, &jid, &inserted, "5 minutes", NULL, NULL, NULL), fns[i]->name, "klass");
		REFUSED(fns[i]->add(s, &jid, &inserted, "5 minutes", "K", "{", NULL), fns[i]->name, "data");
		REFUSED(fns[i]->add(s, &jid, &inserted, "5 minutes", "K", NULL, &o), fns[i]->name, "backlog");
	}
#undef REFUSED
	CU_ASSERT_EQUAL(inserted, 0);
	CU_ASSERT_EQUAL(th_int("DBSIZE"), 0);
	qless_schedule_free(s);
	qless_client_free(c);
}

/* The due time of the one entry jid. */
static double due_of(qless_schedule *s, const char *jid)
{
	double *t = NULL, at = -1;
	size_t n = 0;
	TH_OK(qless_schedule_next_times(&t, &n, s, jid, 1));
	if (n == 1)
		at = t[0];
	qless_free(t);
	return at;
}

/* qless_schedule_put reads a/b/c dates day first when asked (a version 1
 * struct, without day_first, month first), and leaves the warning of its
 * text, not of an earlier parse, for qless_when_warning(). */
static void test_put_day_first_warning(void)
{
	qless_client *c = th_client("w");
	qless_schedule *s = NULL;
	qless_schedule_add_options o = QLESS_SCHEDULE_ADD_OPTIONS_INIT;
	qless_when w = QLESS_WHEN_INIT;
	char *jid = NULL;
	int inserted = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	th_clock_at(c, N);
	TH_OK(qless_schedule_new(&s, c, Q));

	o.at_text = "4/5/2026 9am";
	TH_OK(qless_schedule_put(&jid, &inserted, s, "MonthFirst", NULL, &o));
	CU_ASSERT_EQUAL(due_of(s, jid), 1775379600);   /* 2026-04-05T09:00Z */
	TH_STREQ(qless_when_warning(), "");
	qless_free(jid);
	o.day_first = 1;
	TH_OK(qless_schedule_put(&jid, &inserted, s, "DayFirst", NULL, &o));
	CU_ASSERT_EQUAL(due_of(s, jid), 1777885200);   /* 2026-05-04T09:00Z */
	qless_free(jid);
	o.version = 1;   /* ends before day_first (still 1 here): month first */
	o.at_text = "4/5/2026 10am";
	TH_OK(qless_schedule_put(&jid, &inserted, s, "Version1", NULL, &o));
	CU_ASSERT_EQUAL(due_of(s, jid), 1775379600 + 3600);
	qless_free(jid);

	/* a weekday that is not the date's: added at the date, with the warning */
	qless_schedule_add_options_init(&o, QLESS_SCHEDULE_ADD_OPTIONS_VERSION);
	o.at_text = "Thu Aug 10 2026 9am";
	TH_OK(qless_schedule_put(&jid, &inserted, s, "Weekday", NULL, &o));
	CU_ASSERT(inserted);
	CU_ASSERT_EQUAL(due_of(s, jid), 1786352400);   /* 2026-08-10T09:00Z, a Monday */
	TH_STREQ(qless_when_warning(), "2026-08-10 is a Monday, not a Thursday; the date is used");
	qless_free(jid);
	/* an add that reads no text leaves no warning behind, nor does a parse's */
	TH_OK(qless_when_parse(&w, "Thu Aug 10 2026", N));
	CU_ASSERT_NOT_EQUAL(qless_when_warning()[0], '\0');
	qless_schedule_add_options_init(&o, QLESS_SCHEDULE_ADD_OPTIONS_VERSION);
	o.has_in = 1;
	o.in_seconds = 60;
	TH_OK(qless_schedule_put(NULL, NULL, s, "Number", NULL, &o));
	TH_STREQ(qless_when_warning(), "");
	/* the text adds too */
	TH_OK(qless_schedule_add_at_text(NULL, NULL, s, "Thu Aug 10 2026 10am", "Text", NULL, NULL));
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_when_warning(), "not a Thursday"));
	TH_OK(qless_schedule_add_at_text(NULL, NULL, s, "Mon Aug 10 2026 10am", "Agrees", NULL, NULL));
	TH_STREQ(qless_when_warning(), "");

	qless_schedule_free(s);
	qless_client_free(c);
}

CU_TestInfo schedule_text_tests[] = {
	{ "rules", test_rules },
	{ "refused", test_refused },
	{ "rows", test_rows },
	{ "put_day_first_warning", test_put_day_first_warning },
	CU_TEST_INFO_NULL,
};
