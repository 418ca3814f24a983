/* The running server's parts, shared by server.c and the files it wires up. */
#ifndef QLESS_WEB_SERVER_H
#define QLESS_WEB_SERVER_H

#include <stdio.h>
#include "web.h"
#include "http.h"

typedef struct web_pool web_pool;
typedef struct web_auth web_auth;
typedef struct web_sse web_sse;

struct web_server {
	const char *url;
	int read_only;
	web_pool *pool;
	web_auth *auth;      /* NULL: no --auth-file (loopback only) */
	web_sse *sse;
	FILE *log;
};

/* ---- pool.c: connections to the qless server, leased one per request ---- */
int web_pool_new(web_pool **out, const char *url, int size, char *err, size_t errlen);
qless_client *web_pool_lease(web_pool *pool);
void web_pool_return(web_pool *pool, qless_client *client);
void web_pool_free(web_pool *pool);

/* ---- router.c ---- */
typedef enum { WEB_ROUTE_FOUND, WEB_ROUTE_NONE, WEB_ROUTE_METHOD } web_route_result;
/* Matches method and path; fills r->seg. *mutating: the route changes data. */
web_route_result web_route(web_handler *fn, int *mutating, web_req *r);

/* ---- reply.c ---- */
/* Unescapes %XX (and '+' as a space when plus) in place; returns 0, -1 for a bad escape or NUL. */
int web_unescape(char *s, int plus);

/* ---- auth.c ---- */
int web_auth_load(web_auth **out, const char *path, char *err, size_t errlen);
void web_auth_free(web_auth *auth);
/* Who is asking: 1 with *user and *admin set (role admin), 0 when nobody
 * is logged in. *csrf: the token the principal's POSTs must carry. */
int web_auth_principal(const char **user, int *admin, const char **csrf, web_auth *auth,
                       struct MHD_Connection *conn);
/* POST /login (form user, password): a new session cookie value (owned) or NULL. */
char *web_auth_login(web_auth *auth, const char *user, const char *password);
void web_auth_logout(web_auth *auth, struct MHD_Connection *conn);

/* ---- csrf.c ---- */
/* 32 random bytes as 64 hex digits. */
void web_random_hex(char out[65]);
/* Whether the request's X-CSRF-Token equals expected (in constant time). */
int web_csrf_ok(struct MHD_Connection *conn, const char *expected);
/* Whether two secrets are equal, in time that does not depend on where
 * they differ (a token or hash compared byte by byte would leak it). */
int web_secret_equal(const char *a, const char *b);

/* ---- assets.c ---- */
/* The built-in file at path (without a leading '/'), or -1. */
int web_asset_find(const unsigned char **data, size_t *len, const char **type, const char *path);

/* ---- sse.c: one subscription shared by every /api/events client ---- */
int web_sse_new(web_sse **out, const char *url);
/* web_sse_free stops the streams (before MHD_stop_daemon); web_sse_destroy frees (after). */
void web_sse_free(web_sse *sse);
void web_sse_destroy(web_sse *sse);
/* The streaming response of one client (NULL when it cannot start). */
struct MHD_Response *web_sse_response(web_sse *sse);

#endif
