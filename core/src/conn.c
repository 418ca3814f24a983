/* hiredis connections: connect with timeouts, AUTH, SELECT. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "internal.h"

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

static int simple_command(redisContext *ctx, int argc, const char **argv, const char *what)
{
	redisReply *r = redisCommandArgv(ctx, argc, argv, NULL);
	int rc;
	if (r == NULL)
		return qless__err(QLESS_EIO, "qless: %s failed: %s", what, ctx->errstr[0] ? ctx->errstr : "no reply");
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
	if (c->command_timeout_ms > 0 && redisSetTimeout(ctx, ms_tv(c->command_timeout_ms)) != REDIS_OK) {
		qless__err(QLESS_EIO, "qless: cannot set the command timeout: %s", ctx->errstr);
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
		if (simple_command(ctx, argc, argv, "AUTH") != QLESS_OK) {
			redisFree(ctx);
			return NULL;
		}
	}
	if (select_db && u->db != 0) {
		char db[16];
		const char *argv[2] = { "SELECT", db };
		snprintf(db, sizeof db, "%d", u->db);
		if (simple_command(ctx, 2, argv, "SELECT") != QLESS_OK) {
			redisFree(ctx);
			return NULL;
		}
	}
	return ctx;
}
