/* qless_when_parse: English time text to a time, an interval or a cron
 * expression (schedules.md §5). The grammar reads the words left to right
 * and reports the first word it cannot use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "when_words.h"

static const char *const FUNC = "qless_when_parse";

/* No sensible time text is longer; bounds the words kept per call. */
#define WHEN_MAX_BYTES 4096
/* Words named in messages are cut here. */
#define WHEN_WORD_SHOWN 64

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

typedef enum day_kind {
	DAY_NONE, DAY_TODAY, DAY_TOMORROW, DAY_WEEKDAY, DAY_NEXT_WEEKDAY, DAY_MONTH_DAY, DAY_ISO
} day_kind;

typedef struct day_part {
	day_kind kind;
	int wday, month, day;
	int64_t year;               /* 0: none written */
	int64_t days;               /* DAY_ISO */
} day_part;

static const qless_word *cur(const parser *p)
{
	return p->i < p->n ? &p->w[p->i] : NULL;
}

static const qless_word *ahead(const parser *p, size_t k)
{
	return p->i + k < p->n ? &p->w[p->i + k] : NULL;
}

static int is_kw(const qless_word *w, qless_kw kw)
{
	return w != NULL && w->kw == kw;
}

static int is_sep(const qless_word *w)
{
	return is_kw(w, KW_AND) || is_kw(w, KW_COMMA);
}

static int is_ampm(const qless_word *w)
{
	return is_kw(w, KW_AM) || is_kw(w, KW_PM);
}

static int word_err(const char *reason, const qless_word *w)
{
	int shown = w->len > WHEN_WORD_SHOWN ? WHEN_WORD_SHOWN : (int)w->len;
	return qless__err(QLESS_EINVAL, "%s: %s \"%.*s\" at column %d", FUNC, reason, shown, w->text, w->column);
}

static int missing(const char *what, const qless_word *after)
{
	char reason[64];
	snprintf(reason, sizeof reason, "missing %s after", what);
	return word_err(reason, after);
}

/* A word that cannot stand where it is. */
static int reject(const qless_word *w)
{
	switch (w->error) {
	case WORD_BAD_TIME: return word_err("invalid time", w);
	case WORD_BAD_DATE: return word_err("invalid date", w);
	case WORD_BAD_NUMBER: return word_err("number out of range", w);
	default: return word_err(qless__word_known(w) ? "unexpected" : "unknown word", w);
	}
}

/* Nothing may follow. */
static int at_end(const parser *p)
{
	return cur(p) == NULL ? QLESS_OK : reject(cur(p));
}

static int is_amount(const qless_word *w)
{
	return w != NULL && w->error == WORD_OK &&
	       (w->is_compact || w->is_number || is_kw(w, KW_A) || is_kw(w, KW_AN));
}

/* One or more amounts, optionally separated by "and" or ",". 1 when read
 * (sum in *total, first word in *first), 0 when none starts here. */
static int amounts(parser *p, double *total, const qless_word **first)
{
	*total = 0;
	*first = cur(p);
	if (!is_amount(cur(p)))
		return 0;
	for (;;) {
		const qless_word *w = cur(p), *u = ahead(p, 1);
		if (!is_amount(w))
			return reject(w);
		if (w->is_compact) {
			*total += w->compact;
			p->i++;
		} else {
			if (u == NULL)
				return missing("unit", w);
			if (u->unit <= 0)
				return reject(u);
			*total += (w->is_number ? w->number : 1) * u->unit;
			p->i += 2;
		}
		if (is_sep(cur(p))) {
			if (ahead(p, 1) == NULL)
				return missing("duration", cur(p));
			p->i++;
		} else if (!is_amount(cur(p))) {
			return 1;
		}
	}
}

/* A time of day: a clock word (with a following am/pm), a number with
 * am/pm, noon, midnight, or after "at" a bare hour. 1, 0 or -1. */
static int time_part(parser *p, int after_at, tod *out)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	memset(out, 0, sizeof *out);
	out->word = w;
	if (w == NULL || w->error != WORD_OK)
		return 0;
	if (is_kw(w, KW_NOON) || is_kw(w, KW_MIDNIGHT)) {
		out->c.hour = is_kw(w, KW_NOON) ? 12 : 0;
		p->i++;
		return 1;
	}
	if (w->is_clock) {
		out->c = w->clock;
		p->i++;
		if (!w->clock.ampm && !w->clock.has_zone && is_ampm(next)) {
			if (w->clock.hour < 1 || w->clock.hour > 12)
				return word_err("invalid time", w);
			out->c.hour = w->clock.hour % 12 + (is_kw(next, KW_PM) ? 12 : 0);
			p->i++;
		}
		return 1;
	}
	if (!w->is_number || (!after_at && !is_ampm(next)))
		return 0;
	if (is_ampm(next)) {
		if (!w->is_int || w->number < 1 || w->number > 12)
			return word_err("invalid time", w);
		out->c.hour = (int)w->number % 12 + (is_kw(next, KW_PM) ? 12 : 0);
		p->i += 2;
		return 1;
	}
	if (!w->is_int || w->number > 23)
		return word_err("invalid time", w);
	out->c.hour = (int)w->number;
	p->i++;
	return 1;
}

/* The largest day a month has in any year (February: 29). */
static int month_max(int month)
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
static int month_and_day(parser *p, int *month, long *day, const qless_word **day_word)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	if (w != NULL && w->month > 0 && w->kw == KW_NONE) {
		if (next == NULL)
			return missing("day", w);
		if (!day_number(next, day))
			return reject(next);
		*month = w->month;
		*day_word = next;
		p->i += 2;
	} else if (day_number(w, day) && (w->ordinal > 0 || is_kw(next, KW_OF) || (next && next->month > 0))) {
		*day_word = w;
		p->i++;
		if (is_kw(cur(p), KW_OF))
			p->i++;
		if (cur(p) == NULL)
			return missing("month", &p->w[p->i - 1]);
		if (cur(p)->month == 0)
			return reject(cur(p));
		*month = cur(p)->month;
		p->i++;
	} else {
		return 0;
	}
	if (*day < 1 || *day > month_max(*month))
		return word_err("invalid date", *day_word);
	return 1;
}

/* A day part of a one-off text (§5.3). 1, 0 or -1. */
static int day_part_read(parser *p, day_part *d)
{
	const qless_word *w = cur(p), *next = ahead(p, 1), *day_word = NULL;
	long day;
	int r;
	memset(d, 0, sizeof *d);
	if (w == NULL || w->error != WORD_OK)
		return 0;
	if (is_kw(w, KW_TODAY) || is_kw(w, KW_TOMORROW)) {
		d->kind = is_kw(w, KW_TODAY) ? DAY_TODAY : DAY_TOMORROW;
		p->i++;
		return 1;
	}
	if (w->wday >= 0) {
		d->kind = DAY_WEEKDAY;
		d->wday = w->wday;
		p->i++;
		return 1;
	}
	if (is_kw(w, KW_NEXT)) {
		if (next == NULL)
			return missing("weekday", w);
		if (next->wday < 0)
			return reject(next);
		d->kind = DAY_NEXT_WEEKDAY;
		d->wday = next->wday;
		p->i += 2;
		return 1;
	}
	if (w->iso == QLESS_ISO_DATE) {
		d->kind = DAY_ISO;
		d->days = w->iso_value.days;
		p->i++;
		return 1;
	}
	if ((r = month_and_day(p, &d->month, &day, &day_word)) <= 0)
		return r;
	d->kind = DAY_MONTH_DAY;
	d->day = (int)day;
	w = cur(p);
	if (w != NULL && w->is_number && w->is_int && w->len == 4 && !is_ampm(ahead(p, 1))) {
		d->year = (int64_t)w->number;
		p->i++;
		if (d->year < 1 || d->day > qless__month_len(d->year, d->month))
			return word_err("invalid date", day_word);
	}
	return 1;
}

/* The date of an absolute text (§5.3's table); today and L as there. */
static int64_t resolve_date(const day_part *d, double tod_s, int64_t today, double local)
{
	int64_t y, date = today;
	int m, dd;
	switch (d->kind) {
	case DAY_NONE:
		return (double)today * 86400 + tod_s >= local ? today : today + 1;
	case DAY_TODAY:
		return today;
	case DAY_TOMORROW:
		return today + 1;
	case DAY_WEEKDAY:
		while (qless__weekday(date) != d->wday || (double)date * 86400 + tod_s < local)
			date++;
		return date;
	case DAY_NEXT_WEEKDAY:
		do
			date++;
		while (qless__weekday(date) != d->wday);
		return date;
	case DAY_ISO:
		return d->days;
	case DAY_MONTH_DAY:
		if (d->year > 0)
			return qless__days(d->year, d->month, d->day);
		qless__civil(today, &y, &m, &dd);
		/* February 29th is at most eight years away (1896 to 1904) */
		for (;; y++) {
			if (d->day <= qless__month_len(y, d->month)) {
				date = qless__days(y, d->month, d->day);
				if ((double)date * 86400 + tod_s >= local)
					return date;
			}
		}
	}
	return date;
}

static int oneoff_absolute(parser *p, qless_when *r)
{
	day_part d = { DAY_NONE, 0, 0, 0, 0, 0 };
	tod t;
	int have_day = 0, have_time = 0, rc;
	memset(&t, 0, sizeof t);
	while (cur(p) != NULL) {
		const qless_word *w = cur(p);
		day_part nd;
		tod nt;
		int is_day;
		if (is_kw(w, KW_ON) || is_kw(w, KW_AT)) {
			is_day = is_kw(w, KW_ON);
			if (is_day ? have_day : have_time)
				return reject(w);
			p->i++;
			if (cur(p) == NULL)
				return missing(is_day ? "day" : "time", w);
			rc = is_day ? day_part_read(p, &nd) : time_part(p, 1, &nt);
			if (rc == 0)
				return reject(cur(p));
		} else {
			is_day = 1;
			if ((rc = day_part_read(p, &nd)) == 0) {
				is_day = 0;
				rc = time_part(p, 0, &nt);
			}
			if (rc == 0 || (rc > 0 && (is_day ? have_day : have_time)))
				return reject(w);
		}
		if (rc < 0)
			return QLESS_EINVAL;
		if (is_day) {
			have_day = 1;
			d = nd;
		} else {
			have_time = 1;
			t = nt;
		}
	}
	double z = t.c.has_zone ? t.c.zone : 0;
	double local = p->now + z;
	int64_t today = (int64_t)qless__floor(local / 86400);
	double tod_s = have_time ? t.c.hour * 3600.0 + t.c.minute * 60.0 + t.c.second : 0;
	r->kind = QLESS_WHEN_AT;
	r->at = (double)resolve_date(&d, tod_s, today, local) * 86400 + tod_s - z;
	return QLESS_OK;
}

static int oneoff(parser *p, qless_when *r)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	double total;
	int rc;
	if (w->error == WORD_OK && (is_kw(w, KW_NOW) || w->is_epoch || w->iso == QLESS_ISO_DATETIME)) {
		r->kind = QLESS_WHEN_AT;
		r->at = w->is_epoch ? w->epoch : w->iso == QLESS_ISO_DATETIME ? w->iso_value.t : p->now;
		p->i++;
		return at_end(p);
	}
	if (is_kw(w, KW_IN) || (is_amount(w) && !(w->is_number && (is_ampm(next) || is_kw(next, KW_OF) ||
	                                                          (next != NULL && next->month > 0))))) {
		if (is_kw(w, KW_IN)) {
			p->i++;
			if (cur(p) == NULL)
				return missing("duration", w);
		}
		if ((rc = amounts(p, &total, &w)) < 0)
			return QLESS_EINVAL;
		if (rc == 0)
			return reject(cur(p));
		r->kind = QLESS_WHEN_AT;
		r->at = p->now + total;
		return at_end(p);
	}
	return oneoff_absolute(p, r);
}

/* ---- recurring texts (§5.4) ---- */

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
			return missing("time", at);
	}
	for (;;) {
		tod t;
		if ((rc = time_part(p, at != NULL, &t)) < 0)
			return QLESS_EINVAL;
		if (rc == 0)
			return (at != NULL || c->ntimes > 0) ? reject(cur(p)) : QLESS_OK;
		if (t.c.has_zone)
			return word_err("time zone offsets are not allowed in recurring times", t.word);
		if (c->ntimes > 0 && (t.c.minute != c->times[0].c.minute || t.c.second != c->times[0].c.second))
			return word_err("times need the same minute and second", t.word);
		if (c->ntimes < 24)
			c->times[c->ntimes++] = t;
		if (c->ntimes >= max || !is_sep(cur(p)))
			return QLESS_OK;
		if (ahead(p, 1) == NULL)
			return missing("time", cur(p));
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
		return missing("month", of);
	if (!is_kw(the, KW_THE))
		return reject(the);
	if (month == NULL)
		return missing("month", the);
	if (!is_kw(month, KW_MONTH))
		return reject(month);
	p->i += 3;
	return 1;
}

/* The weekday after w (which needs one). */
static int weekday_after(parser *p, const qless_word *w, int *wday)
{
	const qless_word *next = ahead(p, 1);
	if (next == NULL)
		return missing("weekday", w);
	if (next->wday < 0 || next->error != WORD_OK)
		return reject(next);
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
			return missing("weekday", cur(p));
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
		return word_err("number out of range", w);
	if ((rc = of_the_month(p)) < 0 || (rc == 1 && is_kw(w, KW_OTHER)))
		return rc < 0 ? QLESS_EINVAL : reject(&p->w[p->i - 3]);
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
		return missing("day", &p->w[p->i - 1]);
	if (is_kw(w, KW_LAST)) {
		if (ahead(p, 1) == NULL)
			return missing("day", w);
		if (!is_kw(ahead(p, 1), KW_DAY))
			return reject(ahead(p, 1));
		p->i += 2;
		snprintf(c->dom, sizeof c->dom, "L");
		return QLESS_OK;
	}
	if (w->ordinal <= 0 || w->error != WORD_OK)
		return reject(w);
	if (w->ordinal > 31)
		return word_err("number out of range", w);
	snprintf(c->dom, sizeof c->dom, "%ld", w->ordinal);
	p->i++;
	if (is_kw(cur(p), KW_DAY))
		p->i++;
	return QLESS_OK;
}

/* every year [on month day | on day [of] month] */
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
	if (cur(p) == NULL)
		return missing("day", on);
	if ((rc = month_and_day(p, &month, &day, &day_word)) < 0)
		return QLESS_EINVAL;
	if (rc == 0)
		return reject(cur(p));
	snprintf(c->dom, sizeof c->dom, "%ld", day);
	snprintf(c->month, sizeof c->month, "%d", month);
	return QLESS_OK;
}

static int every_interval(parser *p, qless_when *r)
{
	const qless_word *first;
	cron_parts c;
	double total;
	int rc;
	if ((rc = amounts(p, &total, &first)) < 0)
		return QLESS_EINVAL;
	if (!(total > 0))
		return word_err("interval must be positive", first);
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
	return at_end(p);
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

static int every(parser *p, qless_when *r)
{
	const qless_word *w = cur(p);
	cron_parts c;
	int rc = QLESS_OK;
	memset(&c, 0, sizeof c);
	snprintf(c.dom, sizeof c.dom, "*");
	snprintf(c.month, sizeof c.month, "*");
	snprintf(c.dow, sizeof c.dow, "*");
	if (w == NULL)
		return missing("schedule", &p->w[p->i - 1]);
	if (w->error != WORD_OK)
		return reject(w);
	const qless_word *next = ahead(p, 1);
	int ordinal_second = is_kw(w, KW_SECOND) && next != NULL && next->wday >= 0;
	if (!ordinal_second && (is_kw(w, KW_SECOND) || is_kw(w, KW_MINUTE) || is_kw(w, KW_HOUR))) {
		r->kind = QLESS_WHEN_CRON;
		snprintf(r->cron, sizeof r->cron, "%s", is_kw(w, KW_SECOND) ? "* * * * * * *" :
		         is_kw(w, KW_MINUTE) ? "* * * * *" : "0 * * * *");
		p->i++;
		return at_end(p);
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
		return reject(w);
	}
	if (rc != QLESS_OK || (rc = times_read(p, &c, 24)) != QLESS_OK || (rc = at_end(p)) != QLESS_OK)
		return rc;
	cron_build(&c, r);
	return QLESS_OK;
}

int qless_when_parse(const char *text, double now, qless_when *out)
{
	qless_when r;
	parser p;
	qless_word *words = NULL;
	size_t n = 0;
	int rc;
	QLESS_CHECK_NULL(FUNC, text);
	QLESS_CHECK_NULL(FUNC, out);
	if (out->version != QLESS_WHEN_VERSION)
		return qless__err(QLESS_EINVAL, "%s: out->version is %u, expected %d (QLESS_WHEN_INIT)", FUNC,
		                  out->version, QLESS_WHEN_VERSION);
	if ((rc = qless__check_finite(FUNC, "now", now)) != QLESS_OK)
		return rc;
	if (strlen(text) > WHEN_MAX_BYTES)
		return qless__err(QLESS_EINVAL, "%s: text longer than %d bytes", FUNC, WHEN_MAX_BYTES);
	if (qless__when_words(text, &words, &n) != 0)
		return qless__err_nomem(FUNC);
	memset(&r, 0, sizeof r);
	p.w = words;
	p.n = n;
	p.i = 0;
	p.now = now;
	if (n == 0) {
		rc = qless__err(QLESS_EINVAL, "%s: empty text", FUNC);
	} else if (is_kw(&words[0], KW_EVERY)) {
		p.i = 1;
		rc = every(&p, &r);
	} else {
		rc = oneoff(&p, &r);
	}
	free(words);
	if (rc != QLESS_OK)
		return rc;
	out->kind = r.kind;
	out->at = r.at;
	out->interval = r.interval;
	memcpy(out->cron, r.cron, sizeof out->cron);
	return QLESS_OK;
}
