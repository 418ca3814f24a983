/* hiredis connections: connect with timeouts, AUTH, SELECT; noticing a
 * connection the server closed while it sat idle. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "client_state.h"
#include "conn.h"
#include "errors.h"
#include "url.h"

/* Two system calls per guarded operation (one when the caller blocks
 * SIGPIPE itself): block, then restore. A write to a closed connection
 * raises SIGPIPE, and only a failed write does, so the pending signal is
 * taken (a third call) only after a failure. */
void qless__sigpipe_block(qless_sigpipe_guard *g)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, &g->old);
	/* Blocked already: the caller's SIGPIPEs, pending or to come, are its own. */
	g->was_blocked = sigismember(&g->old, SIGPIPE) == 1;
}

void qless__sigpipe_restore(qless_sigpipe_guard *g, int failed)
{
	if (g->was_blocked)
		return;
	if (failed) {
		sigset_t set;
		struct timespec zero = { 0, 0 };
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		while (sigtimedwait(&set, NULL, &zero) < 0 && errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

static struct timeval ms_tv(int ms)
{
	struct timeval tv;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	return tv;
}

int qless__conn_bound(redisContext *ctx, int ms, const char *which)
{
	/* Zero: no bound (SO_RCVTIMEO/SO_SNDTIMEO semantics). */
	struct timeval tv = { 0, 0 };
	if (ms > 0)
		tv = ms_tv(ms);
	if (redisSetTimeout(ctx, tv) != REDIS_OK)
		return qless__err(QLESS_EIO, "qless: cannot set the %s timeout: %s", which, ctx->errstr);
	return QLESS_OK;
}

const char *qless__io_reason(const redisContext *ctx, const char *which, int ms, char *buf, size_t size)
{
	/* A blocking read or write that ran out of time fails with EAGAIN,
	 * which hiredis keeps only as its text. */
	if (ms > 0 && ctx->err == REDIS_ERR_IO && strcmp(ctx->errstr, strerror(EAGAIN)) == 0) {
		snprintf(buf, size, "no answer within the %s timeout (%d ms)", which, ms);
		return buf;
	}
	return ctx->errstr[0] ? ctx->errstr : "no reply";
}

int qless__conn_stale(const redisContext *ctx)
{
	char b;
	ssize_t n;
	if (ctx->err)
		return 1;
	/* Nothing is owed on an idle connection: end of file (the server
	 * closed it, e.g. it restarted), an error, or bytes nobody asked for
	 * (a late reply) all mean it cannot carry the next command. */
	n = recv(ctx->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
	if (n >= 0)
		return 1;
	return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

/* AUTH or SELECT while connecting: bounded by the connect timeout. */
static int simple_command(redisContext *ctx, int argc, const char **argv, const char *what, int ms)
{
	redisReply *r = redisCommandArgv(ctx, argc, argv, NULL);
	char why[96];
	int rc;
	if (r == NULL)
		return qless__err(QLESS_EIO, "qless: %s failed: %s", what,
		                  qless__io_reason(ctx, "connect", ms, why, sizeof why));
	if (r->type == REDIS_REPLY_ERROR) {
		rc = qless__err(QLESS_EIO, "qless: %s failed: %s", what, r->str);
		freeReplyObject(r);
		return rc;
	}
	freeReplyObject(r);
	return QLESS_OK;
}

static redisContext *do_connect(qless_client *c, int select_db);

redisContext *qless__connect(qless_client *c, int select_db)
{
	qless_sigpipe_guard g;
	redisContext *ctx;
	qless__sigpipe_block(&g);
	ctx = do_connect(c, select_db);
	qless__sigpipe_restore(&g, ctx == NULL || ctx->err != 0);
	return ctx;
}

static redisContext *do_connect(qless_client *c, int select_db)
{
	redisContext *ctx;
	const qless_url *u = &c->url;

	if (u->path != NULL)
		ctx = c->connect_timeout_ms < 0 ? redisConnectUnix(u->path)
		                                : redisConnectUnixWithTimeout(u->path, ms_tv(c->connect_timeout_ms));
	else
		ctx = c->connect_timeout_ms < 0 ? redisConnect(u->host, u->port)
		                                : redisConnectWithTimeout(u->host, u->port, ms_tv(c->connect_timeout_ms));
	if (ctx == NULL) {
		qless__err(QLESS_ENOMEM, "qless: cannot allocate a connection");
		return NULL;
	}
	if (ctx->err) {
		if (u->path != NULL)
			qless__err(QLESS_EIO, "qless: cannot connect to unix:%s: %s", u->path, ctx->errstr);
		else
			qless__err(QLESS_EIO, "qless: cannot connect to %s:%d: %s", u->host, u->port, ctx->errstr);
		redisFree(ctx);
		return NULL;
	}
	/* The connection is set up (AUTH, SELECT, and for the caller loading
	 * the protocol) within the connect timeout, each step bounded by it:
	 * a server that accepts but does not answer (stopped, frozen) is an
	 * error after that long, not after the longer command timeout. */
	if (qless__conn_bound(ctx, c->connect_timeout_ms, "connect") != QLESS_OK) {
		redisFree(ctx);
		return NULL;
	}
	if (u->password != NULL) {
		const char *argv[3];
		int argc = 0;
		argv[argc++] = "AUTH";
		if (u->user != NULL)
			argv[argc++] = u->user;
		argv[argc++] = u->password;
		if (simple_command(ctx, argc, argv, "AUTH", c->connect_timeout_ms) != QLESS_OK) {
			redisFree(ctx);
			return NULL;
		}
	}
	if (select_db && u->db != 0) {
		char db[16];
		const char *argv[2] = { "SELECT", db };
		snprintf(db, sizeof db, "%d", u->db);
		if (simple_command(ctx, 2, argv, "SELECT", c->connect_timeout_ms) != QLESS_OK) {
			redisFree(ctx);
			return NULL;
		}
	}
	return ctx;
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
