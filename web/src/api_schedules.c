/* /api/recurring and /api/schedules: templates with their next fire times
 * and English descriptions, and each schedule's (queue's) entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "server.h"

/* "every 5 minutes" / the cron's English (qless_cron_describe). */
static json_t *describe(json_t *entry)
{
	const char *cron = json_string_value(json_object_get(entry, "cron"));
	if (cron != NULL) {
		char *text = NULL;
		if (qless_cron_describe(&text, cron) == QLESS_OK && text != NULL) {
			json_t *s = json_string(text);
			qless_free(text);
			return s;
		}
		return json_sprintf("cron %s", cron);
	}
	double every = json_number_value(json_object_get(entry, "interval"));
	static const struct { double secs; const char *unit; } units[] = {
		{ 86400, "day" }, { 3600, "hour" }, { 60, "minute" }, { 1, "second" } };
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (every >= units[i].secs && (long long)every % (long long)units[i].secs == 0) {
			long long n = (long long)(every / units[i].secs);
			return n == 1 ? json_sprintf("every %s", units[i].unit) : json_sprintf("every %lld %ss", n, units[i].unit);
		}
	}
	return json_sprintf("every %g seconds", every);
}

json_t *api_recurring(web_req *r)
{
	int64_t offset, limit;
	if (web_page(&offset, &limit, r) != 0)
		return NULL;
	const char *queue = web_param(r, "queue");
	if (r->status)
		return NULL;
	json_t *queues = NULL;
	if (queue == NULL) {
		queues = web_call_json(r, "queues", NULL);
		if (queues == NULL)
			return NULL;
	} else {
		queues = json_pack("[{s:s, s:i}]", "name", queue, "recurring", 1);
	}
	/* Walks the queues that have templates, skipping offset templates by
	 * their counts, then pages the templates of as few queues as needed. */
	json_t *items = json_array();
	json_int_t total = 0, skip = offset;
	size_t i;
	json_t *q;
	json_array_foreach(queues, i, q) {
		json_int_t n = json_integer_value(json_object_get(q, "recurring"));
		total += n;
		if (n == 0 || (int64_t)json_array_size(items) >= limit)
			continue;
		if (skip >= n && queue == NULL) {
			skip -= n;
			continue;
		}
		char o[32], l[32];
		snprintf(o, sizeof o, "%lld", (long long)skip);
		snprintf(l, sizeof l, "%lld", (long long)(limit - (int64_t)json_array_size(items)));
		skip = 0;
		json_t *page = web_call_json(r, "jobs.page", "recurring", json_string_value(json_object_get(q, "name")), o, l, NULL);
		if (page == NULL) {
			json_decref(items);
			json_decref(queues);
			return NULL;
		}
		size_t k;
		json_t *t;
		json_t *jobs = json_object_get(page, "jobs");
		if (json_is_array(jobs))
			json_array_foreach(jobs, k, t) {
				json_t *item = json_copy(t);
				json_object_set_new(item, "description", describe(t));
				json_array_append_new(items, item);
			}
		json_decref(page);
	}
	json_decref(queues);
	return web_list(queue ? NULL : json_integer(total), offset, limit, items, NULL);
}

json_t *api_schedules(web_req *r)
{
	json_t *list = web_call_json(r, "schedules.list", NULL);
	if (list == NULL)
		return NULL;
	if (!json_is_array(list)) {
		json_decref(list);
		list = json_array();
	}
	size_t n = json_array_size(list);
	return web_list(json_integer((json_int_t)n), 0, (int64_t)n, list, NULL);
}

json_t *api_schedule(web_req *r)
{
	web_window w;
	if (web_window_read(&w, r) != 0)
		return NULL;
	json_t *list = web_call_json(r, "schedule.list", r->seg[0], w.o, w.l, NULL);
	if (list == NULL)
		return NULL;
	json_t *items = json_array();
	size_t i;
	json_t *e;
	if (json_is_array(list))
		json_array_foreach(list, i, e) {
			json_t *item = json_copy(e);
			const char *kind = json_string_value(json_object_get(e, "kind"));
			json_object_set_new(item, "id", json_incref(json_object_get(e, "jid")));
			json_object_set_new(item, "when", json_incref(json_object_get(e, "next")));
			json_object_set_new(item, "next_run", json_incref(json_object_get(e, "next")));
			json_object_set_new(item, "unique_jid", json_incref(json_object_get(e, "jid")));
			json_object_set_new(item, "description", kind && strcmp(kind, "at") == 0 ? json_string("once") : describe(e));
			json_array_append_new(items, item);
		}
	json_decref(list);
	return web_list(NULL, w.offset, w.limit, items, NULL);
}
