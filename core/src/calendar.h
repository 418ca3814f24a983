/* Integer UTC calendar arithmetic and ISO 8601 words, shared by the time,
 * natural-language and cron code. No mktime, no time zone of the process. */
#ifndef QLESS_CALENDAR_H
#define QLESS_CALENDAR_H

#include <stddef.h>
#include <stdint.h>

int qless__leap(int64_t y);
int qless__month_len(int64_t y, int m);
/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; negative before). */
int64_t qless__days(int64_t y, int m, int d);
/* The inverse of qless__days. */
void qless__civil(int64_t days, int64_t *y, int *m, int *d);
/* The date months (may be negative) after days, its day of the month
 * clamped to the length of the month reached (Jan 31 + 1 month = Feb 28
 * or 29). */
int64_t qless__add_months(int64_t days, int64_t months);
/* 0 = Sunday. */
int qless__weekday(int64_t days);
/* Floor division, for negative times. */
int64_t qless__floordiv(int64_t a, int64_t b);
/* floor(x) without libm (the library does not link it); x finite. */
double qless__floor(double x);

/* A time zone suffix "Z", "z", "+HH", "-HHMM" or "+HH:MM" (hours 0-23,
 * minutes 0-59) of n bytes at s: 1 and *offset in seconds east of UTC,
 * else 0. */
int qless__zone_parse(const char *s, size_t n, int *offset);

typedef enum qless_iso_kind {
	QLESS_ISO_NONE = 0,       /* not shaped like an ISO date */
	QLESS_ISO_DATE,           /* YYYY-MM-DD */
	QLESS_ISO_DATETIME,       /* YYYY-MM-DDTHH:MM[:SS[.frac]][zone] */
	QLESS_ISO_BAD_DATE,       /* shaped so, but no such day */
	QLESS_ISO_BAD_TIME        /* the date is fine, the rest is not */
} qless_iso_kind;

typedef struct qless_iso {
	int64_t days;             /* the date, as qless__days */
	double t;                 /* the instant (DATETIME), or days * 86400 */
} qless_iso;

/* Reads the n bytes at s (T and Z in either case). */
qless_iso_kind qless__iso_parse(const char *s, size_t n, qless_iso *out);

#endif
