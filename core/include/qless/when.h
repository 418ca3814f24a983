/*
 * Times and cron expressions, in libqless alone (no server): natural-language
 * times ("7pm tomorrow", "every monday 9am"), the syntax of cron expressions,
 * their English description, and ISO 8601 times. Everything is UTC; nothing
 * here reads the clock or the time zone of the process.
 */
#ifndef QLESS_WHEN_H
#define QLESS_WHEN_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qless_when_kind {
	QLESS_WHEN_AT = 1,          /* once, at `at` */
	QLESS_WHEN_INTERVAL = 2,    /* every `interval` seconds, first at `at` */
	QLESS_WHEN_CRON = 3         /* at the fire times of `cron` */
} qless_when_kind;

/* Holds any expression qless_when_parse makes. */
#define QLESS_CRON_SIZE 256
/* 2: flags. A version 1 struct (without them) is still read. */
#define QLESS_WHEN_VERSION 2

/* flags: read a/b/c as day/month/year ("27/5/1979"); without it,
 * month/day/year ("5/27/1979"). Dotted dates (30.07.2013) are always day
 * first, dashed ones with the year first (2000-1-1) always y-m-d. */
#define QLESS_WHEN_DAY_FIRST 1u

typedef struct qless_when {
	unsigned int version;       /* QLESS_WHEN_VERSION, set by the caller */
	qless_when_kind kind;
	double at;                  /* AT: the time; INTERVAL: first run; CRON: 0 */
	double interval;            /* INTERVAL: seconds > 0; else 0 */
	char cron[QLESS_CRON_SIZE]; /* CRON: the normalised expression; else "" */
	/* version >= 2 */
	unsigned int flags;         /* how to read: QLESS_WHEN_DAY_FIRST or 0; set by the caller, kept */
} qless_when;

#define QLESS_WHEN_INIT { QLESS_WHEN_VERSION, (qless_when_kind)0, 0, 0, "", 0 }

/* Reads English time text relative to now (epoch seconds) into *out, whose
 * version (and flags) the caller sets. No I/O. QLESS_EINVAL with a message
 * naming the word and its column when the text is not understood; *out
 * is then unchanged. Past times are times like any other (whether one
 * may be used is for the caller to say). The grammar: docs/times.md. */
QLESS_EXTERN(int) qless_when_parse(qless_when *out, const char *text, double now);

/* What the last successful qless_when_parse or qless_when_read on this
 * thread read in a way the text may not mean, or "" (also after a
 * failure). Today one case: a weekday written with a date that is not the
 * date's ("Thu Aug 10" when Aug 10 is a Monday) reads the date, and this
 * says "2026-08-10 is a Monday, not a Thursday (it is in 2028); the date
 * is used". Borrowed: valid until the next parse on this thread. */
QLESS_EXTERN(const char *) qless_when_warning(void);
#define QLESS_WHEN_WARNING_SIZE 160

/* What a text given for one purpose may mean. */
typedef enum qless_when_read_as {
	QLESS_WHEN_READ_ANY = 0,    /* whatever it says (qless_when_parse) */
	QLESS_WHEN_READ_AT = 1,     /* one time: "7pm tomorrow"; recurring text is refused */
	QLESS_WHEN_READ_IN = 2,     /* a duration from now: "5 minutes" or "in 5 minutes" */
	QLESS_WHEN_READ_EVERY = 3   /* a recurrence: "monday 9am" or "every monday 9am" */
} qless_when_read_as;

/* qless_when_parse for text given as `as` says: IN and EVERY put "in " or
 * "every " before the text unless its first word (in any case) is that
 * word; AT refuses recurring text, EVERY one-off text. Error columns count
 * in the text as given; a text refused for its meaning leaves *out holding
 * that meaning. Schedules (qless_schedule_add_*_text) and the
 * command line read their --at/--in/--every text this way. */
QLESS_EXTERN(int) qless_when_read(qless_when *out, const char *text, qless_when_read_as as, double now);

/* Checks the syntax of a cron expression (5 fields, 7 fields or a macro).
 * *out_normalised (may be NULL) owned: the expression with spaces collapsed,
 * names upper-cased and macros lower-cased. Whether it ever fires is for the
 * server to say (cron.next). */
QLESS_EXTERN(int) qless_cron_check(char **out_normalised, const char *expr);

/* The spelling of a cron expression in a unique identity: macros expanded,
 * names as numbers, 7 as 0 in day-of-week, numbers without leading zeros
 * ("@weekly" and "0 0 * * SUN" both give "0 0 * * 0"). *out owned. */
QLESS_EXTERN(int) qless_cron_identity(char **out, const char *expr);

/* The first count (1-1000) fire times of expr at or after the client's now,
 * each the first after the one before: the due times a template made now
 * with expr would get (the server's cron.next). The syntax is checked here
 * before any I/O; QLESS_EINVAL from the server when expr never fires.
 * *out owned (qless_free; NULL when *n is 0), *n <= count. */
QLESS_EXTERN(int) qless_client_cron_next(double **out, size_t *n, qless_client *client, const char *expr,
                                         int64_t count);

/* A short English description of a valid expression, for tables. *out
 * owned. QLESS_EINVAL as qless_cron_check for an invalid one. */
QLESS_EXTERN(int) qless_cron_describe(char **out, const char *expr);

/* "YYYY-MM-DDTHH:MM:SS[.ffffff]Z" plus the terminating NUL. */
#define QLESS_TIME_SIZE 32

/* Writes t (epoch seconds, years 0000-9999) as ISO 8601 UTC; the fraction,
 * to the microsecond, only when it is not zero. */
QLESS_EXTERN(int) qless_time_format(char out[QLESS_TIME_SIZE], double t);
/* Reads epoch seconds ("1772619330", "-5", "1.5") or an ISO 8601 date or
 * date-time ("2026-03-04", "2026-03-04T10:15:30Z", "...T12:15:30+02:00",
 * no zone = UTC) into *out. */
QLESS_EXTERN(int) qless_time_parse(double *out, const char *text);

#ifdef __cplusplus
}
#endif
#endif
