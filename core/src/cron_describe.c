/* qless_cron_describe: short English for tables ("at 09:00 on Monday
 * through Friday"). The wording is not part of any contract (schedules.md
 * §5.7); shapes it has no words for are shown as the field's text. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "cron.h"
#include "errors.h"

typedef struct text {
	char *p;
	size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) QLESS_PRINTF(2, 3);
static void add(text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len = t->len + (size_t)n < t->cap ? t->len + (size_t)n : t->cap - 1;
}

static const char *suffix(int64_t n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* The only item of a field, when there is exactly one. */
static int only_item(const qless_cron *c, qless_cron_field f, qless_cron_item *it)
{
	qless_cron_item extra;
	return qless__cron_item(f, c->field[f], c->len[f], 0, it) == 0 &&
	       qless__cron_item(f, c->field[f], c->len[f], 1, &extra) != 0;
}

static int is_star(const qless_cron *c, qless_cron_field f)
{
	qless_cron_item it;
	return only_item(c, f, &it) && it.kind == QLESS_CRON_STAR && !it.has_step;
}

/* The value of a field that holds one plain value, else -1. */
static int64_t single(const qless_cron *c, qless_cron_field f)
{
	qless_cron_item it;
	if (!only_item(c, f, &it) || it.kind != QLESS_CRON_RANGE || it.has_range || it.has_step)
		return -1;
	return it.a;
}

/* n of "*\/n", else 0. */
static int64_t star_step(const qless_cron *c, qless_cron_field f)
{
	qless_cron_item it;
	return only_item(c, f, &it) && it.kind == QLESS_CRON_STAR && it.has_step ? it.step : 0;
}

static void describe_items(text *t, const qless_cron *c, qless_cron_field f);

static const char *const UNIT[QLESS_CRON_NFIELDS] = {
	"year", "month", "day", "weekday", "hour", "minute", "second",
};

/* A field of the time of day: "minute 30", "hour 9-17", "every hour", or
 * in words when it has a step (whose values its text does not show). */
static void add_field(text *t, const qless_cron *c, qless_cron_field f)
{
	qless_cron_item it;
	for (size_t k = 0; qless__cron_item(f, c->field[f], c->len[f], k, &it) == 0; k++)
		if (it.has_step) {
			describe_items(t, c, f);
			return;
		}
	if (is_star(c, f))
		add(t, "every %s", UNIT[f]);
	else
		add(t, "%s %.*s", UNIT[f], (int)c->len[f], c->field[f]);
}

/* 1 when it named one time of day ("at 09:00"), which needs days after it. */
static int describe_time(text *t, const qless_cron *c)
{
	int64_t h = single(c, QLESS_CRON_HOUR), m = single(c, QLESS_CRON_MINUTE), s = single(c, QLESS_CRON_SECOND);
	int hstar = is_star(c, QLESS_CRON_HOUR), mstar = is_star(c, QLESS_CRON_MINUTE);
	if (h >= 0 && m >= 0 && s >= 0) {
		add(t, s ? "at %02lld:%02lld:%02lld" : "at %02lld:%02lld", (long long)h, (long long)m, (long long)s);
		return 1;
	} else if (hstar && mstar && is_star(c, QLESS_CRON_SECOND)) {
		add(t, "every second");
	} else if (hstar && mstar && s == 0) {
		add(t, "every minute");
	} else if (hstar && s == 0 && star_step(c, QLESS_CRON_MINUTE) > 0 &&
	           60 % star_step(c, QLESS_CRON_MINUTE) == 0) {
		/* only a step that divides the hour keeps its gap across :00 */
		add(t, "every %lld minutes", (long long)star_step(c, QLESS_CRON_MINUTE));
	} else if (hstar && m == 0 && s == 0) {
		add(t, "every hour");
	} else if (hstar && m > 0 && s == 0) {
		add(t, "at %lld minutes past every hour", (long long)m);
	} else {
		add(t, "at ");
		if (s != 0) {
			add_field(t, c, QLESS_CRON_SECOND);
			add(t, " of ");
		}
		add_field(t, c, QLESS_CRON_MINUTE);
		add(t, " of ");
		add_field(t, c, QLESS_CRON_HOUR);
	}
	return 0;
}

/* Most values a stepped item is described by one by one; more are
 * "every nth ... from a through b". */
#define LISTED_MAX 7

/* The values a stepped RANGE or STAR item selects, in order, 7 in
 * day-of-week written as 0 (and not twice): the count; v holds the first
 * cap of them. Counted, not stepped through: a step may be near INT64_MAX. */
static size_t step_values(qless_cron_field f, const qless_cron_item *it, int64_t *v, size_t cap)
{
	int64_t min, max;
	qless__cron_bounds(f, &min, &max);
	if (f == QLESS_CRON_DOW && it->kind == QLESS_CRON_STAR)
		max = 6;
	int64_t from = it->kind == QLESS_CRON_STAR ? min : it->a;
	int64_t to = it->has_range ? it->b : max;
	if (to < from || it->step < 1)
		return 0;
	size_t n = (size_t)((to - from) / it->step) + 1;
	/* 0-7/1 and 0-7/7 reach Sunday twice */
	if (f == QLESS_CRON_DOW && from == 0 && to == 7 && 7 % it->step == 0)
		n--;
	for (size_t k = 0; k < n && k < cap; k++) {
		int64_t x = from + (int64_t)k * it->step;
		v[k] = f == QLESS_CRON_DOW ? x % 7 : x;
	}
	return n;
}

static void add_value(text *t, qless_cron_field f, int64_t x)
{
	if (f == QLESS_CRON_DOW)
		add(t, "%s", qless__cron_weekday_name(x));
	else if (f == QLESS_CRON_MONTH)
		add(t, "%s", qless__cron_month_name(x));
	else if (f == QLESS_CRON_DOM)
		add(t, "the %lld%s", (long long)x, suffix(x));
	else
		add(t, "%lld", (long long)x);
}

static void add_separator(text *t, size_t k, size_t n)
{
	if (k > 0)
		add(t, k + 1 == n ? " and " : ", ");
}

/* A stepped item by the values it selects: "Monday, Wednesday and Friday",
 * "every 2nd day from the 1st through the 31st". */
static void describe_step(text *t, qless_cron_field f, const qless_cron_item *it)
{
	int64_t v[LISTED_MAX];
	size_t n = step_values(f, it, v, LISTED_MAX);
	if (n == 0)
		return;
	if (n <= LISTED_MAX) {
		if (f >= QLESS_CRON_HOUR)
			add(t, "%s%s ", UNIT[f], n > 1 ? "s" : "");
		for (size_t k = 0; k < n; k++) {
			add_separator(t, k, n);
			add_value(t, f, v[k]);
		}
		return;
	}
	int64_t last = (it->kind == QLESS_CRON_STAR ? v[0] : it->a) +
	               (int64_t)(n - 1) * it->step;
	add(t, "every %lld%s %s from ", (long long)it->step, suffix(it->step), UNIT[f]);
	add_value(t, f, v[0]);
	add(t, " through ");
	add_value(t, f, last);
}

/* v/n in day-of-week: the occurrences 1, 1+n, ... of weekday v in the
 * month (schedules.md §2.3), of which a month has at most five. */
static void describe_everynth(text *t, const qless_cron_item *it)
{
	const char *day = qless__cron_weekday_name(it->a);
	if (it->step == 1) {
		add(t, "every %s", day);
		return;
	}
	add(t, "the ");
	size_t n = (size_t)(4 / it->step + 1);
	for (size_t k = 0; k < n; k++) {
		int64_t occurrence = 1 + (int64_t)k * it->step;
		add_separator(t, k, n);
		add(t, "%lld%s", (long long)occurrence, suffix(occurrence));
	}
	add(t, " %s of the month", day);
}

static void describe_item(text *t, qless_cron_field f, const qless_cron_item *it)
{
	const char *(*name)(int64_t) = f == QLESS_CRON_DOW ? qless__cron_weekday_name :
	                               f == QLESS_CRON_MONTH ? qless__cron_month_name : NULL;
	switch (it->kind) {
	case QLESS_CRON_LAST:
		add(t, "the last day of the month");
		return;
	case QLESS_CRON_WLAST:
		add(t, "the last %s of the month", name(it->a));
		return;
	case QLESS_CRON_NTH:
		add(t, "the %lld%s %s of the month", (long long)it->step, suffix(it->step), name(it->a));
		return;
	case QLESS_CRON_EVERYNTH:
		describe_everynth(t, it);
		return;
	case QLESS_CRON_STAR:
		describe_step(t, f, it);
		return;
	case QLESS_CRON_RANGE:
		break;
	}
	if (it->has_step) {
		describe_step(t, f, it);
		return;
	}
	if (name != NULL)
		add(t, "%s", name(it->a));
	else
		add(t, f == QLESS_CRON_DOM ? "the %lld%s" : "%lld", (long long)it->a, f == QLESS_CRON_DOM ? suffix(it->a) : "");
	if (it->has_range) {
		if (name != NULL)
			add(t, " through %s", name(it->b));
		else
			add(t, " through %lld", (long long)it->b);
	}
}

static void describe_items(text *t, const qless_cron *c, qless_cron_field f)
{
	qless_cron_item it;
	for (size_t k = 0; qless__cron_item(f, c->field[f], c->len[f], k, &it) == 0; k++) {
		if (k > 0)
			add(t, ", ");
		describe_item(t, f, &it);
	}
}

static void describe_days(text *t, const qless_cron *c, int daily)
{
	int dom = !is_star(c, QLESS_CRON_DOM), dow = !is_star(c, QLESS_CRON_DOW);
	int64_t day = single(c, QLESS_CRON_DOM), month = single(c, QLESS_CRON_MONTH);
	if (daily && !dom && !dow)
		add(t, " every day");
	if (day > 0 && month > 0 && !dow) {
		/* a date: "on December 25" */
		add(t, " on %s %lld", qless__cron_month_name(month), (long long)day);
		dom = 0;
		month = -2;
	}
	if (dom) {
		add(t, " on ");
		describe_items(t, c, QLESS_CRON_DOM);
		qless_cron_item it;
		if (!(only_item(c, QLESS_CRON_DOM, &it) && it.kind == QLESS_CRON_LAST))
			add(t, " of the month");
	}
	if (dow) {
		add(t, dom ? " or " : " on ");
		describe_items(t, c, QLESS_CRON_DOW);
	}
	if (month != -2 && !is_star(c, QLESS_CRON_MONTH)) {
		add(t, " in ");
		describe_items(t, c, QLESS_CRON_MONTH);
	}
	if (!is_star(c, QLESS_CRON_YEAR)) {
		add(t, " in ");
		describe_items(t, c, QLESS_CRON_YEAR);
	}
}

int qless_cron_describe(char **out, const char *expr)
{
	static const char *func = "qless_cron_describe";
	qless_cron c;
	text t;
	int rc;
	QLESS_CHECK_NULL(func, out);
	if ((rc = qless__cron_parse(func, expr, &c)) != QLESS_OK)
		return rc;
	/* no item of at least two bytes ("1,") grows past 64 bytes of words */
	t.cap = 32 * strlen(c.norm) + 256;
	t.len = 0;
	if ((t.p = malloc(t.cap)) == NULL) {
		qless__cron_free(&c);
		return qless__err_nomem(func);
	}
	t.p[0] = '\0';
	describe_days(&t, &c, describe_time(&t, &c));
	qless__cron_free(&c);
	*out = t.p;
	return QLESS_OK;
}
