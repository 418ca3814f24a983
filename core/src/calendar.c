/* Integer UTC calendar arithmetic and ISO 8601 words (see calendar.h). */
#include "qless/qless.h"
#include "calendar.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int64_t qless__floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

double qless__floor(double x)
{
	/* every double of this size or more is already a whole number */
	if (x >= 9007199254740992.0 || x <= -9007199254740992.0)
		return x;
	double t = (double)(int64_t)x;
	return t > x ? t - 1 : t;
}

int qless__leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int qless__month_len(int64_t y, int m)
{
	static const int len[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (m < 1 || m > 12)
		return 0;
	return len[m - 1] + (m == 2 && qless__leap(y));
}

/* Counts in 400-year eras starting on March 1st, so the leap day is the
 * last day of its year and the month lengths repeat in a 153-day pattern. */
int64_t qless__days(int64_t y, int m, int d)
{
	int64_t yy = y - (m <= 2);
	int64_t era = qless__floordiv(yy, 400);
	int64_t yoe = yy - 400 * era;
	int64_t doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
	int64_t doe = 365 * yoe + yoe / 4 - yoe / 100 + doy;
	return 146097 * era + doe - 719468;
}

void qless__civil(int64_t days, int64_t *y, int *m, int *d)
{
	int64_t z = days + 719468;
	int64_t era = qless__floordiv(z, 146097);
	int64_t doe = z - 146097 * era;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + 400 * era + (*m <= 2);
}

int64_t qless__add_months(int64_t days, int64_t months)
{
	int64_t y;
	int m, d;
	qless__civil(days, &y, &m, &d);
	int64_t index = y * 12 + (m - 1) + months;
	y = qless__floordiv(index, 12);
	m = (int)(index - y * 12) + 1;
	if (d > qless__month_len(y, m))
		d = qless__month_len(y, m);
	return qless__days(y, m, d);
}

int qless__weekday(int64_t days)
{
	return (int)(days + 4 - 7 * qless__floordiv(days + 4, 7));
}

/* The value of n digits at s, or -1 when one is not a digit. */
static int digits(const char *s, size_t n)
{
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int qless__zone_parse(const char *s, size_t n, int *offset)
{
	int h, mi = 0;
	if (n == 1 && (s[0] == 'Z' || s[0] == 'z')) {
		*offset = 0;
		return 1;
	}
	if (n < 3 || (s[0] != '+' && s[0] != '-') || (h = digits(s + 1, 2)) < 0)
		return 0;
	if (n == 5)
		mi = digits(s + 3, 2);
	else if (n == 6 && s[3] == ':')
		mi = digits(s + 4, 2);
	else if (n != 3)
		return 0;
	if (mi < 0 || h > 23 || mi > 59)
		return 0;
	*offset = (s[0] == '-' ? -1 : 1) * (h * 3600 + mi * 60);
	return 1;
}

/* HH:MM[:SS[.frac]][zone] after the T: seconds since midnight minus the
 * zone offset, or -1e18 when malformed. */
static double iso_time(const char *s, size_t n)
{
	int h = n >= 5 && s[2] == ':' ? digits(s, 2) : -1;
	int mi = h >= 0 ? digits(s + 3, 2) : -1, sec = 0, zone = 0;
	double frac = 0, scale = 1;
	size_t i = 5;
	if (mi < 0 || h > 23 || mi > 59)
		return -1e18;
	if (i < n && s[i] == ':') {
		if (n < i + 3 || (sec = digits(s + i + 1, 2)) < 0 || sec > 59)
			return -1e18;
		i += 3;
		if (i < n && s[i] == '.') {
			size_t start = ++i;
			for (; i < n && is_digit(s[i]); i++) {
				if (i - start < 9) {
					scale /= 10;
					frac += (s[i] - '0') * scale;
				}
			}
			if (i == start)
				return -1e18;
		}
	}
	if (i < n && !qless__zone_parse(s + i, n - i, &zone))
		return -1e18;
	return h * 3600.0 + mi * 60.0 + sec + frac - zone;
}

qless_iso_kind qless__iso_parse(const char *s, size_t n, qless_iso *out)
{
	int y = n >= 10 && s[4] == '-' && s[7] == '-' ? digits(s, 4) : -1;
	int m = y >= 0 ? digits(s + 5, 2) : -1, d = m >= 0 ? digits(s + 8, 2) : -1;
	if (d < 0 || (n > 10 && s[10] != 'T' && s[10] != 't'))
		return QLESS_ISO_NONE;
	if (m < 1 || m > 12 || d < 1 || d > qless__month_len(y, m))
		return QLESS_ISO_BAD_DATE;
	out->days = qless__days(y, m, d);
	out->t = (double)out->days * 86400.0;
	if (n == 10)
		return QLESS_ISO_DATE;
	double tod = iso_time(s + 11, n - 11);
	if (tod < -1e17)
		return QLESS_ISO_BAD_TIME;
	out->t += tod;
	return QLESS_ISO_DATETIME;
}
