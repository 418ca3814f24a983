/* wait_replicas: Redis replicates asynchronously, so a write a primary
 * acknowledged can be lost when it dies before its replica has it. WAIT
 * after each call that may have written makes the caller learn that a
 * write is not yet on enough replicas. A command is taken to write unless
 * it is one of the few known readers (qless__call_writes): a WAIT too many
 * costs a round trip, one too few would make a write unguarded. */
#include <stdio.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "client_state.h"
#include "conn.h"
#include "errors.h"
#include "wait.h"

#define DEFAULT_WAIT_MS 1000

int qless__call_writes(const char *cmd)
{
	static const char *const readers[] = { "get", "multiget", "length", "config.get", "stats", "recur.get",
	                                       "recur.next", "cron.next", "tree.get", "alias.get", "state.get",
	                                       "port.peek", "port.size" };
	size_t i;
	for (i = 0; i < sizeof readers / sizeof *readers; i++)
		if (strcmp(cmd, readers[i]) == 0)
			return 0;
	return 1;
}

int qless__wait_replicas(qless_client *c, const char *func)
{
	char n[16], ms[16];
	const char *argv[3] = { "WAIT", n, ms };
	redisReply *r;
	int timeout = c->wait_timeout_ms > 0 ? c->wait_timeout_ms : DEFAULT_WAIT_MS, rc = QLESS_OK;

	if (c->wait_replicas <= 0 || c->conn == NULL)
		return QLESS_OK;
	snprintf(n, sizeof n, "%d", c->wait_replicas);
	snprintf(ms, sizeof ms, "%d", timeout);
	if ((r = qless__conn_command_argv(c->conn, 3, argv, NULL)) == NULL)
		return qless__io_error(c, func);
	if (r->type != REDIS_REPLY_INTEGER)
		rc = qless__err(QLESS_EPROTOCOL, "%s: WAIT failed: %s", func,
		                r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
	else if (r->integer < c->wait_replicas)
		rc = qless__err(QLESS_EIO,
		                "%s: the call ran, but only %lld of the %d replicas asked for (wait_replicas) "
		                "acknowledged it within %d ms: it may be lost if the primary fails now",
		                func, (long long)r->integer, c->wait_replicas, timeout);
	freeReplyObject(r);
	return rc;
}
