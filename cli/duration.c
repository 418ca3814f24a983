/*
 * Durations in and out (30s, 5m, 2h, 1d, 2h15m) and readable times
 * ("3m ago", "in 20s", "2024-05-01 12:00:03").
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

int duration_parse(const char *s, double *out)
{
	char *end;
	if (*s == '\0' || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	double total = strtod(s, &end);
	if (*end == '\0')   /* plain seconds */
		return isfinite(total) ? (*out = total, 0) : -1;
	total = 0;
	for (const char *p = s; *p;) {
		if (!isdigit((unsigned char)*p) && *p != '.')
			return -1;
		double v = strtod(p, &end);
		if (end == p || !isfinite(v))
			return -1;
		switch (*end) {
		case 's': total += v; break;
		case 'm': total += v * 60; break;
		case 'h': total += v * 3600; break;
		case 'd': total += v * 86400; break;
		default: return -1;
		}
		p = end + 1;
	}
	*out = total;
	return 0;
}

const char *duration_format(double seconds, char *buf, size_t size)
{
	static const struct { const char *name; long secs; } units[] = {
		{ "d", 86400 }, { "h", 3600 }, { "m", 60 }, { "s", 1 },
	};
	long s = lround(fabs(seconds));
	if (s == 0) {
		snprintf(buf, size, seconds != 0 ? "%.0fms" : "0s", fabs(seconds) * 1000);
		return buf;
	}
	/* The most significant unit, and the next one when it is not zero. */
	size_t i = 0;
	while (s < units[i].secs)
		i++;
	long n = s / units[i].secs, rest = (s % units[i].secs);
	if (i + 1 < 4 && rest / units[i + 1].secs > 0)
		snprintf(buf, size, "%ld%s%ld%s", n, units[i].name, rest / units[i + 1].secs, units[i + 1].name);
	else
		snprintf(buf, size, "%ld%s", n, units[i].name);
	return buf;
}

const char *time_relative(double when, double now, char *buf, size_t size)
{
	char d[32];
	double delta = when - now;
	if (fabs(delta) < 1)
		snprintf(buf, size, "now");
	else if (delta < 0)
		snprintf(buf, size, "%s ago", duration_format(-delta, d, sizeof d));
	else
		snprintf(buf, size, "in %s", duration_format(delta, d, sizeof d));
	return buf;
}

const char *time_absolute(double when, char *buf, size_t size)
{
	time_t t = (time_t)when;
	struct tm tm;
	if (localtime_r(&t, &tm) == NULL || strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, size, "%.0f", when);
	return buf;
}

int date_parse(const char *s, double *out)
{
	int y, m, d;
	char extra;
	if (sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &extra) == 3) {
		if (m < 1 || m > 12 || d < 1 || d > 31)
			return -1;
		/* days since the epoch of a civil date (proleptic Gregorian) */
		y -= m <= 2;
		long era = (y >= 0 ? y : y - 399) / 400;
		long yoe = y - era * 400;
		long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
		long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
		*out = (double)(era * 146097 + doe - 719468) * 86400.0;
		return 0;
	}
	char *end;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
