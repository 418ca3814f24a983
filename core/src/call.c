/* The protocol call: one command (qless__call and the reply shape helpers)
 * or a pipelined batch (qless__call_many), with the script's errors mapped
 * to codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "cluster.h"
#include "conn.h"
#include "errors.h"
#include "protocol.h"
#include "util.h"
#include "wait.h"

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

static int call_impl(qless_client *c, const char *func, const char *cmd, qless_args *a, redisReply **out);

/*
 * FCALL <fn> 1 <namespace key> <cmd> <now> in a namespace, else FCALL <fn> 0
 * <cmd> <now> (EVALSHA <sha> the same). Returns how many leading slots of
 * a->v the call skips: 1 without a namespace, whose head is a slot shorter.
 */
static size_t set_head(qless_client *c, qless_args *a, const char *cmd)
{
	size_t skip = c->ns != NULL ? 0 : 1;
	const char **v = a->v + skip;
	if (c->fn[0] != '\0') {
		v[0] = "FCALL";
		v[1] = c->fn;
	} else {
		v[0] = "EVALSHA";
		v[1] = c->sha;
	}
	if (c->ns != NULL) {
		v[2] = "1";
		v[3] = c->prefix;
	} else {
		v[2] = "0";
	}
	a->v[4] = cmd;
	a->v[5] = c->nowbuf;
	return skip;
}

static const char *script_text(const char *str, const char **end);

/* Sends a's command (from a->v[skip], set_head's) on the client's
 * connection, or on a cluster to the node serving the namespace
 * (following redirects). NULL: an I/O error
 * (c->conn set) or a cluster error already recorded (c->conn NULL). */
static redisReply *send_args(qless_client *c, qless_args *a, size_t skip, const char *func)
{
	if (c->cluster != NULL)
		return qless__cluster_command(c, (int)(a->n - skip), a->v + skip, func);
	return qless__conn_command_argv(c->conn, (int)(a->n - skip), a->v + skip, NULL);
}

/* The error for a NULL reply of send_args. */
static int send_error(qless_client *c, const char *func)
{
	if (c->cluster != NULL && c->conn == NULL)
		return qless_error_last_code();
	return qless__io_error(c, func);
}

/* Whether the server's library of this client is gone (a question to the
 * server; an I/O error answers no, and shows on the next call). */
static int library_gone(qless_client *c)
{
	const char *argv[4] = { "FUNCTION", "LIST", "LIBRARYNAME", c->fn };
	redisReply *r = qless__conn_command_argv(c->conn, 4, argv, NULL);
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
	size_t skip;
	int rc;

	*out = NULL;
	if (a->oom) {
		qless__args_free(a);
		return qless__err_nomem(func);
	}
	if (a->bad_utf8) {
		rc = qless__args_bad_utf8(a, func, cmd);
		qless__args_free(a);
		return rc;
	}
	rc = qless__ensure_unguarded(c);
	if (rc != QLESS_OK) {
		qless__args_free(a);
		return rc;
	}
	qless__fmt_now(c->nowbuf, qless__now(c));
	skip = set_head(c, a, cmd);
	r = send_args(c, a, skip, func);
	if (r != NULL && needs_reload(c, r)) {
		/* The script or function is gone (restart, SCRIPT/FUNCTION FLUSH):
		 * it did not run, so loading it again and retrying once is safe. */
		freeReplyObject(r);
		rc = qless__protocol_load(c, func);
		if (rc != QLESS_OK) {
			qless__args_free(a);
			return rc;
		}
		skip = set_head(c, a, cmd);
		r = send_args(c, a, skip, func);
	}
	qless__args_free(a);
	if (r == NULL)
		return send_error(c, func);
	if ((rc = qless__unavailable(c, r, func)) != 0)
		return rc;
	if (r->type == REDIS_REPLY_ERROR) {
		rc = script_error(r);
		freeReplyObject(r);
		return rc;
	}
	if (qless__call_writes(cmd) && (rc = qless__wait_replicas(c, func)) != QLESS_OK) {
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
		size_t skip;
		if (replies[i] != NULL)
			continue;
		skip = set_head(c, &as[i], cmds[i]);
		if (qless__conn_append_argv(c->conn, (int)(as[i].n - skip), as[i].v + skip, NULL) != QLESS_OK)
			return QLESS_EIO;
	}
	for (i = 0; i < n; i++) {
		redisReply *r;
		if (replies[i] != NULL)
			continue;
		if ((r = qless__conn_get_reply(c->conn)) == NULL)
			return QLESS_EIO;
		replies[i] = r;
	}
	return QLESS_OK;
}

static int call_many_impl(qless_client *c, const char *func, size_t n, const char *const *cmds, qless_args *as,
                          redisReply **replies, int *rcs)
{
	size_t i, reload = 0, first_error = n;
	int rc = QLESS_OK, wait_rc;

	for (i = 0; i < n; i++) {
		replies[i] = NULL;
		rcs[i] = QLESS_OK;
	}
	/* Nothing is sent when one call of the batch cannot be. */
	for (i = 0; i < n && rc == QLESS_OK; i++)
		rc = as[i].oom ? qless__err_nomem(func) : as[i].bad_utf8 ? qless__args_bad_utf8(&as[i], func, cmds[i]) : QLESS_OK;
	if (rc != QLESS_OK) {
		for (i = 0; i < n; i++)
			rcs[i] = rc;
		return rc;
	}
	if ((rc = qless__ensure_unguarded(c)) != QLESS_OK)
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
		if ((rc = qless__protocol_load(c, func)) != QLESS_OK)
			goto fail;
		if (pipe_round(c, n, cmds, as, replies) != QLESS_OK)
			goto io_error;
	}
	/* On a cluster a call that met a redirect (its slot moved during the
	 * batch) did not run: it goes again, on its own, following it. */
	for (i = 0; c->cluster != NULL && i < n; i++)
		if (qless__cluster_retryable(replies[i])) {
			freeReplyObject(replies[i]);
			size_t skip = set_head(c, &as[i], cmds[i]);
			if ((replies[i] = qless__cluster_command(c, (int)(as[i].n - skip), as[i].v + skip, func)) == NULL) {
				if (c->conn != NULL)
					goto io_error;
				rc = qless_error_last_code();
				goto fail;
			}
		}
	for (i = 0; i < n; i++)
		if (replies[i]->type == REDIS_REPLY_ERROR) {
			rcs[i] = script_error(replies[i]);
			if (first_error == n)
				first_error = i;
		}
	/* The calls ran and their replies stay; a shortfall of replicas is the
	 * batch's error (every call's writes may be lost), before any call's. */
	for (i = 0; i < n && !qless__call_writes(cmds[i]); i++)
		;
	if (i < n && (wait_rc = qless__wait_replicas(c, func)) != QLESS_OK)
		return wait_rc;
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
