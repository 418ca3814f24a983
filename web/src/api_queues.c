/* /api/session, /api/overview and the queues' endpoints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "server.h"

json_t *api_session(web_req *r)
{
	return json_pack("{s:s, s:s, s:s, s:b}", "csrf", r->csrf ? r->csrf : "", "user", r->user ? r->user : "",
	                 "role", r->role ? r->role : "read", "read_only", r->srv->read_only);
}

/* The queues' counts with each one's max_concurrency (two calls). */
static json_t *queue_items(web_req *r)
{
	json_t *queues = web_call_json(r, "queues", NULL);
	if (queues == NULL)
		return NULL;
	json_t *config = web_call_json(r, "config.get", NULL);
	if (config == NULL) {
		json_decref(queues);
		return NULL;
	}
	json_t *items = json_array();
	size_t i;
	json_t *q;
	json_array_foreach(queues, i, q) {
		const char *name = json_string_value(json_object_get(q, "name"));
		char key[600];
		snprintf(key, sizeof key, "%s-max-concurrency", name ? name : "");
		json_t *cap = json_object_get(config, key);
		long long max = json_is_string(cap) ? atoll(json_string_value(cap)) : json_is_integer(cap) ? json_integer_value(cap) : 0;
		json_t *item = json_copy(q);
		json_object_set_new(item, "max_concurrency", json_integer(max));
		json_array_append_new(items, item);
	}
	json_decref(queues);
	json_decref(config);
	return items;
}

json_t *api_queues(web_req *r)
{
	json_t *items = queue_items(r);
	if (items == NULL)
		return NULL;
	size_t n = json_array_size(items);
	return web_list(json_integer((json_int_t)n), 0, (int64_t)n, items, NULL);
}

static json_t *count_of(json_t *v)
{
	if (json_is_object(v))
		return json_integer((json_int_t)json_object_size(v));
	if (json_is_array(v))
		return json_integer((json_int_t)json_array_size(v));
	return json_integer(0);
}

json_t *api_overview(web_req *r)
{
	json_t *items = queue_items(r);
	if (items == NULL)
		return NULL;
	json_t *groups = web_call_json(r, "failed", NULL);
	json_t *workers = groups ? web_call_json(r, "workers", NULL) : NULL;
	json_t *tracked = workers ? web_call_json(r, "tracked.page", "0", "0", NULL) : NULL;
	if (tracked == NULL) {
		json_decref(items);
		json_decref(groups);
		json_decref(workers);
		return NULL;
	}
	json_int_t failed = 0, schedules = 0;
	const char *k;
	json_t *v;
	json_object_foreach(groups, k, v) failed += json_integer_value(v);
	size_t i;
	json_array_foreach(items, i, v) {
		/* A schedule is a queue with templates or scheduled jobs (schedules.md). */
		if (json_integer_value(json_object_get(v, "recurring")) + json_integer_value(json_object_get(v, "scheduled")) > 0)
			schedules++;
	}
	json_t *out = json_pack("{s:o, s:I, s:o, s:O, s:I}", "queues", items, "failed", failed, "workers",
	                        count_of(workers), "tracked", json_object_get(tracked, "total"), "schedules",
	                        schedules);
	json_decref(groups);
	json_decref(workers);
	json_decref(tracked);
	return out;
}

json_t *api_queue(web_req *r)
{
	const char *q = r->seg[0];
	char date[11];
	const char *d = web_param(r, "date");
	if (r->status)
		return NULL;
	if (d == NULL) {
		web_today(date, r);
		d = date;
	} else {
		int y, m, dd;
		char rest;
		if (sscanf(d, "%4d-%2d-%2d%c", &y, &m, &dd, &rest) != 3 || strlen(d) != 10 || y < 1970 || m < 1 ||
		    m > 12 || dd < 1 || dd > 31)
			return web_fail(r, 400, "parameter date must be YYYY-MM-DD: '%.40s'", d);
	}
	/* stats takes a time within the day (UTC). */
	struct tm tm = { 0 };
	sscanf(d, "%4d-%2d-%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	char day[32];
	snprintf(day, sizeof day, "%lld", (long long)timegm(&tm) + 43200);
	json_t *counts = web_call_json(r, "queues", q, NULL);
	if (counts == NULL)
		return NULL;
	json_t *stats = web_call_json(r, "stats", q, day, NULL);
	if (stats == NULL) {
		json_decref(counts);
		return NULL;
	}
	char *cap = NULL;
	char key[600];
	snprintf(key, sizeof key, "%s-max-concurrency", q);
	const char *argv[] = { key };
	if (web_call(&cap, r, "config.get", argv, 1) != QLESS_OK) {
		json_decref(counts);
		json_decref(stats);
		return NULL;
	}
	json_object_set_new(counts, "max_concurrency", json_integer(cap ? atoll(cap) : 0));
	qless_free(cap);
	json_object_set_new(counts, "date", json_string(d));
	json_object_set_new(counts, "stats", stats);
	return counts;
}

static json_t *done(void)
{
	return json_pack("{s:b}", "ok", 1);
}

/* `command <queue>` on the request's queue; {"ok": true} once it ran. */
static json_t *queue_action(web_req *r, const char *command)
{
	json_t *v = web_call_json(r, command, r->seg[0], NULL);
	if (v == NULL)
		return NULL;
	json_decref(v);
	return done();
}

json_t *api_queue_pause(web_req *r)
{
	return queue_action(r, "pause");
}

json_t *api_queue_unpause(web_req *r)
{
	return queue_action(r, "unpause");
}

json_t *api_queue_max_concurrency(web_req *r)
{
	json_t *body = web_body(r);
	if (body == NULL)
		return NULL;
	json_t *value = json_object_get(body, "value");
	if (!json_is_integer(value) || json_integer_value(value) < 0 || json_integer_value(value) > 1000000) {
		json_decref(body);
		return web_fail(r, 400, "value must be a whole number from 0 (no cap) to 1000000");
	}
	char key[600], num[32];
	snprintf(key, sizeof key, "%s-max-concurrency", r->seg[0]);
	snprintf(num, sizeof num, "%lld", (long long)json_integer_value(value));
	json_decref(body);
	json_t *v = strcmp(num, "0") == 0 ? web_call_json(r, "config.unset", key, NULL)
	                                  : web_call_json(r, "config.set", key, num, NULL);
	if (v == NULL)
		return NULL;
	json_decref(v);
	return done();
}

static const char *const STATES[] = { "waiting", "running", "scheduled", "stalled", "depends", "recurring",
	                              "suspended", "terminating", "terminated", NULL };

json_t *api_queue_jobs(web_req *r)
{
	web_window w;
	if (web_window_read(&w, r) != 0)
		return NULL;
	const char *state = web_param(r, "state");
	if (r->status)
		return NULL;
	if (state == NULL)
		state = "waiting";
	int ok = 0;
	for (int i = 0; STATES[i]; i++)
		ok |= strcmp(STATES[i], state) == 0;
	if (!ok)
		return web_fail(r, 400, "parameter state must be waiting, running, scheduled, stalled, depends, "
		                "recurring, suspended, terminating or terminated: '%.40s'", state);
	json_t *page = web_call_json(r, "jobs.page", state, r->seg[0], w.o, w.l, NULL);
	if (page == NULL)
		return NULL;
	if (strcmp(state, "recurring") == 0) {
		json_t *jobs = json_object_get(page, "jobs");
		json_t *items = json_is_array(jobs) ? json_incref(jobs) : json_array();
		json_t *out = web_list(json_incref(json_object_get(page, "total")), w.offset, w.limit, items, NULL);
		json_decref(page);
		return out;
	}
	return web_page_reply(page, w.offset, w.limit);
}
