/* The client's state (client.c): settings, connection, protocol target and clock. */
#ifndef QLESS_CLIENT_STATE_H
#define QLESS_CLIENT_STATE_H

#include <hiredis/hiredis.h>

#include "qless/common.h"
#include "url.h"

typedef struct qless__conn qless__conn;

struct qless_client {
	int refs;   /* atomic (qless__client_ref); 1 for the caller + 1 per handle made from it */
	qless__conn *conn;      /* NULL: not connected (connects before the next call) */
	qless_url url;
	int connect_timeout_ms;
	int command_timeout_ms;
	char *worker_name;
	double offset;
	/* Non-zero: the now every call sends until unpinned (qless__pin_now). */
	double pinned_now;
	char sha[48];
	/* FCALL target when the server took libqless' function library
	 * (qless__ensure), else "" and calls go by EVALSHA of sha. */
	char fn[48];
	/* Set from QLESS_EVALSHA when the client is made: never use FCALL. */
	int evalsha_only;
	char nowbuf[48];
	/* Set while ensure connects and loads the protocol: errors then name
	 * the connect timeout, which bounds those steps. */
	int handshake;
	/* ql:features as read at the last connect: JSON object text, owned. */
	char *features;
	/* The namespace (owned) or NULL, and the prefix of every key and
	 * channel: "{NAME}:ql:" (owned; also the one key each call names) or
	 * "ql:" (static). Set once when the client is made. */
	char *ns;
	char *prefix;
	/* redis+cluster://: the slot map and node connections (c->conn is then
	 * lent by it, never freed here); NULL on a single server. */
	struct qless_cluster *cluster;
	/* wait_replicas: a WAIT for that many replicas after each call that
	 * may have written, bounded by wait_timeout_ms (call.c). */
	int wait_replicas;
	int wait_timeout_ms;
};
/* Prefix "ql:" or "{NAME}:ql:" of c's keys and channels. */
#define QLESS_KEY_PREFIX(c) ((c)->prefix)
void qless__client_ref(qless_client *c);
void qless__client_unref(qless_client *c);
/* A new connected client with src's settings (for another thread). */
int qless__client_clone(const qless_client *src, qless_client **out);
double qless__now(const qless_client *c);
/* Fixes the now the client's calls send to the current one, rounded to the
 * microsecond as sent, and returns it: a time computed as now + d on the
 * server is then exactly the one the caller meant. Until qless__unpin_now. */
double qless__pin_now(qless_client *c);
void qless__unpin_now(qless_client *c);

#endif
