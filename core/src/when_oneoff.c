/* One-off time texts (schedules.md §5.3): now, epoch and ISO instants,
 * durations from now, and a day part and a time part read on the wall
 * clock of the text's zone. */
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "when_read.h"
#include "when_words.h"

typedef enum day_kind {
	DAY_NONE, DAY_TODAY, DAY_TOMORROW, DAY_WEEKDAY, DAY_NEXT_WEEKDAY, DAY_MONTH_DAY, DAY_ISO
} day_kind;

typedef struct day_part {
	day_kind kind;
	int wday, month, day;
	int64_t year;               /* 0: none written */
	int64_t days;               /* DAY_ISO */
} day_part;

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
			return qless__when_missing("weekday", w);
		if (next->wday < 0)
			return qless__when_reject(next);
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
	if ((r = qless__when_month_day(p, &d->month, &day, &day_word)) <= 0)
		return r;
	d->kind = DAY_MONTH_DAY;
	d->day = (int)day;
	w = cur(p);
	if (w != NULL && w->is_number && w->is_int && w->len == 4 && !is_ampm(ahead(p, 1))) {
		d->year = (int64_t)w->number;
		p->i++;
		if (d->year < 1 || d->day > qless__month_len(d->year, d->month))
			return qless__when_word_err("invalid date", day_word);
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
				return qless__when_reject(w);
			p->i++;
			if (cur(p) == NULL)
				return qless__when_missing(is_day ? "day" : "time", w);
			rc = is_day ? day_part_read(p, &nd) : qless__when_time(p, 1, &nt);
			if (rc == 0)
				return qless__when_reject(cur(p));
		} else {
			is_day = 1;
			if ((rc = day_part_read(p, &nd)) == 0) {
				is_day = 0;
				rc = qless__when_time(p, 0, &nt);
			}
			if (rc == 0 || (rc > 0 && (is_day ? have_day : have_time)))
				return qless__when_reject(w);
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

int qless__when_oneoff(parser *p, qless_when *r)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	double total;
	int rc;
	if (w->error == WORD_OK && (is_kw(w, KW_NOW) || w->is_epoch || w->iso == QLESS_ISO_DATETIME)) {
		r->kind = QLESS_WHEN_AT;
		r->at = w->is_epoch ? w->epoch : w->iso == QLESS_ISO_DATETIME ? w->iso_value.t : p->now;
		p->i++;
		return qless__when_at_end(p);
	}
	if (is_kw(w, KW_IN) || (is_amount(w) && !(w->is_number && (is_ampm(next) || is_kw(next, KW_OF) ||
	                                                          (next != NULL && next->month > 0))))) {
		if (is_kw(w, KW_IN)) {
			p->i++;
			if (cur(p) == NULL)
				return qless__when_missing("duration", w);
		}
		if ((rc = qless__when_amounts(p, &total, &w)) < 0)
			return QLESS_EINVAL;
		if (rc == 0)
			return qless__when_reject(cur(p));
		r->kind = QLESS_WHEN_AT;
		r->at = p->now + total;
		return qless__when_at_end(p);
	}
	return oneoff_absolute(p, r);
}
