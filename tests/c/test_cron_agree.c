/*
 * The cron grammar is implemented twice by design (schedules.md §6.1: the
 * library checks syntax before any I/O, the script checks it again), so the
 * two can drift apart. This suite feeds the same generated expressions,
 * valid and broken, to qless_cron_check and to the script's cron.next and
 * requires the same verdict and, for a refusal, the same reason.
 * Seed: $QLESS_TEST_SEED, else a fixed one; printed on a mismatch.
 */
#include <stdlib.h>
#include "helper.h"

#define EXPRESSIONS 4000

typedef struct field_range { const char *name; int lo, hi; } field_range;

static const field_range FIVE[] = {
	{ "minute", 0, 59 }, { "hour", 0, 23 }, { "dom", 1, 31 }, { "month", 1, 12 }, { "dow", 0, 7 },
};
static const field_range SEVEN[] = {
	{ "year", 1970, 2999 }, { "month", 1, 12 }, { "dom", 1, 31 }, { "dow", 0, 7 },
	{ "hour", 0, 23 }, { "minute", 0, 59 }, { "second", 0, 59 },
};

static const char *const MONTHS[] = { "JAN", "feb", "Mar", "APR", "may", "JUNE", "jul", "AUG", "sep", "OCT",
                                      "nov", "DEC", "FOO" };
static const char *const DAYS[] = { "SUN", "mon", "Tue", "WED", "thu", "FRI", "sat", "MONDAY", "XYZ" };
static const char *const JUNK[] = { "?", "", "-", "5-", "-5", "*/", "1,,2", "x", "1.5", "+1",
                                    "99999999999999999999", "L5", "#", "W", "*-5", "5//2", "**", "1-2-3" };
static const char *const MACROS[] = { "@daily", "@hourly", "@weekly", "@monthly", "@yearly", "@annually",
                                      "@midnight", "@reboot", "@bogus", "@DAILY", "@", "@ daily" };
static const int STEPS[] = { 0, 1, 2, 3, 7, 15, 60, 100 };

#define PICK(seed, array) (array[rand_r(seed) % (sizeof array / sizeof array[0])])

/* A value around the field's bounds: mostly inside, sometimes one past. */
static int value(unsigned int *seed, const field_range *f)
{
	int span = f->hi - f->lo + 3;
	return f->lo - 1 + (int)(rand_r(seed) % (unsigned)span);
}

/* An item that is always valid in field f. */
static void clean_item(unsigned int *seed, const field_range *f, char *out, size_t size)
{
	int span = f->hi - f->lo + 1;
	int a = f->lo + (int)(rand_r(seed) % (unsigned)span), b = f->lo + (int)(rand_r(seed) % (unsigned)span);
	switch (rand_r(seed) % 4) {
	case 0: snprintf(out, size, "*"); break;
	case 1: snprintf(out, size, "*/%d", 1 + (int)(rand_r(seed) % 15)); break;
	case 2: snprintf(out, size, "%d", a); break;
	default: snprintf(out, size, "%d-%d", a < b ? a : b, a < b ? b : a); break;
	}
}

static void item(unsigned int *seed, const field_range *f, char *out, size_t size)
{
	int a = value(seed, f), b = value(seed, f), n = PICK(seed, STEPS);
	int dow = strcmp(f->name, "dow") == 0, month = strcmp(f->name, "month") == 0;
	switch (rand_r(seed) % 20) {
	case 0: snprintf(out, size, "*"); break;
	case 1: snprintf(out, size, "*/%d", n); break;
	case 2: snprintf(out, size, "0%d", a); break;
	case 3: case 4: snprintf(out, size, "%d", a); break;
	case 5: snprintf(out, size, "%d-%d", a, b); break;
	case 6: snprintf(out, size, "%d-%d/%d", a < b ? a : b, a < b ? b : a, n); break;
	case 7: snprintf(out, size, "%d/%d", a, n); break;
	case 8: snprintf(out, size, "%s", dow ? PICK(seed, DAYS) : PICK(seed, MONTHS)); break;
	case 9: snprintf(out, size, "L"); break;
	case 10: snprintf(out, size, "%dL", (int)(rand_r(seed) % 9)); break;
	case 11: snprintf(out, size, "%d#%d", (int)(rand_r(seed) % 9), (int)(rand_r(seed) % 7)); break;
	case 12: snprintf(out, size, "%d/%d", (int)(rand_r(seed) % 9), n); break;
	case 13: snprintf(out, size, "%s", PICK(seed, JUNK)); break;
	case 14:
		snprintf(out, size, "%s-%s", month ? PICK(seed, MONTHS) : PICK(seed, DAYS),
		         month ? PICK(seed, MONTHS) : PICK(seed, DAYS));
		break;
	default: snprintf(out, size, "%d", f->lo + (int)(rand_r(seed) % (unsigned)(f->hi - f->lo + 1))); break;
	}
}

static void expression(unsigned int *seed, char *out, size_t size)
{
	unsigned int shape = rand_r(seed) % 20;
	if (shape == 0) {
		snprintf(out, size, "%s", PICK(seed, MACROS));
		return;
	}
	const field_range *fields = shape < 10 ? FIVE : SEVEN;
	size_t nfields = shape < 10 ? 5 : 7, len = 0;
	if (shape == 1)
		nfields = 4 + rand_r(seed) % 2 * 2;   /* 4 or 6 fields: wrong counts */
	else if (shape == 2)
		nfields = 8;
	/* Most generated items are broken; a third of the expressions use
	 * only valid items, so both verdicts are well represented. */
	int clean = rand_r(seed) % 3 == 0;
	out[0] = '\0';
	for (size_t i = 0; i < nfields; i++) {
		const field_range *f = &fields[i % (shape < 10 ? 5 : 7)];
		int items = 1 + (int)(rand_r(seed) % 3 == 0) + (int)(rand_r(seed) % 5 == 0);
		if (i > 0)
			len += (size_t)snprintf(out + len, size - len, "%s", rand_r(seed) % 8 ? " " : "\t ");
		for (int k = 0; k < items; k++) {
			char one[64];
			(clean ? clean_item : item)(seed, f, one, sizeof one);
			len += (size_t)snprintf(out + len, size - len, "%s%s", k ? "," : "", one);
		}
	}
}

/* The reason after `Arg "cron" invalid: `, or NULL when msg has none. */
static const char *reason(const char *msg)
{
	const char *at = strstr(msg, "Arg \"cron\" invalid: ");
	return at ? at + strlen("Arg \"cron\" invalid: ") : NULL;
}

static void test_same_verdicts(void)
{
	const char *env = getenv("QLESS_TEST_SEED");
	unsigned int seed0 = env ? (unsigned int)strtoul(env, NULL, 10) : 20261123u, seed = seed0;
	qless_client *c = th_client("w");
	int valid = 0, refused = 0, mismatches = 0;
	for (int i = 0; i < EXPRESSIONS; i++) {
		char expr[512], local[512] = "", *out = NULL;
		expression(&seed, expr, sizeof expr);
		int lrc = qless_cron_check(expr, NULL);
		if (lrc != QLESS_OK)
			snprintf(local, sizeof local, "%s", qless_error_last_message());
		const char *argv[] = { expr, "1" };
		int src = qless_client_call(c, &out, "cron.next", argv, 2);
		const char *smsg = src == QLESS_OK ? "" : qless_error_last_message();
		const char *sr = src == QLESS_OK ? NULL : reason(smsg);
		/* A well-formed expression that never fires is the server's to
		 * refuse (§2.7); its syntax was accepted. */
		int server_ok = src == QLESS_OK || (sr && strncmp(sr, "never fires", 11) == 0);
		int agree = lrc == QLESS_OK ? server_ok
		                            : !server_ok && sr && reason(local) && strcmp(sr, reason(local)) == 0;
		if (!agree && mismatches++ < 8)
			fprintf(stderr, "\n  seed %u, expression %d: \"%s\"\n    qless_cron_check: %s\n    cron.next: %s",
			        seed0, i, expr, lrc == QLESS_OK ? "ok" : local, src == QLESS_OK ? "ok" : smsg);
		if (lrc == QLESS_OK)
			valid++;
		else
			refused++;
		qless_free(out);
	}
	CU_ASSERT_EQUAL(mismatches, 0);
	/* The generator must exercise both sides, or agreement means nothing. */
	CU_ASSERT(valid > EXPRESSIONS / 10);
	CU_ASSERT(refused > EXPRESSIONS / 10);
	qless_client_free(c);
}

CU_TestInfo cron_agree_tests[] = {
	{ "same verdicts and reasons", test_same_verdicts },
	CU_TEST_INFO_NULL,
};
