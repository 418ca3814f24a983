/*
 * What every handler shares: failing with a status and a message, counted
 * protocol calls, query parameters and the list reply of the contract.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "server.h"

json_t *web_fail(web_req *r, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof r->error, fmt, ap);
	va_end(ap);
	r->status = status;
	return NULL;
}

json_t *web_lib_fail(web_req *r, int code)
{
	int status = 500;
	if (code == QLESS_ENOTFOUND)
		status = 404;
	else if (code == QLESS_EINVAL || code == QLESS_ESTATE)
		status = 400;
	const char *msg = qless_error_last_message();
	return web_fail(r, status, "%s", msg[0] ? msg : qless_error_name(code));
}

int web_call(char **out, web_req *r, const char *command, const char *const *argv, size_t argc)
{
	r->calls++;
	int rc = qless_client_call(out, r->client, command, argv, argc);
	if (rc != QLESS_OK)
		web_lib_fail(r, rc);
	return rc;
}

json_t *web_call_json(web_req *r, const char *command, ...)
{
	const char *argv[16];
	size_t argc = 0;
	va_list ap;
	va_start(ap, command);
	for (const char *a = va_arg(ap, const char *); a != NULL && argc < 16; a = va_arg(ap, const char *))
		argv[argc++] = a;
	va_end(ap);
	char *text = NULL;
	if (web_call(&text, r, command, argv, argc) != QLESS_OK)
		return NULL;
	if (text == NULL)
		return json_null();
	json_error_t e;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &e);
	if (v == NULL)
		v = json_string(text);   /* a bare string reply */
	qless_free(text);
	if (v == NULL)
		return web_fail(r, 500, "%s: reply is neither JSON nor UTF-8 text", command);
	return v;
}

int web_unescape(char *s, int plus)
{
	char *w = s;
	for (const char *p = s; *p; p++) {
		if (*p == '+' && plus) {
			*w++ = ' ';
		} else if (*p == '%') {
			int hi, lo;
			char h = p[1], l = h ? p[2] : 0;
			hi = (h >= '0' && h <= '9') ? h - '0' : (h >= 'a' && h <= 'f') ? h - 'a' + 10 : (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
			lo = (l >= '0' && l <= '9') ? l - '0' : (l >= 'a' && l <= 'f') ? l - 'a' + 10 : (l >= 'A' && l <= 'F') ? l - 'A' + 10 : -1;
			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
				return -1;
			*w++ = (char)(hi * 16 + lo);
			p += 2;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	return 0;
}

const char *web_param(web_req *r, const char *name)
{
	const char *raw = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name);
	if (raw == NULL)
		return NULL;
	char *copy = strdup(raw);
	if (copy == NULL)
		return NULL;
	json_t *s = NULL;
	if (web_unescape(copy, 1) == 0)
		s = json_string(copy);   /* NULL unless UTF-8 */
	free(copy);
	if (s == NULL) {
		web_fail(r, 400, "parameter %s is not UTF-8 text", name);
		return "";
	}
	if (r->keep == NULL)
		r->keep = json_array();
	json_array_append_new(r->keep, s);
	return json_string_value(s);
}

int web_param_int(int64_t *out, web_req *r, const char *name, int64_t def, int64_t lo, int64_t hi)
{
	const char *s = web_param(r, name);
	if (r->status)
		return -1;
	if (s == NULL) {
		*out = def;
		return 0;
	}
	char *end = NULL;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (s[0] == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi) {
		web_fail(r, 400, "parameter %s must be a whole number from %lld to %lld: '%.40s'", name,
		         (long long)lo, (long long)hi, s);
		return -1;
	}
	*out = v;
	return 0;
}

int web_page(int64_t *offset, int64_t *limit, web_req *r)
{
	if (web_param_int(offset, r, "offset", 0, 0, 1000000000) != 0)
		return -1;
	return web_param_int(limit, r, "limit", 25, 1, 500);
}

int web_window_read(web_window *w, web_req *r)
{
	if (web_page(&w->offset, &w->limit, r) != 0)
		return -1;
	snprintf(w->o, sizeof w->o, "%lld", (long long)w->offset);
	snprintf(w->l, sizeof w->l, "%lld", (long long)w->limit);
	return 0;
}

json_t *web_body(web_req *r)
{
	if (r->body == NULL || r->body_len == 0)
		return json_object();
	json_error_t e;
	json_t *v = json_loadb(r->body, r->body_len, 0, &e);
	if (v == NULL || !json_is_object(v)) {
		json_decref(v);
		return web_fail(r, 400, "the request body must be a JSON object (%s)", v ? "not an object" : e.text);
	}
	return v;
}

json_t *web_list(json_t *total, int64_t offset, int64_t limit, json_t *items, json_t *next)
{
	return json_pack("{s:o, s:I, s:I, s:o, s:o}", "total", total ? total : json_null(), "offset",
	                 (json_int_t)offset, "limit", (json_int_t)limit, "items", items ? items : json_array(),
	                 "next", next ? next : json_null());
}

void web_today(char out[11], web_req *r)
{
	time_t t = (time_t)qless_client_now(r->client);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 11, "%Y-%m-%d", &tm);
}
