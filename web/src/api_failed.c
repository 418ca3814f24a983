/* /api/failed: failure groups, their jobs, retry-all and cancel-all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "server.h"

/* Jobs one retry-all or cancel-all request moves at most (then the page
 * asks again: each request stays bounded whatever the group's size). */
#define BULK_CALLS 10
#define BULK_BATCH "500"

static int by_count(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "count"));
	json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "count"));
	return x < y ? 1 : x > y ? -1 : 0;
}

json_t *api_failed(web_req *r)
{
	json_t *groups = web_call_json(r, "failed", NULL);
	if (groups == NULL)
		return NULL;
	size_t n = json_is_object(groups) ? json_object_size(groups) : 0;
	json_t **rows = calloc(n + 1, sizeof *rows);
	size_t k = 0;
	const char *name;
	json_t *count;
	if (json_is_object(groups))
		json_object_foreach(groups, name, count) rows[k++] = json_pack("{s:s, s:O}", "group", name, "count", count);
	qsort(rows, k, sizeof *rows, by_count);
	json_t *list = json_array();
	json_int_t total = 0;
	for (size_t i = 0; i < k; i++) {
		total += json_integer_value(json_object_get(rows[i], "count"));
		json_array_append_new(list, rows[i]);
	}
	free(rows);
	json_decref(groups);
	return json_pack("{s:o, s:I}", "groups", list, "total", total);
}

json_t *api_failed_group(web_req *r)
{
	return web_page_of(r, "failed.page", r->seg[0]);
}

static json_t *bulk(web_req *r, const char *command)
{
	json_int_t done = 0;
	for (int i = 0; i < BULK_CALLS; i++) {
		json_t *n = web_call_json(r, command, r->seg[0], BULK_BATCH, NULL);
		if (n == NULL)
			return NULL;
		json_int_t got = json_integer_value(n);
		json_decref(n);
		done += got;
		if (got < atoi(BULK_BATCH))
			break;
	}
	json_t *left = web_call_json(r, "failed.page", r->seg[0], "0", "0", NULL);
	if (left == NULL)
		return NULL;
	json_t *out = json_pack("{s:I, s:O}", "done", done, "remaining", json_object_get(left, "total"));
	json_decref(left);
	return out;
}

json_t *api_failed_retry_all(web_req *r)
{
	return bulk(r, "failed.retry");
}

json_t *api_failed_cancel_all(web_req *r)
{
	return bulk(r, "failed.cancel");
}
