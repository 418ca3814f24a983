/* Loading the protocol on a connection: the function library (FCALL) where
 * the server has Functions, else the script (EVALSHA); and qless__ensure,
 * which connects, loads it and reads ql:features before a call. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "client_state.h"
#include "cluster.h"
#include "conn.h"
#include "db_features.h"
#include "embedded_script.h"
#include "errors.h"
#include "protocol.h"

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
int qless__unavailable(qless_client *c, redisReply *r, const char *func)
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
	qless__conn_free(c->conn);
	c->conn = NULL;
	return rc;
}

/* An ACL refusal of a command loading needs (r freed, connection dropped):
 * QLESS_EIO naming the reason; 0 (r untouched) for any other reply. */
static int refused_by_acl(qless_client *c, redisReply *r, const char *func)
{
	int rc;
	if (r->type != REDIS_REPLY_ERROR || strncmp(r->str, "NOPERM", 6) != 0)
		return 0;
	rc = qless__err(QLESS_EIO,
	                "%s: the ACL user may not run a command libqless needs (see \"ACL users\" in docs/tls.md): %s",
	                func, r->str);
	freeReplyObject(r);
	qless__conn_free(c->conn);
	c->conn = NULL;
	return rc;
}

static int load_script(qless_client *c, const char *func)
{
	const char *argv[3] = { "SCRIPT", "LOAD", qless_script_lua };
	size_t lens[3] = { 6, 4, qless_script_lua_len };
	const char *exists[3] = { "SCRIPT", "EXISTS", qless_script_lua_sha1 };
	redisReply *r = qless__conn_command_argv(c->conn, 3, exists, NULL);
	int rc;
	if (r == NULL)
		return qless__io_error(c, func);
	if ((rc = qless__unavailable(c, r, func)) != 0 || (rc = refused_by_acl(c, r, func)) != 0)
		return rc;
	/* Loaded already (by another client): nothing to send. */
	if (r->type == REDIS_REPLY_ARRAY && r->elements == 1 && r->element[0]->type == REDIS_REPLY_INTEGER &&
	    r->element[0]->integer == 1) {
		freeReplyObject(r);
		snprintf(c->sha, sizeof c->sha, "%s", qless_script_lua_sha1);
		return QLESS_OK;
	}
	freeReplyObject(r);
	r = qless__conn_command_argv(c->conn, 3, argv, lens);
	if (r == NULL)
		return qless__io_error(c, func);
	if ((rc = qless__unavailable(c, r, func)) != 0 || (rc = refused_by_acl(c, r, func)) != 0)
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
	 * qless__unavailable), and a library already loaded is not sent again. */
	{
		const char *list[4] = { "FUNCTION", "LIST", "LIBRARYNAME", lib_name };
		r = qless__conn_command_argv(c->conn, 4, list, NULL);
	}
	if (r == NULL)
		return qless__io_error(c, func);
	if ((ok = qless__unavailable(c, r, func)) != 0)
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
	r = qless__conn_command_argv(c->conn, 4, argv, lens);
	if (r == NULL)
		return qless__io_error(c, func);
	if ((ok = qless__unavailable(c, r, func)) != 0)
		return ok; /* not "no Functions": try again once the server is ready */
	ok = r->type == REDIS_REPLY_STRING;
	freeReplyObject(r);
	if (ok)
		snprintf(c->fn, sizeof c->fn, "%s", lib_name);
	return ok;
}

/* Makes the protocol callable on c->conn: FCALL if possible, else EVALSHA. */
int qless__protocol_load(qless_client *c, const char *func)
{
	int rc = load_function(c, func);
	if (rc < 0)
		return rc;
	if (rc > 0)
		return QLESS_OK;
	c->fn[0] = '\0';
	return load_script(c, func);
}

/* qless__ensure for callers already inside the SIGPIPE guard. Every call
 * and batch comes here before sending: a kept connection the server has
 * closed since (a restart) is replaced now, while nothing is in flight. */
int qless__ensure_unguarded(qless_client *c)
{
	int rc;
	if (c->cluster != NULL) {
		int fresh, tries = 0;
		/* The marker goes first: a node that no longer serves the slot
		 * (the map was read mid-failover) answers it with a redirect. */
		do {
			c->handshake = 1;
			rc = qless__cluster_attach(c, &fresh, "qless");
			if (rc == QLESS_OK && fresh)
				rc = qless__cluster_mark(c, "qless");
			c->handshake = 0;
		} while (rc == 1 && ++tries < 50);
		if (rc == 1)
			rc = qless__err(QLESS_EIO, "qless: the cluster's nodes keep redirecting the namespace's slot");
		if (rc != QLESS_OK || !fresh)
			return rc;
	} else {
		if (c->conn != NULL && qless__conn_stale(c->conn)) {
			qless__conn_free(c->conn);
			c->conn = NULL;
		}
		if (c->conn != NULL)
			return QLESS_OK;
		c->handshake = 1;
		c->conn = qless__connect(c, 1);
		if (c->conn == NULL) {
			c->handshake = 0;
			return qless_error_last_code();
		}
	}
	c->handshake = 1;
	rc = qless__protocol_load(c, "qless");
	/* On a cluster every primary gets the library when the client first
	 * connects: a slot that moves (resharding, failover) finds it there. */
	if (rc == QLESS_OK && c->conn != NULL && c->cluster != NULL && !c->cluster->loaded_everywhere) {
		rc = qless__cluster_each_primary(c, qless__protocol_load, "qless");
		if (rc == QLESS_OK)
			c->cluster->loaded_everywhere = 1;
	}
	if (rc == QLESS_OK && c->conn != NULL)
		rc = qless__features_read(c, "qless");
	c->handshake = 0;
	if (rc == QLESS_OK && c->conn != NULL)
		rc = qless__conn_bound(c->conn, c->command_timeout_ms, "command");
	if (rc != QLESS_OK && c->conn != NULL) {
		qless__conn_free(c->conn);
		c->conn = NULL;
	}
	return rc;
}

int qless__ensure(qless_client *c)
{
	qless_sigpipe_guard g;
	int rc;
	qless__sigpipe_block(&g);
	rc = qless__ensure_unguarded(c);
	qless__sigpipe_restore(&g, rc != QLESS_OK);
	return rc;
}
