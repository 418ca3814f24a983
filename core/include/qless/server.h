/*
 * The embedded server: a private redis-server that libqless starts on
 * demand, so that a program (or the `qless` command line, or any binding)
 * given no URL just works. It listens only on a unix socket in its state
 * directory, with append-only persistence, so jobs survive a restart.
 *
 * State directory (dir NULL below): $QLESS_HOME if set, else
 * $XDG_STATE_HOME/qless, else $HOME/.local/state/qless. It holds
 * redis.sock, redis.pid, redis.log, redis.conf and the data files.
 * The redis-server program is $QLESS_REDIS_SERVER if set, else
 * `redis-server` on PATH.
 */
#ifndef QLESS_SERVER_H
#define QLESS_SERVER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The state directory that dir NULL stands for. *out owned. */
QLESS_EXTERN(int) qless_server_dir(char **out);

/*
 * Starts the server of dir (NULL: the default) unless it is already
 * running, and waits until it answers. *out_url (may be NULL) receives its
 * URL, "unix://<dir>/redis.sock", owned. Starting is safe against a
 * concurrent start by another process (one server per directory).
 */
QLESS_EXTERN(int) qless_server_start(char **out_url, const char *dir);

/* Stops the server of dir (persisting its data first) and waits until it
 * has exited. Not running is not an error. */
QLESS_EXTERN(int) qless_server_stop(const char *dir);

/* Whether the server of dir runs: *out_running 1/0, *out_pid its pid (0 if
 * not running), *out_url its URL (owned; set even when not running). Any
 * out-pointer may be NULL. */
QLESS_EXTERN(int) qless_server_status(int *out_running, int64_t *out_pid, char **out_url, const char *dir);

#ifdef __cplusplus
}
#endif
#endif
