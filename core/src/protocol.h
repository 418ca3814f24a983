/* Loading the protocol on a connection (protocol.c). */
#ifndef QLESS_PROTOCOL_H
#define QLESS_PROTOCOL_H

#include <hiredis/hiredis.h>

#include "qless/common.h"

/* Ensures c->ctx is connected with the protocol loaded: the function
 * library (FCALL) where the server has Functions, else the script (EVALSHA).
 * Inside the SIGPIPE guard: a server that closes the connection while the
 * protocol is being loaded is QLESS_EIO, not a dead process. */
int qless__ensure(qless_client *c);
/* qless__ensure for callers already inside the SIGPIPE guard. */
int qless__ensure_unguarded(qless_client *c);
/* Loads the protocol on c->ctx: FCALL if possible, else EVALSHA. */
int qless__protocol_load(qless_client *c, const char *func);
/* An error reply saying the server will not run commands on this
 * connection for now (loading, busy, wants a password): records QLESS_EIO,
 * frees r, drops the connection and returns QLESS_EIO. 0, r untouched,
 * for any other reply. */
int qless__unavailable(qless_client *c, redisReply *r, const char *func);
/* Non-zero when QLESS_EVALSHA asks clients to stay on EVALSHA. */
int qless__evalsha_env(void);

#endif
