/*
 * The request a handler answers, and the helpers every API file shares:
 * failing with a status and a message, protocol calls (counted, so each
 * page's cost is visible in X-Qless-Calls), parameters and list replies.
 */
#ifndef QLESS_WEB_HTTP_H
#define QLESS_WEB_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <microhttpd.h>
#include <qless/qless.h>

typedef struct web_server web_server;

#define WEB_MAX_SEGMENTS 3

typedef struct web_req {
	web_server *srv;
	struct MHD_Connection *conn;
	const char *method;
	const char *path;                  /* still %-escaped */
	char *seg[WEB_MAX_SEGMENTS];       /* the route's '*' segments, unescaped (owned) */
	char *body;                        /* POST body, NUL-terminated (owned) */
	size_t body_len;
	const char *user;                  /* who is asking (borrowed from the server) */
	int admin;                         /* may mutate (role admin, not --read-only) */
	const char *role;                  /* "admin" or "read" (the role, whatever --read-only says) */
	const char *csrf;                  /* the token this principal's POSTs carry (borrowed) */
	qless_client *client;              /* leased for this request */
	int calls;                         /* protocol calls made so far */
	int status;                        /* set by web_fail */
	char error[512];
	const char *content_type;          /* reply type when not JSON (text/event-stream, ...) */
	char *raw;                         /* reply body when not JSON (owned) */
	size_t raw_len;
	json_t *keep;                      /* strings handed out by web_param (owned) */
} web_req;

/* A handler returns its JSON reply (owned), or NULL after web_fail. */
typedef json_t *(*web_handler)(web_req *r);

/* Records the error status and message; returns NULL for `return web_fail(...)`. */
json_t *web_fail(web_req *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The last libqless failure: 404 for ENOTFOUND, 400 for EINVAL/ESTATE, else 500. */
json_t *web_lib_fail(web_req *r, int code);

/* One protocol call on the leased client (counted). *out owned (qless_free)
 * or NULL for a nil reply. Returns the libqless code; on failure r is set. */
int web_call(char **out, web_req *r, const char *command, const char *const *argv, size_t argc);
/* web_call whose reply is JSON (a nil reply is JSON null); NULL on failure
 * (r set). The arguments end with NULL. */
json_t *web_call_json(web_req *r, const char *command, ...) __attribute__((sentinel));

/* The query parameter, unescaped (owned by the request), or NULL. */
const char *web_param(web_req *r, const char *name);
/* An integer parameter from lo to hi, def when absent. 0, or -1 with r set to 400. */
int web_param_int(int64_t *out, web_req *r, const char *name, int64_t def, int64_t lo, int64_t hi);
/* offset (default 0) and limit (default 25, 1..500). 0 or -1 (400). */
int web_page(int64_t *offset, int64_t *limit, web_req *r);
/* A page's offset and limit, as numbers and as the protocol's arguments o, l. */
typedef struct web_window {
	int64_t offset, limit;
	char o[24], l[24];
} web_window;
/* web_page into w, also writing w->o and w->l. 0 or -1 (400). */
int web_window_read(web_window *w, web_req *r);
/* The POST body as a JSON object ({} when empty); NULL with 400 when it is not one. */
json_t *web_body(web_req *r);

/* {"total","offset","limit","items","next"}; steals total, items, next (NULL: null). */
json_t *web_list(json_t *total, int64_t offset, int64_t limit, json_t *items, json_t *next);

/* Job summaries of the jids, in order (missing jobs skipped): one call. */
json_t *web_summaries(web_req *r, json_t *jids);

/* Evens out the protocol's summaries (tags [] not {}, failure null when none). */
json_t *web_summaries_fix(json_t *jobs);
/* A protocol page {total, jobs} (stolen) as the API's list; next is the
 * next offset while more remain. */
json_t *web_page_reply(json_t *page, int64_t offset, int64_t limit);
/* The API's list of the protocol page `command [arg] <offset> <limit>`
 * (arg NULL: none), for the request's offset and limit; NULL on failure. */
json_t *web_page_of(web_req *r, const char *command, const char *arg);

/* The leased client's server time as a date "YYYY-MM-DD" (UTC). */
void web_today(char out[11], web_req *r);

/* ---- handlers (api_*.c) ---- */
json_t *api_session(web_req *r);
json_t *api_overview(web_req *r);
json_t *api_queues(web_req *r);
json_t *api_queue(web_req *r);
json_t *api_queue_pause(web_req *r);
json_t *api_queue_unpause(web_req *r);
json_t *api_queue_max_concurrency(web_req *r);
json_t *api_queue_jobs(web_req *r);
json_t *api_job(web_req *r);
json_t *api_job_retry(web_req *r);
json_t *api_job_cancel(web_req *r);
json_t *api_job_track(web_req *r);
json_t *api_job_untrack(web_req *r);
json_t *api_job_move(web_req *r);
json_t *api_job_priority(web_req *r);
json_t *api_job_tags(web_req *r);
json_t *api_job_timeout(web_req *r);
json_t *api_failed(web_req *r);
json_t *api_failed_group(web_req *r);
json_t *api_failed_retry_all(web_req *r);
json_t *api_failed_cancel_all(web_req *r);
json_t *api_workers(web_req *r);
json_t *api_worker(web_req *r);
json_t *api_tracked(web_req *r);
json_t *api_recurring(web_req *r);
json_t *api_schedules(web_req *r);
json_t *api_schedule(web_req *r);
json_t *api_tree(web_req *r);
json_t *api_tree_terminate(web_req *r);
json_t *api_tree_delete(web_req *r);
json_t *api_config(web_req *r);
json_t *api_search(web_req *r);
json_t *api_metrics(web_req *r);

#endif
