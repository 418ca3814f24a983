/* /api/jobs/<jid>: the full job and the actions on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "server.h"

static json_t *ok_reply(json_t *v)
{
	if (v == NULL)
		return NULL;
	json_decref(v);
	return json_pack("{s:b}", "ok", 1);
}

/* The job object of `get` (its "data" decoded), or NULL with 404. */
static json_t *get_job(web_req *r)
{
	json_t *job = web_call_json(r, "get", r->seg[0], NULL);
	if (job == NULL)
		return NULL;
	if (!json_is_object(job)) {
		json_decref(job);
		return web_fail(r, 404, "no job %s", r->seg[0]);
	}
	return job;
}

json_t *api_job(web_req *r)
{
	json_t *job = get_job(r);
	if (job == NULL)
		return NULL;
	json_t *data = json_object_get(job, "data");
	if (json_is_string(data)) {
		json_t *parsed = json_loads(json_string_value(data), JSON_DECODE_ANY, NULL);
		if (parsed != NULL)
			json_object_set_new(job, "data", parsed);
	}
	const char *lists[] = { "tags", "dependents", "dependencies", "history" };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		if (!json_is_array(json_object_get(job, lists[i])))
			json_object_set_new(job, lists[i], json_array());
	json_t *failure = json_object_get(job, "failure");
	if (json_is_object(failure) && json_object_size(failure) == 0)
		json_object_set_new(job, "failure", json_null());
	return job;
}

/* Puts the job (as it is) into queue again: retry and move. */
static json_t *requeue(web_req *r, const char *queue)
{
	json_t *job = get_job(r);
	if (job == NULL)
		return NULL;
	const char *klass = json_string_value(json_object_get(job, "klass"));
	const char *data = json_string_value(json_object_get(job, "data"));
	if (queue == NULL)
		queue = json_string_value(json_object_get(job, "queue"));
	if (klass == NULL || queue == NULL || queue[0] == '\0') {
		json_decref(job);
		return web_fail(r, 400, "job %s has no queue to go back to", r->seg[0]);
	}
	char prio[64], retries[32];
	snprintf(prio, sizeof prio, "%.17g", json_number_value(json_object_get(job, "priority")));
	snprintf(retries, sizeof retries, "%lld", (long long)json_integer_value(json_object_get(job, "retries")));
	json_t *tags = json_object_get(job, "tags");
	char *tagtext = json_is_array(tags) ? json_dumps(tags, JSON_COMPACT) : NULL;
	const char *argv[] = { "", queue, r->seg[0], klass, data ? data : "{}", "0", "priority", prio, "tags",
		               tagtext ? tagtext : "[]", "retries", retries };
	char *out = NULL;
	int rc = web_call(&out, r, "requeue", argv, sizeof argv / sizeof argv[0]);
	free(tagtext);
	qless_free(out);
	json_decref(job);
	if (rc != QLESS_OK)
		return NULL;
	return json_pack("{s:b}", "ok", 1);
}

json_t *api_job_retry(web_req *r)
{
	return requeue(r, NULL);
}

json_t *api_job_move(web_req *r)
{
	json_t *body = web_body(r);
	if (body == NULL)
		return NULL;
	const char *queue = json_string_value(json_object_get(body, "queue"));
	json_t *out = (queue == NULL || queue[0] == '\0') ? web_fail(r, 400, "queue must be a non-empty string")
	                                                  : requeue(r, queue);
	json_decref(body);
	return out;
}

json_t *api_job_cancel(web_req *r)
{
	return ok_reply(web_call_json(r, "cancel", r->seg[0], NULL));
}

json_t *api_job_track(web_req *r)
{
	return ok_reply(web_call_json(r, "track", "track", r->seg[0], NULL));
}

json_t *api_job_untrack(web_req *r)
{
	return ok_reply(web_call_json(r, "track", "untrack", r->seg[0], NULL));
}

json_t *api_job_timeout(web_req *r)
{
	return ok_reply(web_call_json(r, "timeout", r->seg[0], NULL));
}

json_t *api_job_priority(web_req *r)
{
	json_t *body = web_body(r);
	if (body == NULL)
		return NULL;
	json_t *p = json_object_get(body, "priority");
	if (!json_is_number(p)) {
		json_decref(body);
		return web_fail(r, 400, "priority must be a number");
	}
	char num[64];
	snprintf(num, sizeof num, "%.17g", json_number_value(p));
	json_decref(body);
	return ok_reply(web_call_json(r, "priority", r->seg[0], num, NULL));
}

/* The strings of list (a JSON array of non-empty strings, at most 100), or -1. */
static int strings(const char **out, size_t *n, json_t *list)
{
	*n = 0;
	if (list == NULL)
		return 0;
	if (!json_is_array(list) || json_array_size(list) > 100)
		return -1;
	size_t i;
	json_t *v;
	json_array_foreach(list, i, v) {
		if (!json_is_string(v) || json_string_length(v) == 0)
			return -1;
		out[(*n)++] = json_string_value(v);
	}
	return 0;
}

json_t *api_job_tags(web_req *r)
{
	json_t *body = web_body(r);
	if (body == NULL)
		return NULL;
	const char *add[102], *rem[102];
	size_t nadd, nrem;
	if (strings(add + 2, &nadd, json_object_get(body, "add")) != 0 ||
	    strings(rem + 2, &nrem, json_object_get(body, "remove")) != 0) {
		json_decref(body);
		return web_fail(r, 400, "add and remove must be lists of at most 100 non-empty strings");
	}
	char *out = NULL;
	int rc = QLESS_OK;
	add[0] = rem[0] = r->seg[0];
	if (nadd > 0) {
		add[0] = "add";
		add[1] = r->seg[0];
		rc = web_call(&out, r, "tag", add, nadd + 2);
		qless_free(out);
		out = NULL;
	}
	if (rc == QLESS_OK && nrem > 0) {
		rem[0] = "remove";
		rem[1] = r->seg[0];
		rc = web_call(&out, r, "tag", rem, nrem + 2);
		qless_free(out);
	}
	json_decref(body);
	if (rc != QLESS_OK)
		return NULL;
	return json_pack("{s:b}", "ok", 1);
}
