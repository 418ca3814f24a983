/* Recurring time texts (schedules.md §5.4): "every" followed by an
 * interval, or by a pattern of days and times that becomes a cron
 * expression. */
#include <stdio.h>
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "when_read.h"
#include "when_words.h"

typedef struct cron_parts {
	char dom[8], month[4], dow[32];
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

/* every [other|ordinal|last] weekday [of the month] */
static int every_nth_weekday(parser *p, cron_parts *c)
{
	const qless_word *w = cur(p);
	int wday = 0, rc;
	long n = is_kw(w, KW_OTHER) ? 2 : w->ordinal;
	if ((rc = weekday_after(p, w, &wday)) != QLESS_OK)
		return rc;
	if (!is_kw(w, KW_LAST) && (n < 1 || n > 5))
		return qless__when_word_err("number out of range", w);
	if ((rc = of_the_month(p)) < 0 || (rc == 1 && is_kw(w, KW_OTHER)))
		return rc < 0 ? QLESS_EINVAL : qless__when_reject(&p->w[p->i - 3]);
	if (is_kw(w, KW_LAST))
		snprintf(c->dow, sizeof c->dow, "%dL", wday);
	else if (rc == 1 || n == 1)
		snprintf(c->dow, sizeof c->dow, "%d#%ld", wday, n);
	else
		snprintf(c->dow, sizeof c->dow, "%d/%ld", wday, n);
	return QLESS_OK;
}

/* every month [on the (ordinal [day] | last day)] */
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
	if (w->ordinal <= 0 || w->error != WORD_OK)
		return qless__when_reject(w);
	if (w->ordinal > 31)
		return qless__when_word_err("number out of range", w);
	snprintf(c->dom, sizeof c->dom, "%ld", w->ordinal);
	p->i++;
	if (is_kw(cur(p), KW_DAY))
		p->i++;
	return QLESS_OK;
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

static int every_interval(parser *p, qless_when *r)
{
	const qless_word *first;
	cron_parts c;
	when_dur d;
	double total;
	int rc;
	if ((rc = qless__when_amounts(p, &d, &first)) < 0)
		return QLESS_EINVAL;
	if (d.months != 0)
		return qless__when_word_err("months and years repeat on the calendar (every month, every year): not",
		                            first);
	total = d.seconds;
	if (!(total > 0))
		return qless__when_word_err("interval must be positive", first);
	memset(&c, 0, sizeof c);
	r->kind = QLESS_WHEN_INTERVAL;
	r->interval = total;
	r->at = p->now;
	if (qless__floor(total / 86400) * 86400 == total) {
		if ((rc = times_read(p, &c, 1)) != QLESS_OK)
			return rc;
		if (c.ntimes == 1) {
			double tod_s = c.times[0].c.hour * 3600.0 + c.times[0].c.minute * 60.0 + c.times[0].c.second;
			double first_run = qless__floor(p->now / 86400) * 86400 + tod_s;
			r->at = first_run >= p->now ? first_run : first_run + 86400;
		}
	}
	return qless__when_at_end(p);
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
	} else if (is_kw(w, KW_OTHER) || is_kw(w, KW_LAST) || w->ordinal > 0) {
		rc = every_nth_weekday(p, &c);
	} else if (is_kw(w, KW_MONTH)) {
		snprintf(c.dom, sizeof c.dom, "1");
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
