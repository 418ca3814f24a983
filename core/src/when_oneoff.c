/* One-off time texts (schedules.md §5.3, docs/times.md): now, epoch and
 * ISO instants; durations from now, ago, or before or after another time
 * ("2 hours before 7pm tomorrow"); a day part, a time part and a day
 * portion read on the wall clock of the text's zone; and offsets after
 * any of them ("jan 31 + 1 month"). */
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "when_read.h"
#include "when_words.h"

static int instant(parser *p, double *at);

/* The words at p start a duration ("3 days", "an hour", "half an hour")
 * rather than a time or a date ("3 pm", "3 may", "10 to 2"). */
static int starts_duration(const parser *p)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	if (w == NULL || w->error != WORD_OK)
		return 0;
	if (w->is_compact || is_kw(w, KW_A) || is_kw(w, KW_AN))
		return 1;
	if (is_kw(w, KW_HALF))
		return !is_kw(next, KW_PAST);
	if (!w->is_number)
		return 0;
	return !(is_ampm(next) || qless__when_hour_before(p, 1) || is_kw(next, KW_OF) || qless__when_clock_relation(p, 0) ||
	         is_kw(next, KW_OCLOCK) || (next != NULL && next->month > 0 && next->kw == KW_NONE));
}

/* this|next|last hour|minute|second: the start of that one. */
static int clock_period(parser *p, double *at)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	double size;
	if (!(is_kw(w, KW_THIS) || is_kw(w, KW_NEXT) || is_kw(w, KW_LAST)))
		return 0;
	if (is_kw(next, KW_HOUR))
		size = 3600;
	else if (is_kw(next, KW_MINUTE))
		size = 60;
	else if (is_kw(next, KW_SECOND) && !(ahead(p, 2) != NULL && ahead(p, 2)->wday >= 0))
		size = 1;
	else if (next != NULL && next->error == WORD_OK && next->months == 0 && next->len >= 2 &&
	         (next->unit == 3600 || next->unit == 60 || next->unit == 1))
		/* the short spellings: next hr, next mins, last sec */
		size = next->unit;
	else
		return 0;
	*at = qless__floor(p->now / size) * size + (is_kw(w, KW_NEXT) ? size : is_kw(w, KW_LAST) ? -size : 0);
	p->i += 2;
	return 1;
}

/* "at 5pm" (or a clock word) after a duration of whole days from now:
 * that day at that time ("in 2 days at 9am"). */
static int relative_time_of_day(parser *p, const when_dur *d, double *at)
{
	size_t save = p->i;
	const qless_word *w;
	int after_at, rc;
	tod t;
	if (cur(p) == NULL || !(d->months > 0 || (d->seconds > 0 && qless__floor(d->seconds / 86400) * 86400 == d->seconds)))
		return QLESS_OK;
	if (is_kw(cur(p), KW_COMMA) && ahead(p, 1) != NULL)
		p->i++;
	w = cur(p);
	if ((after_at = is_kw(w, KW_AT))) {
		p->i++;
		if (cur(p) == NULL)
			return qless__when_missing("time", w);
	}
	if ((rc = qless__when_time(p, after_at, &t)) < 0)
		return QLESS_EINVAL;
	if (rc == 0 && (after_at || p->i > save))
		return qless__when_reject(cur(p));
	if (rc == 0) {
		p->i = save;
		return QLESS_OK;
	}
	if (t.c.has_zone)
		return qless__when_word_err("time zone offsets are not allowed after a duration", t.word);
	*at = qless__floor(*at / 86400) * 86400 + t.c.hour * 3600.0 + t.c.minute * 60.0 + t.c.second + t.c.fraction;
	return QLESS_OK;
}

/* The direction word(s) of a counted or relative phrase at p: -1 ago,
 * 1 hence, later or from now (*words: how many), 0 none. */
static int direction_at(const parser *p, size_t *words)
{
	const qless_word *w = cur(p);
	*words = 1;
	if (is_kw(w, KW_AGO))
		return -1;
	if (is_kw(w, KW_HENCE) || is_kw(w, KW_LATER))
		return 1;
	*words = 2;
	return is_kw(w, KW_FROM) && is_kw(ahead(p, 1), KW_NOW) ? 1 : 0;
}

/* N weekends|mornings|afternoons|evenings|nights ago|hence|from now: the
 * start of the Nth such period before or after now (a weekend starts on
 * Saturday 00:00, a portion at its hour): "2 weekends ago", "5 mornings
 * hence". 1, 0 (not this form, nothing read) or -1. */
static int counted(parser *p, double *at)
{
	static const struct { qless_kw one, many; int hour; } KINDS[] = {
		{ KW_WEEKEND, KW_WEEKENDS, -1 }, { KW_MORNING, KW_MORNINGS, WHEN_MORNING_HOUR },
		{ KW_AFTERNOON, KW_AFTERNOONS, WHEN_AFTERNOON_HOUR }, { KW_EVENING, KW_EVENINGS, WHEN_EVENING_HOUR },
		{ KW_NIGHT, KW_NIGHTS, WHEN_NIGHT_HOUR },
	};
	const qless_word *w = cur(p), *u = ahead(p, 1);
	size_t save = p->i, words;
	int hour = 0, found = 0, dir;
	if (w == NULL || u == NULL || w->error != WORD_OK ||
	    !((w->is_number && w->is_int) || is_kw(w, KW_A) || is_kw(w, KW_AN)))
		return 0;
	for (size_t k = 0; k < sizeof KINDS / sizeof KINDS[0]; k++) {
		if (is_kw(u, KINDS[k].one) || is_kw(u, KINDS[k].many)) {
			hour = KINDS[k].hour;
			found = 1;
		}
	}
	p->i += 2;
	if (!found || (dir = direction_at(p, &words)) == 0) {
		p->i = save;
		return 0;
	}
	p->i += words;
	double n = w->is_number ? w->number : 1;
	if (n < 1 || n > 100000)
		return qless__when_word_err("number out of range", w);
	int64_t today = (int64_t)qless__floor(p->now / 86400);
	double period = hour < 0 ? 7 * 86400.0 : 86400.0;
	/* the start on or before today: this Saturday's (or the last), today's portion */
	double t = hour < 0 ? (double)(today - (qless__weekday(today) + 1) % 7) * 86400 : today * 86400.0 + hour * 3600.0;
	if (dir > 0) {
		while (t <= p->now)
			t += period;
	} else if (t >= p->now) {
		t -= period;
	}
	*at = t + dir * (n - 1) * period;
	if (!(*at >= WHEN_TIME_MIN && *at < WHEN_TIME_END))
		return qless__when_word_err("time outside years 0000-9999", w);
	return 1;
}

/* [in] duration [ago | hence | later | from now | (from|after|before) time],
 * then "at <time>" when the duration is whole days and runs from now. */
static int relative(parser *p, double *at)
{
	const qless_word *in = is_kw(cur(p), KW_IN) ? cur(p) : NULL, *first, *tail;
	when_dur d;
	double anchor;
	int rc, sign = 1;
	if (in != NULL) {
		p->i++;
		if (cur(p) == NULL)
			return qless__when_missing("duration", in);
	}
	if ((rc = qless__when_amounts(p, &d, &first)) < 0)
		return QLESS_EINVAL;
	if (rc == 0)
		return qless__when_reject(cur(p));
	tail = cur(p);
	if (in != NULL || tail == NULL || is_kw(tail, KW_AT))
		return qless__when_shift(p->now, &d, 1, first, at) != QLESS_OK ? QLESS_EINVAL
		                                                               : relative_time_of_day(p, &d, at);
	size_t words;
	int dir = direction_at(p, &words);
	if (dir != 0) {
		const qless_word *next;
		p->i += words;
		next = cur(p);
		if (next != NULL && next->error == WORD_OK && !is_kw(next, KW_AT) && !is_kw(next, KW_COMMA) &&
		    !is_kw(next, KW_PLUS) && !is_kw(next, KW_MINUS) && !is_kw(next, KW_NOON) &&
		    !is_kw(next, KW_MIDNIGHT) && !next->is_clock && !next->is_number) {
			/* from a day instead of now: "3 years ago tomorrow", "3 months ago saturday at 5pm" */
			if ((rc = instant(p, &anchor)) != QLESS_OK)
				return rc;
			return qless__when_shift(anchor, &d, dir, first, at);
		}
		return qless__when_shift(p->now, &d, dir, first, at) != QLESS_OK ? QLESS_EINVAL
		                                                                  : relative_time_of_day(p, &d, at);
	}
	if (!is_kw(tail, KW_FROM) && !is_kw(tail, KW_AFTER) && !is_kw(tail, KW_BEFORE))
		return qless__when_shift(p->now, &d, 1, first, at);
	p->i++;
	if (cur(p) == NULL)
		return qless__when_missing("time", tail);
	if ((rc = instant(p, &anchor)) != QLESS_OK)
		return rc;
	if (is_kw(tail, KW_BEFORE))
		sign = -1;
	return qless__when_shift(anchor, &d, sign, first, at);
}

/* Day part, time part and day portion, each at most once, in any order. */
static int absolute(parser *p, double *at)
{
	day_part d;
	tod t;
	const qless_word *portion_word = NULL;
	when_portion portion = PORTION_NONE;
	int have_day = 0, have_time = 0, rc;
	int64_t date;
	memset(&d, 0, sizeof d);
	memset(&t, 0, sizeof t);
	d.check_wday = -1;
	while (cur(p) != NULL && !is_kw(cur(p), KW_PLUS) && !is_kw(cur(p), KW_MINUS)) {
		const qless_word *w = cur(p);
		day_part nd;
		tod nt;
		int is_day;
		if (is_kw(w, KW_COMMA) && (have_day || have_time || portion) && ahead(p, 1) != NULL) {
			p->i++;
			continue;
		}
		/* evening; in the evening; at night */
		size_t k = is_kw(w, KW_IN) && is_kw(ahead(p, 1), KW_THE) ? 2 : is_kw(w, KW_AT) && is_kw(ahead(p, 1), KW_NIGHT);
		if (portion_of(ahead(p, k)) != PORTION_NONE && !is_kw(ahead(p, k), KW_TONIGHT)) {
			if (portion != PORTION_NONE)
				return qless__when_reject(ahead(p, k));
			portion_word = ahead(p, k);
			portion = portion_of(portion_word);
			p->i += k + 1;
			continue;
		}
		if (is_kw(w, KW_ON) || is_kw(w, KW_AT)) {
			is_day = is_kw(w, KW_ON);
			if (is_day ? have_day : have_time)
				return qless__when_reject(w);
			p->i++;
			if (cur(p) == NULL)
				return qless__when_missing(is_day ? "day" : "time", w);
			rc = is_day ? qless__when_day_part(p, &nd) : qless__when_time(p, 1, &nt);
			if (rc == 0)
				return qless__when_reject(cur(p));
		} else {
			is_day = 1;
			if ((rc = qless__when_day_part(p, &nd)) == 0) {
				/* after today, tomorrow or tonight a number is a time: "tonight 7", "this day 1800" */
				is_day = 0;
				rc = qless__when_time(p, p->n == 1 || (have_day && !have_time && d.kind == DAY_OFFSET), &nt);
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
	if (!have_day && !have_time && portion == PORTION_NONE)
		return cur(p) == NULL ? qless__when_missing("time", &p->w[p->i - 1]) : qless__when_reject(cur(p));
	if (d.portion != PORTION_NONE) {
		if (portion != PORTION_NONE)
			return qless__when_reject(portion_word);
		portion = d.portion;
	}
	if (portion != PORTION_NONE && have_time) {
		qless__when_in_portion(&t, portion);
	} else if (portion != PORTION_NONE) {
		t.c.hour = qless__when_portion_hour(portion);
		have_time = 1;
	}
	double z = t.c.has_zone ? t.c.zone : 0;
	double local = p->now + z;
	int64_t today = (int64_t)qless__floor(local / 86400);
	double tod_s = have_time ? t.c.hour * 3600.0 + t.c.minute * 60.0 + t.c.second + t.c.fraction : 0;
	if ((rc = qless__when_resolve(&d, tod_s, today, local, &date)) != QLESS_OK)
		return rc;
	qless__when_weekday_warning(&d, date, p->warning);
	*at = (double)date * 86400 + tod_s - z;
	if (!(*at >= WHEN_TIME_MIN && *at < WHEN_TIME_END))
		return qless__when_word_err("time outside years 0000-9999", d.word ? d.word : t.word);
	return QLESS_OK;
}

/* One time, then any "+ duration" or "- duration" after it. */
static int instant(parser *p, double *at)
{
	const qless_word *w = cur(p);
	int rc;
	if (w->error == WORD_OK && (is_kw(w, KW_NOW) || w->is_epoch || w->iso == QLESS_ISO_DATETIME)) {
		*at = w->is_epoch ? w->epoch : w->iso == QLESS_ISO_DATETIME ? w->iso_value.t : p->now;
		p->i++;
	} else if (clock_period(p, at)) {
		rc = QLESS_OK;
	} else if ((rc = counted(p, at)) != 0) {
		if (rc < 0)
			return QLESS_EINVAL;
	} else if (p->n == 1 && w->error == WORD_OK && w->is_number && w->is_int && w->digits <= 2) {
		/* a number alone is an hour, as after "at": "5" = 05:00 */
		if ((rc = absolute(p, at)) != QLESS_OK)
			return rc;
	} else if (is_kw(w, KW_IN) || starts_duration(p)) {
		if ((rc = relative(p, at)) != QLESS_OK)
			return rc;
	} else if ((rc = absolute(p, at)) != QLESS_OK) {
		return rc;
	}
	while (is_kw(cur(p), KW_PLUS) || is_kw(cur(p), KW_MINUS)) {
		const qless_word *op = cur(p), *first;
		when_dur d;
		p->i++;
		if (cur(p) == NULL)
			return qless__when_missing("duration", op);
		if ((rc = qless__when_amounts(p, &d, &first)) < 0)
			return QLESS_EINVAL;
		if (rc == 0)
			return qless__when_reject(cur(p));
		if (qless__when_shift(*at, &d, is_kw(op, KW_PLUS) ? 1 : -1, first, at) != QLESS_OK)
			return QLESS_EINVAL;
	}
	return QLESS_OK;
}

int qless__when_oneoff(parser *p, qless_when *r)
{
	double at = 0;
	int rc;
	if ((rc = instant(p, &at)) != QLESS_OK || (rc = qless__when_at_end(p)) != QLESS_OK)
		return rc;
	r->kind = QLESS_WHEN_AT;
	r->at = at;
	return QLESS_OK;
}
