/* The dates of day parts (qless__when_resolve): the first date of a
 * kind that has not passed at the time of day given, on the wall clock of
 * the text's zone; refusals for an nth weekday a month lacks, and the
 * warning for a weekday that is not the date's. */
#include <stdio.h>
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "when_read.h"

static const char *const WDAY_NAMES[7] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
};
static const char *const MONTH_NAMES[12] = {
	"January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
	"November", "December",
};

/* The nth (-1: last) weekday wday (-1: any day) of year-month: 1 and
 * *out, or 0 when the month has none. */
static int nth_in(int64_t y, int m, int nth, int wday, int64_t *out)
{
	int len = qless__month_len(y, m);
	int64_t first = qless__days(y, m, 1), last = first + len - 1;
	if (wday < 0) {
		*out = nth < 0 ? last : first + nth - 1;
		return nth < 0 || nth <= len;
	}
	if (nth < 0) {
		*out = last - (qless__weekday(last) - wday + 7) % 7;
		return 1;
	}
	*out = first + (wday - qless__weekday(first) + 7) % 7 + 7 * (int64_t)(nth - 1);
	return *out <= last;
}

/* The month index (year * 12 + month - 1) of a date. */
static int64_t month_index(int64_t days)
{
	int64_t y;
	int m, d;
	qless__civil(days, &y, &m, &d);
	return y * 12 + m - 1;
}

static int64_t period_day(const day_part *d, int64_t today)
{
	int64_t y, start;
	int m, dd;
	qless__civil(today, &y, &m, &dd);
	switch (d->unit) {
	case KW_WEEK:
		/* weeks start on Monday */
		start = today - (qless__weekday(today) + 6) % 7 + 7 * (int64_t)d->delta;
		if (d->week_wday > 0)
			return start + (d->week_wday - 1 + 6) % 7;
		return d->at_end ? start + 6 : start;
	case KW_MONTH:
		start = qless__add_months(qless__days(y, m, 1), d->delta);
		return d->at_end ? qless__add_months(start, 1) - 1 : start;
	default:
		return d->at_end ? qless__days(y + d->delta, 12, 31) : qless__days(y + d->delta, 1, 1);
	}
}

static int no_such_day(const day_part *d, int64_t index)
{
	static const char *const SUFFIX[] = { "th", "st", "nd", "rd" };
	char reason[128];
	int64_t y = qless__floordiv(index, 12);
	int m = (int)(index - y * 12);
	if (d->wday < 0)
		snprintf(reason, sizeof reason, "%s %lld has no day %d", MONTH_NAMES[m], (long long)y, d->nth);
	else
		snprintf(reason, sizeof reason, "%s %lld has no %d%s %s", MONTH_NAMES[m], (long long)y, d->nth,
		         SUFFIX[d->nth < 4 ? d->nth : 0], WDAY_NAMES[d->wday]);
	return qless__when_word_err(reason, d->word);
}

static int resolve_nth(const day_part *d, double tod_s, int64_t today, double local, int64_t *date)
{
	int64_t index = month_index(today);
	if (d->in_month == MONTH_RELATIVE) {
		index += d->delta;
	} else if (d->in_month == MONTH_NAMED_RELATIVE) {
		/* this: in this year; next: the first after this month; last: the last before it */
		int64_t y = qless__floordiv(index, 12), named = y * 12 + d->month - 1;
		if (d->delta > 0 && named <= index)
			named += 12;
		else if (d->delta < 0 && named >= index)
			named -= 12;
		index = named;
	} else if (d->in_month == MONTH_NAMED && d->year > 0) {
		index = d->year * 12 + d->month - 1;
	} else if (d->in_month == MONTH_NAMED) {
		int64_t y = qless__floordiv(index, 12);
		index = y * 12 + d->month - 1 + (d->month - 1 < index - y * 12 ? 12 : 0);
		int64_t y2 = qless__floordiv(index, 12);
		if (nth_in(y2, d->month, d->nth, d->wday, date) && (double)*date * 86400 + tod_s < local)
			index += 12;
	} else {
		/* the first month from this one where it exists and has not passed */
		for (int k = 0; k < 24; k++, index++) {
			int64_t y = qless__floordiv(index, 12);
			if (nth_in(y, (int)(index - y * 12) + 1, d->nth, d->wday, date) &&
			    (double)*date * 86400 + tod_s >= local)
				return QLESS_OK;
		}
		return no_such_day(d, index);
	}
	int64_t y = qless__floordiv(index, 12);
	if (!nth_in(y, (int)(index - y * 12) + 1, d->nth, d->wday, date))
		return no_such_day(d, index);
	return QLESS_OK;
}

static int resolve_dom(const day_part *d, double tod_s, int64_t today, double local, int64_t *date)
{
	int64_t index = month_index(today) + (d->in_month == MONTH_RELATIVE ? d->delta : 0);
	for (int k = 0; k < 24; k++, index++) {
		int64_t y = qless__floordiv(index, 12);
		int m = (int)(index - y * 12) + 1;
		if (d->day <= qless__month_len(y, m)) {
			*date = qless__days(y, m, d->day);
			if (d->in_month == MONTH_RELATIVE || (double)*date * 86400 + tod_s >= local)
				return QLESS_OK;
		} else if (d->in_month == MONTH_RELATIVE) {
			return qless__when_word_err("invalid date", d->word);
		}
	}
	return qless__when_word_err("invalid date", d->word);
}

void qless__when_weekday_warning(const day_part *d, int64_t date, char *warning)
{
	int64_t y;
	int m, dd, len;
	warning[0] = '\0';
	if (d->check_wday < 0 || qless__weekday(date) == d->check_wday)
		return;
	qless__civil(date, &y, &m, &dd);
	len = snprintf(warning, WHEN_WARNING_SIZE, "%04lld-%02d-%02d is a %s, not a %s", (long long)y, m, dd,
	               WDAY_NAMES[qless__weekday(date)], WDAY_NAMES[d->check_wday]);
	if (d->kind == DAY_MONTH_DAY) {
		/* no year written: say when it is one */
		for (int64_t k = y + 1; k <= y + 40; k++) {
			if (dd <= qless__month_len(k, m) && qless__weekday(qless__days(k, m, dd)) == d->check_wday) {
				len += snprintf(warning + len, WHEN_WARNING_SIZE - (size_t)len, " (it is in %lld)", (long long)k);
				break;
			}
		}
	}
	snprintf(warning + len, WHEN_WARNING_SIZE - (size_t)len, "; the date is used");
}

int qless__when_resolve(const day_part *d, double tod_s, int64_t today, double local, int64_t *date)
{
	int64_t y;
	int m, dd, rc = QLESS_OK;
	*date = today;
	switch (d->kind) {
	case DAY_NONE:
		*date = (double)today * 86400 + tod_s >= local ? today : today + 1;
		break;
	case DAY_OFFSET:
		*date = today + d->days;
		break;
	case DAY_WEEKDAY:
		while (qless__weekday(*date) != d->wday || (double)*date * 86400 + tod_s < local)
			(*date)++;
		break;
	case DAY_NEXT_WEEKDAY:
		do
			(*date)++;
		while (qless__weekday(*date) != d->wday);
		break;
	case DAY_LAST_WEEKDAY:
		do
			(*date)--;
		while (qless__weekday(*date) != d->wday);
		break;
	case DAY_THIS_WEEKDAY:
		while (qless__weekday(*date) != d->wday)
			(*date)++;
		break;
	case DAY_FIXED:
		*date = d->days;
		break;
	case DAY_PERIOD:
		*date = period_day(d, today);
		break;
	case DAY_MONTH_DAY:
	case DAY_MONTH:
		qless__civil(today, &y, &m, &dd);
		/* February 29th is at most eight years away (1896 to 1904) */
		for (;; y++) {
			int day = d->kind == DAY_MONTH ? 1 : d->day;
			if (day <= qless__month_len(y, d->month)) {
				*date = qless__days(y, d->month, day);
				if ((double)*date * 86400 + tod_s >= local)
					break;
			}
		}
		break;
	case DAY_DOM:
		rc = resolve_dom(d, tod_s, today, local, date);
		break;
	case DAY_NTH_WEEKDAY:
		rc = resolve_nth(d, tod_s, today, local, date);
		break;
	}
	return rc;
}
