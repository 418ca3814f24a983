/* Argument vectors, the protocol call and reply shape helpers. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void qless__args_init(qless_args *a)
{
	a->v = a->stack;
	a->n = QLESS_ARGS_PREFIX;
	a->cap = QLESS_ARGS_STACK;
	a->nnums = 0;
	a->owned = NULL;
	a->nowned = a->ownedcap = 0;
	a->oom = 0;
	a->bad_utf8 = 0;
}

static int grow(qless_args *a, size_t extra)
{
	size_t ncap;
	const char **nv;
	if (a->n + extra <= a->cap)
		return 0;
	ncap = a->cap * 2;
	while (ncap < a->n + extra)
		ncap *= 2;
	if (a->v == a->stack) {
		nv = malloc(ncap * sizeof *nv);
		if (nv != NULL)
			memcpy(nv, a->stack, a->n * sizeof *nv);
	} else {
		nv = realloc(a->v, ncap * sizeof *nv);
	}
	if (nv == NULL) {
		a->oom = 1;
		return -1;
	}
	a->v = nv;
	a->cap = ncap;
	return 0;
}

/* Text that is not UTF-8 never reaches the script (see qless__utf8_valid):
 * the call is refused before anything is sent. */
static void note_utf8(qless_args *a, const char *s)
{
	if (a->bad_utf8 == 0 && !qless__utf8_valid(s))
		a->bad_utf8 = (int)(a->n - QLESS_ARGS_PREFIX) + 1;
}

void qless__args_add(qless_args *a, const char *s)
{
	if (a->oom || grow(a, 1) != 0)
		return;
	note_utf8(a, s);
	a->v[a->n++] = s;
}

void qless__args_addv(qless_args *a, const char *const *strs, size_t n)
{
	size_t i;
	if (a->oom || grow(a, n) != 0)
		return;
	for (i = 0; i < n; i++) {
		note_utf8(a, strs[i]);
		a->v[a->n++] = strs[i];
	}
}

static int bad_utf8(const qless_args *a, const char *func, const char *cmd)
{
	return qless__err(QLESS_EINVAL, "%s: argument %d of %s is not valid UTF-8 text", func, a->bad_utf8, cmd);
}

void qless__args_own(qless_args *a, char *s)
{
	if (s == NULL || a->oom) {
		free(s);
		a->oom = 1;
		return;
	}
	if (a->nowned == a->ownedcap) {
		size_t ncap = a->ownedcap ? a->ownedcap * 2 : 4;
		char **no = realloc(a->owned, ncap * sizeof *no);
		if (no == NULL) {
			free(s);
			a->oom = 1;
			return;
		}
		a->owned = no;
		a->ownedcap = ncap;
	}
	a->owned[a->nowned++] = s;
	qless__args_add(a, s);
}

void qless__args_num(qless_args *a, double v)
{
	char buf[40];
	if (a->nnums < QLESS_ARGS_NUMS) {
		qless__fmt_num(a->nums[a->nnums], sizeof a->nums[0], v);
		qless__args_add(a, a->nums[a->nnums++]);
		return;
	}
	qless__fmt_num(buf, sizeof buf, v);
	qless__args_own(a, qless__strdup(buf));
}

void qless__args_int(qless_args *a, int64_t v)
{
	char buf[40];
	snprintf(buf, sizeof buf, "%lld", (long long)v);
	if (a->nnums < QLESS_ARGS_NUMS) {
		memcpy(a->nums[a->nnums], buf, strlen(buf) + 1);
		qless__args_add(a, a->nums[a->nnums++]);
		return;
	}
	qless__args_own(a, qless__strdup(buf));
}

void qless__args_free(qless_args *a)
{
	size_t i;
	for (i = 0; i < a->nowned; i++)
		free(a->owned[i]);
	free(a->owned);
	if (a->v != a->stack)
		free(a->v);
	a->v = a->stack;
	a->owned = NULL;
	a->nowned = a->ownedcap = 0;
	a->n = QLESS_ARGS_PREFIX;
}

/*
 * An error reply that says the server will not run commands on this
 * connection for now: it is loading its data after a restart or busy with
 * a long script (the command did not run; for the caller Redis is away,
 * not the command wrong), or it wants a password the URL did not give
 * (Redis closes the connection of an unauthenticated client that sends a
 * large request, so the protocol's load would only show "connection
 * reset"). Records QLESS_EIO with the reason, frees r and drops the
 * connection (the next call connects and loads the protocol again).
 * 0, r untouched, for any other reply.
 */
static int unavailable(qless_client *c, redisReply *r, const char *func)
{
	const char *why;
	int rc;
	if (r == NULL || r->type != REDIS_REPLY_ERROR)
		return 0;
	if (strncmp(r->str, "LOADING", 7) == 0 || strncmp(r->str, "BUSY", 4) == 0)
		why = "the server is not ready";
	else if (strncmp(r->str, "NOAUTH", 6) == 0)
		why = "the server requires a password (redis://:PASSWORD@host, or user and password)";
	else
		return 0;
	rc = qless__err(QLESS_EIO, "%s: %s: %s", func, why, r->str);
	freeReplyObject(r);
	redisFree(c->ctx);
	c->ctx = NULL;
	return rc;
}

static int load_script(qless_client *c, const char *func)
{
	const char *argv[3] = { "SCRIPT", "LOAD", qless_script_lua };
	size_t lens[3] = { 6, 4, qless_script_lua_len };
	redisReply *r = redisCommand(c->ctx, "SCRIPT EXISTS %s", qless_script_lua_sha1);
	int rc;
	if (r == NULL)
		return qless__io_error(c, func);
	if ((rc = unavailable(c, r, func)) != 0)
		return rc;
	/* Loaded already (by another client): nothing to send. */
	if (r->type == REDIS_REPLY_ARRAY && r->elements == 1 && r->element[0]->type == REDIS_REPLY_INTEGER &&
	    r->element[0]->integer == 1) {
		freeReplyObject(r);
		snprintf(c->sha, sizeof c->sha, "%s", qless_script_lua_sha1);
		return QLESS_OK;
	}
	freeReplyObject(r);
	r = redisCommandArgv(c->ctx, 3, argv, lens);
	if (r == NULL)
		return qless__io_error(c, func);
	if ((rc = unavailable(c, r, func)) != 0)
		return rc;
	if (r->type == REDIS_REPLY_ERROR) {
		rc = qless__err(QLESS_EPROTOCOL, "%s: SCRIPT LOAD failed: %s", func, r->str);
		freeReplyObject(r);
		return rc;
	}
	if (r->type != REDIS_REPLY_STRING || r->len == 0 || r->len >= sizeof c->sha) {
		freeReplyObject(r);
		return qless__err(QLESS_EPROTOCOL, "%s: unexpected SCRIPT LOAD reply", func);
	}
	memcpy(c->sha, r->str, r->len);
	c->sha[r->len] = '\0';
	freeReplyObject(r);
	return QLESS_OK;
}

/*
 * The Redis 7 Functions library libqless loads: the embedded script's
 * modules (everything before its final EVAL entry line) registered as one
 * function, with the dispatcher itself as the callback. Library and
 * function are both named qless_<first 16 hex digits of the script's
 * SHA1>, so the name identifies the code exactly: two libqless versions
 * sharing a server each load and call their own library, neither replaces
 * the other, and a library loaded by another client under the plain name
 * "qless" (the published qless-lib.lua) is left alone.
 * Built once per process; lib_src stays NULL when the script lacks the
 * expected entry line (calls then go by EVALSHA).
 */
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static char *lib_src;
static size_t lib_len;
static char lib_name[32];

static void build_lib(void)
{
	static const char entry[] = "return QlessDispatch(KEYS, ARGV)";
	const char *p, *cut = NULL;
	char head[64], tail[256];
	size_t body, hl, tl;

	snprintf(lib_name, sizeof lib_name, "qless_%.16s", qless_script_lua_sha1);
	for (p = qless_script_lua; (p = strstr(p, entry)) != NULL; p++)
		cut = p;
	if (cut == NULL)
		return;
	body = (size_t)(cut - qless_script_lua);
	hl = (size_t)snprintf(head, sizeof head, "#!lua name=%s\n", lib_name);
	tl = (size_t)snprintf(tail, sizeof tail,
	                      "redis.register_function{function_name = '%s', callback = QlessDispatch}\n",
	                      lib_name);
	lib_src = malloc(hl + body + tl + 1);
	if (lib_src == NULL)
		return;
	memcpy(lib_src, head, hl);
	memcpy(lib_src + hl, qless_script_lua, body);
	memcpy(lib_src + hl + body, tail, tl + 1);
	lib_len = hl + body + tl;
}

/* QLESS_EVALSHA=1 in the environment when a client is made keeps it on
 * EVALSHA (for comparisons, and for servers whose Functions should not be
 * touched). */
int qless__evalsha_env(void)
{
	const char *e = getenv("QLESS_EVALSHA");
	return e != NULL && *e != '\0' && strcmp(e, "0") != 0;
}

/* Loads the function library: 1 if FCALL can be used, 0 if the server has
 * no Functions or refuses FUNCTION LOAD (then EVALSHA), <0 on I/O error. */
static int load_function(qless_client *c, const char *func)
{
	const char *argv[4] = { "FUNCTION", "LOAD", "REPLACE", NULL };
	size_t lens[4] = { 8, 4, 7, 0 };
	redisReply *r;
	int ok;

	pthread_once(&lib_once, build_lib);
	if (lib_src == NULL || c->evalsha_only)
		return 0;
	/* A cheap question first: an unauthenticated client learns why (see
	 * unavailable), and a library already loaded is not sent again. */
	r = redisCommand(c->ctx, "FUNCTION LIST LIBRARYNAME %s", lib_name);
	if (r == NULL)
		return qless__io_error(c, func);
	if ((ok = unavailable(c, r, func)) != 0)
		return ok;
	ok = r->type == REDIS_REPLY_ARRAY && r->elements > 0;
	freeReplyObject(r);
	if (ok) {
		snprintf(c->fn, sizeof c->fn, "%s", lib_name);
		return 1;
	}
	/* REPLACE: another client may have loaded it since the question; the
	 * name holds the code's hash, so replacing it changes nothing. */
	argv[3] = lib_src;
	lens[3] = lib_len;
	r = redisCommandArgv(c->ctx, 4, argv, lens);
	if (r == NULL)
		return qless__io_error(c, func);
	if ((ok = unavailable(c, r, func)) != 0)
		return ok; /* not "no Functions": try again once the server is ready */
	ok = r->type == REDIS_REPLY_STRING;
	freeReplyObject(r);
	if (ok)
		snprintf(c->fn, sizeof c->fn, "%s", lib_name);
	return ok;
}

/* Makes the protocol callable on c->ctx: FCALL if possible, else EVALSHA. */
static int load_protocol(qless_client *c, const char *func)
{
	int rc = load_function(c, func);
	if (rc < 0)
		return rc;
	if (rc > 0)
		return QLESS_OK;
	c->fn[0] = '\0';
	return load_script(c, func);
}

/* "%.6f" of t, without printf's floating-point path (hot: once per call). */
void qless__fmt_now(char *buf, double t)
{
	char tmp[24];
	long long us = (long long)(t * 1e6 + (t >= 0 ? 0.5 : -0.5));
	unsigned long long sec, frac;
	int i, n = 0;
	if (t != t || t > 9e12 || t < -9e12) {
		snprintf(buf, 48, "%.6f", t);
		return;
	}
	if (us < 0) {
		*buf++ = '-';
		us = -us;
	}
	sec = (unsigned long long)us / 1000000ULL;
	frac = (unsigned long long)us % 1000000ULL;
	do {
		tmp[n++] = (char)('0' + sec % 10);
		sec /= 10;
	} while (sec > 0);
	while (n > 0)
		*buf++ = tmp[--n];
	*buf++ = '.';
	for (i = 5; i >= 0; i--) {
		buf[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	buf[6] = '\0';
}

/* qless__ensure for callers already inside the SIGPIPE guard. Every call
 * and batch comes here before sending: a kept connection the server has
 * closed since (a restart) is replaced now, while nothing is in flight. */
static int ensure_unguarded(qless_client *c)
{
	int rc;
	if (c->ctx != NULL && qless__conn_stale(c->ctx)) {
		redisFree(c->ctx);
		c->ctx = NULL;
	}
	if (c->ctx != NULL)
		return QLESS_OK;
	c->handshake = 1;
	c->ctx = qless__connect(c, 1);
	if (c->ctx == NULL) {
		c->handshake = 0;
		return qless_error_last_code();
	}
	rc = load_protocol(c, "qless");
	if (rc == QLESS_OK && c->ctx != NULL)
		rc = qless__features_read(c, "qless");
	c->handshake = 0;
	if (rc == QLESS_OK && c->ctx != NULL)
		rc = qless__conn_bound(c->ctx, c->command_timeout_ms, "command");
	if (rc != QLESS_OK && c->ctx != NULL) {
		redisFree(c->ctx);
		c->ctx = NULL;
	}
	return rc;
}

int qless__ensure(qless_client *c)
{
	qless_sigpipe_guard g;
	int rc;
	qless__sigpipe_block(&g);
	rc = ensure_unguarded(c);
	qless__sigpipe_restore(&g, rc != QLESS_OK);
	return rc;
}

int qless__io_error(qless_client *c, const char *what)
{
	int rc;
	if (c->ctx != NULL) {
		char why[96];
		rc = qless__err(QLESS_EIO, "%s: connection error: %s", what,
		                qless__io_reason(c->ctx, c->handshake ? "connect" : "command",
		                                 c->handshake ? c->connect_timeout_ms : c->command_timeout_ms, why,
		                                 sizeof why));
		redisFree(c->ctx);
		c->ctx = NULL;
	} else {
		rc = qless__err(QLESS_EIO, "%s: not connected", what);
	}
	return rc;
}

static int call_impl(qless_client *c, const char *func, const char *cmd, qless_args *a, redisReply **out);

/* FCALL <fn> 0 <cmd> <now> or EVALSHA <sha> 0 <cmd> <now>. */
static void set_head(qless_client *c, qless_args *a, const char *cmd)
{
	if (c->fn[0] != '\0') {
		a->v[0] = "FCALL";
		a->v[1] = c->fn;
	} else {
		a->v[0] = "EVALSHA";
		a->v[1] = c->sha;
	}
	a->v[2] = "0";
	a->v[3] = cmd;
	a->v[4] = c->nowbuf;
}

static const char *script_text(const char *str, const char **end);

/* Whether the server's library of this client is gone (a question to the
 * server; an I/O error answers no, and shows on the next call). */
static int library_gone(qless_client *c)
{
	redisReply *r = redisCommand(c->ctx, "FUNCTION LIST LIBRARYNAME %s", c->fn);
	int gone = r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 0;
	if (r != NULL)
		freeReplyObject(r);
	return gone;
}

/*
 * Whether the reply says the protocol is not loaded, so nothing ran: Redis's
 * NOSCRIPT code (EVALSHA) or, under FCALL, a generic ERR that is not the
 * script's own "[Kind] " error and for which the server confirms the library
 * is gone (Redis has no code of its own for a missing function: the answer
 * comes from the server, not from the wording of its message).
 */
static int needs_reload(qless_client *c, const redisReply *r)
{
	const char *text;
	if (r == NULL || r->type != REDIS_REPLY_ERROR)
		return 0;
	if (strncmp(r->str, "NOSCRIPT", 8) == 0)
		return 1;
	if (c->fn[0] == '\0' || strncmp(r->str, "ERR ", 4) != 0)
		return 0;
	text = script_text(r->str, NULL);
	return text[0] != '[' && library_gone(c);
}

int qless__call(qless_client *c, const char *func, const char *cmd, qless_args *a, redisReply **out)
{
	qless_sigpipe_guard g;
	int rc;
	qless__sigpipe_block(&g);
	rc = call_impl(c, func, cmd, a, out);
	qless__sigpipe_restore(&g, rc != QLESS_OK);
	return rc;
}

/* The script's own text of error reply str: past Redis' "ERR " prefix and
 * the "user_script:N: " (EVAL) or "user_function:N: " (FCALL) position Lua
 * puts in front of a raised text. With end, *end is set before Redis'
 * " script: <sha>, on @user_script:N." suffix (else the end of str). */
static const char *script_text(const char *str, const char **end)
{
	static const char *const chunks[] = { "user_script:", "user_function:" };
	const char *msg = str, *p;
	size_t i;
	if (strncmp(msg, "ERR ", 4) == 0)
		msg += 4;
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		size_t n = strlen(chunks[i]);
		if (strncmp(msg, chunks[i], n) != 0)
			continue;
		for (p = msg + n; *p >= '0' && *p <= '9'; p++)
			;
		if (p > msg + n && p[0] == ':' && p[1] == ' ')
			msg = p + 2;
		break;
	}
	if (end == NULL)
		return msg;
	*end = msg + strlen(msg);
	for (p = msg; (p = strstr(p, " script: ")) != NULL; p++)
		if (strstr(p, "@user_script") != NULL || strstr(p, "@user_function") != NULL) {
			*end = p;
			break;
		}
	return msg;
}

/* Records an error reply as this thread's last error; returns its code, which
 * the reply's leading token gives (qless__script_error_code). Keeps the
 * script's own message (script_text) without the "[Kind] " token. */
static int script_error(const redisReply *r)
{
	const char *end, *text;
	const char *msg = script_text(r->str, &end);
	int code, rc;

	code = qless__script_error_code(msg, &text);
	if (text > end)
		text = end;
	rc = qless__err(code, "%.*s", (int)(end - text), text);
	qless__err_from_script();
	return rc;
}

static int call_impl(qless_client *c, const char *func, const char *cmd, qless_args *a, redisReply **out)
{
	redisReply *r;
	int rc;

	*out = NULL;
	if (a->oom) {
		qless__args_free(a);
		return qless__err_nomem(func);
	}
	if (a->bad_utf8) {
		rc = bad_utf8(a, func, cmd);
		qless__args_free(a);
		return rc;
	}
	rc = ensure_unguarded(c);
	if (rc != QLESS_OK) {
		qless__args_free(a);
		return rc;
	}
	qless__fmt_now(c->nowbuf, qless__now(c));
	set_head(c, a, cmd);
	r = redisCommandArgv(c->ctx, (int)a->n, a->v, NULL);
	if (r != NULL && needs_reload(c, r)) {
		/* The script or function is gone (restart, SCRIPT/FUNCTION FLUSH):
		 * it did not run, so loading it again and retrying once is safe. */
		freeReplyObject(r);
		rc = load_protocol(c, func);
		if (rc != QLESS_OK) {
			qless__args_free(a);
			return rc;
		}
		set_head(c, a, cmd);
		r = redisCommandArgv(c->ctx, (int)a->n, a->v, NULL);
	}
	qless__args_free(a);
	if (r == NULL)
		return qless__io_error(c, func);
	if ((rc = unavailable(c, r, func)) != 0)
		return rc;
	if (r->type == REDIS_REPLY_ERROR) {
		rc = script_error(r);
		freeReplyObject(r);
		return rc;
	}
	*out = r;
	return QLESS_OK;
}

int qless__reply_json(redisReply *r, const char *func, json_t **out)
{
	json_error_t jerr;
	*out = NULL;
	if (r->type != REDIS_REPLY_STRING)
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON reply", func);
	*out = json_loadb(r->str, r->len, JSON_DECODE_ANY, &jerr);
	if (*out == NULL)
		return qless__err(QLESS_EPROTOCOL, "%s: unparsable JSON reply: %s", func, jerr.text);
	return QLESS_OK;
}

int qless__reply_int(redisReply *r, const char *func, int64_t *out)
{
	if (r->type == REDIS_REPLY_INTEGER) {
		*out = (int64_t)r->integer;
		return QLESS_OK;
	}
	return qless__err(QLESS_EPROTOCOL, "%s: expected an integer reply", func);
}

int qless__call_json(qless_client *c, const char *func, const char *cmd, qless_args *a, json_t **out)
{
	return qless__call_json_found(c, func, cmd, a, out, NULL, NULL);
}

int qless__call_json_found(qless_client *c, const char *func, const char *cmd, qless_args *a, json_t **out,
                           const char *what, const char *id)
{
	redisReply *r;
	int rc = qless__call(c, func, cmd, a, &r);
	*out = NULL;
	if (rc != QLESS_OK)
		return rc;
	if (what != NULL && r->type == REDIS_REPLY_NIL)
		rc = qless__err(QLESS_ENOTFOUND, "%s: %s %s does not exist", func, what, id);
	else
		rc = qless__reply_json(r, func, out);
	freeReplyObject(r);
	return rc;
}

int qless__call_int(qless_client *c, const char *func, const char *cmd, qless_args *a, int64_t *out)
{
	redisReply *r;
	int64_t v = 0;
	int rc = qless__call(c, func, cmd, a, &r);
	if (rc != QLESS_OK)
		return rc;
	rc = qless__reply_int(r, func, &v);
	freeReplyObject(r);
	if (rc == QLESS_OK && out != NULL)
		*out = v;
	return rc;
}

int qless__call_str(qless_client *c, const char *func, const char *cmd, qless_args *a, char **out,
                    const char *what, const char *id)
{
	redisReply *r;
	int rc = qless__call(c, func, cmd, a, &r);
	*out = NULL;
	if (rc != QLESS_OK)
		return rc;
	if (r->type == REDIS_REPLY_NIL)
		rc = what == NULL ? QLESS_OK : qless__err(QLESS_ENOTFOUND, "%s: %s %s does not exist", func, what, id);
	else if (r->type != REDIS_REPLY_STRING && r->type != REDIS_REPLY_STATUS)
		rc = qless__err(QLESS_EPROTOCOL, "%s: expected a text reply", func);
	else if ((*out = qless__strndup(r->str, r->len)) == NULL)
		rc = qless__err_nomem(func);
	freeReplyObject(r);
	return rc;
}

int qless__call_void(qless_client *c, const char *func, const char *cmd, qless_args *a)
{
	redisReply *r;
	int rc = qless__call(c, func, cmd, a, &r);
	if (rc != QLESS_OK)
		return rc;
	freeReplyObject(r);
	return QLESS_OK;
}

/* ---- pipelined calls ---- */

/* Appends calls [from, n) that have no reply yet, then reads their replies.
 * Returns QLESS_OK or an I/O error. */
static int pipe_round(qless_client *c, size_t n, const char *const *cmds, qless_args *as, redisReply **replies)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (replies[i] != NULL)
			continue;
		set_head(c, &as[i], cmds[i]);
		if (redisAppendCommandArgv(c->ctx, (int)as[i].n, as[i].v, NULL) != REDIS_OK)
			return QLESS_EIO;
	}
	for (i = 0; i < n; i++) {
		void *r = NULL;
		if (replies[i] != NULL)
			continue;
		if (redisGetReply(c->ctx, &r) != REDIS_OK || r == NULL)
			return QLESS_EIO;
		replies[i] = r;
	}
	return QLESS_OK;
}

static int call_many_impl(qless_client *c, const char *func, size_t n, const char *const *cmds, qless_args *as,
                          redisReply **replies, int *rcs)
{
	size_t i, reload = 0, first_error = n;
	int rc = QLESS_OK;

	for (i = 0; i < n; i++) {
		replies[i] = NULL;
		rcs[i] = QLESS_OK;
	}
	/* Nothing is sent when one call of the batch cannot be. */
	for (i = 0; i < n && rc == QLESS_OK; i++)
		rc = as[i].oom ? qless__err_nomem(func) : as[i].bad_utf8 ? bad_utf8(&as[i], func, cmds[i]) : QLESS_OK;
	if (rc != QLESS_OK) {
		for (i = 0; i < n; i++)
			rcs[i] = rc;
		return rc;
	}
	if ((rc = ensure_unguarded(c)) != QLESS_OK)
		return rc;
	qless__fmt_now(c->nowbuf, qless__now(c));
	if (pipe_round(c, n, cmds, as, replies) != QLESS_OK)
		goto io_error;
	for (i = 0; i < n; i++)
		if (needs_reload(c, replies[i])) {
			/* These did not run (script/function flushed): load and resend. */
			freeReplyObject(replies[i]);
			replies[i] = NULL;
			reload++;
		}
	if (reload > 0) {
		if ((rc = load_protocol(c, func)) != QLESS_OK)
			goto fail;
		if (pipe_round(c, n, cmds, as, replies) != QLESS_OK)
			goto io_error;
	}
	for (i = 0; i < n; i++)
		if (replies[i]->type == REDIS_REPLY_ERROR) {
			rcs[i] = script_error(replies[i]);
			if (first_error == n)
				first_error = i;
		}
	if (first_error == n)
		return QLESS_OK;
	/* The first failure's message is the one left as the last error. */
	return script_error(replies[first_error]);

io_error:
	rc = qless__io_error(c, func);
fail:
	for (i = 0; i < n; i++) {
		if (replies[i] != NULL)
			freeReplyObject(replies[i]);
		replies[i] = NULL;
		rcs[i] = rc;
	}
	return rc;
}

int qless__call_many(qless_client *c, const char *func, size_t n, const char *const *cmds, qless_args *as,
                     redisReply **replies, int *rcs)
{
	qless_sigpipe_guard g;
	size_t i;
	int rc;
	qless__sigpipe_block(&g);
	rc = call_many_impl(c, func, n, cmds, as, replies, rcs);
	qless__sigpipe_restore(&g, rc != QLESS_OK);
	for (i = 0; i < n; i++)
		qless__args_free(&as[i]);
	return rc;
}
