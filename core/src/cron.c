/* Cron expressions: syntax (schedules.md §2.1-2.6 with the script's
 * messages), normalisation and the identity spelling of §10 S6. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "cron.h"
#include "errors.h"

#define CRON_MAX_BYTES 1024
/* Larger numbers are out of every range; capping keeps the arithmetic exact. */
#define CRON_VALUE_CAP 1000000000000LL

typedef struct field_def {
	const char *name;
	int64_t min, max;
} field_def;

static const field_def FIELDS[QLESS_CRON_NFIELDS] = {
	{ "year", 1970, 2999 }, { "month", 1, 12 }, { "day-of-month", 1, 31 }, { "day-of-week", 0, 7 },
	{ "hour", 0, 23 }, { "minute", 0, 59 }, { "second", 0, 59 },
};

/* Which field each written position holds. */
static const qless_cron_field ORDER7[7] = {
	QLESS_CRON_YEAR, QLESS_CRON_MONTH, QLESS_CRON_DOM, QLESS_CRON_DOW,
	QLESS_CRON_HOUR, QLESS_CRON_MINUTE, QLESS_CRON_SECOND,
};
static const qless_cron_field ORDER5[5] = {
	QLESS_CRON_MINUTE, QLESS_CRON_HOUR, QLESS_CRON_DOM, QLESS_CRON_MONTH, QLESS_CRON_DOW,
};

static const char *const MONTH_ABBR[12] = {
	"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
};
static const char *const DAY_ABBR[7] = { "SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT" };

static const struct { const char *name, *expansion; } MACROS[] = {
	{ "@yearly", "0 0 1 1 *" }, { "@annually", "0 0 1 1 *" }, { "@monthly", "0 0 1 * *" },
	{ "@weekly", "0 0 * * 0" }, { "@daily", "0 0 * * *" }, { "@midnight", "0 0 * * *" },
	{ "@hourly", "0 * * * *" },
};

void qless__cron_bounds(qless_cron_field field, int64_t *min, int64_t *max)
{
	*min = FIELDS[field].min;
	*max = FIELDS[field].max;
}

const char *qless__cron_month_name(int64_t m)
{
	static const char *const names[12] = {
		"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December",
	};
	return m >= 1 && m <= 12 ? names[m - 1] : "?";
}

const char *qless__cron_weekday_name(int64_t w)
{
	static const char *const names[7] = {
		"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
	};
	return w >= 0 && w <= 7 ? names[w % 7] : "?";
}

static int invalid(const char *func, const char *fmt, ...) QLESS_PRINTF(2, 3);
static int invalid(const char *func, const char *fmt, ...)
{
	char reason[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	return qless__err(QLESS_EINVAL, "%s: Arg \"cron\" invalid: %s", func, reason);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int read_digits(const char **p, const char *end, int64_t *v)
{
	const char *s = *p;
	*v = 0;
	for (; *p < end && **p >= '0' && **p <= '9'; (*p)++)
		*v = *v >= CRON_VALUE_CAP ? CRON_VALUE_CAP : *v * 10 + (**p - '0');
	return *p > s;
}

/* Digits, or a name where the field has names (months count from 1). */
static int read_value(qless_cron_field field, const char **p, const char *end, int64_t *v)
{
	const char *const *names = field == QLESS_CRON_MONTH ? MONTH_ABBR : field == QLESS_CRON_DOW ? DAY_ABBR : NULL;
	size_t count = field == QLESS_CRON_MONTH ? 12 : 7;
	if (read_digits(p, end, v))
		return 1;
	if (names == NULL || end - *p < 3)
		return 0;
	for (size_t i = 0; i < count; i++) {
		if (memcmp(*p, names[i], 3) == 0) {
			*v = (int64_t)i + (field == QLESS_CRON_MONTH);
			*p += 3;
			return 1;
		}
	}
	return 0;
}

/* The shape of one item (§2.3); 0 when it is not an item of this field. */
static int item_shape(qless_cron_field field, const char *s, size_t n, qless_cron_item *it)
{
	const char *p = s, *end = s + n;
	int dow = field == QLESS_CRON_DOW;
	memset(it, 0, sizeof *it);
	if (n == 1 && *s == 'L' && field == QLESS_CRON_DOM) {
		it->kind = QLESS_CRON_LAST;
		return 1;
	}
	if (p < end && *p == '*') {
		it->kind = QLESS_CRON_STAR;
		p++;
	} else {
		if (!read_value(field, &p, end, &it->a))
			return 0;
		it->kind = QLESS_CRON_RANGE;
		it->b = it->a;
		if (p < end && *p == '-') {
			p++;
			if (!read_value(field, &p, end, &it->b))
				return 0;
			it->has_range = 1;
		} else if (dow && p + 1 == end && *p == 'L') {
			it->kind = QLESS_CRON_WLAST;
			return 1;
		} else if (dow && p < end && *p == '#') {
			p++;
			it->kind = QLESS_CRON_NTH;
			it->has_step = 1;
			return read_digits(&p, end, &it->step) && p == end;
		}
	}
	if (p < end && *p == '/') {
		p++;
		if (!read_digits(&p, end, &it->step))
			return 0;
		it->has_step = 1;
		if (dow && it->kind == QLESS_CRON_RANGE && !it->has_range)
			it->kind = QLESS_CRON_EVERYNTH;
	}
	return p == end;
}

/* Reasons show at most this many bytes of a token or value, cut between
 * characters and followed by "...", word for word as the script does: a
 * long token would not fit the error message (and cutting it there could
 * split a character). Quoted tokens have control characters, quotes and
 * backslashes escaped, as Redis turns CR and LF in a script's error into
 * spaces. buf holds SHOWN_SIZE bytes. */
#define SHOWN_MAX 64
#define SHOWN_SIZE (SHOWN_MAX * 4 + 8)

static const char *clip(const char *s, size_t n, int quoted, char *buf)
{
	size_t keep = n, len = 0;
	if (n > SHOWN_MAX) {
		keep = SHOWN_MAX;
		while (keep > 0 && ((unsigned char)s[keep] & 0xc0) == 0x80)
			keep--;
	}
	if (quoted)
		buf[len++] = '"';
	for (size_t i = 0; i < keep; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = !quoted ? NULL : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
		              : c == '"' ? "\\\"" : c == '\\' ? "\\\\" : NULL;
		if (e != NULL) {
			memcpy(buf + len, e, 2);
			len += 2;
		} else if (quoted && (c < 0x20 || c == 0x7f)) {
			len += (size_t)snprintf(buf + len, SHOWN_SIZE - len, "\\x%02x", c);
		} else {
			buf[len++] = (char)c;
		}
	}
	if (quoted)
		buf[len++] = '"';
	if (keep < n) {
		memcpy(buf + len, "...", 3);
		len += 3;
	}
	buf[len] = '\0';
	return buf;
}

/* A number of item text s as the script's messages show it: the digits as
 * written after `sep` (0: at the start), without leading zeros and clipped
 * (not the capped value read, CRON_VALUE_CAP); v for a name. buf holds
 * SHOWN_SIZE bytes. */
static const char *shown(const char *s, size_t n, char sep, int64_t v, char *buf)
{
	const char *p = s, *end = s + n, *d;
	if (sep && (p = memchr(s, sep, n)) != NULL)
		p++;
	for (d = p; p && d < end && *d >= '0' && *d <= '9'; d++)
		;
	if (p == NULL || d == p) {
		snprintf(buf, SHOWN_SIZE, "%lld", (long long)v);
		return buf;
	}
	while (p + 1 < d && *p == '0')
		p++;
	return clip(p, (size_t)(d - p), 0, buf);
}

/* The values of a well-shaped item (text s, n bytes), left to right (§2.6). */
static int item_values(const char *func, qless_cron_field field, const qless_cron_item *it, const char *s, size_t n)
{
	const field_def *f = &FIELDS[field];
	char num[SHOWN_SIZE];
	if (it->kind == QLESS_CRON_STAR || it->kind == QLESS_CRON_LAST) {
		/* no values */
	} else if (it->a < f->min || it->a > f->max) {
		return invalid(func, "%s field: value %s out of range %lld-%lld", f->name,
		               shown(s, n, 0, it->a, num), (long long)f->min, (long long)f->max);
	} else if (it->has_range && (it->b < f->min || it->b > f->max)) {
		return invalid(func, "%s field: value %s out of range %lld-%lld", f->name,
		               shown(s, n, '-', it->b, num), (long long)f->min, (long long)f->max);
	} else if (it->has_range && it->a > it->b) {
		return invalid(func, "%s field: range %lld-%lld is reversed", f->name, (long long)it->a, (long long)it->b);
	}
	if (it->kind == QLESS_CRON_NTH && (it->step < 1 || it->step > 5))
		return invalid(func, "day-of-week field: occurrence %s out of range 1-5",
		               shown(s, n, '#', it->step, num));
	if (it->kind != QLESS_CRON_NTH && it->has_step && it->step < 1)
		return invalid(func, "%s field: step must be at least 1", f->name);
	return QLESS_OK;
}

int qless__cron_item(qless_cron_field field, const char *text, size_t len, size_t index, qless_cron_item *item)
{
	const char *p = text, *end = text + len;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		if (index == 0)
			return item_shape(field, p, (size_t)(stop - p), item) ? 0 : -1;
		if (comma == NULL)
			return -1;
		index--;
		p = comma + 1;
	}
}

static int check_field(const char *func, qless_cron_field field, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		qless_cron_item it;
		char tok[SHOWN_SIZE];
		int rc;
		if (!item_shape(field, p, (size_t)(stop - p), &it))
			return invalid(func, "%s field: bad token %s", FIELDS[field].name, clip(p, (size_t)(stop - p), 1, tok));
		if ((rc = item_values(func, field, &it, p, (size_t)(stop - p))) != QLESS_OK)
			return rc;
		if (comma == NULL)
			return QLESS_OK;
		p = comma + 1;
	}
}

/* NORM(expr) (§2.5) into a new string; *nwords its word count. */
static char *normalise(const char *expr, int *nwords)
{
	char *out = malloc(strlen(expr) + 1), *q = out;
	const char *p = expr;
	if (out == NULL)
		return NULL;
	*nwords = 0;
	for (;;) {
		while (is_blank(*p))
			p++;
		if (*p == '\0')
			break;
		if (*nwords > 0)
			*q++ = ' ';
		(*nwords)++;
		for (; *p != '\0' && !is_blank(*p); p++)
			*q++ = (*p >= 'a' && *p <= 'z') ? (char)(*p - 32) : *p;
	}
	*q = '\0';
	if (*nwords == 1 && out[0] == '@') {
		for (q = out; *q; q++)
			if (*q >= 'A' && *q <= 'Z')
				*q = (char)(*q + 32);
	}
	return out;
}

/* Points the fields of c at the words of text (n of them, in order). */
static void split_fields(qless_cron *c, const char *text, const qless_cron_field *order, int n)
{
	const char *p = text;
	for (int i = 0; i < n; i++) {
		const char *sp = strchr(p, ' ');
		c->field[order[i]] = p;
		c->len[order[i]] = sp ? (size_t)(sp - p) : strlen(p);
		p = sp ? sp + 1 : p + strlen(p);
	}
	if (n == 5) {
		c->field[QLESS_CRON_YEAR] = "*";
		c->len[QLESS_CRON_YEAR] = 1;
		c->field[QLESS_CRON_SECOND] = "0";
		c->len[QLESS_CRON_SECOND] = 1;
	}
}

void qless__cron_free(qless_cron *cron)
{
	if (cron != NULL) {
		free(cron->norm);
		cron->norm = NULL;
	}
}

int qless__cron_parse(const char *func, const char *expr, qless_cron *out)
{
	int nwords, rc = QLESS_OK;
	memset(out, 0, sizeof *out);
	QLESS_CHECK_NULL(func, expr);
	if (strlen(expr) > CRON_MAX_BYTES)
		return invalid(func, "expression longer than %d bytes", CRON_MAX_BYTES);
	if ((out->norm = normalise(expr, &nwords)) == NULL)
		return qless__err_nomem(func);
	if (nwords == 0) {
		rc = invalid(func, "empty expression");
	} else if (nwords == 1 && out->norm[0] == '@') {
		char tok[SHOWN_SIZE];
		rc = invalid(func, "unknown macro %s", clip(out->norm, strlen(out->norm), 1, tok));
		for (size_t i = 0; i < sizeof MACROS / sizeof MACROS[0]; i++) {
			if (strcmp(out->norm, MACROS[i].name) == 0) {
				out->macro = 1;
				out->nfields = 5;
				split_fields(out, MACROS[i].expansion, ORDER5, 5);
				return QLESS_OK;
			}
		}
	} else if (nwords != 5 && nwords != 7) {
		rc = invalid(func, "expected 5 or 7 fields, got %d", nwords);
	} else {
		const qless_cron_field *order = nwords == 7 ? ORDER7 : ORDER5;
		out->nfields = nwords;
		split_fields(out, out->norm, order, nwords);
		for (int i = 0; i < nwords; i++) {
			qless_cron_field f = order[i];
			if ((rc = check_field(func, f, out->field[f], out->len[f])) != QLESS_OK)
				break;
		}
		if (rc == QLESS_OK)
			return QLESS_OK;
	}
	qless__cron_free(out);
	return rc;
}

int qless_cron_check(char **out_normalised, const char *expr)
{
	return qless__cron_norm("qless_cron_check", expr, out_normalised);
}

int qless__cron_norm(const char *func, const char *expr, char **out_normalised)
{
	qless_cron c;
	int rc = qless__cron_parse(func, expr, &c);
	if (rc != QLESS_OK)
		return rc;
	if (out_normalised != NULL)
		*out_normalised = c.norm;
	else
		qless__cron_free(&c);
	return QLESS_OK;
}

/* Appends the identity spelling of one item to buf (at least 96 bytes). */
static void item_identity(qless_cron_field field, const qless_cron_item *it, char *buf, size_t size)
{
	/* 7 is Sunday too; written as 0 wherever it stands for one day */
	int64_t a = field == QLESS_CRON_DOW && !it->has_range ? it->a % 7 : it->a;
	size_t n = strlen(buf);
	switch (it->kind) {
	case QLESS_CRON_STAR:
		snprintf(buf + n, size - n, "*");
		break;
	case QLESS_CRON_LAST:
		snprintf(buf + n, size - n, "L");
		break;
	case QLESS_CRON_WLAST:
		snprintf(buf + n, size - n, "%lldL", (long long)a);
		break;
	case QLESS_CRON_NTH:
		snprintf(buf + n, size - n, "%lld#%lld", (long long)a, (long long)it->step);
		return;
	case QLESS_CRON_EVERYNTH:
	case QLESS_CRON_RANGE:
		if (it->has_range)
			snprintf(buf + n, size - n, "%lld-%lld", (long long)a, (long long)it->b);
		else
			snprintf(buf + n, size - n, "%lld", (long long)a);
		break;
	}
	n = strlen(buf);
	if (it->has_step)
		snprintf(buf + n, size - n, "/%lld", (long long)it->step);
}

int qless__cron_identity(const char *func, const char *expr, char **out)
{
	qless_cron c;
	int rc = qless__cron_parse(func, expr, &c);
	if (rc != QLESS_OK)
		return rc;
	const qless_cron_field *order = c.nfields == 7 ? ORDER7 : ORDER5;
	/* each item of the checked text at most grows from "7" to "0" or a
	 * name to up to four digits, and numbers lose leading zeros */
	size_t size = 2 * strlen(c.norm) + 64;
	for (int i = 0; i < c.nfields; i++)
		size += 2 * c.len[order[i]] + 32;
	char *buf = malloc(size);
	if (buf == NULL) {
		qless__cron_free(&c);
		return qless__err_nomem(func);
	}
	buf[0] = '\0';
	for (int i = 0; i < c.nfields; i++) {
		qless_cron_field f = order[i];
		qless_cron_item it;
		if (i > 0)
			strcat(buf, " ");
		for (size_t k = 0; qless__cron_item(f, c.field[f], c.len[f], k, &it) == 0; k++) {
			if (k > 0)
				strcat(buf, ",");
			item_identity(f, &it, buf, size);
		}
	}
	qless__cron_free(&c);
	*out = buf;
	return QLESS_OK;
}

int qless_cron_identity(char **out, const char *expr)
{
	QLESS_CHECK_NULL("qless_cron_identity", out);
	return qless__cron_identity("qless_cron_identity", expr, out);
}
