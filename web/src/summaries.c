/* Job summaries as the API gives them (the protocol's pages hand them over;
 * this only evens out Lua's empty-table encoding). */
#include <stdio.h>
#include <stdlib.h>
#include "server.h"

/* An empty Lua table comes back as {}: lists must be []. */
static json_t *as_list(json_t *v)
{
	if (json_is_array(v))
		return json_incref(v);
	return json_array();
}


json_t *web_summaries_fix(json_t *jobs)
{
	json_t *out = json_array();
	if (!json_is_array(jobs))
		return out;
	size_t i;
	json_t *job;
	json_array_foreach(jobs, i, job) {
		if (!json_is_object(job))
			continue;
		json_t *copy = json_copy(job);
		json_object_set_new(copy, "tags", as_list(json_object_get(job, "tags")));
		if (json_object_get(copy, "failure") == NULL)
			json_object_set_new(copy, "failure", json_null());
		json_array_append_new(out, copy);
	}
	return out;
}

json_t *web_summaries(web_req *r, json_t *jids)
{
	size_t n = json_array_size(jids);
	if (n == 0)
		return json_array();
	const char **argv = calloc(n, sizeof *argv);
	if (argv == NULL)
		return web_fail(r, 500, "out of memory");
	for (size_t i = 0; i < n; i++)
		argv[i] = json_string_value(json_array_get(jids, i)) ? json_string_value(json_array_get(jids, i)) : "";
	char *text = NULL;
	int rc = web_call(&text, r, "jobs.summaries", argv, n);
	free(argv);
	if (rc != QLESS_OK)
		return NULL;
	json_t *v = text ? json_loads(text, 0, NULL) : NULL;
	qless_free(text);
	json_t *out = web_summaries_fix(v);
	json_decref(v);
	return out;
}

/* A {total, jobs} page reply of the protocol as the API's list. */

json_t *web_page_reply(json_t *page, int64_t offset, int64_t limit)
{
	json_t *total = json_object_get(page, "total");
	json_t *items = web_summaries_fix(json_object_get(page, "jobs"));
	int64_t t = json_is_integer(total) ? json_integer_value(total) : -1;
	json_t *next = NULL;
	if (t >= 0 && offset + (int64_t)json_array_size(items) < t && json_array_size(items) > 0) {
		char buf[32];
		snprintf(buf, sizeof buf, "%lld", (long long)(offset + limit));
		next = json_string(buf);
	}
	json_t *out = web_list(json_is_integer(total) ? json_incref(total) : NULL, offset, limit, items, next);
	json_decref(page);
	return out;
}

json_t *web_page_of(web_req *r, const char *command, const char *arg)
{
	web_window w;
	if (web_window_read(&w, r) != 0)
		return NULL;
	json_t *page = arg ? web_call_json(r, command, arg, w.o, w.l, NULL) : web_call_json(r, command, w.o, w.l, NULL);
	if (page == NULL)
		return NULL;
	return web_page_reply(page, w.offset, w.limit);
}
