/*
 * Checking arguments before anything is sent: integers, numbers,
 * durations, JSON text, comma-separated lists.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int arg_int(cli *c, const char *what, const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	/* Out of range is a usage error, never a number cut to fit. */
	if (*s == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi)
		return cli_usage_error(c, "%s must be an integer from %lld to %lld, not '%s'", what, (long long)lo,
		                       (long long)hi, s);
	*out = v;
	return 0;
}

int arg_number(cli *c, const char *what, const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || !isfinite(v))
		return cli_usage_error(c, "%s must be a number, not '%s'", what, s);
	*out = v;
	return 0;
}

int arg_words(cli *c, const char *what, char *const *words, int n)
{
	for (int i = 0; i < n; i++)
		if (words[i][0] == '\0')
			return n == 1 ? cli_usage_error(c, "%s is empty", what)
			              : cli_usage_error(c, "%s %d of %d is empty", what, i + 1, n);
	return 0;
}

int arg_duration(cli *c, const char *what, const char *s, double *out)
{
	if (duration_parse(s, out) != 0)
		return cli_usage_error(c, "bad duration '%s' for %s (use 30s, 5m, 2h, 1d or seconds)", s, what);
	return 0;
}

/* The server's JSON decoder refuses deeper values (libqless checks the
 * same before sending); jansson alone accepts up to 2048 levels, which
 * also bounds this recursion. */
#define JSON_MAX_DEPTH 1000

static int json_too_deep(json_t *v, int depth)
{
	size_t i;
	const char *key;
	json_t *item;
	if (!json_is_array(v) && !json_is_object(v))
		return 0;
	if (depth > JSON_MAX_DEPTH)
		return 1;
	if (json_is_array(v)) {
		json_array_foreach(v, i, item)
			if (json_too_deep(item, depth + 1))
				return 1;
		return 0;
	}
	json_object_foreach(v, key, item)
		if (json_too_deep(item, depth + 1))
			return 1;
	return 0;
}

int arg_json(cli *c, const char *what, const char *s)
{
	json_error_t err;
	json_t *v = json_loads(s, JSON_DECODE_ANY, &err);
	if (v == NULL)
		return cli_usage_error(c, "%s is not valid JSON: %s", what, err.text);
	int deep = json_too_deep(v, 1);
	json_decref(v);
	if (deep)
		return cli_usage_error(c, "%s is nested deeper than %d levels", what, JSON_MAX_DEPTH);
	return 0;
}

int arg_json_object(cli *c, const char *what, const char *s)
{
	json_t *v = json_loads(s, JSON_DECODE_ANY, NULL);
	int ok = json_is_object(v);
	json_decref(v);
	if (!ok && arg_json(c, what, s) == 0)
		return cli_usage_error(c, "%s is not a JSON object", what);
	return ok ? 0 : EXIT_USAGE;
}

char **split_list(const char *s, size_t *n)
{
	size_t cap = 1;
	for (const char *p = s; *p; p++)
		cap += *p == ',';
	char **list = calloc(cap + 2, sizeof *list);
	char *copy = strdup(s);
	if (list == NULL || copy == NULL)
		abort();
	list[0] = copy;              /* the storage, freed by free_list */
	size_t k = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		list[1 + k++] = tok;
	*n = k;
	return list + 1;
}

void free_list(char **list)
{
	if (list == NULL)
		return;
	free(list[-1]);
	free(list - 1);
}

int arg_channel(cli *c, const char *what, const char *s)
{
	size_t len = strlen(s);
	int ok = len > 0 && len <= 500 && s[0] == '/' && (len == 1 || s[len - 1] != '/');
	for (size_t i = 1; ok && i < len; i++) {
		unsigned char b = (unsigned char)s[i];
		/* A segment is at least one byte: no "//". */
		ok = b > ' ' && b != 0x7f && !(b == '/' && s[i - 1] == '/');
	}
	if (!ok)
		return cli_usage_error(c, "%s '%.64s' is not a channel (/ or /a/b: segments without spaces, at most 500 bytes)",
		                       what, s);
	return 0;
}

int arg_dir(cli *c, const char *s, qless_port_dir *out)
{
	if (strcmp(s, "in") != 0 && strcmp(s, "out") != 0)
		return cli_usage_error(c, "the direction must be in or out, not '%.64s'", s);
	*out = strcmp(s, "in") == 0 ? QLESS_PORT_IN : QLESS_PORT_OUT;
	return 0;
}
