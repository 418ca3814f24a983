/* Cron expressions in libqless: syntax, normalisation and the spelling used
 * in unique identities. The server computes fire times; libqless only checks
 * syntax (with the script's messages) and describes. */
#ifndef QLESS_CRON_H
#define QLESS_CRON_H

#include <stddef.h>
#include <stdint.h>

/* The fields in WorkKit's (7-field) order. */
typedef enum qless_cron_field {
	QLESS_CRON_YEAR, QLESS_CRON_MONTH, QLESS_CRON_DOM, QLESS_CRON_DOW,
	QLESS_CRON_HOUR, QLESS_CRON_MINUTE, QLESS_CRON_SECOND, QLESS_CRON_NFIELDS
} qless_cron_field;

typedef enum qless_cron_item_kind {
	QLESS_CRON_STAR,        /* "*" [/step] */
	QLESS_CRON_RANGE,       /* a [-b] [/step]; b = a for a single value */
	QLESS_CRON_LAST,        /* "L" in day-of-month */
	QLESS_CRON_WLAST,       /* aL: the last weekday a of the month */
	QLESS_CRON_NTH,         /* a#n: the n-th weekday a of the month */
	QLESS_CRON_EVERYNTH     /* a/n in day-of-week: every n-th weekday a */
} qless_cron_item_kind;

typedef struct qless_cron_item {
	qless_cron_item_kind kind;
	int64_t a, b;
	int64_t step;           /* the n of "/n" and "#n" */
	int has_range;          /* a "-b" was written */
	int has_step;           /* a "/n" (or "#n") was written */
} qless_cron_item;

typedef struct qless_cron {
	char *norm;                         /* owned: NORM(expr) */
	int macro;                          /* 1 when expr is a macro */
	int nfields;                        /* 5 or 7 as written (5 for macros) */
	/* Each field's text, after macro expansion, borrowed from norm, a
	 * static expansion or the implied "*" / "0" of the 5-field form. */
	const char *field[QLESS_CRON_NFIELDS];
	size_t len[QLESS_CRON_NFIELDS];
} qless_cron;

/* Parses and checks expr; on failure records QLESS_EINVAL as
 * "<func>: Arg \"cron\" invalid: <reason>" (the script's text) and returns it.
 * Free a parsed expression with qless__cron_free. */
int qless__cron_parse(const char *func, const char *expr, qless_cron *out);
void qless__cron_free(qless_cron *cron);
/* qless_cron_check with messages naming func: *out_normalised (may be
 * NULL) owned. */
int qless__cron_norm(const char *func, const char *expr, char **out_normalised);
/* Item index of a checked field text; 0 and *item, or -1 past the end. */
int qless__cron_item(qless_cron_field field, const char *text, size_t len, size_t index, qless_cron_item *item);
/* The spelling of a cron entry's unique identity (schedules.md S6): macros
 * expanded, names as numbers, day-of-week 7 as 0, numbers without leading
 * zeros, as a 5- or 7-field expression. *out owned (qless_free). */
int qless__cron_identity(const char *func, const char *expr, char **out);
/* The smallest and largest value a field takes (schedules.md §2.1). */
void qless__cron_bounds(qless_cron_field field, int64_t *min, int64_t *max);
/* English name of a month (1-12) or weekday (0-7). */
const char *qless__cron_month_name(int64_t m);
const char *qless__cron_weekday_name(int64_t w);

#endif
