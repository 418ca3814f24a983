/* Redis Cluster (cluster_url.c, cluster_map.c, cluster.c): the URL, the slot
 * map and the routing of a client's commands to the node serving its
 * namespace's slot. */
#ifndef QLESS_CLUSTER_H
#define QLESS_CLUSTER_H

#include <stddef.h>

#include <hiredis/hiredis.h>

#include "qless/common.h"
#include "conn.h"
#include "slot.h"

/* One Redis node: a primary of the last slot map, a seed of the URL or a
 * redirect's target. Its connection is opened when first needed. */
typedef struct qless_node {
	char *host;
	int port;
	qless__conn *conn; /* owned; NULL until needed or after an I/O error */
} qless_node;

/* What a redis+cluster:// URL says (cluster_url.c). */
typedef struct qless_cluster_url {
	char **hosts; /* the seed nodes */
	int *ports;
	size_t nseeds;
	char *user;
	char *password;
	char *ns;          /* namespace=NAME, or NULL (then the client option's) */
	int wait_replicas; /* wait_replicas=N (0: none) */
	int wait_timeout_ms; /* wait_timeout_ms=MS (0: the default) */
} qless_cluster_url;

/* 1 when url has the redis+cluster:// scheme. */
int qless__cluster_url_is(const char *url);
/*
 * Parses redis+cluster://[[user]:password@]host:port[,host:port...]/?namespace=NAME
 * [&wait_replicas=N][&wait_timeout_ms=MS] into out (owned strings; free with
 * qless__cluster_url_free). QLESS_EINVAL naming what is wrong, the password
 * never shown: a db, an unknown parameter, a bad node. (A client without a
 * namespace, from the URL or its option, is refused by qless_client_new.)
 */
int qless__cluster_url_parse(const char *url, qless_cluster_url *out);
void qless__cluster_url_free(qless_cluster_url *u);

/* A client's cluster state. c->conn is, while a client works, borrowed from
 * nodes[cur] (code that frees c->conn after an I/O error also leaves it
 * NULL, which qless__cluster_sync carries over to the node). */
typedef struct qless_cluster {
	qless_cluster_url url;
	char *key;                /* the namespace's key "{NAME}:ql:" (c->prefix's copy) */
	unsigned slot;            /* its slot: every call goes there */
	qless_node *nodes;
	size_t nnodes;
	int cur;                  /* index of the node lent as c->conn, or -1 */
	short owner[QLESS__SLOTS]; /* node index serving each slot, -1 unknown */
	int loaded_everywhere;    /* the library went to every primary (at connect) */
} qless_cluster;

/* A new cluster state for the parsed url (taken: *url is zeroed) and the
 * namespace whose key (its prefix "{NAME}:ql:") is key. */
int qless__cluster_new(qless_cluster **out, qless_cluster_url *url, const char *key);
/* The same settings, no connection (for qless__client_clone). */
int qless__cluster_clone(const qless_cluster *src, qless_cluster **out);
/* Frees the state and every node connection; call qless__cluster_sync
 * first (c->conn is then a borrowed pointer to forget). */
void qless__cluster_free(qless_cluster *cl);

/* Carries a dropped c->conn over to the node it was lent from. */
void qless__cluster_sync(qless_client *c);
/*
 * Lends c->conn the connection of the node serving the namespace's slot,
 * reading the slot map (CLUSTER SHARDS) first if none is known and
 * connecting if needed (then *fresh is 1: the caller loads the protocol).
 * A node that refuses the connection makes the map be read again (after a
 * failover its replica serves the slot), for a bounded time.
 */
int qless__cluster_attach(qless_client *c, int *fresh, const char *func);
/*
 * Makes sure the namespace's marker key "{NAME}:ql:" exists on c->conn (the
 * namespace's node): the key every call names (KEYS[1]). A node migrating
 * the slot runs a call itself while the named key is still there and
 * redirects it (ASK) once the key has moved; with the marker moved in the
 * same MIGRATE as the namespace's other keys, a call never runs where only
 * part of the namespace is. One SET NX per new connection. 1 when the node
 * no longer serves the slot (a redirect): its connection is dropped and the
 * map forgotten, for the caller to attach again.
 */
int qless__cluster_mark(qless_client *c, const char *func);
/* Runs fn on a connection to every primary of the map (lent as c->conn in
 * turn), then lends c->conn back to the namespace's node. */
int qless__cluster_each_primary(qless_client *c, int (*fn)(qless_client *, const char *), const char *func);
/*
 * Sends argv to the node serving the namespace's slot and returns its
 * reply, following MOVED (the map is read again) and ASK (ASKING, then the
 * command on the target, once) redirects and waiting out CLUSTERDOWN and
 * TRYAGAIN for a bounded time. c->conn is left on the node that answered.
 * NULL on an I/O error with c->conn still set (the caller's qless__io_error
 * reports and drops it), or NULL with c->conn NULL after recording another
 * error (too many redirects, the cluster stays down).
 */
redisReply *qless__cluster_command(qless_client *c, int argc, const char **argv, const char *func);
/* 1 when r is a redirect or a cluster-state error: the command did not run
 * (then qless__cluster_command resends it). */
int qless__cluster_retryable(const redisReply *r);
/* A new connection (owned by the caller) to the node serving the
 * namespace's slot, for the events' subscription; c is not changed. NULL
 * after recording an error. */
qless__conn *qless__cluster_open_subscriber(const qless_client *c, const char *func);

/* Reads the slot map from the node connection conn (to host `asked`) into
 * cl (cluster_map.c): primaries of CLUSTER SHARDS, healthy ones preferred.
 * QLESS_OK, QLESS_EIO (no reply) or QLESS_EPROTOCOL (not a cluster, or an
 * unexpected shape). */
int qless__cluster_map_read(qless_cluster *cl, qless__conn *conn, const char *asked, const char *func);
/* The index of host:port in cl->nodes, added if new; -1 on OOM. */
int qless__cluster_node_find(qless_cluster *cl, const char *host, size_t hostlen, int port);

#endif
