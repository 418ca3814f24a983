/* Parts both kinds of time text use: errors naming words, durations,
 * times of day and dates of the year (see when_read.h). */
#include <stdio.h>
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "errors.h"
#include "when_read.h"
#include "when_words.h"

/* Words named in messages are cut here. */
#define WHEN_WORD_SHOWN 64

int qless__when_word_err(const char *reason, const qless_word *w)
{
	int shown = w->len > WHEN_WORD_SHOWN ? WHEN_WORD_SHOWN : (int)w->len;
	return qless__err(QLESS_EINVAL, "%s: %s \"%.*s\" at column %d", QLESS_WHEN_FUNC, reason, shown, w->text, w->column);
}

int qless__when_missing(const char *what, const qless_word *after)
{
	char reason[64];
	snprintf(reason, sizeof reason, "missing %s after", what);
	return qless__when_word_err(reason, after);
}

/* A word that cannot stand where it is. */
int qless__when_reject(const qless_word *w)
{
	switch (w->error) {
	case WORD_BAD_TIME: return qless__when_word_err("invalid time", w);
	case WORD_BAD_DATE: return qless__when_word_err("invalid date", w);
	case WORD_BAD_NUMBER: return qless__when_word_err("number out of range", w);
	default: return qless__when_word_err(qless__word_known(w) ? "unexpected" : "unknown word", w);
	}
}

/* Nothing may follow. */
int qless__when_at_end(const parser *p)
{
	return cur(p) == NULL ? QLESS_OK : qless__when_reject(cur(p));
}

/* The number an amount word stands for: 1 for "a"/"an". */
static double amount_value(const qless_word *w)
{
	return w->is_number ? w->number : 1;
}

/* n units of u into *total: calendar months must come whole. */
static int amount_add(when_dur *total, double n, const qless_word *u, const qless_word *w)
{
	if (u->months > 0) {
		double months = n * u->months;
		if (qless__floor(months) != months)
			return qless__when_word_err("months and years must be whole", w);
		if (months > WHEN_MAX_MONTHS || total->months + (int64_t)months > WHEN_MAX_MONTHS)
			return qless__when_word_err("number out of range", w);
		total->months += (int64_t)months;
	} else {
		total->seconds += n * u->unit;
	}
	return QLESS_OK;
}

/* One or more amounts, optionally separated by "and" or ",". 1 when read
 * (sum in *total, first word in *first), 0 when none starts here. */
int qless__when_amounts(parser *p, when_dur *total, const qless_word **first)
{
	total->seconds = 0;
	total->months = 0;
	*first = cur(p);
	if (!is_amount(cur(p)))
		return 0;
	for (;;) {
		const qless_word *w = cur(p), *u = ahead(p, 1);
		if (!is_amount(w))
			return qless__when_reject(w);
		if (w->is_compact) {
			total->seconds += w->compact;
			p->i++;
		} else {
			double n = amount_value(w);
			if (is_kw(w, KW_HALF)) {
				/* half a day, half an hour, half hour */
				if (u == NULL)
					return qless__when_missing("unit", w);
				n = 0.5;
				if (is_kw(u, KW_A) || is_kw(u, KW_AN)) {
					p->i++;
					u = ahead(p, 1);
					w = cur(p);
				}
			}
			if (u == NULL)
				return qless__when_missing("unit", w);
			if (!qless__word_is_unit(u))
				return qless__when_reject(u);
			if (amount_add(total, n, u, w) != QLESS_OK)
				return QLESS_EINVAL;
			p->i += 2;
			/* an hour and a half */
			if (is_kw(cur(p), KW_AND) && is_kw(ahead(p, 1), KW_A) && is_kw(ahead(p, 2), KW_HALF)) {
				if (amount_add(total, 0.5, u, ahead(p, 2)) != QLESS_OK)
					return QLESS_EINVAL;
				p->i += 3;
			}
		}
		if (is_kw(cur(p), KW_COMMA) && ahead(p, 1) != NULL && !is_amount(ahead(p, 1))) {
			/* "in 2 days, at 9am": the comma ends the duration */
			return 1;
		} else if (is_sep(cur(p))) {
			if (ahead(p, 1) == NULL)
				return qless__when_missing("duration", cur(p));
			p->i++;
		} else if (!is_amount(cur(p))) {
			return 1;
		}
	}
}

int qless__when_shift(double t, const when_dur *d, int sign, const qless_word *word, double *out)
{
	double r = t;
	if (d->months != 0) {
		double day = qless__floor(t / 86400);
		int64_t moved = qless__add_months((int64_t)day, sign * d->months);
		r = (double)moved * 86400 + (t - day * 86400);
	}
	r += sign * d->seconds;
	if (!(r >= WHEN_TIME_MIN && r < WHEN_TIME_END))
		return qless__when_word_err("time outside years 0000-9999", word);
	*out = r;
	return QLESS_OK;
}

/* The largest day a month has in any year (February: 29). */
int qless__when_month_max(int month)
{
	return month == 2 ? 29 : qless__month_len(2001, month);
}

/* A day number word: digits or an ordinal. */
static int day_number(const qless_word *w, long *day)
{
	if (w == NULL || w->error != WORD_OK)
		return 0;
	if (w->ordinal > 0) {
		*day = w->ordinal;
		return 1;
	}
	if (w->is_number && w->is_int) {
		*day = w->number > 1e6 ? 1000000 : (long)w->number;
		return 1;
	}
	return 0;
}

/* "month day" or "day [of] month" at the current word, for one-off dates
 * and "every year on ...": 1 (month, day and the day's word set), 0, -1. */
int qless__when_month_day(parser *p, int *month, long *day, const qless_word **day_word)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	if (w != NULL && w->month > 0 && w->kw == KW_NONE) {
		if (next == NULL)
			return qless__when_missing("day", w);
		if (!day_number(next, day))
			return qless__when_reject(next);
		*month = w->month;
		*day_word = next;
		p->i += 2;
	} else if (day_number(w, day) && (w->ordinal > 0 || is_kw(next, KW_OF) || (next && next->month > 0))) {
		*day_word = w;
		p->i++;
		if (is_kw(cur(p), KW_OF))
			p->i++;
		if (cur(p) == NULL)
			return qless__when_missing("month", &p->w[p->i - 1]);
		if (cur(p)->month == 0)
			return qless__when_reject(cur(p));
		*month = cur(p)->month;
		p->i++;
	} else {
		return 0;
	}
	if (*day < 1 || *day > qless__when_month_max(*month))
		return qless__when_word_err("invalid date", *day_word);
	return 1;
}
