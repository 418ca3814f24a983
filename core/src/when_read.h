/* The parser of natural-language time text (qless_when_parse), shared by
 * its files: when_read.c (parts both kinds of text use), when_oneoff.c
 * (one-off texts, §5.3) and when_every.c (recurring texts, §5.4). */
#ifndef QLESS_WHEN_READ_H
#define QLESS_WHEN_READ_H

#include "qless/when.h"
#include "when_words.h"

#define QLESS_WHEN_FUNC "qless_when_parse"

/* The readers of parts return 1 (read, words consumed), 0 (not this part,
 * nothing consumed) or QLESS_EINVAL (-1) with the message recorded. */
typedef struct parser {
	const qless_word *w;
	size_t n, i;
	double now;
} parser;

typedef struct tod {
	qless_clock c;
	const qless_word *word;     /* the word that gave it, for messages */
} tod;

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
	       (w->is_compact || w->is_number || is_kw(w, KW_A) || is_kw(w, KW_AN));
}

/* Errors naming a word and its column (§5.5). */
int qless__when_word_err(const char *reason, const qless_word *w);
int qless__when_missing(const char *what, const qless_word *after);
/* A word that cannot stand where it is: unknown, unexpected, or its own
 * fault (an impossible time, date or number). */
int qless__when_reject(const qless_word *w);
/* QLESS_OK when no word is left, else the rejection of the next. */
int qless__when_at_end(const parser *p);
/* One or more amounts (5 minutes, an hour, 1h30m) optionally separated
 * by "and" or ","; the sum in *total, the first word in *first. */
int qless__when_amounts(parser *p, double *total, const qless_word **first);
/* A time of day; a bare number is an hour only after "at". */
int qless__when_time(parser *p, int after_at, tod *out);
/* "month day" or "day [of] month": the day's word in *day_word. */
int qless__when_month_day(parser *p, int *month, long *day, const qless_word **day_word);

/* qless_when_parse with the word lead (NULL: none) read before text
 * unless text starts with it; columns count in text. Blank text stays an
 * error of its own ("empty text"), not one about the lead. */
int qless__when_parse_led(const char *text, const char *lead, double now, qless_when *out);
/* qless_when_read with errors "<func>: <arg>: <why>" (arg NULL: "<func>:
 * <why>") and, for recurring text read as AT, `hint` (NULL: none) after
 * the refusal. */
int qless__when_read(const char *func, const char *arg, const char *hint, const char *text, qless_when_read_as as,
                     double now, qless_when *out);

/* The two kinds of text, from the current word; QLESS_OK and *r. */
int qless__when_oneoff(parser *p, qless_when *r);
int qless__when_every(parser *p, qless_when *r);

#endif
