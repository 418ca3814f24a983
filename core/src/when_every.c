/* Recurring time texts (schedules.md §5.4, docs/times.md): "every"
 * followed by an interval (anchored at its first run when a weekday or a
 * time is given: "every other week on monday at 9am"), or by a pattern of
 * days and times that becomes a cron expression. */
#include <stdio.h>
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "when_read.h"
#include "when_words.h"

typedef struct cron_parts {
	char dom[96], month[32], dow[32];
	tod times[24];
	int ntimes;
} cron_parts;

/* "[at] time [(and|,) time]...": up to max times into c (zones refused,
 * one minute and second for all). */
static int times_read(parser *p, cron_parts *c, int max)
{
	const qless_word *at = is_kw(cur(p), KW_AT) ? cur(p) : NULL;
	int rc;
	if (at != NULL) {
		p->i++;
		if (cur(p) == NULL)
			return qless__when_missing("time", at);
	}
	for (;;) {
		tod t;
		if ((rc = qless__when_time(p, at != NULL, &t)) < 0)
			return QLESS_EINVAL;
		if (rc == 0)
			return (at != NULL || c->ntimes > 0) ? qless__when_reject(cur(p)) : QLESS_OK;
		if (t.c.has_zone)
			return qless__when_word_err("time zone offsets are not allowed in recurring times", t.word);
		if (t.c.fraction != 0)
			return qless__when_word_err("fractions of a second are not allowed in recurring times", t.word);
		if (c->ntimes > 0 && (t.c.minute != c->times[0].c.minute || t.c.second != c->times[0].c.second))
			return qless__when_word_err("times need the same minute and second", t.word);
		if (c->ntimes < 24)
			c->times[c->ntimes++] = t;
		if (c->ntimes >= max || !is_sep(cur(p)))
			return QLESS_OK;
		if (ahead(p, 1) == NULL)
			return qless__when_missing("time", cur(p));
		p->i++;
	}
}

/* "of the month" after a weekday: 1 when read, 0 when absent, -1. */
static int of_the_month(parser *p)
{
	const qless_word *of = cur(p), *the = ahead(p, 1), *month = ahead(p, 2);
	if (!is_kw(of, KW_OF))
		return 0;
	if (the == NULL)
		return qless__when_missing("month", of);
	if (!is_kw(the, KW_THE))
		return qless__when_reject(the);
	if (month == NULL)
		return qless__when_missing("month", the);
	if (!is_kw(month, KW_MONTH))
		return qless__when_reject(month);
	p->i += 3;
	return 1;
}

/* The weekday after w (which needs one). */
static int weekday_after(parser *p, const qless_word *w, int *wday)
{
	const qless_word *next = ahead(p, 1);
	if (next == NULL)
		return qless__when_missing("weekday", w);
	if (next->wday < 0 || next->error != WORD_OK)
		return qless__when_reject(next);
	*wday = next->wday;
	p->i += 2;
	return QLESS_OK;
}

static int every_weekdays(parser *p, cron_parts *c)
{
	int mask = 0, len = 0;
	for (;;) {
		mask |= 1 << cur(p)->wday;
		p->i++;
		const qless_word *next = ahead(p, 1);
		if (is_sep(cur(p)) && next == NULL)
			return qless__when_missing("weekday", cur(p));
		if (!is_sep(cur(p)) || next->wday < 0 || next->error != WORD_OK)
			break;
		p->i++;
	}
	for (int d = 0; d < 7; d++)
		if (mask & (1 << d))
			len += snprintf(c->dow + len, sizeof c->dow - (size_t)len, len ? ",%d" : "%d", d);
	return QLESS_OK;
}

/* every [ordinal|last] weekday [of the month]; an ordinal from 3rd on
 * needs "of the month" (else it could mean every n weeks) */
static int every_nth_weekday(parser *p, cron_parts *c)
{
	const qless_word *w = cur(p);
	int wday = 0, rc;
	long n = w->ordinal;
	if ((rc = weekday_after(p, w, &wday)) != QLESS_OK)
		return rc;
	if (!is_kw(w, KW_LAST) && (n < 1 || n > 5))
		return qless__when_word_err("number out of range", w);
	if ((rc = of_the_month(p)) < 0)
		return QLESS_EINVAL;
	if (rc == 0 && !is_kw(w, KW_LAST) && n >= 3) {
		/* a 3rd friday of each month, or every third week? */
		const qless_word *day = &p->w[p->i - 1];
		char reason[200];
		snprintf(reason, sizeof reason, "say \"every %.*s %.*s of the month\" or \"every %ld weeks on %.*s\"",
		         (int)w->len, w->text, (int)day->len, day->text, n, (int)day->len, day->text);
		return qless__when_word_err(reason, w);
	}
	if (is_kw(w, KW_LAST))
		snprintf(c->dow, sizeof c->dow, "%dL", wday);
	else if (rc == 1 || n == 1)
		snprintf(c->dow, sizeof c->dow, "%d#%ld", wday, n);
	else
		snprintf(c->dow, sizeof c->dow, "%d/%ld", wday, n);
	return QLESS_OK;
}

/* One day of the month at w: an ordinal 1-31 and an optional "day".
 * Its number, or -1. */
static long month_day_at(parser *p)
{
	const qless_word *w = cur(p);
	if (w->ordinal <= 0 || w->error != WORD_OK)
		return qless__when_reject(w);
	if (w->ordinal > 31)
		return qless__when_word_err("number out of range", w);
	p->i++;
	if (is_kw(cur(p), KW_DAY))
		p->i++;
	return w->ordinal;
}

/* ordinal [day] ((and|,) ordinal [day])... [of the month] into dom
 * ("1,15"): QLESS_OK or QLESS_EINVAL. */
static int month_days(parser *p, cron_parts *c)
{
	int mask_len = 0;
	char seen[32] = { 0 };
	for (;;) {
		long day = month_day_at(p);
		if (day < 0)
			return QLESS_EINVAL;
		seen[day] = 1;
		if (!is_sep(cur(p)) || ahead(p, 1) == NULL || ahead(p, 1)->ordinal <= 0)
			break;
		p->i++;
	}
	for (int d = 1; d <= 31; d++)
		if (seen[d])
			mask_len += snprintf(c->dom + mask_len, sizeof c->dom - (size_t)mask_len, mask_len ? ",%d" : "%d", d);
	return of_the_month(p) < 0 ? QLESS_EINVAL : QLESS_OK;
}

/* every month|quarter [on the (ordinal [day] [and ordinal...] | last day)];
 * also "every on the 1st and 15th" */
static int every_month(parser *p, cron_parts *c)
{
	const qless_word *on = cur(p), *w;
	if (!is_kw(on, KW_ON))
		return QLESS_OK;
	p->i++;
	if (is_kw(cur(p), KW_THE))
		p->i++;
	if ((w = cur(p)) == NULL)
		return qless__when_missing("day", &p->w[p->i - 1]);
	if (is_kw(w, KW_LAST)) {
		if (ahead(p, 1) == NULL)
			return qless__when_missing("day", w);
		if (!is_kw(ahead(p, 1), KW_DAY))
			return qless__when_reject(ahead(p, 1));
		p->i += 2;
		snprintf(c->dom, sizeof c->dom, "L");
		return QLESS_OK;
	}
	return month_days(p, c);
}

/* every year [on month day | on [the] day [of] month]; "the" as in
 * "every month on the 1st", which people write here too */
static int every_year(parser *p, cron_parts *c)
{
	const qless_word *on = cur(p), *day_word;
	int month, rc;
	long day;
	snprintf(c->dom, sizeof c->dom, "1");
	snprintf(c->month, sizeof c->month, "1");
	if (!is_kw(on, KW_ON))
		return QLESS_OK;
	p->i++;
	if (is_kw(cur(p), KW_THE) && ahead(p, 1) != NULL && ahead(p, 1)->month == 0)
		p->i++;
	if (cur(p) == NULL)
		return qless__when_missing("day", &p->w[p->i - 1]);
	if ((rc = qless__when_month_day(p, &month, &day, &day_word)) < 0)
		return QLESS_EINVAL;
	if (rc == 0)
		return qless__when_reject(cur(p));
	snprintf(c->dom, sizeof c->dom, "%ld", day);
	snprintf(c->month, sizeof c->month, "%d", month);
	return QLESS_OK;
}

/* The first time >= now on weekday wday (-1: any) at tod_s seconds into
 * the day. */
static double first_run(double now, int wday, double tod_s)
{
	double day = qless__floor(now / 86400);
	for (int k = 0; k < 8; k++) {
		double t = (day + k) * 86400 + tod_s;
		if (t >= now && (wday < 0 || qless__weekday((int64_t)(day + k)) == wday))
			return t;
	}
	return now;
}

/* After an interval of total seconds: [on weekday] [at time] for whole
 * days, [at :MM] for whole hours. The interval runs from its first such
 * time; without one, from now. wday: a weekday already read, or -1. */
static int interval_anchor(parser *p, qless_when *r, double total, int wday)
{
	int whole_days = qless__floor(total / 86400) * 86400 == total;
	int whole_hours = qless__floor(total / 3600) * 3600 == total;
	const qless_word *on = cur(p), *next = ahead(p, 1);
	cron_parts c;
	int rc;
	memset(&c, 0, sizeof c);
	r->kind = QLESS_WHEN_INTERVAL;
	r->interval = total;
	r->at = p->now;
	if (whole_days && wday < 0 && is_kw(on, KW_ON)) {
		if (next == NULL)
			return qless__when_missing("weekday", on);
		if (next->wday < 0 || next->error != WORD_OK)
			return qless__when_reject(next);
		wday = next->wday;
		p->i += 2;
	}
	if (whole_hours && !whole_days && is_kw(cur(p), KW_AT) && ahead(p, 1) != NULL && ahead(p, 1)->minute_mark > 0) {
		/* every 2 hours at :30 */
		if (ahead(p, 1)->error != WORD_OK)
			return qless__when_reject(ahead(p, 1));
		double t = qless__floor(p->now / 3600) * 3600 + (ahead(p, 1)->minute_mark - 1) * 60.0;
		r->at = t >= p->now ? t : t + 3600;
		p->i += 2;
		return qless__when_at_end(p);
	}
	if (whole_days) {
		if ((rc = times_read(p, &c, 1)) != QLESS_OK)
			return rc;
		if (c.ntimes == 1 || wday >= 0) {
			double tod_s = c.ntimes ? c.times[0].c.hour * 3600.0 + c.times[0].c.minute * 60.0 + c.times[0].c.second
			                        : 0;
			r->at = first_run(p->now, wday, tod_s);
		}
	}
	return qless__when_at_end(p);
}

static int every_interval(parser *p, qless_when *r)
{
	const qless_word *first;
	when_dur d;
	int rc;
	if ((rc = qless__when_amounts(p, &d, &first)) < 0)
		return QLESS_EINVAL;
	if (d.months != 0)
		return qless__when_word_err("months and years are not fixed intervals (say every month, every quarter or "
		                            "every year)", first);
	if (!(d.seconds > 0))
		return qless__when_word_err("interval must be positive", first);
	return interval_anchor(p, r, d.seconds, -1);
}

/* every other (unit | weekday): twice the unit, or 14 days from the
 * weekday's next start, as an interval. */
static int every_other(parser *p, qless_when *r)
{
	const qless_word *other = cur(p), *next = ahead(p, 1);
	if (next == NULL)
		return qless__when_missing("unit", other);
	if (next->error != WORD_OK)
		return qless__when_reject(next);
	p->i += 2;
	if (next->wday >= 0)
		return interval_anchor(p, r, 14 * 86400.0, next->wday);
	if (next->months > 0)
		return qless__when_word_err("months and years are not fixed intervals (say every month, every quarter or "
		                            "every year)", next);
	if (next->unit <= 0) {
		p->i -= 2;
		return qless__when_reject(next);
	}
	return interval_anchor(p, r, 2 * next->unit, -1);
}

/* The expression of the pattern and times in c. */
static void cron_build(const cron_parts *c, qless_when *r)
{
	int hours = 0, len = 0, minute = 0, second = 0;
	char hour[80] = "";
	for (int k = 0; k < c->ntimes; k++)
		hours |= 1 << c->times[k].c.hour;
	if (c->ntimes == 0)
		hours = 1;
	else {
		minute = c->times[0].c.minute;
		second = c->times[0].c.second;
	}
	for (int h = 0; h < 24; h++)
		if (hours & (1 << h))
			len += snprintf(hour + len, sizeof hour - (size_t)len, len ? ",%d" : "%d", h);
	r->kind = QLESS_WHEN_CRON;
	if (second != 0)
		snprintf(r->cron, sizeof r->cron, "* %s %s %s %s %d %d", c->month, c->dom, c->dow, hour, minute, second);
	else
		snprintf(r->cron, sizeof r->cron, "%d %s %s %s %s", minute, hour, c->dom, c->month, c->dow);
}

int qless__when_every(parser *p, qless_when *r)
{
	const qless_word *w = cur(p);
	cron_parts c;
	int rc = QLESS_OK;
	memset(&c, 0, sizeof c);
	snprintf(c.dom, sizeof c.dom, "*");
	snprintf(c.month, sizeof c.month, "*");
	snprintf(c.dow, sizeof c.dow, "*");
	if (w == NULL)
		return qless__when_missing("schedule", &p->w[p->i - 1]);
	if (w->error != WORD_OK)
		return qless__when_reject(w);
	const qless_word *next = ahead(p, 1);
	int ordinal_second = is_kw(w, KW_SECOND) && next != NULL && next->wday >= 0;
	if (is_kw(w, KW_HOUR) && is_kw(next, KW_AT) && ahead(p, 2) != NULL && ahead(p, 2)->minute_mark > 0) {
		/* every hour at :30 */
		if (ahead(p, 2)->error != WORD_OK)
			return qless__when_reject(ahead(p, 2));
		r->kind = QLESS_WHEN_CRON;
		snprintf(r->cron, sizeof r->cron, "%d * * * *", ahead(p, 2)->minute_mark - 1);
		p->i += 3;
		return qless__when_at_end(p);
	}
	if (!ordinal_second && (is_kw(w, KW_SECOND) || is_kw(w, KW_MINUTE) || is_kw(w, KW_HOUR))) {
		r->kind = QLESS_WHEN_CRON;
		snprintf(r->cron, sizeof r->cron, "%s", is_kw(w, KW_SECOND) ? "* * * * * * *" :
		         is_kw(w, KW_MINUTE) ? "* * * * *" : "0 * * * *");
		p->i++;
		return qless__when_at_end(p);
	}
	if (is_amount(w))
		return every_interval(p, r);
	if (is_kw(w, KW_DAY) || is_kw(w, KW_WEEK) || is_kw(w, KW_WEEKDAY) || is_kw(w, KW_WEEKEND)) {
		snprintf(c.dow, sizeof c.dow, "%s", is_kw(w, KW_WEEK) ? "0" : is_kw(w, KW_WEEKDAY) ? "1-5" :
		         is_kw(w, KW_WEEKEND) ? "0,6" : "*");
		p->i++;
	} else if (w->wday >= 0) {
		rc = every_weekdays(p, &c);
	} else if (is_kw(w, KW_OTHER)) {
		return every_other(p, r);
	} else if (is_kw(w, KW_LAST) && is_kw(next, KW_DAY)) {
		/* every last day of the month */
		p->i += 2;
		snprintf(c.dom, sizeof c.dom, "L");
		rc = of_the_month(p) < 0 ? QLESS_EINVAL : QLESS_OK;
	} else if (w->ordinal > 0 && (next == NULL || next->wday < 0)) {
		/* every 1st and 15th [of the month] */
		rc = month_days(p, &c);
	} else if (is_kw(w, KW_LAST) || w->ordinal > 0) {
		rc = every_nth_weekday(p, &c);
	} else if (is_kw(w, KW_MONTH) || is_kw(w, KW_QUARTER) || is_kw(w, KW_ON)) {
		snprintf(c.dom, sizeof c.dom, "1");
		if (is_kw(w, KW_QUARTER))
			snprintf(c.month, sizeof c.month, "1,4,7,10");
		if (!is_kw(w, KW_ON))
			p->i++;
		rc = every_month(p, &c);
	} else if (is_kw(w, KW_YEAR)) {
		p->i++;
		rc = every_year(p, &c);
	} else {
		return qless__when_reject(w);
	}
	if (rc != QLESS_OK || (rc = times_read(p, &c, 24)) != QLESS_OK || (rc = qless__when_at_end(p)) != QLESS_OK)
		return rc;
	cron_build(&c, r);
	return QLESS_OK;
}
