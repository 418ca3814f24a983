/* The slot map of a cluster: which primary serves each of the 16384 slots,
 * read from CLUSTER SHARDS (Redis 7), and the table of known nodes. */
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "cluster.h"
#include "errors.h"
#include "util.h"

int qless__cluster_node_find(qless_cluster *cl, const char *host, size_t hostlen, int port)
{
	qless_node *nodes;
	size_t i;
	for (i = 0; i < cl->nnodes; i++)
		if (cl->nodes[i].port == port && strlen(cl->nodes[i].host) == hostlen &&
		    memcmp(cl->nodes[i].host, host, hostlen) == 0)
			return (int)i;
	/* The owner table holds indexes in a short. */
	if (cl->nnodes >= 30000)
		return -1;
	nodes = realloc(cl->nodes, (cl->nnodes + 1) * sizeof *nodes);
	if (nodes == NULL)
		return -1;
	cl->nodes = nodes;
	memset(&nodes[cl->nnodes], 0, sizeof *nodes);
	if ((nodes[cl->nnodes].host = qless__strndup(host, hostlen)) == NULL)
		return -1;
	nodes[cl->nnodes].port = port;
	return (int)cl->nnodes++;
}

/* The value under key in a RESP2 map (a flat key, value, ... array). */
static const redisReply *field(const redisReply *map, const char *key)
{
	size_t i;
	if (map->type != REDIS_REPLY_ARRAY)
		return NULL;
	for (i = 0; i + 1 < map->elements; i += 2)
		if (map->element[i]->type == REDIS_REPLY_STRING && strcmp(map->element[i]->str, key) == 0)
			return map->element[i + 1];
	return NULL;
}

static int is_str(const redisReply *r, const char *s)
{
	return r != NULL && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS) && strcmp(r->str, s) == 0;
}

/* The shard's primary to send to: an online one, else any (a failed one is
 * better than none: the next connect error reads the map again). NULL when
 * the shard lists no primary. */
static const redisReply *primary(const redisReply *nodes)
{
	const redisReply *any = NULL;
	size_t i;
	for (i = 0; i < nodes->elements; i++) {
		const redisReply *n = nodes->element[i];
		if (!is_str(field(n, "role"), "master"))
			continue;
		if (is_str(field(n, "health"), "online"))
			return n;
		if (any == NULL)
			any = n;
	}
	return any;
}

/* Records the shard's slot ranges as served by its primary. */
static int shard(qless_cluster *cl, const redisReply *s, short *owner, const char *asked)
{
	const redisReply *slots = field(s, "slots"), *nodes = field(s, "nodes"), *p, *host, *port;
	size_t i;
	int at;
	if (slots == NULL || nodes == NULL || slots->type != REDIS_REPLY_ARRAY || nodes->type != REDIS_REPLY_ARRAY ||
	    slots->elements % 2 != 0)
		return QLESS_EPROTOCOL;
	if (slots->elements == 0 || (p = primary(nodes)) == NULL)
		return QLESS_OK; /* a shard serving nothing (a node being added) */
	host = field(p, "endpoint");
	if (host == NULL || host->type != REDIS_REPLY_STRING || strcmp(host->str, "?") == 0 || host->len == 0)
		host = field(p, "ip");
	port = field(p, "port");
	if (host == NULL || host->type != REDIS_REPLY_STRING || port == NULL || port->type != REDIS_REPLY_INTEGER)
		return QLESS_EPROTOCOL;
	/* A node that never met another does not know its own address: it is
	 * the one asked. */
	if ((at = host->len > 0 ? qless__cluster_node_find(cl, host->str, host->len, (int)port->integer)
	                        : qless__cluster_node_find(cl, asked, strlen(asked), (int)port->integer)) < 0)
		return QLESS_ENOMEM;
	for (i = 0; i < slots->elements; i += 2) {
		long long from, to, k;
		if (slots->element[i]->type != REDIS_REPLY_INTEGER || slots->element[i + 1]->type != REDIS_REPLY_INTEGER)
			return QLESS_EPROTOCOL;
		from = slots->element[i]->integer;
		to = slots->element[i + 1]->integer;
		if (from < 0 || to >= QLESS__SLOTS || from > to)
			return QLESS_EPROTOCOL;
		for (k = from; k <= to; k++)
			owner[k] = (short)at;
	}
	return QLESS_OK;
}

int qless__cluster_map_read(qless_cluster *cl, qless__conn *conn, const char *asked, const char *func)
{
	static const char *const argv[2] = { "CLUSTER", "SHARDS" };
	redisReply *r = qless__conn_command_argv(conn, 2, (const char **)argv, NULL);
	short *owner;
	size_t i;
	int rc = QLESS_OK;

	if (r == NULL)
		return QLESS_EIO;
	if (r->type == REDIS_REPLY_ERROR) {
		rc = qless__err(QLESS_EPROTOCOL, "%s: CLUSTER SHARDS failed (a redis+cluster:// URL needs Redis 7 "
		                "in cluster mode): %s", func, r->str);
		freeReplyObject(r);
		return rc;
	}
	if (r->type != REDIS_REPLY_ARRAY || (owner = malloc(sizeof cl->owner)) == NULL) {
		rc = r->type != REDIS_REPLY_ARRAY ? qless__err(QLESS_EPROTOCOL, "%s: unexpected CLUSTER SHARDS reply", func)
		                                  : qless__err_nomem(func);
		freeReplyObject(r);
		return rc;
	}
	for (i = 0; i < QLESS__SLOTS; i++)
		owner[i] = -1;
	for (i = 0; i < r->elements && rc == QLESS_OK; i++)
		rc = shard(cl, r->element[i], owner, asked);
	freeReplyObject(r);
	if (rc == QLESS_OK)
		memcpy(cl->owner, owner, sizeof cl->owner);
	free(owner);
	if (rc == QLESS_ENOMEM)
		return qless__err_nomem(func);
	if (rc != QLESS_OK)
		return qless__err(QLESS_EPROTOCOL, "%s: unexpected CLUSTER SHARDS reply", func);
	return QLESS_OK;
}
