/* The words of natural-language time text (schedules.md §5.2): each word
 * with every role it can play, for the grammar in when.c. */
#ifndef QLESS_WHEN_WORDS_H
#define QLESS_WHEN_WORDS_H

#include <stddef.h>

#include "calendar.h"

typedef enum qless_kw {
	KW_NONE = -1,
	KW_NOW, KW_IN, KW_AT, KW_ON, KW_TODAY, KW_TOMORROW, KW_NEXT, KW_NOON, KW_MIDNIGHT,
	KW_AM, KW_PM, KW_AND, KW_COMMA, KW_EVERY, KW_OF, KW_THE, KW_DAY, KW_WEEK, KW_MONTH,
	KW_YEAR, KW_HOUR, KW_MINUTE, KW_SECOND, KW_WEEKDAY, KW_WEEKEND, KW_OTHER, KW_LAST,
	KW_A, KW_AN
} qless_kw;

/* A word shaped like a time, date or number whose value is impossible. */
typedef enum qless_word_error {
	WORD_OK = 0, WORD_BAD_TIME, WORD_BAD_DATE, WORD_BAD_NUMBER
} qless_word_error;

typedef struct qless_clock {
	int hour, minute, second;   /* 24-hour, am/pm applied */
	int ampm;                   /* 0, or KW_AM / KW_PM when attached */
	int has_zone, zone;         /* zone: seconds east of UTC */
} qless_clock;

typedef struct qless_word {
	const char *text;           /* as written (borrowed from the caller's text) */
	size_t len;
	int column;                 /* 1-based byte offset */
	qless_kw kw;
	double unit;                /* seconds of a unit word, else 0 */
	int wday;                   /* 0-6 (Sunday first), else -1 */
	int month;                  /* 1-12, else 0 */
	long ordinal;               /* first..fifth, 1st, 2nd, ...; else 0 */
	int is_number, is_int;      /* digits[.digits] */
	double number;
	int is_compact;             /* 1h30m */
	double compact;             /* its seconds */
	int is_clock;
	qless_clock clock;
	qless_iso_kind iso;         /* QLESS_ISO_DATE or _DATETIME, else NONE */
	qless_iso iso_value;
	int is_epoch;
	double epoch;
	qless_word_error error;
} qless_word;

/* Splits text into words (a trailing "," is a word of its own) and
 * classifies them. *out owned (free); *n words. -1 when out of memory. */
int qless__when_words(const char *text, qless_word **out, size_t *n);
/* 1 when the word plays any role of the vocabulary. */
int qless__word_known(const qless_word *w);

#endif
