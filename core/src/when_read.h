/* The parser of natural-language time text (qless_when_parse), shared by
 * its files: when_read.c (parts both kinds of text use), when_clock.c
 * (times of day), when_date.c and when_resolve.c (day parts of one-off
 * texts and their dates), when_oneoff.c
 * (one-off texts, §5.3) and when_every.c (recurring texts, §5.4). The
 * grammar as users read it is docs/times.md. */
#ifndef QLESS_WHEN_READ_H
#define QLESS_WHEN_READ_H

#include "qless/when.h"
#include "when_words.h"

#define QLESS_WHEN_FUNC "qless_when_parse"

/* 0000-01-01 and 10000-01-01, as qless_time_format. */
#define WHEN_TIME_MIN -62167219200.0
#define WHEN_TIME_END 253402300800.0
/* Ten thousand years: more months than any printable time is apart. */
#define WHEN_MAX_MONTHS 120000

#define WHEN_WARNING_SIZE QLESS_WHEN_WARNING_SIZE

/* The readers of parts return 1 (read, words consumed), 0 (not this part,
 * nothing consumed) or QLESS_EINVAL (-1) with the message recorded. */
typedef struct parser {
	const qless_word *w;
	size_t n, i;
	double now;
	int day_first;              /* a/b/c is d/m/y (QLESS_WHEN_DAY_FIRST), else m/d/y */
	char warning[WHEN_WARNING_SIZE]; /* what was read in a way the text may not mean; "" */
} parser;

typedef struct tod {
	qless_clock c;
	const qless_word *word;     /* the word that gave it, for messages */
	int bare;                   /* an hour 1-12 without am/pm: a day portion may move it */
} tod;

/* A duration: calendar months first, then seconds. */
typedef struct when_dur {
	double seconds;
	int64_t months;
} when_dur;

/* The day portions, as the hour each means alone (0: none). */
typedef enum when_portion {
	PORTION_NONE = 0, PORTION_MORNING, PORTION_AFTERNOON, PORTION_EVENING, PORTION_NIGHT
} when_portion;

static inline const qless_word *cur(const parser *p)
{
	return p->i < p->n ? &p->w[p->i] : NULL;
}

static inline const qless_word *ahead(const parser *p, size_t k)
{
	return p->i + k < p->n ? &p->w[p->i + k] : NULL;
}

static inline int is_kw(const qless_word *w, qless_kw kw)
{
	return w != NULL && w->kw == kw;
}

static inline int is_sep(const qless_word *w)
{
	return is_kw(w, KW_AND) || is_kw(w, KW_COMMA);
}

static inline int is_ampm(const qless_word *w)
{
	return is_kw(w, KW_AM) || is_kw(w, KW_PM);
}


static inline int is_amount(const qless_word *w)
{
	return w != NULL && w->error == WORD_OK &&
	       (w->is_compact || w->is_number || is_kw(w, KW_A) || is_kw(w, KW_AN) || is_kw(w, KW_HALF));
}

/* morning, afternoon, evening, night (tonight is a day part too). */
static inline when_portion portion_of(const qless_word *w)
{
	return is_kw(w, KW_MORNING) ? PORTION_MORNING : is_kw(w, KW_AFTERNOON) ? PORTION_AFTERNOON :
	       is_kw(w, KW_EVENING) ? PORTION_EVENING : is_kw(w, KW_NIGHT) || is_kw(w, KW_TONIGHT) ? PORTION_NIGHT :
	       PORTION_NONE;
}

/* "in the evening" (or morning, afternoon, night) k words ahead. */
static inline int portion_phrase_at(const parser *p, size_t k)
{
	return is_kw(ahead(p, k), KW_IN) && is_kw(ahead(p, k + 1), KW_THE) &&
	       portion_of(ahead(p, k + 2)) != PORTION_NONE && !is_kw(ahead(p, k + 2), KW_TONIGHT);
}

/* Errors naming a word and its column (§5.5). */
int qless__when_word_err(const char *reason, const qless_word *w);
int qless__when_missing(const char *what, const qless_word *after);
/* A word that cannot stand where it is: unknown, unexpected, or its own
 * fault (an impossible time, date or number). */
int qless__when_reject(const qless_word *w);
/* QLESS_OK when no word is left, else the rejection of the next. */
int qless__when_at_end(const parser *p);
/* One or more amounts (5 minutes, an hour, half an hour, 1h30m, 2 months)
 * optionally separated by "and" or ","; the sum in *total, the first word
 * in *first. */
int qless__when_amounts(parser *p, when_dur *total, const qless_word **first);
/* t moved by sign (1 or -1) times d: the months on the calendar (the day
 * clamped to the month's length), then the seconds. QLESS_EINVAL naming
 * word when the result leaves years 0000-9999. */
int qless__when_shift(double t, const when_dur *d, int sign, const qless_word *word, double *out);
/* A time of day; a bare number is an hour only after "at" (and there
 * 3-4 digits are HHMM). Also "half past 2", "quarter to 4", "10 to 2",
 * "7 o'clock". */
int qless__when_time(parser *p, int after_at, tod *out);
/* 1 when the words k ahead are N|quarter past|to|after|before H (a time, not a duration). */
int qless__when_clock_relation(const parser *p, size_t k);
/* 1 when the words k ahead make a bare number before them an hour: a
 * portion ("in the evening", "at night", "tonight") or "on" a day
 * ("5 on may 28"). */
int qless__when_hour_before(const parser *p, size_t k);
/* The hour portion stands for, and t moved into portion when it is bare
 * ("evening at 7" = 19:00). */
int qless__when_portion_hour(when_portion portion);
void qless__when_in_portion(tod *t, when_portion portion);

/* "month day" or "day [of] month": the day's word in *day_word. */
int qless__when_month_day(parser *p, int *month, long *day, const qless_word **day_word);
/* The largest day a month has in any year (February: 29). */
int qless__when_month_max(int month);

/* qless_when_parse with the word lead (NULL: none) read before text
 * unless text starts with it; columns count in text. Blank text stays an
 * error of its own ("empty text"), not one about the lead. */
int qless__when_parse_led(const char *text, const char *lead, double now, qless_when *out);
/* qless_when_read with errors "<func>: <arg>: <why>" (arg NULL: "<func>:
 * <why>") and, for recurring text read as AT, `hint` (NULL: none) after
 * the refusal. */
int qless__when_read(const char *func, const char *arg, const char *hint, const char *text, qless_when_read_as as,
                     double now, qless_when *out);

/* The day part of a one-off text (when_date.c). */
typedef enum day_kind {
	DAY_NONE,
	DAY_OFFSET,                 /* today + days: today, tomorrow, yesterday, the day after tomorrow */
	DAY_WEEKDAY,                /* the next W whose time has not passed (today included) */
	DAY_NEXT_WEEKDAY,           /* the first W after today */
	DAY_LAST_WEEKDAY,           /* the last W before today */
	DAY_THIS_WEEKDAY,           /* the first W from today on */
	DAY_FIXED,                  /* days */
	DAY_PERIOD,                 /* the first (or last) day of this week, next month, ... */
	DAY_MONTH_DAY,              /* month and day without a year: the next not passed */
	DAY_MONTH,                  /* a month without a year: its 1st, the next not passed */
	DAY_DOM,                    /* a day of the month alone (28th): the next not passed */
	DAY_NTH_WEEKDAY             /* the nth (-1: last) W of a month */
} day_kind;

/* Which month a day of the month or an nth weekday is in. */
typedef enum month_ref {
	MONTH_NEXT_FOUND = 0,       /* the first month from today's where it is not passed */
	MONTH_NAMED,                /* month (and year when not 0) */
	MONTH_RELATIVE,             /* today's month + delta */
	MONTH_NAMED_RELATIVE        /* this (delta 0), next (1) or last (-1) month named */
} month_ref;

typedef struct day_part {
	day_kind kind;
	int wday, month, day, nth;
	int64_t year;               /* 0: none written */
	int64_t days;               /* DAY_FIXED: the date; DAY_OFFSET: the offset */
	qless_kw unit;              /* DAY_PERIOD: KW_WEEK, KW_MONTH or KW_YEAR */
	int week_wday;              /* DAY_PERIOD of a week: that weekday + 1 in it ("tuesday last week"); 0: its start */
	int delta;                  /* DAY_PERIOD, MONTH_RELATIVE: -1 last, 0 this, 1 next */
	int at_end;                 /* DAY_PERIOD: its last day */
	month_ref in_month;
	int check_wday;             /* a weekday written with a date (-1: none) */
	const qless_word *word;     /* the word that names the day, for messages */
	const qless_word *wday_word;
	when_portion portion;       /* tonight, this evening, last night */
} day_part;

/* A day part at the current word: 1, 0 (none, nothing consumed) or -1
 * (when_date.c). */
int qless__when_day_part(parser *p, day_part *d);
/* The date of d for a time of day tod_s on the wall clock where today
 * and local (now + zone) are; QLESS_OK and *date, or QLESS_EINVAL
 * (when_resolve.c). */
int qless__when_resolve(const day_part *d, double tod_s, int64_t today, double local, int64_t *date);
/* A weekday written with a date that is not the date's: the date wins, and
 * the warning (size WHEN_WARNING_SIZE) says so; "" when they agree. */
void qless__when_weekday_warning(const day_part *d, int64_t date, char *warning);

/* The two kinds of text, from the current word; QLESS_OK and *r. */
int qless__when_oneoff(parser *p, qless_when *r);
int qless__when_every(parser *p, qless_when *r);

#endif
