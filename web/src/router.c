/*
 * The API's routes: method, path pattern ('*' is one path segment, handed
 * to the handler unescaped, so a queue or group name may hold any
 * character, '/' included, when the page escapes it) and handler.
 */
#include <stdlib.h>
#include <string.h>
#include "server.h"

static const struct route {
	const char *method;
	const char *pattern;
	web_handler fn;
	int mutating;
} routes[] = {
	{ "GET", "/api/session", api_session, 0 },
	{ "GET", "/api/overview", api_overview, 0 },
	{ "GET", "/api/queues", api_queues, 0 },
	{ "GET", "/api/queues/*", api_queue, 0 },
	{ "GET", "/api/queues/*/jobs", api_queue_jobs, 0 },
	{ "POST", "/api/queues/*/pause", api_queue_pause, 1 },
	{ "POST", "/api/queues/*/unpause", api_queue_unpause, 1 },
	{ "POST", "/api/queues/*/max-concurrency", api_queue_max_concurrency, 1 },
	{ "GET", "/api/jobs/*", api_job, 0 },
	{ "POST", "/api/jobs/*/retry", api_job_retry, 1 },
	{ "POST", "/api/jobs/*/cancel", api_job_cancel, 1 },
	{ "POST", "/api/jobs/*/track", api_job_track, 1 },
	{ "POST", "/api/jobs/*/untrack", api_job_untrack, 1 },
	{ "POST", "/api/jobs/*/move", api_job_move, 1 },
	{ "POST", "/api/jobs/*/priority", api_job_priority, 1 },
	{ "POST", "/api/jobs/*/tags", api_job_tags, 1 },
	{ "POST", "/api/jobs/*/timeout", api_job_timeout, 1 },
	{ "GET", "/api/failed", api_failed, 0 },
	{ "GET", "/api/failed/*", api_failed_group, 0 },
	{ "POST", "/api/failed/*/retry-all", api_failed_retry_all, 1 },
	{ "POST", "/api/failed/*/cancel-all", api_failed_cancel_all, 1 },
	{ "GET", "/api/workers", api_workers, 0 },
	{ "GET", "/api/workers/*", api_worker, 0 },
	{ "GET", "/api/tracked", api_tracked, 0 },
	{ "GET", "/api/recurring", api_recurring, 0 },
	{ "GET", "/api/schedules", api_schedules, 0 },
	{ "GET", "/api/schedules/*", api_schedule, 0 },
	{ "GET", "/api/trees/*", api_tree, 0 },
	{ "POST", "/api/trees/*/terminate", api_tree_terminate, 1 },
	{ "POST", "/api/trees/*/delete", api_tree_delete, 1 },
	{ "GET", "/api/config", api_config, 0 },
	{ "GET", "/api/search", api_search, 0 },
};
#define NROUTES (sizeof routes / sizeof routes[0])

static void clear_segments(web_req *r)
{
	for (int i = 0; i < WEB_MAX_SEGMENTS; i++) {
		free(r->seg[i]);
		r->seg[i] = NULL;
	}
}

/* Whether path matches pattern; the '*' segments go to r->seg. A segment
 * that is empty or escapes badly matches nothing. */
static int match(const char *pattern, const char *path, web_req *r)
{
	int nseg = 0;
	const char *p = pattern, *s = path;
	while (*p && *s) {
		if (*p == '*') {
			const char *end = strchr(s, '/');
			size_t n = end ? (size_t)(end - s) : strlen(s);
			if (n == 0 || nseg == WEB_MAX_SEGMENTS)
				return 0;
			char *seg = strndup(s, n);
			if (seg == NULL || web_unescape(seg, 0) != 0 || seg[0] == '\0') {
				free(seg);
				return 0;
			}
			r->seg[nseg++] = seg;
			p++;
			s += n;
		} else if (*p == *s) {
			p++;
			s++;
		} else {
			return 0;
		}
	}
	return *p == '\0' && *s == '\0';
}

web_route_result web_route(web_handler *fn, int *mutating, web_req *r)
{
	web_route_result res = WEB_ROUTE_NONE;
	for (size_t i = 0; i < NROUTES; i++) {
		clear_segments(r);
		if (!match(routes[i].pattern, r->path, r))
			continue;
		if (strcmp(routes[i].method, r->method) != 0) {
			res = WEB_ROUTE_METHOD;
			continue;
		}
		*fn = routes[i].fn;
		*mutating = routes[i].mutating;
		return WEB_ROUTE_FOUND;
	}
	clear_segments(r);
	return res;
}
