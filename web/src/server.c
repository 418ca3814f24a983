/*
 * qless web's HTTP layer: the listening socket (loopback unless an auth
 * file is given), libmicrohttpd with a thread per connection, and for every
 * request: who is asking, the route, the security rules of the contract
 * (login, roles, --read-only, CSRF) and the headers every reply carries.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "server.h"

#define WEB_MAX_BODY (1024 * 1024)

static const char *const CSP =
	"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/* Used when there is no auth file: one local principal, one token. */
static char local_csrf[65];

static const char login_page[] =
	"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>qless: log in</title>"
	"<link rel=\"stylesheet\" href=\"/assets/app.css\"></head><body class=\"login\">\n"
	"<form method=\"post\" action=\"/login\" class=\"login-form\"><h1>qless</h1>\n"
	"<label>User <input name=\"user\" autocomplete=\"username\" required></label>\n"
	"<label>Password <input name=\"password\" type=\"password\" autocomplete=\"current-password\" required></label>\n"
	"<button type=\"submit\">Log in</button></form>\n</body></html>\n";

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct request_ctx {
	web_req r;
	double start;
	int too_big;
} request_ctx;

static void add_common_headers(struct MHD_Response *resp)
{
	MHD_add_response_header(resp, "Content-Security-Policy", CSP);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, "X-Frame-Options", "DENY");
}

static enum MHD_Result send_buffer(struct MHD_Connection *conn, int status, const char *type, const void *data,
                                   size_t len, enum MHD_ResponseMemoryMode mode, request_ctx *ctx,
                                   const char *cookie, const char *location)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(len, (void *)data, mode);
	if (resp == NULL)
		return MHD_NO;
	add_common_headers(resp);
	MHD_add_response_header(resp, "Content-Type", type);
	if (ctx != NULL) {
		char v[64];
		snprintf(v, sizeof v, "%d", ctx->r.calls);
		MHD_add_response_header(resp, "X-Qless-Calls", v);
		snprintf(v, sizeof v, "app;dur=%.3f", now_ms() - ctx->start);
		MHD_add_response_header(resp, "Server-Timing", v);
		MHD_add_response_header(resp, "Cache-Control", "no-store");
	}
	if (cookie != NULL)
		MHD_add_response_header(resp, "Set-Cookie", cookie);
	if (location != NULL)
		MHD_add_response_header(resp, "Location", location);
	enum MHD_Result ret = MHD_queue_response(conn, (unsigned int)status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result send_json(struct MHD_Connection *conn, int status, json_t *v, request_ctx *ctx)
{
	char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	json_decref(v);
	if (text == NULL)
		return MHD_NO;
	return send_buffer(conn, status, "application/json", text, strlen(text), MHD_RESPMEM_MUST_FREE, ctx, NULL,
	                   NULL);
}

static enum MHD_Result send_error(struct MHD_Connection *conn, int status, const char *msg, request_ctx *ctx)
{
	return send_json(conn, status, json_pack("{s:s}", "error", msg), ctx);
}

static enum MHD_Result send_asset(struct MHD_Connection *conn, const char *path)
{
	const unsigned char *data;
	size_t len;
	const char *type;
	if (web_asset_find(&data, &len, &type, path) != 0)
		return send_error(conn, 404, "no such file", NULL);
	return send_buffer(conn, 200, type, data, len, MHD_RESPMEM_PERSISTENT, NULL, NULL, NULL);
}

static enum MHD_Result redirect(struct MHD_Connection *conn, const char *to, const char *cookie)
{
	return send_buffer(conn, 303, "text/plain; charset=utf-8", "", 0, MHD_RESPMEM_PERSISTENT, NULL, cookie, to);
}

/* A field of an application/x-www-form-urlencoded body (owned), or NULL. */
static char *form_field(const char *body, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = body; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL) {
		if (strncmp(p, name, n) != 0 || p[n] != '=')
			continue;
		const char *v = p + n + 1, *end = strchr(v, '&');
		char *out = strndup(v, end ? (size_t)(end - v) : strlen(v));
		if (out != NULL && web_unescape(out, 1) != 0) {
			free(out);
			return NULL;
		}
		return out;
	}
	return NULL;
}

static enum MHD_Result do_login(web_server *srv, request_ctx *ctx)
{
	struct MHD_Connection *conn = ctx->r.conn;
	if (srv->auth == NULL)
		return redirect(conn, "/", NULL);
	const char *body = ctx->r.body ? ctx->r.body : "";
	char *user = form_field(body, "user"), *password = form_field(body, "password");
	char *token = (user && password) ? web_auth_login(srv->auth, user, password) : NULL;
	if (password != NULL) {
		explicit_bzero(password, strlen(password));
		free(password);
	}
	free(user);
	if (token == NULL)
		return redirect(conn, "/login?failed=1", NULL);
	char cookie[160];
	snprintf(cookie, sizeof cookie, "qless_session=%s; Path=/; HttpOnly; SameSite=Strict", token);
	free(token);
	return redirect(conn, "/", cookie);
}

static enum MHD_Result do_api(web_server *srv, request_ctx *ctx, int logged_in)
{
	web_req *r = &ctx->r;
	web_handler fn = NULL;
	int mutating = 0;
	web_route_result found = web_route(&fn, &mutating, r);
	if (found == WEB_ROUTE_NONE)
		return send_error(r->conn, 404, "no such API endpoint", ctx);
	if (found == WEB_ROUTE_METHOD)
		return send_error(r->conn, 405, strcmp(r->method, "GET") == 0 ? "this endpoint takes POST" : "this endpoint takes GET", ctx);
	if (!logged_in)
		return send_error(r->conn, 401, "log in first (POST /login, or HTTP Basic)", ctx);
	if (mutating && !r->admin)
		return send_error(r->conn, 403, "read-only", ctx);
	if (mutating && !web_csrf_ok(r->conn, r->csrf))
		return send_error(r->conn, 403, "CSRF token missing or wrong", ctx);
	r->client = web_pool_lease(srv->pool);
	qless_error_clear();
	json_t *reply = fn(r);
	web_pool_return(srv->pool, r->client);
	r->client = NULL;
	if (reply == NULL && r->status == 0)
		web_fail(r, 500, "internal error: the handler gave no reply");
	if (reply == NULL)
		return send_error(r->conn, r->status, r->error, ctx);
	if (r->raw != NULL) {
		json_decref(reply);
		char *raw = r->raw;
		r->raw = NULL;
		return send_buffer(r->conn, 200, r->content_type, raw, r->raw_len, MHD_RESPMEM_MUST_FREE, ctx, NULL, NULL);
	}
	return send_json(r->conn, 200, reply, ctx);
}

static enum MHD_Result dispatch(web_server *srv, request_ctx *ctx)
{
	web_req *r = &ctx->r;
	const char *path = r->path, *method = r->method;
	int is_get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	int is_post = strcmp(method, "POST") == 0;
	if (ctx->too_big)
		return send_error(r->conn, 413, "request body larger than 1 MB", ctx);
	if (!is_get && !is_post)
		return send_error(r->conn, 405, "only GET and POST are served", ctx);
	if (is_get)
		r->method = "GET";

	int logged_in = 1;
	if (srv->auth != NULL) {
		int admin = 0;
		logged_in = web_auth_principal(&r->user, &admin, &r->csrf, srv->auth, r->conn);
		r->role = admin ? "admin" : "read";
		r->admin = logged_in && admin && !srv->read_only;
	} else {
		r->user = "local";
		r->role = "admin";
		r->admin = !srv->read_only;
		r->csrf = local_csrf;
	}

	if (strncmp(path, "/assets/", 8) == 0 && is_get)
		return send_asset(r->conn, path + 8);
	if (strcmp(path, "/login") == 0) {
		if (is_post)
			return do_login(srv, ctx);
		if (srv->auth == NULL || logged_in)
			return redirect(r->conn, "/", NULL);
		const unsigned char *data;
		size_t len;
		const char *type;
		if (web_asset_find(&data, &len, &type, "login.html") == 0)
			return send_buffer(r->conn, 200, type, data, len, MHD_RESPMEM_PERSISTENT, NULL, NULL, NULL);
		return send_buffer(r->conn, 200, "text/html; charset=utf-8", login_page, sizeof login_page - 1,
		                   MHD_RESPMEM_PERSISTENT, NULL, NULL, NULL);
	}
	if (strcmp(path, "/logout") == 0) {
		if (!is_post)
			return send_error(r->conn, 405, "this endpoint takes POST", ctx);
		if (!logged_in || !web_csrf_ok(r->conn, r->csrf))
			return send_error(r->conn, 403, "CSRF token missing or wrong", ctx);
		if (srv->auth != NULL)
			web_auth_logout(srv->auth, r->conn);
		return redirect(r->conn, "/login", "qless_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
	}
	if (strcmp(path, "/") == 0 || strcmp(path, "/index.html") == 0) {
		if (!is_get)
			return send_error(r->conn, 405, "this page takes GET", ctx);
		if (!logged_in)
			return redirect(r->conn, "/login", NULL);
		return send_asset(r->conn, "index.html");
	}
	if (strcmp(path, "/metrics") == 0 || strcmp(path, "/api/events") == 0) {
		if (!is_get)
			return send_error(r->conn, 405, "this endpoint takes GET", ctx);
		if (!logged_in)
			return send_error(r->conn, 401, "log in first (POST /login, or HTTP Basic)", ctx);
		if (path[1] == 'a') {
			struct MHD_Response *resp = web_sse_response(srv->sse);
			if (resp == NULL)
				return send_error(r->conn, 500, "cannot start the event stream", ctx);
			add_common_headers(resp);
			MHD_add_response_header(resp, "Content-Type", "text/event-stream");
			MHD_add_response_header(resp, "Cache-Control", "no-store");
			enum MHD_Result ret = MHD_queue_response(r->conn, 200, resp);
			MHD_destroy_response(resp);
			return ret;
		}
		r->client = web_pool_lease(srv->pool);
		char *text = NULL;
		int rc = web_metrics_text(&text, &r->calls, r->client);
		web_pool_return(srv->pool, r->client);
		r->client = NULL;
		if (rc != QLESS_OK) {
			web_lib_fail(r, rc);
			return send_error(r->conn, r->status, r->error, ctx);
		}
		return send_buffer(r->conn, 200, "text/plain; version=0.0.4; charset=utf-8", text, strlen(text),
		                   MHD_RESPMEM_MUST_FREE, ctx, NULL, NULL);
	}
	if (strncmp(path, "/api/", 5) == 0)
		return do_api(srv, ctx, logged_in);
	return send_error(r->conn, 404, "no such page", ctx);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **state)
{
	(void)version;
	web_server *srv = cls;
	request_ctx *ctx = *state;
	if (ctx == NULL) {
		ctx = calloc(1, sizeof *ctx);
		if (ctx == NULL)
			return MHD_NO;
		ctx->start = now_ms();
		ctx->r.srv = srv;
		ctx->r.conn = conn;
		ctx->r.method = method;
		ctx->r.path = url;
		*state = ctx;
		return MHD_YES;
	}
	if (*upload_size > 0) {
		size_t n = *upload_size;
		*upload_size = 0;
		if (ctx->too_big || ctx->r.body_len + n > WEB_MAX_BODY) {
			ctx->too_big = 1;
			return MHD_YES;
		}
		char *b = realloc(ctx->r.body, ctx->r.body_len + n + 1);
		if (b == NULL)
			return MHD_NO;
		memcpy(b + ctx->r.body_len, upload, n);
		ctx->r.body_len += n;
		b[ctx->r.body_len] = '\0';
		ctx->r.body = b;
		return MHD_YES;
	}
	return dispatch(srv, ctx);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **state, enum MHD_RequestTerminationCode why)
{
	(void)cls;
	(void)conn;
	(void)why;
	request_ctx *ctx = *state;
	if (ctx == NULL)
		return;
	for (int i = 0; i < WEB_MAX_SEGMENTS; i++)
		free(ctx->r.seg[i]);
	if (ctx->r.body != NULL)
		explicit_bzero(ctx->r.body, ctx->r.body_len);   /* may hold a password */
	free(ctx->r.body);
	free(ctx->r.raw);
	json_decref(ctx->r.keep);
	free(ctx);
	*state = NULL;
}

/* The path and query stay escaped: the router unescapes each segment on
 * its own (so %2F in a name is not a separator), web_param each value. */
static size_t keep_escaped(void *cls, struct MHD_Connection *conn, char *s)
{
	(void)cls;
	(void)conn;
	return strlen(s);
}

static int is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		if (IN6_IS_ADDR_LOOPBACK(a))
			return 1;
		if (IN6_IS_ADDR_V4MAPPED(a))
			return a->s6_addr[12] == 127;
	}
	return 0;
}

/* Parses ADDR:PORT or [ADDR]:PORT and binds; -1 with err when refused. */
static int open_listener(int *fd_out, int *family, char *shown, size_t shownlen, const char *listen_at,
                         int have_auth, char *err, size_t errlen)
{
	char host[256];
	const char *colon = strrchr(listen_at, ':');
	if (colon == NULL || colon == listen_at || colon[1] == '\0') {
		snprintf(err, errlen, "--listen must be ADDR:PORT (e.g. 127.0.0.1:5678), not '%s'", listen_at);
		return -1;
	}
	size_t hl = (size_t)(colon - listen_at);
	if (listen_at[0] == '[' && hl >= 2 && listen_at[hl - 1] == ']') {
		listen_at++;
		hl -= 2;
	}
	if (hl >= sizeof host) {
		snprintf(err, errlen, "--listen: address too long");
		return -1;
	}
	memcpy(host, listen_at, hl);
	host[hl] = '\0';
	char *end = NULL;
	long port = strtol(colon + 1, &end, 10);
	if (*end != '\0' || port < 0 || port > 65535) {
		snprintf(err, errlen, "--listen: port must be a number from 0 to 65535, not '%s'", colon + 1);
		return -1;
	}
	struct addrinfo hints = { 0 }, *ai = NULL;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
	if (getaddrinfo(host, NULL, &hints, &ai) != 0 || ai == NULL) {
		snprintf(err, errlen, "--listen: '%s' is not an IP address", host);
		return -1;
	}
	if (!is_loopback(ai->ai_addr) && !have_auth) {
		freeaddrinfo(ai);
		snprintf(err, errlen,
		         "--listen %s is not a loopback address: serving beyond this machine needs --auth-file "
		         "(users and roles; see docs/web.md)", host);
		return -1;
	}
	int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (ai->ai_family == AF_INET)
		((struct sockaddr_in *)ai->ai_addr)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)ai->ai_addr)->sin6_port = htons((uint16_t)port);
	if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 256) != 0) {
		snprintf(err, errlen, "cannot listen on %s: %s", listen_at, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	*family = ai->ai_family;
	freeaddrinfo(ai);
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	int bound = ntohs(*family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port : ((struct sockaddr_in6 *)&ss)->sin6_port);
	snprintf(shown, shownlen, *family == AF_INET6 ? "[%s]:%d" : "%s:%d", host, bound);
	*fd_out = fd;
	return 0;
}

int web_serve(const web_options *opts, char *err, size_t errlen)
{
	web_server srv = { 0 };
	srv.url = opts->url;
	srv.read_only = opts->read_only;
	srv.log = opts->log ? opts->log : stderr;
	const char *listen_at = opts->listen ? opts->listen : "127.0.0.1:5678";
	web_random_hex(local_csrf);

	if (opts->auth_file != NULL && web_auth_load(&srv.auth, opts->auth_file, err, errlen) != 0)
		return 2;
	int fd = -1, family = AF_INET;
	char shown[300];
	if (open_listener(&fd, &family, shown, sizeof shown, listen_at, srv.auth != NULL, err, errlen) != 0) {
		web_auth_free(srv.auth);
		return 2;
	}
	if (web_pool_new(&srv.pool, opts->url, opts->pool > 0 ? opts->pool : 4, err, errlen) != 0 ||
	    web_sse_new(&srv.sse, opts->url) != 0) {
		if (err[0] == '\0')
			snprintf(err, errlen, "out of memory");
		close(fd);
		web_pool_free(srv.pool);
		web_auth_free(srv.auth);
		return 1;
	}

	/* Threads the daemon starts inherit this mask: only sigwait sees the signals. */
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
	if (family == AF_INET6)
		flags |= MHD_USE_IPv6;
	struct MHD_Daemon *d = MHD_start_daemon(flags, 0, NULL, NULL, &on_request, &srv,
	                                        MHD_OPTION_LISTEN_SOCKET, fd,
	                                        MHD_OPTION_NOTIFY_COMPLETED, &on_completed, &srv,
	                                        MHD_OPTION_UNESCAPE_CALLBACK, &keep_escaped, NULL,
	                                        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)1000,
	                                        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)120,
	                                        MHD_OPTION_END);
	if (d == NULL) {
		snprintf(err, errlen, "cannot start the HTTP server on %s", shown);
		close(fd);
		web_sse_free(srv.sse);
		web_sse_destroy(srv.sse);
		web_pool_free(srv.pool);
		web_auth_free(srv.auth);
		return 1;
	}
	fprintf(srv.log, "qless web: listening on http://%s/%s%s\n", shown, srv.read_only ? " (read-only)" : "",
	        srv.auth ? " (login required)" : "");
	fflush(srv.log);

	sigdelset(&sigs, SIGPIPE);
	int sig = 0;
	sigwait(&sigs, &sig);
	fprintf(srv.log, "qless web: stopping (signal %d)\n", sig);
	fflush(srv.log);
	web_sse_free(srv.sse);   /* ends the streams first: their threads end with them */
	MHD_stop_daemon(d);
	web_sse_destroy(srv.sse);
	close(fd);
	web_pool_free(srv.pool);
	web_auth_free(srv.auth);
	return 0;
}
