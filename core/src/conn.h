/* Connections to one Redis (conn.c, conn_tls.c): the core's own transport.
 * TCP, unix sockets and TLS share one path; hiredis only formats commands
 * and parses replies (redisFormatCommandArgv, redisReader). */
#ifndef QLESS_CONN_H
#define QLESS_CONN_H

#include <signal.h>
#include <stddef.h>

#include <hiredis/hiredis.h>

#include "qless/common.h"
#include "url.h"

/* A write to a connection the server closed would raise SIGPIPE and kill
 * the program (OpenSSL writes with write(2)). Around our I/O the signal is
 * blocked on the calling thread and a SIGPIPE it caused is consumed, so
 * the failure surfaces as QLESS_EIO instead. */
typedef struct qless_sigpipe_guard {
	sigset_t old;
	int was_blocked;
} qless_sigpipe_guard;
void qless__sigpipe_block(qless_sigpipe_guard *g);
/* failed: the guarded operation failed (then a SIGPIPE it raised is taken). */
void qless__sigpipe_restore(qless_sigpipe_guard *g, int failed);

/* One blocking connection: a socket (TLS or not), the bytes still to send
 * and the reply parser. Not thread-safe: one thread at a time. */
typedef struct qless__conn qless__conn;

/*
 * Connects to host:port (TCP; host may be a name, an IPv4 or an IPv6
 * address) or, host NULL, to where u points (u->path: unix socket, else
 * u->host:u->port). TLS, the CA, the client certificate, the user and the
 * password come from u in both cases (u->tls: TLS with server certificate
 * and host name verification unless u->tls_insecure). AUTH [user] password
 * is sent when u has a password, SELECT u->db when select_db and the db is
 * not 0. Every step (connect, TLS handshake, AUTH, SELECT) is bounded by
 * connect_ms (<= 0: unbounded), and the connection keeps that bound until
 * qless__conn_bound changes it.
 * Returns a new connection (free with qless__conn_free) or NULL after
 * recording QLESS_EIO (or QLESS_ENOMEM) with a message naming the address
 * and what failed (never the password).
 */
qless__conn *qless__conn_open(const qless_url *u, const char *host, int port, int select_db, int connect_ms);
void qless__conn_free(qless__conn *conn);
/* Bounds each later wait for the socket to ms (<= 0: unbounded); which
 * ("connect", "command") names the timeout in the error. Always QLESS_OK. */
int qless__conn_bound(qless__conn *conn, int ms, const char *which);
/* Sends one command and reads its reply. argvlen may be NULL (C strings).
 * Returns the reply (owned: freeReplyObject) or NULL on an I/O or protocol
 * error (then qless__conn_errstr says what, and the connection is dead). */
redisReply *qless__conn_command_argv(qless__conn *conn, int argc, const char **argv, const size_t *argvlen);
/* Pipelines: queues one command (nothing is sent yet); QLESS_OK or
 * QLESS_ENOMEM (recorded). */
int qless__conn_append_argv(qless__conn *conn, int argc, const char **argv, const size_t *argvlen);
/* Sends what is queued, then returns the next reply (owned) or NULL on
 * error, as qless__conn_command_argv. */
redisReply *qless__conn_get_reply(qless__conn *conn);
/* Without waiting: a reply already received (complete), reading what the
 * socket holds now. QLESS_OK with *out NULL when none is complete yet;
 * QLESS_EIO (not recorded: see qless__conn_errstr) on error. After *out
 * NULL, poll(qless__conn_fd) for POLLIN before calling again. */
int qless__conn_try_reply(qless__conn *conn, redisReply **out);
/* The socket, for poll(2) only. */
int qless__conn_fd(const qless__conn *conn);
/* What went wrong on conn ("" if nothing); borrowed, valid until the next
 * operation on conn. A wait that ran out of its bound names the timeout. */
const char *qless__conn_errstr(const qless__conn *conn);
/* 1 when conn, idle (no reply owed), cannot carry a command: the server
 * closed it, it failed, or bytes nobody asked for are waiting. Checked
 * before anything is sent on a kept connection, so that a restart of
 * Redis costs a reconnect, not a failed call (and no command is ever sent
 * twice). One system call on a healthy plain connection. */
int qless__conn_stale(qless__conn *conn);

/* Opens a connection for client c (its URL, AUTH, SELECT when select_db,
 * its connect timeout), inside the SIGPIPE guard. NULL after recording an
 * error. */
qless__conn *qless__connect(qless_client *c, int select_db);
/* Drops c's connection after an I/O error; records QLESS_EIO naming what. */
int qless__io_error(qless_client *c, const char *what);

#endif
