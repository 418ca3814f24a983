/* ISO 8601 UTC text of epoch seconds, and back (qless_time_format/parse). */
#include <stdio.h>
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "errors.h"
#include "util.h"

/* 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: four-digit years only. */
#define TIME_MIN -62167219200.0
#define TIME_END 253402300800.0

int qless_time_format(char out[QLESS_TIME_SIZE], double t)
{
	static const char *func = "qless_time_format";
	QLESS_CHECK_NULL(func, out);
	if (!qless__finite(t) || t < TIME_MIN || t >= TIME_END)
		return qless__err(QLESS_EINVAL, "%s: t is outside years 0000-9999", func);
	double whole = qless__floor(t);
	int64_t secs = (int64_t)whole;
	long us = (long)((t - whole) * 1e6 + 0.5);
	if (us >= 1000000) {
		/* rounding carried into the next second */
		secs++;
		us = 0;
	}
	if ((double)secs >= TIME_END)
		return qless__err(QLESS_EINVAL, "%s: t is outside years 0000-9999", func);
	int64_t days = qless__floordiv(secs, 86400), y;
	int64_t tod = secs - days * 86400;
	int m, d;
	qless__civil(days, &y, &m, &d);
	int n = snprintf(out, QLESS_TIME_SIZE, "%04d-%02d-%02dT%02d:%02d:%02d", (int)y, m, d,
	                 (int)(tod / 3600), (int)(tod / 60 % 60), (int)(tod % 60));
	if (us > 0) {
		char frac[8];
		snprintf(frac, sizeof frac, ".%06ld", us);
		/* the fraction as short as it reads: .5, not .500000 */
		size_t len = strlen(frac);
		while (frac[len - 1] == '0')
			frac[--len] = '\0';
		memcpy(out + n, frac, len);
		n += (int)len;
	}
	out[n] = 'Z';
	out[n + 1] = '\0';
	return QLESS_OK;
}

/* [-]digits[.digits]: 1 and *out, else 0. */
static int epoch_parse(const char *s, double *out)
{
	const char *p = s + (*s == '-');
	double v = 0, scale = 1;
	int ndigits = 0;
	for (; *p >= '0' && *p <= '9'; p++, ndigits++)
		v = v * 10 + (*p - '0');
	if (ndigits == 0 || ndigits > 15)
		return 0;
	if (*p == '.') {
		int nfrac = 0;
		for (p++; *p >= '0' && *p <= '9'; p++, nfrac++) {
			if (nfrac < 9) {
				scale /= 10;
				v += (*p - '0') * scale;
			}
		}
		if (nfrac == 0)
			return 0;
	}
	if (*p != '\0')
		return 0;
	*out = *s == '-' ? -v : v;
	return 1;
}

int qless_time_parse(double *out, const char *text)
{
	static const char *func = "qless_time_parse";
	qless_iso iso;
	double v;
	QLESS_CHECK_STR(func, text);
	QLESS_CHECK_NULL(func, out);
	if (epoch_parse(text, &v)) {
		*out = v;
		return QLESS_OK;
	}
	switch (qless__iso_parse(text, strlen(text), &iso)) {
	case QLESS_ISO_DATE:
	case QLESS_ISO_DATETIME:
		*out = iso.t;
		return QLESS_OK;
	case QLESS_ISO_BAD_DATE:
		return qless__err(QLESS_EINVAL, "%s: text names a day that does not exist: \"%.64s\"", func, text);
	default:
		return qless__err(QLESS_EINVAL, "%s: text is neither epoch seconds nor an ISO 8601 time: \"%.64s\"",
		                  func, text);
	}
}
