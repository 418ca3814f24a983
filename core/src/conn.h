/* hiredis connections (conn.c): connecting, timeouts, the SIGPIPE guard and I/O errors. */
#ifndef QLESS_CONN_H
#define QLESS_CONN_H

#include <signal.h>
#include <stddef.h>

#include <hiredis/hiredis.h>

#include "qless/common.h"

/* hiredis 0.14 writes with write(2): a write to a connection the server
 * closed would raise SIGPIPE and kill the program. Around our I/O the
 * signal is blocked on the calling thread and a SIGPIPE it caused is
 * consumed, so the failure surfaces as QLESS_EIO instead. */
typedef struct qless_sigpipe_guard {
	sigset_t old;
	int was_blocked;
} qless_sigpipe_guard;
void qless__sigpipe_block(qless_sigpipe_guard *g);
/* failed: the guarded operation failed (then a SIGPIPE it raised is taken). */
void qless__sigpipe_restore(qless_sigpipe_guard *g, int failed);

/* Opens a hiredis connection as configured (AUTH and SELECT done).
 * Returns NULL after recording an error. */
redisContext *qless__connect(qless_client *c, int select_db);
/* Bounds each later read and write on ctx by ms (<= 0: unbounded); which
 * ("connect", "command") names the timeout in the error. */
int qless__conn_bound(redisContext *ctx, int ms, const char *which);
/* ctx's error as text for a message; a read or write that ran out of its
 * ms names the timeout instead of "Resource temporarily unavailable". */
const char *qless__io_reason(const redisContext *ctx, const char *which, int ms, char *buf, size_t size);
/* 1 when ctx, idle (no reply owed), cannot carry a command: the server
 * closed it or it failed. Checked before anything is sent on a kept
 * connection, so that a restart of Redis costs a reconnect, not a failed
 * call (and no command is ever sent twice). One system call. */
int qless__conn_stale(const redisContext *ctx);
/* Drops the connection after an I/O error; records QLESS_EIO. */
int qless__io_error(qless_client *c, const char *what);

#endif
