/* Cron syntax in C (schedules.md §2.1-2.6, CRN-1..7 on the C side):
 * every reason of §2.6 exactly, normalisation, the identity spelling of
 * §10 S6, descriptions, and seeded random expressions. */
#include "helper.h"

#include <stdlib.h>

/* expr and the <reason> qless_cron_check must give (NULL: valid). */
typedef struct cron_case {
	const char *expr, *reason;
} cron_case;

static const cron_case CASES[] = {
	/* §2.6 examples (CRN-1) */
	{ "0 30 9 * * 1-5", "expected 5 or 7 fields, got 6" },
	{ "0 9 * * FUNDAY", "day-of-week field: bad token \"FUNDAY\"" },
	{ "0 24 * * *", "hour field: value 24 out of range 0-23" },
	{ "0 9 * * FRI-MON", "day-of-week field: range 5-1 is reversed" },
	/* CRN-2: field counts, empty, blank */
	{ "* * * *", "expected 5 or 7 fields, got 4" },
	{ "* * * * * * * *", "expected 5 or 7 fields, got 8" },
	{ "0", "expected 5 or 7 fields, got 1" },
	{ "", "empty expression" },
	{ " \t  ", "empty expression" },
	/* CRN-3 */
	{ "@reboot", "unknown macro \"@reboot\"" },
	{ "@DAILY", NULL },
	{ "@Weekly", NULL },
	/* CRN-5: each field's bounds */
	{ "1969 * * * * * *", "year field: value 1969 out of range 1970-2999" },
	{ "3000 * * * * * *", "year field: value 3000 out of range 1970-2999" },
	{ "0 0 * 13 *", "month field: value 13 out of range 1-12" },
	{ "0 0 * 0 *", "month field: value 0 out of range 1-12" },
	/* Digits as written, however many (the script shows them so). */
	{ "0 0 * 0099999999999999999999 *", "month field: value 99999999999999999999 out of range 1-12" },
	{ "0 0 * 1-12345678901234567 *", "month field: value 12345678901234567 out of range 1-12" },
	{ "0 0 * * 1#00000000000000000007", "day-of-week field: occurrence 7 out of range 1-5" },
	{ "0 0 32 * *", "day-of-month field: value 32 out of range 1-31" },
	{ "0 0 0 * *", "day-of-month field: value 0 out of range 1-31" },
	{ "0 0 * * 8", "day-of-week field: value 8 out of range 0-7" },
	{ "0 24 * * *", "hour field: value 24 out of range 0-23" },
	{ "60 0 * * *", "minute field: value 60 out of range 0-59" },
	{ "* * * * 0 0 60", "second field: value 60 out of range 0-59" },
	{ "0 0 * * 1-8", "day-of-week field: value 8 out of range 0-7" },
	{ "0 0 * * 8L", "day-of-week field: value 8 out of range 0-7" },
	/* CRN-6: bad tokens */
	{ "0 0 * L *", "month field: bad token \"L\"" },
	{ "0 0 * * L", "day-of-week field: bad token \"L\"" },
	{ "0 0 5L * *", "day-of-month field: bad token \"5L\"" },
	{ "0 0 1#2 * *", "day-of-month field: bad token \"1#2\"" },
	{ "0 0 ? * *", "day-of-month field: bad token \"?\"" },
	{ "0 0 15W * *", "day-of-month field: bad token \"15W\"" },
	{ "0 0 W * *", "day-of-month field: bad token \"W\"" },
	{ "1,,2 * * * *", "minute field: bad token \"\"" },
	{ "1, * * * *", "minute field: bad token \"\"" },
	{ "0 0 * MON *", "month field: bad token \"MON\"" },
	{ "0 0 * * JAN", "day-of-week field: bad token \"JAN\"" },
	{ "0 0 * * MONDAY", "day-of-week field: bad token \"MONDAY\"" },
	{ "*-5 * * * *", "minute field: bad token \"*-5\"" },
	{ "1/ * * * *", "minute field: bad token \"1/\"" },
	{ "0 0 * * 1#", "day-of-week field: bad token \"1#\"" },
	{ "0 0 * * 5L/2", "day-of-week field: bad token \"5L/2\"" },
	{ "-1 * * * *", "minute field: bad token \"-1\"" },
	/* CRN-7 */
	{ "*/0 * * * *", "minute field: step must be at least 1" },
	{ "0 0 * * 1#6", "day-of-week field: occurrence 6 out of range 1-5" },
	{ "0 0 * * 1#0", "day-of-week field: occurrence 0 out of range 1-5" },
	{ "0 0 * * 0/0", "day-of-week field: step must be at least 1" },
	{ "5-1 * * * *", "minute field: range 5-1 is reversed" },
	/* left to right, fields in written order: the first error */
	{ "60 24 * * *", "minute field: value 60 out of range 0-59" },
	{ "0 0 * * MON,FUNDAY,9", "day-of-week field: bad token \"FUNDAY\"" },
	{ "1970 13 32 * * * *", "month field: value 13 out of range 1-12" },
	/* valid forms of §2.3 */
	{ "* 3 * 0/2,3 9-17 * */5", NULL },
	{ "0 10 * * 0#2", NULL },
	{ "0 17 * * 5L", NULL },
	{ "0 12 L * *", NULL },
	{ "30 2 * * 0-7/2", NULL },
	{ "0 0 1,15 * MON", NULL },
	{ "0 0 * JAN-MAR,DEC SUN-SAT", NULL },
	{ "1/2 5/20 * * *", NULL },
	{ "2027 1 1 * 0 0 0", NULL },
	{ "0 0 * * 7", NULL },
	{ "0 0 * * 7L,7#1,7/2", NULL },
};

/* CRN-1..7: exactly the reason, with the function's name in front. */
static void test_reasons(void)
{
	for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
		char *norm = NULL, want[512];
		int rc = qless_cron_check(&norm, CASES[i].expr);
		if (CASES[i].reason == NULL) {
			if (rc != QLESS_OK)
				fprintf(stderr, "\n  \"%s\": %s", CASES[i].expr, qless_error_last_message());
			CU_ASSERT_EQUAL(rc, QLESS_OK);
			qless_free(norm);
			continue;
		}
		snprintf(want, sizeof want, "qless_cron_check: Arg \"cron\" invalid: %s", CASES[i].reason);
		TH_RC(rc, QLESS_EINVAL);
		TH_STREQ(qless_error_last_message(), want);
		CU_ASSERT_PTR_NULL(norm);
	}
}

/* fn(expr, &out) succeeds with out == want. */
static void expect_text(int (*fn)(const char *, char **), const char *expr, const char *want)
{
	char *out = NULL;
	TH_OK(fn(expr, &out));
	TH_STREQ(out, want);
	qless_free(out);
}

/* The text functions called by name, not through a pointer to them, so a
 * change of their argument order is a change of these calls. */
static int check_text(const char *expr, char **out)
{
	return qless_cron_check(out, expr);
}

static int describe_text(const char *expr, char **out)
{
	return qless_cron_describe(out, expr);
}

static int identity_text(const char *expr, char **out)
{
	return qless_cron_identity(out, expr);
}

/* What qless_cron_check returns (NORM, CRN-4 and §2.5) and what
 * qless_cron_describe says (§5.7's suggested wording and the rest). */
static const struct {
	int (*fn)(const char *, char **);
	const char *expr, *want;
} TEXTS[] = {
	{ check_text, "  0 9 * *   mon-fri ", "0 9 * * MON-FRI" },
	{ check_text, "0\t9 *\t\t* mon-FRI", "0 9 * * MON-FRI" },
	{ check_text, "@DAILY", "@daily" },
	{ check_text, " @Hourly\t", "@hourly" },
	{ check_text, "0 0 l * *", "0 0 L * *" },
	{ check_text, "0 0 * jan,feb 5l", "0 0 * JAN,FEB 5L" },
	{ describe_text, "0 9 * * 1-5", "at 09:00 on Monday through Friday" },
	{ describe_text, "*/15 * * * *", "every 15 minutes" },
	{ describe_text, "0 10 * * 0/2", "at 10:00 on the 1st, 3rd and 5th Sunday of the month" },
	/* a step is told by the values it selects, in every field */
	{ describe_text, "0 0 * * 5/5", "at 00:00 on the 1st Friday of the month" },
	{ describe_text, "0 0 * * 5/3", "at 00:00 on the 1st and 4th Friday of the month" },
	{ describe_text, "0 0 * * 5/1", "at 00:00 on every Friday" },
	{ describe_text, "0 0 * * 1-5/2", "at 00:00 on Monday, Wednesday and Friday" },
	{ describe_text, "0 0 * * 1-7/3", "at 00:00 on Monday, Thursday and Sunday" },
	{ describe_text, "0 0 * * */3", "at 00:00 on Sunday, Wednesday and Saturday" },
	{ describe_text, "0 0 1/10 * *", "at 00:00 on the 1st, the 11th, the 21st and the 31st of the month" },
	{ describe_text, "0 0 */2 * *", "at 00:00 on every 2nd day from the 1st through the 31st of the month" },
	{ describe_text, "0 0 1 */3 *", "at 00:00 on the 1st of the month in January, April, July and October" },
	{ describe_text, "0 0 1 2/5 *", "at 00:00 on the 1st of the month in February, July and December" },
	{ describe_text, "2030/400 1 1 * 0 0 0", "at 00:00 on January 1 in 2030, 2430 and 2830" },
	{ describe_text, "*/7 * * * *", "at every 7th minute from 0 through 56 of every hour" },
	{ describe_text, "5/20 9 * * *", "at minutes 5, 25 and 45 of hour 9" },
	{ describe_text, "30 */5 * * *", "at minute 30 of hours 0, 5, 10, 15 and 20" },
	{ describe_text, "* * * * 0 0 10/30", "at seconds 10 and 40 of minute 0 of hour 0" },
	{ describe_text, "0 17 * * 5L", "at 17:00 on the last Friday of the month" },
	{ describe_text, "0 12 L * *", "at 12:00 on the last day of the month" },
	{ describe_text, "0 10 * * 0#2", "at 10:00 on the 2nd Sunday of the month" },
	{ describe_text, "@hourly", "every hour" },
	{ describe_text, "* * * * *", "every minute" },
	{ describe_text, "* * * * * * *", "every second" },
	{ describe_text, "0 0 25 12 *", "at 00:00 on December 25" },
	{ describe_text, "0 0 25 12 5", "at 00:00 on the 25th of the month or Friday in December" },
	{ describe_text, "* * * * 9 0 30", "at 09:00:30 every day" },
	{ describe_text, "@daily", "at 00:00 every day" },
	{ describe_text, "0 0 1 1 *", "at 00:00 on January 1" },
	{ describe_text, "0 9-17 * * *", "at minute 0 of hour 9-17" },
};

static void test_texts(void)
{
	for (size_t i = 0; i < sizeof TEXTS / sizeof TEXTS[0]; i++)
		expect_text(TEXTS[i].fn, TEXTS[i].expr, TEXTS[i].want);
}

/* The length limit counts the text as given (S7); NULL. */
static void test_length_and_null(void)
{
	char text[1100];
	memset(text, ' ', sizeof text);
	memcpy(text, "0 0 * * *", 9);
	text[1024] = '\0';
	TH_OK(qless_cron_check(NULL, text));
	text[1024] = ' ';
	text[1025] = '\0';
	TH_RC(qless_cron_check(NULL, text), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "qless_cron_check: Arg \"cron\" invalid: expression longer than 1024 bytes");
	TH_RC(qless_cron_check(NULL, NULL), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "qless_cron_check: expr is NULL");
}

/* §10 S6: spellings of one schedule share an identity; others do not. */
static void test_identity(void)
{
	static const struct { const char *a, *b; } same[] = {
		{ "0 9 * * MON-FRI", "0 9 * * 1-5" },
		{ "@daily", "0 0 * * *" },
		{ "@midnight", "0 0 * * *" },
		{ "@ANNUALLY", "0 0 1 1 *" },
		{ "@weekly", "0 0 * * 7" },
		{ "0 0 * * SUN", "0 0 * * 0" },
		{ "0 0 * * 7L,7#2,7/2", "0 0 * * 0L,0#2,0/2" },
		{ "00 09 * jan,Dec *", "0 9 * 1,12 *" },
	};
	static const struct { const char *a, *b; } differ[] = {
		{ "0 9 * * 1-5", "0 9 * * 1-6" },
		{ "0 0 * * *", "* * * * 0 0 0" },
		{ "0 0 * * 5-7", "0 0 * * 5-6" },
	};
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		char *a = NULL, *b = NULL;
		TH_OK(qless_cron_identity(&a, same[i].a));
		TH_OK(qless_cron_identity(&b, same[i].b));
		TH_STREQ(a, b);
		qless_free(a);
		qless_free(b);
	}
	for (size_t i = 0; i < sizeof differ / sizeof differ[0]; i++) {
		char *a = NULL, *b = NULL;
		TH_OK(qless_cron_identity(&a, differ[i].a));
		TH_OK(qless_cron_identity(&b, differ[i].b));
		CU_ASSERT(a != NULL && b != NULL && strcmp(a, b) != 0);
		qless_free(a);
		qless_free(b);
	}
	char *id = NULL;
	expect_text(identity_text, "0 9 * * 1-5", "0 9 * * 1-5");
	TH_RC(qless_cron_identity(&id, "0 9 * * FUNDAY"), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "qless_cron_identity: Arg \"cron\" invalid: day-of-week field: bad token \"FUNDAY\"");
	TH_RC(qless_cron_identity(NULL, "@daily"), QLESS_EINVAL);
}

/* §5.7: an invalid expression is the check's error. */
static void test_describe(void)
{
	char *text = NULL;
	TH_RC(qless_cron_describe(&text, "0 24 * * *"), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "qless_cron_describe: Arg \"cron\" invalid: hour field: value 24 out of range 0-23");
	CU_ASSERT_PTR_NULL(text);
	TH_RC(qless_cron_describe(NULL, "@daily"), QLESS_EINVAL);
}

/* One random item of a field whose bounds are lo..hi, valid by §2.3 (with
 * dow set: day-of-week specials too). */
static int random_item(char *out, size_t size, int lo, int hi, int dow, int dom, unsigned *seed)
{
	int a = lo + rand_r(seed) % (hi - lo + 1), b = a + rand_r(seed) % (hi - a + 1);
	switch (rand_r(seed) % (dow ? 9 : 7)) {
	case 0: return snprintf(out, size, "*");
	case 1: return snprintf(out, size, "*/%d", 1 + rand_r(seed) % 20);
	case 2: return snprintf(out, size, "%d-%d", a, b);
	case 3: return snprintf(out, size, "%d-%d/%d", a, b, 1 + rand_r(seed) % 9);
	case 4: return snprintf(out, size, "%d/%d", a, 1 + rand_r(seed) % 9);
	case 5: return dom ? snprintf(out, size, "L") : snprintf(out, size, "%d", a);
	case 6: return snprintf(out, size, "%d", a);
	case 7: return snprintf(out, size, "%dL", a);
	default: return snprintf(out, size, "%d#%d", a, 1 + rand_r(seed) % 5);
	}
}

/* Seeded: valid generated expressions pass, their normal form and identity
 * are fixed points; random bytes, and valid expressions with one byte
 * changed, give QLESS_OK or QLESS_EINVAL with a message. */
static void test_random_expressions(void)
{
	static const int LO[7] = { 1970, 1, 1, 0, 0, 0, 0 }, HI[7] = { 2999, 12, 31, 7, 23, 59, 59 };
	static const int ORDER5[5] = { 5, 4, 2, 1, 3 };
	const char *env = getenv("QLESS_TEST_SEED");
	unsigned seed = env ? (unsigned)strtoul(env, NULL, 10) : 14u;
	fprintf(stderr, "\n  cron seed %u", seed);
	for (int round = 0; round < 3000; round++) {
		char expr[600] = "";
		size_t n = 0;
		int seven = rand_r(&seed) % 2, nf = seven ? 7 : 5;
		for (int k = 0; k < nf; k++) {
			int f = seven ? k : ORDER5[k], items = 1 + rand_r(&seed) % 3;
			for (int j = 0; j < items; j++) {
				n += (size_t)random_item(expr + n, sizeof expr - n, LO[f], HI[f], f == 3, f == 2, &seed);
				if (j + 1 < items)
					expr[n++] = ',';
			}
			expr[n++] = k + 1 < nf ? (rand_r(&seed) % 4 ? ' ' : '\t') : '\0';
		}
		char *norm = NULL, *again = NULL, *id = NULL, *id2 = NULL, *text = NULL;
		int rc = qless_cron_check(&norm, expr);
		if (rc != QLESS_OK)
			fprintf(stderr, "\n  \"%s\": %s", expr, qless_error_last_message());
		CU_ASSERT_EQUAL_FATAL(rc, QLESS_OK);
		TH_OK(qless_cron_check(&again, norm));
		TH_STREQ(again, norm);
		TH_OK(qless_cron_identity(&id, expr));
		TH_OK(qless_cron_identity(&id2, id));
		TH_STREQ(id2, id);
		TH_OK(qless_cron_describe(&text, expr));
		CU_ASSERT(text != NULL && text[0] != '\0');
		qless_free(norm);
		qless_free(again);
		qless_free(id);
		qless_free(id2);
		qless_free(text);
		/* one byte changed: any byte, or one of the grammar's */
		expr[rand_r(&seed) % strlen(expr)] = rand_r(&seed) % 2 ? (char)(1 + rand_r(&seed) % 255) :
		                                     "*/-,#L@ 0"[rand_r(&seed) % 9];
		for (int fn = 0; fn < 3; fn++) {
			char *out = NULL;
			qless_error_clear();
			rc = fn == 0 ? qless_cron_check(&out, expr) : fn == 1 ? qless_cron_identity(&out, expr) :
			     qless_cron_describe(&out, expr);
			CU_ASSERT(rc == QLESS_OK || (rc == QLESS_EINVAL && strstr(qless_error_last_message(), "qless_cron_")));
			CU_ASSERT((rc == QLESS_OK) == (out != NULL));
			qless_free(out);
		}
	}
}

CU_TestInfo cron_tests[] = {
	{ "reasons (CRN-1..7)", test_reasons },
	{ "normal form and description (CRN-4)", test_texts },
	{ "length and NULL", test_length_and_null },
	{ "identity (S6)", test_identity },
	{ "describe", test_describe },
	{ "random expressions", test_random_expressions },
	CU_TEST_INFO_NULL,
};
