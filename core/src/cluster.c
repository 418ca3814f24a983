/* Routing a client's commands on a Redis Cluster: every key of a namespace
 * lives in one hash slot, so every call goes to the one node serving it.
 * The node connections are opened when first needed and lent to the rest
 * of the core as c->conn; redirects and a cluster in the middle of a
 * failover are dealt with here. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "client_state.h"
#include "cluster.h"
#include "conn.h"
#include "errors.h"
#include "util.h"

/* How long a call waits for a cluster that is failing over (CLUSTERDOWN,
 * TRYAGAIN, a primary that refuses connections until its replica is
 * promoted), and how many redirects it follows. */
#define RECOVER_MS 5000
#define MAX_REDIRECTS 5
#define PAUSE_MS 100

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void pause_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void slots_unknown(qless_cluster *cl)
{
	size_t i;
	for (i = 0; i < QLESS__SLOTS; i++)
		cl->owner[i] = -1;
}

static int make(qless_cluster **out, qless_cluster_url *url, const char *key)
{
	qless_cluster *cl = calloc(1, sizeof *cl);
	size_t i;
	*out = NULL;
	if (cl == NULL)
		return qless__err_nomem("qless_client_new");
	cl->url = *url;
	memset(url, 0, sizeof *url);
	cl->cur = -1;
	slots_unknown(cl);
	/* Routed by the namespace's hash tag: all its keys have this slot. */
	if ((cl->key = qless__strdup(key)) == NULL) {
		qless__cluster_free(cl);
		return qless__err_nomem("qless_client_new");
	}
	cl->slot = qless__key_slot(key, strlen(key));
	for (i = 0; i < cl->url.nseeds; i++)
		if (qless__cluster_node_find(cl, cl->url.hosts[i], strlen(cl->url.hosts[i]), cl->url.ports[i]) < 0) {
			qless__cluster_free(cl);
			return qless__err_nomem("qless_client_new");
		}
	*out = cl;
	return QLESS_OK;
}

int qless__cluster_new(qless_cluster **out, qless_cluster_url *url, const char *key)
{
	return make(out, url, key);
}

static char *dup_opt(const char *s, int *oom)
{
	char *d;
	if (s == NULL)
		return NULL;
	if ((d = qless__strdup(s)) == NULL)
		*oom = 1;
	return d;
}

int qless__cluster_clone(const qless_cluster *src, qless_cluster **out)
{
	qless_cluster_url u;
	size_t i;
	int oom = 0, rc;
	memset(&u, 0, sizeof u);
	*out = NULL;
	/* The seeds of the copy: the nodes its source knows (the map's
	 * primaries included), so that a clone made during an outage of the
	 * URL's nodes still finds the cluster. */
	u.hosts = calloc(src->nnodes, sizeof *u.hosts);
	u.ports = calloc(src->nnodes, sizeof *u.ports);
	if (u.hosts == NULL || u.ports == NULL)
		oom = 1;
	for (i = 0; !oom && i < src->nnodes; i++) {
		u.hosts[i] = dup_opt(src->nodes[i].host, &oom);
		u.ports[i] = src->nodes[i].port;
		u.nseeds = i + 1;
	}
	u.user = dup_opt(src->url.user, &oom);
	u.password = dup_opt(src->url.password, &oom);
	u.wait_replicas = src->url.wait_replicas;
	u.wait_timeout_ms = src->url.wait_timeout_ms;
	if (oom) {
		qless__cluster_url_free(&u);
		return qless__err_nomem("qless_client_clone");
	}
	rc = make(out, &u, src->key);
	qless__cluster_url_free(&u);
	if (rc == QLESS_OK) {
		memcpy((*out)->owner, src->owner, sizeof src->owner);
		/* The source loaded the library everywhere already. */
		(*out)->loaded_everywhere = src->loaded_everywhere;
	}
	return rc;
}

void qless__cluster_free(qless_cluster *cl)
{
	size_t i;
	if (cl == NULL)
		return;
	for (i = 0; i < cl->nnodes; i++) {
		if (cl->nodes[i].conn != NULL)
			qless__conn_free(cl->nodes[i].conn);
		free(cl->nodes[i].host);
	}
	free(cl->nodes);
	free(cl->key);
	qless__cluster_url_free(&cl->url);
	free(cl);
}

void qless__cluster_sync(qless_client *c)
{
	qless_cluster *cl = c->cluster;
	if (cl->cur >= 0 && c->conn != cl->nodes[cl->cur].conn) {
		/* Whoever dropped c->conn freed it. */
		cl->nodes[cl->cur].conn = NULL;
		cl->cur = -1;
	}
}

static void lend(qless_client *c, int i)
{
	qless__cluster_sync(c);
	c->cluster->cur = i;
	c->conn = i >= 0 ? c->cluster->nodes[i].conn : NULL;
}

static void drop(qless_client *c, int i)
{
	qless_cluster *cl = c->cluster;
	qless__cluster_sync(c);
	if (cl->nodes[i].conn != NULL)
		qless__conn_free(cl->nodes[i].conn);
	cl->nodes[i].conn = NULL;
	if (cl->cur == i) {
		cl->cur = -1;
		c->conn = NULL;
	}
}

/* The one place a node connection is opened: the client's settings (TLS,
 * AUTH, the connect timeout) towards the node's host and port. */
static qless__conn *node_open(const qless_client *c, const qless_node *n)
{
	qless_sigpipe_guard g;
	qless__conn *conn;
	qless__sigpipe_block(&g);
	conn = qless__conn_open(&c->url, n->host, n->port, 0, c->connect_timeout_ms);
	qless__sigpipe_restore(&g, conn == NULL);
	return conn;
}

/* Opens node i's connection if needed (commands then bounded by the
 * command timeout unless handshake). 1 when opened now, 0 when open
 * already, <0 after recording an error. */
static int node_ready(qless_client *c, int i, int handshake)
{
	qless_node *n = &c->cluster->nodes[i];
	if (n->conn != NULL && qless__conn_stale(n->conn))
		drop(c, i);
	if (n->conn != NULL)
		return 0;
	if ((n->conn = node_open(c, n)) == NULL)
		return qless_error_last_code();
	if (!handshake && qless__conn_bound(n->conn, c->command_timeout_ms, "command") != QLESS_OK) {
		int rc = qless_error_last_code();
		drop(c, i);
		return rc;
	}
	return 1;
}

/* Reads the slot map from the first node that answers. */
static int refresh(qless_client *c, const char *func)
{
	qless_cluster *cl = c->cluster;
	size_t i;
	int rc = QLESS_EIO;
	for (i = 0; i < cl->nnodes; i++) {
		if (node_ready(c, (int)i, 0) < 0)
			continue;
		rc = qless__cluster_map_read(cl, cl->nodes[i].conn, cl->nodes[i].host, func);
		if (rc == QLESS_OK)
			return QLESS_OK;
		if (rc != QLESS_EIO)
			return rc;
		drop(c, (int)i);
	}
	return qless__err(QLESS_EIO, "%s: no node of the cluster answered CLUSTER SHARDS (%zu tried)", func,
	                  cl->nnodes);
}

int qless__cluster_attach(qless_client *c, int *fresh, const char *func)
{
	qless_cluster *cl = c->cluster;
	long long deadline = 0;
	int rc;

	*fresh = 0;
	qless__cluster_sync(c);
	for (;;) {
		int i = cl->owner[cl->slot];
		if (i < 0) {
			if ((rc = refresh(c, func)) != QLESS_OK && rc != QLESS_EIO)
				return rc;
			i = cl->owner[cl->slot];
			if (i < 0 && rc == QLESS_OK)
				rc = qless__err(QLESS_EIO, "%s: no node of the cluster serves slot %u (of %s)", func,
				                cl->slot, cl->key);
		}
		if (i >= 0) {
			rc = node_ready(c, i, 1);
			if (rc >= 0) {
				*fresh = rc;
				lend(c, i);
				return QLESS_OK;
			}
			/* Refused: after a failover another node serves the slot. */
			slots_unknown(cl);
		}
		if (rc != QLESS_EIO)
			return rc;
		if (deadline == 0)
			deadline = mono_ms() + RECOVER_MS;
		else if (mono_ms() >= deadline)
			return rc;
		pause_ms(PAUSE_MS);
	}
}

int qless__cluster_mark(qless_client *c, const char *func)
{
	const char *argv[4] = { "SET", c->cluster->key, "qless namespace", "NX" };
	redisReply *r = qless__conn_command_argv(c->conn, 4, argv, NULL);
	int rc = QLESS_OK;
	if (r == NULL)
		return qless__io_error(c, func);
	if (qless__cluster_retryable(r)) {
		/* The map was read before a failover or a migration finished:
		 * this node no longer serves the slot. */
		int i = c->cluster->cur;
		freeReplyObject(r);
		slots_unknown(c->cluster);
		drop(c, i);
		pause_ms(PAUSE_MS);
		return 1;
	}
	if (r->type == REDIS_REPLY_ERROR)
		rc = qless__err(QLESS_EIO, "%s: cannot write the namespace's marker key: %s", func, r->str);
	freeReplyObject(r);
	return rc;
}

int qless__cluster_each_primary(qless_client *c, int (*fn)(qless_client *, const char *), const char *func)
{
	qless_cluster *cl = c->cluster;
	unsigned char *seen = calloc(cl->nnodes + 1, 1);
	size_t s;
	int rc = QLESS_OK, home = cl->cur;

	if (seen == NULL)
		return qless__err_nomem(func);
	for (s = 0; s < QLESS__SLOTS && rc == QLESS_OK; s++) {
		int i = cl->owner[s];
		if (i < 0 || (size_t)i >= cl->nnodes || seen[i])
			continue;
		seen[i] = 1;
		if (node_ready(c, i, 1) < 0) {
			rc = qless_error_last_code();
			break;
		}
		lend(c, i);
		rc = fn(c, func);
		qless__cluster_sync(c);
		if (rc == QLESS_OK && cl->nodes[i].conn != NULL)
			rc = qless__conn_bound(cl->nodes[i].conn, c->command_timeout_ms, "command");
	}
	free(seen);
	lend(c, home >= 0 ? home : -1);
	if (home >= 0 && c->conn == NULL)
		cl->cur = -1;
	return rc;
}

int qless__cluster_retryable(const redisReply *r)
{
	if (r == NULL || r->type != REDIS_REPLY_ERROR)
		return 0;
	return strncmp(r->str, "MOVED ", 6) == 0 || strncmp(r->str, "ASK ", 4) == 0 ||
	       strncmp(r->str, "TRYAGAIN", 8) == 0 || strncmp(r->str, "CLUSTERDOWN", 11) == 0;
}

/* The node a MOVED or ASK reply names ("MOVED <slot> <host>:<port>"),
 * added to the table if new; -1 when unreadable. */
static int redirect_target(qless_cluster *cl, const char *str)
{
	const char *sp = strchr(str, ' '), *addr, *colon;
	int port = 0;
	if (sp == NULL || (addr = strchr(sp + 1, ' ')) == NULL)
		return -1;
	addr++;
	if ((colon = strrchr(addr, ':')) == NULL || colon == addr)
		return -1;
	port = atoi(colon + 1);
	if (port <= 0 || port > 65535)
		return -1;
	return qless__cluster_node_find(cl, addr, (size_t)(colon - addr), port);
}

/* ASKING then the command on node i, pipelined; the command's reply. */
static redisReply *send_asking(qless__conn *conn, int argc, const char **argv)
{
	static const char *const asking[1] = { "ASKING" };
	redisReply *r;
	if (qless__conn_append_argv(conn, 1, (const char **)asking, NULL) != QLESS_OK ||
	    qless__conn_append_argv(conn, argc, argv, NULL) != QLESS_OK)
		return NULL;
	if ((r = qless__conn_get_reply(conn)) == NULL)
		return NULL;
	freeReplyObject(r);
	return qless__conn_get_reply(conn);
}

/* Gives up a command: the error is recorded, c->conn is left NULL (the
 * node keeps its connection). */
static redisReply *give_up(qless_client *c, redisReply *r, const char *func, const char *why)
{
	qless__err(QLESS_EIO, "%s: %s: %s", func, why, r->str);
	freeReplyObject(r);
	lend(c, -1);
	return NULL;
}

redisReply *qless__cluster_command(qless_client *c, int argc, const char **argv, const char *func)
{
	qless_cluster *cl = c->cluster;
	long long deadline = 0;
	int ask = -1, redirects = 0, fresh;

	for (;;) {
		redisReply *r;
		if (ask >= 0) {
			if (node_ready(c, ask, 0) < 0) {
				lend(c, -1);
				return NULL;
			}
			lend(c, ask);
			r = send_asking(c->conn, argc, argv);
		} else {
			if (qless__cluster_attach(c, &fresh, func) != QLESS_OK) {
				lend(c, -1);
				return NULL;
			}
			if (fresh && qless__conn_bound(c->conn, c->command_timeout_ms, "command") != QLESS_OK) {
				drop(c, cl->cur);
				return NULL;
			}
			r = qless__conn_command_argv(c->conn, argc, argv, NULL);
		}
		ask = -1;
		if (r == NULL || !qless__cluster_retryable(r))
			return r;
		if (strncmp(r->str, "MOVED ", 6) == 0 || strncmp(r->str, "ASK ", 4) == 0) {
			int to = redirect_target(cl, r->str);
			if (to < 0)
				return give_up(c, r, func, "unreadable redirect");
			if (++redirects > MAX_REDIRECTS)
				return give_up(c, r, func, "too many cluster redirects (the slot map keeps changing)");
			if (r->str[0] == 'A') {
				ask = to;
			} else {
				/* Nodes that disagree for a moment (a slot just handed
				 * over, its new owner not told yet) bounce the call:
				 * give them the time to agree. */
				if (redirects > 2)
					pause_ms(PAUSE_MS / 10);
				/* The map changed: read it again; until then the redirect's node. */
				cl->owner[cl->slot] = (short)to;
				if (refresh(c, func) != QLESS_OK)
					cl->owner[cl->slot] = (short)to;
			}
		} else {
			/* CLUSTERDOWN, TRYAGAIN: a failover or a migration under way. */
			if (deadline == 0)
				deadline = mono_ms() + RECOVER_MS;
			else if (mono_ms() >= deadline)
				return give_up(c, r, func, "the cluster did not recover within 5 s");
			pause_ms(PAUSE_MS);
			slots_unknown(cl);
		}
		freeReplyObject(r);
	}
}

qless__conn *qless__cluster_open_subscriber(const qless_client *c, const char *func)
{
	/* A copy of the client with a cluster state of its own: the client
	 * itself may be busy on another thread (a worker's lock watch). */
	qless_client like = *c;
	qless__conn *conn = NULL;
	int fresh;
	like.conn = NULL;
	if (qless__cluster_clone(c->cluster, &like.cluster) != QLESS_OK)
		return NULL;
	if (qless__cluster_attach(&like, &fresh, func) == QLESS_OK) {
		conn = like.conn;
		like.cluster->nodes[like.cluster->cur].conn = NULL;
	}
	qless__cluster_free(like.cluster);
	return conn;
}
