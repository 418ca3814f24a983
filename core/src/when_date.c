/* Day parts of one-off texts (docs/times.md, "Days and dates"): today,
 * tomorrow, yesterday and the day after tomorrow; weekdays with this,
 * next and last; the first or last day of a week, month or year; dates
 * by name or number with an optional weekday that must agree; the nth
 * weekday of a month; a month or a day of the month alone. Dates are
 * read here and resolved once the time of day is known (when_resolve.c). */
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "when_read.h"

static int is_month_name(const qless_word *w)
{
	return w != NULL && w->error == WORD_OK && w->month > 0 && w->kw == KW_NONE;
}

static int is_day_number(const qless_word *w)
{
	return w != NULL && w->error == WORD_OK && (w->ordinal > 0 || (w->is_number && w->is_int));
}

/* A year of two digits (1969-2068) or four (1-9999): 1 and *year. */
static int year_value(long v, int digits, int64_t *year)
{
	if (digits == 2) {
		*year = v < 69 ? 2000 + v : 1900 + v;
		return 1;
	}
	*year = v;
	return digits == 4 && v >= 1;
}

/* The word k ahead can be a year after a date: two or four digits that
 * are not an hour ("may 27 9 pm" is no year). */
static int is_year_word(const parser *p, size_t k)
{
	const qless_word *w = ahead(p, k), *next = ahead(p, k + 1);
	return w != NULL && w->error == WORD_OK && w->is_number && w->is_int && (w->digits == 4 || w->digits == 2) &&
	       !is_ampm(next) && !is_kw(next, KW_OCLOCK) && !is_kw(next, KW_PAST) && !is_kw(next, KW_TO);
}

/* [","] year: 1 and *year, 0 when none follows, -1. */
static int year_after(parser *p, int64_t *year)
{
	size_t k = is_kw(cur(p), KW_COMMA) ? 1 : 0;
	const qless_word *w = ahead(p, k);
	if (!is_year_word(p, k))
		return 0;
	if (!year_value((long)w->number, w->digits, year))
		return qless__when_word_err("invalid date", w);
	p->i += k + 1;
	return 1;
}

/* d becomes the date year-month-day, which must exist. */
static int fixed_date(day_part *d, int64_t year, int month, long day, const qless_word *day_word)
{
	if (day < 1 || day > qless__month_len(year, month))
		return qless__when_word_err("invalid date", day_word);
	d->kind = DAY_FIXED;
	d->days = qless__days(year, month, (int)day);
	return 1;
}

/* 5/27/1979 (27/5/1979 day first), 30.07.2013, 2000-1-1, 22-feb. */
static int numeric_date(parser *p, day_part *d)
{
	const qless_word *w = cur(p);
	const qless_numdate *nd = &w->date;
	long m, day, y = nd->parts[2];
	int64_t year = 0;
	int has_year = nd->nparts == 3;
	switch (nd->form) {
	case DATE_SLASH:
		m = p->day_first ? nd->parts[1] : nd->parts[0];
		day = p->day_first ? nd->parts[0] : nd->parts[1];
		if (m > 12 && day >= 1 && day <= 12) {
			/* only the other order is a date: 27/5/1979, 13/09 (and 5/27 day first) */
			long t = m;
			m = day;
			day = t;
		}
		break;
	case DATE_YMD:
		y = nd->parts[0];
		m = nd->parts[1];
		day = nd->parts[2];
		break;
	default:
		day = nd->parts[0];
		m = nd->parts[1];
		break;
	}
	if (m < 1 || m > 12 || day < 1 || day > qless__when_month_max((int)m) ||
	    (has_year && !year_value(y, nd->year_digits, &year)))
		return qless__when_word_err("invalid date", w);
	p->i++;
	if (has_year)
		return fixed_date(d, year, (int)m, day, w);
	d->kind = DAY_MONTH_DAY;
	d->month = (int)m;
	d->day = (int)day;
	return 1;
}

/* After "in"/"of": [the] this|next|last month, the month, or a month
 * [year]. QLESS_OK or QLESS_EINVAL. */
static int month_spec(parser *p, const qless_word *after, day_part *d)
{
	const qless_word *w;
	if (is_kw(cur(p), KW_THE))
		after = &p->w[p->i++];
	if ((w = cur(p)) == NULL)
		return qless__when_missing("month", after);
	if ((is_kw(w, KW_THIS) || is_kw(w, KW_NEXT) || is_kw(w, KW_LAST)) && is_kw(ahead(p, 1), KW_MONTH)) {
		d->in_month = MONTH_RELATIVE;
		d->delta = is_kw(w, KW_NEXT) ? 1 : is_kw(w, KW_LAST) ? -1 : 0;
		p->i += 2;
		return QLESS_OK;
	}
	if (is_kw(w, KW_MONTH)) {
		d->in_month = MONTH_RELATIVE;
		p->i++;
		return QLESS_OK;
	}
	if ((is_kw(w, KW_THIS) || is_kw(w, KW_NEXT) || is_kw(w, KW_LAST)) && is_month_name(ahead(p, 1))) {
		/* this september, last november */
		d->in_month = MONTH_NAMED_RELATIVE;
		d->delta = is_kw(w, KW_NEXT) ? 1 : is_kw(w, KW_LAST) ? -1 : 0;
		d->month = ahead(p, 1)->month;
		p->i += 2;
		return QLESS_OK;
	}
	if (!is_month_name(w))
		return qless__when_reject(w);
	d->in_month = MONTH_NAMED;
	d->month = w->month;
	p->i++;
	return year_after(p, &d->year) < 0 ? QLESS_EINVAL : QLESS_OK;
}

/* ordinal|last (weekday|day) [in|of month]: "3rd wednesday in november",
 * "last friday of the month", "first day of next month". */
static int nth_weekday(parser *p, day_part *d)
{
	const qless_word *w = cur(p), *what = ahead(p, 1);
	d->kind = DAY_NTH_WEEKDAY;
	d->nth = is_kw(w, KW_LAST) ? -1 : (int)(w->ordinal > 99 ? 99 : w->ordinal);
	d->wday = is_kw(what, KW_DAY) ? -1 : what->wday;
	d->word = w;
	if (d->nth > (d->wday < 0 ? 31 : 5))
		return qless__when_word_err("number out of range", w);
	p->i += 2;
	if (d->wday < 0 && (is_kw(cur(p), KW_THIS) || is_kw(cur(p), KW_NEXT) || is_kw(cur(p), KW_LAST)) &&
	    is_kw(ahead(p, 1), KW_WEEK)) {
		/* 4th day last week: weeks start on Monday, its 1st day */
		if (d->nth < 1 || d->nth > 7)
			return qless__when_word_err("number out of range", w);
		d->kind = DAY_PERIOD;
		d->unit = KW_WEEK;
		d->delta = is_kw(cur(p), KW_NEXT) ? 1 : is_kw(cur(p), KW_LAST) ? -1 : 0;
		d->week_wday = d->nth % 7 + 1;
		p->i += 2;
		return 1;
	}
	if (is_kw(cur(p), KW_IN) || is_kw(cur(p), KW_OF)) {
		const qless_word *in = &p->w[p->i++];
		if (month_spec(p, in, d) != QLESS_OK)
			return QLESS_EINVAL;
	} else if ((is_kw(cur(p), KW_THIS) || is_kw(cur(p), KW_NEXT) || is_kw(cur(p), KW_LAST)) &&
	           (is_month_name(ahead(p, 1)) || is_kw(ahead(p, 1), KW_MONTH))) {
		/* 3rd thursday this september, first monday next month */
		if (month_spec(p, what, d) != QLESS_OK)
			return QLESS_EINVAL;
	} else if (d->wday < 0) {
		return cur(p) == NULL ? qless__when_missing("month", what) : qless__when_reject(cur(p));
	}
	return 1;
}

/* A date: ISO, numeric, named (month day [year], day [of] month [year],
 * year month day), a month or a day of the month alone, the nth weekday
 * of a month. 1, 0 or -1. */
static int date_read(parser *p, day_part *d)
{
	const qless_word *w = cur(p), *next = ahead(p, 1), *day_word = NULL;
	int64_t year = 0;
	long day;
	int month, rc;
	if (w == NULL || w->error != WORD_OK)
		return 0;
	d->word = w;
	if (w->iso == QLESS_ISO_DATE) {
		d->kind = DAY_FIXED;
		d->days = w->iso_value.days;
		p->i++;
		return 1;
	}
	if (w->date.form != DATE_NONE)
		return numeric_date(p, d);
	if ((w->ordinal > 0 || is_kw(w, KW_LAST)) && next != NULL && (next->wday >= 0 || is_kw(next, KW_DAY)) &&
	    next->error == WORD_OK)
		return nth_weekday(p, d);
	if (w->ordinal > 0 && !is_month_name(next) && !(is_kw(next, KW_OF) && is_month_name(ahead(p, 2)))) {
		/* the 28th; the fifteenth of this month */
		if (w->ordinal > 31)
			return qless__when_word_err("invalid date", w);
		d->kind = DAY_DOM;
		d->day = (int)w->ordinal;
		p->i++;
		if (is_kw(cur(p), KW_OF)) {
			const qless_word *of = &p->w[p->i++];
			if (month_spec(p, of, d) != QLESS_OK)
				return QLESS_EINVAL;
			if (d->in_month == MONTH_NAMED)
				return qless__when_reject(of);
		}
		return 1;
	}
	if (w->is_number && w->is_int && w->digits == 4 && is_month_name(next)) {
		/* 2009 May 22nd; 2009 may */
		if (!year_value((long)w->number, 4, &year))
			return qless__when_word_err("invalid date", w);
		p->i++;
		if (!is_day_number(ahead(p, 1))) {
			p->i++;
			return fixed_date(d, year, next->month, 1, next);
		}
		if ((rc = qless__when_month_day(p, &month, &day, &day_word)) < 0)
			return rc;
		return fixed_date(d, year, month, day, day_word);
	}
	if (is_month_name(w) && (!is_day_number(next) || (next->is_number && next->digits == 4) ||
	                         (next->is_number && next->digits == 2 && next->number > 31))) {
		/* november; november 2027; may 97 (no month has a 97th: a year) */
		p->i++;
		if ((rc = year_after(p, &year)) < 0)
			return rc;
		if (rc == 1)
			return fixed_date(d, year, w->month, 1, w);
		d->kind = DAY_MONTH;
		d->month = w->month;
		return 1;
	}
	if ((rc = qless__when_month_day(p, &month, &day, &day_word)) <= 0)
		return rc;
	if ((rc = year_after(p, &year)) < 0)
		return rc;
	if (rc == 1)
		return fixed_date(d, year, month, day, day_word);
	d->kind = DAY_MONTH_DAY;
	d->month = month;
	d->day = (int)day;
	return 1;
}

/* this|next|last (weekday|day|week|month|year|portion). */
static int relative_day(parser *p, day_part *d)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	int delta = is_kw(w, KW_NEXT) ? 1 : is_kw(w, KW_LAST) ? -1 : 0;
	if (next == NULL)
		return qless__when_missing("weekday", w);
	if (next->error != WORD_OK)
		return qless__when_reject(next);
	if (delta < 0 && (next->wday >= 0 || is_kw(next, KW_DAY)) && (is_kw(ahead(p, 2), KW_OF) || is_kw(ahead(p, 2), KW_IN)))
		return nth_weekday(p, d);
	p->i += 2;
	if (next->wday >= 0) {
		d->kind = delta > 0 ? DAY_NEXT_WEEKDAY : delta < 0 ? DAY_LAST_WEEKDAY : DAY_THIS_WEEKDAY;
		d->wday = next->wday;
	} else if (is_kw(next, KW_DAY)) {
		d->kind = DAY_OFFSET;
		d->days = delta;
	} else if (is_kw(next, KW_WEEK) || is_kw(next, KW_MONTH) || is_kw(next, KW_YEAR)) {
		d->kind = DAY_PERIOD;
		d->unit = next->kw;
		d->delta = delta;
		if (is_kw(next, KW_WEEK) && cur(p) != NULL && cur(p)->wday >= 0 && cur(p)->kw == KW_NONE &&
		    cur(p)->error == WORD_OK) {
			/* last week tuesday */
			d->week_wday = cur(p)->wday + 1;
			p->i++;
		}
	} else if (is_kw(next, KW_WEEKEND)) {
		/* this weekend: its start, Saturday 00:00 of this week (next, last: of that week) */
		d->kind = DAY_PERIOD;
		d->unit = KW_WEEK;
		d->delta = delta;
		d->week_wday = 6 + 1;
	} else if (is_month_name(next)) {
		/* this november (its 1st), next march, last november */
		d->kind = DAY_NTH_WEEKDAY;
		d->nth = 1;
		d->wday = -1;
		d->in_month = MONTH_NAMED_RELATIVE;
		d->month = next->month;
		d->delta = delta;
	} else if (portion_of(next) != PORTION_NONE && !is_kw(next, KW_TONIGHT) && delta <= 0) {
		/* this evening, last night */
		d->kind = DAY_OFFSET;
		d->days = delta;
		d->portion = portion_of(next);
	} else {
		p->i -= 2;
		return qless__when_reject(next);
	}
	return 1;
}

/* (end|start|beginning) of [the] [this|next|last] (week|month|year), or
 * of a month [year]. */
static int period_edge(parser *p, day_part *d)
{
	const qless_word *w = cur(p), *x;
	int delta = 0;
	d->at_end = is_kw(w, KW_END);
	p->i++;
	if (cur(p) == NULL)
		return qless__when_missing("month", w);
	if (!is_kw(cur(p), KW_OF))
		return qless__when_reject(cur(p));
	p->i++;
	if (is_kw(cur(p), KW_THE))
		p->i++;
	if ((x = cur(p)) == NULL)
		return qless__when_missing("month", &p->w[p->i - 1]);
	if (is_kw(x, KW_THIS) || is_kw(x, KW_NEXT) || is_kw(x, KW_LAST)) {
		delta = is_kw(x, KW_NEXT) ? 1 : is_kw(x, KW_LAST) ? -1 : 0;
		p->i++;
		if ((x = cur(p)) == NULL)
			return qless__when_missing("month", &p->w[p->i - 1]);
		if (!is_kw(x, KW_WEEK) && !is_kw(x, KW_MONTH) && !is_kw(x, KW_YEAR))
			return qless__when_reject(x);
	}
	if (is_kw(x, KW_WEEK) || is_kw(x, KW_MONTH) || is_kw(x, KW_YEAR)) {
		d->kind = DAY_PERIOD;
		d->unit = x->kw;
		d->delta = delta;
		p->i++;
		return 1;
	}
	if (!is_month_name(x))
		return qless__when_reject(x);
	/* end of february [2028]: its last day */
	d->kind = DAY_NTH_WEEKDAY;
	d->nth = d->at_end ? -1 : 1;
	d->wday = -1;
	d->in_month = MONTH_NAMED;
	d->month = x->month;
	p->i++;
	return year_after(p, &d->year) < 0 ? QLESS_EINVAL : 1;
}

int qless__when_day_part(parser *p, day_part *d)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	size_t save = p->i;
	int rc;
	memset(d, 0, sizeof *d);
	d->check_wday = -1;
	d->word = w;
	if (w == NULL || w->error != WORD_OK)
		return 0;
	if (is_kw(w, KW_THE)) {
		/* the day after tomorrow, the 28th, the end of the month */
		if (next == NULL)
			return qless__when_missing("day", w);
		p->i++;
		if ((rc = qless__when_day_part(p, d)) == 0)
			p->i = save;
		return rc;
	}
	if (is_kw(w, KW_TODAY) || is_kw(w, KW_TOMORROW) || is_kw(w, KW_YESTERDAY) || is_kw(w, KW_TONIGHT)) {
		d->kind = DAY_OFFSET;
		d->days = is_kw(w, KW_TOMORROW) ? 1 : is_kw(w, KW_YESTERDAY) ? -1 : 0;
		d->portion = is_kw(w, KW_TONIGHT) ? PORTION_NIGHT : PORTION_NONE;
		p->i++;
		return 1;
	}
	if (is_kw(w, KW_DAY) && ((is_kw(next, KW_AFTER) && is_kw(ahead(p, 2), KW_TOMORROW)) ||
	                         (is_kw(next, KW_BEFORE) && is_kw(ahead(p, 2), KW_YESTERDAY)))) {
		d->kind = DAY_OFFSET;
		d->days = is_kw(next, KW_AFTER) ? 2 : -2;
		p->i += 3;
		return 1;
	}
	if (is_kw(w, KW_NEXT) || is_kw(w, KW_LAST) || is_kw(w, KW_THIS))
		return relative_day(p, d);
	if (is_kw(w, KW_END) || is_kw(w, KW_START))
		return period_edge(p, d);
	if (w->wday >= 0 && w->kw == KW_NONE) {
		/* a weekday, or a weekday with a date: "thu aug 10", "Thursday, 10 August 2028" */
		day_part date;
		p->i++;
		save = p->i;
		if (is_kw(cur(p), KW_COMMA))
			p->i++;
		if (is_kw(cur(p), KW_THE))
			p->i++;
		memset(&date, 0, sizeof date);
		date.check_wday = -1;
		if ((is_kw(cur(p), KW_THIS) || is_kw(cur(p), KW_NEXT) || is_kw(cur(p), KW_LAST)) &&
		    is_kw(ahead(p, 1), KW_WEEK)) {
			/* tuesday last week, friday next week */
			d->kind = DAY_PERIOD;
			d->unit = KW_WEEK;
			d->delta = is_kw(cur(p), KW_NEXT) ? 1 : is_kw(cur(p), KW_LAST) ? -1 : 0;
			d->week_wday = w->wday + 1;
			p->i += 2;
			return 1;
		}
		if ((rc = date_read(p, &date)) < 0)
			return rc;
		if (rc == 0) {
			p->i = save;
			d->kind = DAY_WEEKDAY;
			d->wday = w->wday;
			return 1;
		}
		*d = date;
		d->check_wday = w->wday;
		d->wday_word = w;
		return 1;
	}
	return date_read(p, d);
}
