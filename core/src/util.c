/* Memory, text, JSON and number helpers, and the argument checks built on
 * them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "qless/qless.h"
#include "errors.h"
#include "util.h"

void qless_free(void *ptr)
{
	free(ptr);
}

char *qless__strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d == NULL)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *qless__strdup(const char *s)
{
	return qless__strndup(s, strlen(s));
}

char *qless__strdup_or_null(const char *s, int *oom)
{
	char *d;
	if (s == NULL)
		return NULL;
	if ((d = qless__strdup(s)) == NULL)
		*oom = 1;
	return d;
}

/* Deepest nesting of arrays and objects in JSON text (strings skipped). */
static size_t json_depth(const char *p)
{
	size_t depth = 0, max = 0;
	int in_str = 0;
	for (; *p; p++) {
		if (in_str) {
			if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == '"')
				in_str = 0;
		} else if (*p == '"') {
			in_str = 1;
		} else if (*p == '[' || *p == '{') {
			if (++depth > max)
				max = depth;
		} else if ((*p == ']' || *p == '}') && depth > 0) {
			depth--;
		}
	}
	return max;
}

int qless__check_json(const char *func, const char *arg, const char *text)
{
	json_error_t jerr;
	json_t *v;
	if (text[0] == '{' && text[1] == '}' && text[2] == '\0')
		return QLESS_OK;
	/* The script's JSON decoder refuses deeper text: say so here, before
	 * anything is sent (jansson alone would accept it). */
	if (json_depth(text) > QLESS_JSON_MAX_DEPTH)
		return qless__err(QLESS_EINVAL, "%s: %s is nested deeper than %d levels", func, arg,
		                  QLESS_JSON_MAX_DEPTH);
	v = json_loads(text, JSON_DECODE_ANY, &jerr);
	if (v == NULL)
		return qless__err(QLESS_EINVAL, "%s: %s is not valid JSON: %s", func, arg, jerr.text);
	json_decref(v);
	return QLESS_OK;
}

int qless__check_finite(const char *func, const char *arg, double v)
{
	if (!qless__finite(v))
		return qless__err(QLESS_EINVAL, "%s: %s is not finite", func, arg);
	return QLESS_OK;
}

int qless__utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p++;
		unsigned min, cp;
		int more;
		if (c < 0x80)
			continue;
		if (c >= 0xc2 && c <= 0xdf)
			more = 1, min = 0x80, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			more = 2, min = 0x800, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			more = 3, min = 0x10000, cp = c & 0x07;
		else
			return 0; /* a continuation byte first, an overlong lead (c0, c1) or beyond U+10FFFF */
		while (more-- > 0) {
			if ((*p & 0xc0) != 0x80)
				return 0; /* also the terminating NUL: a sequence cut short */
			cp = (cp << 6) | (*p++ & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0; /* overlong, too large, or a UTF-16 surrogate */
	}
	return 1;
}

int qless__check_failure(const char *func, const char *group, const char *message, int optional)
{
	if (optional && (group == NULL) != (message == NULL))
		return qless__err(QLESS_EINVAL, "%s: give both group and message, or neither", func);
	if (optional && group == NULL)
		return QLESS_OK;
	if (group == NULL)
		return qless__err_null(func, "group");
	if (group[0] == '\0')
		return qless__err_empty(func, "group");
	if (message == NULL)
		return qless__err_null(func, "message");
	return QLESS_OK;
}

int qless__check_strv(const char *func, const char *arg, const char *const *strs, size_t n, int nonempty)
{
	size_t i;
	if (n > 0 && strs == NULL)
		return qless__err(QLESS_EINVAL, "%s: %s is NULL", func, arg);
	for (i = 0; i < n; i++) {
		if (strs[i] == NULL)
			return qless__err(QLESS_EINVAL, "%s: %s[%zu] is NULL", func, arg, i);
		if (nonempty && strs[i][0] == '\0')
			return qless__err(QLESS_EINVAL, "%s: %s[%zu] is empty", func, arg, i);
		if (!qless__utf8_valid(strs[i]))
			return qless__err(QLESS_EINVAL, "%s: %s[%zu] is not valid UTF-8 text", func, arg, i);
	}
	return QLESS_OK;
}

char *qless__json_strv(const char *const *strs, size_t n)
{
	json_t *arr = json_array();
	char *text;
	size_t i;
	if (arr == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (json_array_append_new(arr, json_string(strs[i])) != 0) {
			json_decref(arr);
			return NULL;
		}
	}
	text = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	return text;
}

double qless__jnum(const json_t *v)
{
	if (json_is_integer(v))
		return (double)json_integer_value(v);
	if (json_is_real(v))
		return json_real_value(v);
	return 0;
}

int64_t qless__jint(const json_t *v)
{
	if (json_is_integer(v))
		return (int64_t)json_integer_value(v);
	if (json_is_real(v)) {
		double d = json_real_value(v);
		if (d != d || d > 9.2e18 || d < -9.2e18)
			return 0;
		return (int64_t)d;
	}
	return 0;
}

int qless__finite(double v)
{
	return isfinite(v);
}

void qless__fmt_num(char *buf, size_t size, double v)
{
	if (v > -1e15 && v < 1e15 && v == (double)(long long)v)
		snprintf(buf, size, "%lld", (long long)v);
	else
		snprintf(buf, size, "%.17g", v);
}
