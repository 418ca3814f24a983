/* Times of day in one-off and recurring texts (docs/times.md, "Clock
 * spellings"): clock words, am/pm, noon and midnight, "7 o'clock", "half
 * past 2", "quarter to 4", "10 to 2", HHMM after "at"; and the day
 * portions that move a bare hour ("evening at 7" = 19:00). */
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "when_read.h"

/* am/pm after an hour h written without one: the 24-hour hour, or -1. */
static int with_ampm(double h, const qless_word *ampm)
{
	if (h < 1 || h > 12 || qless__floor(h) != h)
		return -1;
	return (int)h % 12 + (is_kw(ampm, KW_PM) ? 12 : 0);
}

/* The hour of "half past H", "10 to H" or "H o'clock": noon, midnight,
 * a whole-hour clock word ("4pm"), or a number with an optional am/pm.
 * 1, 0 or -1. */
static int hour_word(parser *p, tod *out)
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
	if (w->is_clock && w->clock.ampm && w->clock.minute == 0 && w->clock.second == 0) {
		out->c = w->clock;
		p->i++;
		return 1;
	}
	if (!w->is_number)
		return 0;
	if (is_ampm(next)) {
		if ((out->c.hour = with_ampm(w->number, next)) < 0)
			return qless__when_word_err("invalid time", w);
		p->i += 2;
		return 1;
	}
	if (!w->is_int || w->number > 23)
		return qless__when_word_err("invalid time", w);
	out->c.hour = (int)w->number;
	out->bare = out->c.hour >= 1 && out->c.hour <= 12;
	p->i++;
	return 1;
}

/* "N|quarter after|before H" is "past|to": a number alone (no unit)
 * before them is minutes, not a duration ("10 after 2", "quarter before 5"). */
int qless__when_clock_relation(const parser *p, size_t k)
{
	const qless_word *w = ahead(p, k), *rel = ahead(p, k + 1), *h = ahead(p, k + 2);
	if (is_kw(rel, KW_PAST) || is_kw(rel, KW_TO))
		return 1;
	if (!is_kw(rel, KW_AFTER) && !is_kw(rel, KW_BEFORE))
		return 0;
	return w != NULL && (is_kw(w, KW_QUARTER) || (w->is_number && !w->is_compact)) && h != NULL &&
	       h->error == WORD_OK && ((h->is_number && h->is_int && h->number >= 0 && h->number <= 24) ||
	                               h->is_clock || is_kw(h, KW_NOON) || is_kw(h, KW_MIDNIGHT));
}

/* "half|quarter|N past|to H" (after and before too): 1, 0 or -1. */
static int minutes_to_from(parser *p, tod *out)
{
	const qless_word *w = cur(p), *rel = ahead(p, 1);
	int minutes, rc;
	if (!qless__when_clock_relation(p, 0))
		return 0;
	if (is_kw(w, KW_HALF) && is_kw(rel, KW_PAST))
		minutes = 30;
	else if (is_kw(w, KW_QUARTER))
		minutes = 15;
	else if (w->is_number && w->error == WORD_OK)
		minutes = w->is_int && w->number >= 1 && w->number <= 59 ? (int)w->number : -1;
	else
		return 0;
	if (minutes < 0)
		return qless__when_word_err("invalid time", w);
	p->i += 2;
	if (cur(p) == NULL)
		return qless__when_missing("hour", rel);
	if ((rc = hour_word(p, out)) <= 0)
		return rc < 0 ? QLESS_EINVAL : qless__when_reject(cur(p));
	if (is_kw(rel, KW_PAST) || is_kw(rel, KW_AFTER)) {
		out->c.minute = minutes;
	} else {
		int m = (out->c.hour * 60 - minutes + 1440) % 1440;
		out->c.hour = m / 60;
		out->c.minute = m % 60;
	}
	out->word = w;
	return 1;
}

int qless__when_time(parser *p, int after_at, tod *out)
{
	const qless_word *w = cur(p), *next = ahead(p, 1);
	int rc;
	memset(out, 0, sizeof *out);
	out->word = w;
	if (w == NULL || w->error != WORD_OK)
		return 0;
	if ((rc = minutes_to_from(p, out)) != 0)
		return rc;
	if (is_kw(w, KW_NOON) || is_kw(w, KW_MIDNIGHT)) {
		out->c.hour = is_kw(w, KW_NOON) ? 12 : 0;
		p->i++;
		return 1;
	}
	if (w->is_clock) {
		out->c = w->clock;
		p->i++;
		if (!w->clock.ampm && !w->clock.has_zone && is_ampm(next)) {
			if ((out->c.hour = with_ampm(w->clock.hour, next)) < 0)
				return qless__when_word_err("invalid time", w);
			p->i++;
		}
		out->bare = !out->c.ampm && !out->c.has_zone && !is_ampm(next) && out->c.hour >= 1 && out->c.hour <= 12;
		if (!out->c.has_zone && !out->c.ampm && cur(p) != NULL && cur(p)->is_zone) {
			/* 22:11:35 +0100 */
			out->c.has_zone = 1;
			out->c.zone = cur(p)->zone;
			out->bare = 0;
			p->i++;
		}
		return 1;
	}
	if (!w->is_number)
		return 0;
	if (is_kw(next, KW_OCLOCK)) {
		/* 7 o'clock [pm] */
		if (hour_word(p, out) < 0)
			return QLESS_EINVAL;
		if (is_kw(cur(p), KW_OCLOCK) && is_ampm(ahead(p, 1))) {
			if ((out->c.hour = with_ampm(w->number, ahead(p, 1))) < 0)
				return qless__when_word_err("invalid time", w);
			out->bare = 0;
			p->i++;
		}
		p->i++;
		return 1;
	}
	if (is_ampm(next) || qless__when_hour_before(p, 1))
		return hour_word(p, out);
	if (!after_at)
		return 0;
	if (w->is_int && (w->digits == 3 || w->digits == 4)) {
		/* at 0900, at 930: HHMM */
		int v = (int)w->number;
		if (v / 100 > 23 || v % 100 > 59)
			return qless__when_word_err("invalid time", w);
		out->c.hour = v / 100;
		out->c.minute = v % 100;
		p->i++;
		return 1;
	}
	return hour_word(p, out);
}

int qless__when_hour_before(const parser *p, size_t k)
{
	const qless_word *w;
	if (is_kw(ahead(p, k), KW_COMMA))
		k++;
	w = ahead(p, k);
	return portion_phrase_at(p, k) || is_kw(w, KW_TONIGHT) || (is_kw(w, KW_AT) && is_kw(ahead(p, k + 1), KW_NIGHT)) ||
	       (is_kw(w, KW_ON) && ahead(p, k + 1) != NULL);
}

int qless__when_portion_hour(when_portion portion)
{
	switch (portion) {
	case PORTION_MORNING: return WHEN_MORNING_HOUR;
	case PORTION_AFTERNOON: return WHEN_AFTERNOON_HOUR;
	case PORTION_EVENING: return WHEN_EVENING_HOUR;
	case PORTION_NIGHT: return WHEN_NIGHT_HOUR;
	default: return 0;
	}
}

void qless__when_in_portion(tod *t, when_portion portion)
{
	/* afternoon, evening and night are after noon: "evening at 7" = 19:00 */
	if (t->bare && portion != PORTION_NONE && portion != PORTION_MORNING && t->c.hour >= 1 && t->c.hour <= 11)
		t->c.hour += 12;
}
