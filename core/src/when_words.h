/* The words of natural-language time text (schedules.md §5.2, docs/times.md):
 * each word with every role it can play, for the grammar in when*.c. */
#ifndef QLESS_WHEN_WORDS_H
#define QLESS_WHEN_WORDS_H

#include <stddef.h>

#include "calendar.h"

typedef enum qless_kw {
	KW_NONE = -1,
	KW_NOW, KW_IN, KW_AT, KW_ON, KW_TODAY, KW_TOMORROW, KW_NEXT, KW_NOON, KW_MIDNIGHT,
	KW_AM, KW_PM, KW_AND, KW_COMMA, KW_EVERY, KW_OF, KW_THE, KW_DAY, KW_WEEK, KW_MONTH,
	KW_YEAR, KW_HOUR, KW_MINUTE, KW_SECOND, KW_WEEKDAY, KW_WEEKEND, KW_OTHER, KW_LAST,
	KW_A, KW_AN,
	/* relative times, this/next/last, day portions and clock spellings */
	KW_YESTERDAY, KW_AGO, KW_HENCE, KW_LATER, KW_FROM, KW_BEFORE, KW_AFTER, KW_THIS,
	KW_HALF, KW_QUARTER, KW_PAST, KW_TO, KW_OCLOCK, KW_PLUS, KW_MINUS, KW_END, KW_START,
	KW_TONIGHT, KW_MORNING, KW_AFTERNOON, KW_EVENING, KW_NIGHT,
	/* counted days ("2 weekends ago", "5 mornings hence") and "prior to" */
	KW_WEEKENDS, KW_MORNINGS, KW_AFTERNOONS, KW_EVENINGS, KW_NIGHTS, KW_PRIOR
} qless_kw;

/* Day portions, by the hour each stands for when no time is given. */
#define WHEN_MORNING_HOUR 9
#define WHEN_AFTERNOON_HOUR 15
#define WHEN_EVENING_HOUR 19
#define WHEN_NIGHT_HOUR 22

/* A word shaped like a time, date or number whose value is impossible. */
typedef enum qless_word_error {
	WORD_OK = 0, WORD_BAD_TIME, WORD_BAD_DATE, WORD_BAD_NUMBER
} qless_word_error;

typedef struct qless_clock {
	int hour, minute, second;   /* 24-hour, am/pm applied */
	double fraction;            /* of the second: 19.764 gives 0.764 */
	int ampm;                   /* 0, or KW_AM / KW_PM when attached */
	int has_zone, zone;         /* zone: seconds east of UTC */
} qless_clock;

/* Numeric dates other than ISO; which number is which is for the parser
 * to say (m/d/y or d/m/y). */
typedef enum qless_date_form {
	DATE_NONE = 0,
	DATE_SLASH,                 /* a/b[/c], a-b-c: month first unless day first is asked */
	DATE_DOTS,                  /* d.m.y: always day first */
	DATE_YMD,                   /* yyyy-m-d, yyyy/m/d */
	DATE_NAMED                  /* 22-feb[-2013], feb-22[-2013]: parts[1] is the month */
} qless_date_form;

typedef struct qless_numdate {
	qless_date_form form;
	int nparts;                 /* 2 or 3 */
	long parts[3];              /* in written order (DATE_NAMED: day, month, year) */
	int year_digits;            /* digits of the year part, when there is one */
} qless_numdate;

typedef struct qless_word {
	const char *text;           /* as written (borrowed from the caller's text) */
	size_t len;
	int column;                 /* 1-based byte offset */
	qless_kw kw;
	double unit;                /* seconds of a unit word, else 0 */
	int months;                 /* months of a calendar unit word (month 1, year 12), else 0 */
	int wday;                   /* 0-6 (Sunday first), else -1 */
	int month;                  /* 1-12, else 0 */
	long ordinal;               /* first..thirty-first, 1st, 2nd, ...; else 0 */
	int is_number, is_int;      /* digits[.digits] or a number spelled out */
	int digits;                 /* how many digits a written number has (0: spelled) */
	double number;
	int is_compact;             /* 1h30m */
	double compact;             /* its seconds */
	int is_clock;
	qless_clock clock;
	qless_iso_kind iso;         /* QLESS_ISO_DATE or _DATETIME, else NONE */
	qless_iso iso_value;
	qless_numdate date;         /* form DATE_NONE when not a numeric date */
	int is_epoch;
	double epoch;
	int minute_mark;            /* ":30" (past every hour): the minute + 1, else 0 */
	int is_zone, zone;          /* "+0100", "-05:00" alone: seconds east of UTC */
	qless_word_error error;
} qless_word;

/* Splits text into words (each "," is a word of its own; "twenty one",
 * "twenty first", "two hundred and five" and "prior to" become one word)
 * and classifies them. *out
 * owned (free); *n words. -1 when out of memory. */
int qless__when_words(const char *text, qless_word **out, size_t *n);
/* 1 when the word plays any role of the vocabulary. */
int qless__word_known(const qless_word *w);
/* 1 when the word is a unit of time (seconds or calendar months). */
static inline int qless__word_is_unit(const qless_word *w)
{
	return w != NULL && w->error == WORD_OK && (w->unit > 0 || w->months > 0);
}

#endif
