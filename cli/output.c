/*
 * Reporting: one-line errors on stderr, the connection, and the JSON
 * output helpers behind --json.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void vreport(cli *c, const char *fmt, va_list ap)
{
	fprintf(stderr, "qless: %s: ", c->cmd);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_usage_error(cli *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(c, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int cli_error(cli *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(c, fmt, ap);
	va_end(ap);
	return EXIT_RUNTIME;
}

int cli_lib_error(cli *c)
{
	const char *msg = qless_error_last_message();
	/* Drop the "qless_function_name: " prefix: the reader ran a command,
	 * not a C function. */
	if (strncmp(msg, "qless_", 6) == 0) {
		const char *p = msg;
		while (*p && (islower((unsigned char)*p) || *p == '_' || isdigit((unsigned char)*p)))
			p++;
		if (p[0] == ':' && p[1] == ' ')
			msg = p + 2;
	}
	if (strncmp(msg, "qless: ", 7) == 0)
		msg += 7;
	if (*msg == '\0')
		msg = qless_error_name(qless_error_last_code());
	/* One line, whatever the server said. */
	fprintf(stderr, "qless: %s: ", c->cmd);
	for (const char *p = msg; *p; p++)
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, stderr);
	fputc('\n', stderr);
	/* An argument the library (or the script, before writing anything)
	 * refused is the user's to fix, like a flag this program refused. */
	return qless_error_last_code() == QLESS_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}

int cli_connect(cli *c)
{
	if (c->client != NULL)
		return 0;
	qless_client_options opts = QLESS_CLIENT_OPTIONS_INIT;
	opts.worker_name = c->worker;
	opts.namespace_name = c->ns;
	opts.connect_timeout_ms = 3000;
	if (qless_client_new(&c->client, c->url, &opts) != QLESS_OK) {
		c->client = NULL;
		return cli_lib_error(c);
	}
	return 0;
}

void json_print(json_t *value)
{
	char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
	if (text != NULL) {
		puts(text);
		free(text);
	}
	json_decref(value);
}

json_t *json_parse(const char *text)
{
	if (text == NULL)
		return json_null();
	json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
	return v != NULL ? v : json_string(text);
}

json_t *json_strlist(const qless_strlist *list)
{
	json_t *a = json_array();
	for (size_t i = 0; list != NULL && i < qless_strlist_size(list); i++)
		json_array_append_new(a, json_string(qless_strlist_get(list, i)));
	return a;
}

json_t *json_strlist_counts(const qless_strlist *list)
{
	json_t *o = json_object();
	for (size_t i = 0; list != NULL && i < qless_strlist_size(list); i++)
		json_object_set_new(o, qless_strlist_get(list, i), json_integer(qless_strlist_number(list, i)));
	return o;
}

json_t *json_joblist(const qless_joblist *list)
{
	json_t *a = json_array();
	for (size_t i = 0; list != NULL && i < qless_joblist_size(list); i++)
		json_array_append_new(a, json_parse(qless_job_json(qless_joblist_get(list, i))));
	return a;
}

const char *or_dash(const char *s)
{
	return s == NULL || *s == '\0' ? "-" : s;
}

void print_json_items(const char *array)
{
	const char *p = array;
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	if (*p != '[') {
		puts(array);
		return;
	}
	p++;
	/* Split at the commas outside strings and nested values, so each
	 * value prints as the server stored it. */
	const char *start = p;
	int depth = 0, in_string = 0;
	for (; *p != '\0'; p++) {
		if (in_string) {
			if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == '"')
				in_string = 0;
			continue;
		}
		if (*p == '"') {
			in_string = 1;
		} else if (*p == '[' || *p == '{') {
			depth++;
		} else if ((*p == ',' || *p == ']') && depth == 0) {
			const char *s = start, *e = p;
			while (s < e && (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r'))
				s++;
			while (e > s && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\t' || e[-1] == '\r'))
				e--;
			if (e > s)
				printf("%.*s\n", (int)(e - s), s);
			if (*p == ']')
				return;
			start = p + 1;
		} else if (*p == ']' || *p == '}') {
			depth--;
		}
	}
}

int print_count(cli *c, const char *jid, const char *key, int64_t n)
{
	if (c->json && jid != NULL)
		json_print(json_pack("{s:s,s:I}", "jid", jid, key, (json_int_t)n));
	else if (c->json)
		json_print(json_pack("{s:I}", key, (json_int_t)n));
	else
		printf("%lld\n", (long long)n);
	return 0;
}

void print_object_table(const char *object, const char *key_header, const char *value_header)
{
	const char *const headers[] = { key_header, value_header, NULL };
	json_t *all = json_parse(object), *value;
	const char *key;
	table *t = table_new(headers);
	json_object_foreach(all, key, value) {
		char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
		table_row(t, key, text != NULL ? text : "?");
		free(text);
	}
	table_print(t);
	json_decref(all);
}
