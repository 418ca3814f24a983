/* The protocol call (call.c): one command or a pipelined batch, and reply shapes. */
#ifndef QLESS_CALL_H
#define QLESS_CALL_H

#include <stddef.h>
#include <stdint.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/common.h"
#include "args.h"

/*
 * Runs the protocol command with the arguments gathered in a (a is freed).
 * On success *out is the reply (never an error reply); free with
 * freeReplyObject. Script errors are mapped to codes.
 */
int qless__call(qless_client *c, const char *func, const char *cmd, qless_args *a, redisReply **out);
/*
 * n calls in one round trip (pipelined, the same `now`; each as[i] freed).
 * replies[i] is the reply (may be an error reply; rcs[i] then holds its
 * code), or NULL for all on an I/O or memory error, whose code is returned
 * and stored in every rcs[i]. Else returns QLESS_OK or the first failed
 * call's code (its message is the last error).
 */
int qless__call_many(qless_client *c, const char *func, size_t n, const char *const *cmds, qless_args *as,
                     redisReply **replies, int *rcs);

/* call + the reply as parsed JSON / integer / ignored. */
int qless__call_json(qless_client *c, const char *func, const char *cmd, qless_args *a, json_t **out);
/* Like qless__call_json, but a nil reply is QLESS_ENOTFOUND ("<what> <id> does not exist"). */
int qless__call_json_found(qless_client *c, const char *func, const char *cmd, qless_args *a, json_t **out,
                           const char *what, const char *id);
int qless__call_int(qless_client *c, const char *func, const char *cmd, qless_args *a, int64_t *out);
int qless__call_void(qless_client *c, const char *func, const char *cmd, qless_args *a);
/* call + a text reply (string or status) copied into *out (owned). A nil
 * reply: *out NULL with QLESS_OK when what is NULL, else QLESS_ENOTFOUND
 * ("<what> <id> does not exist"). */
int qless__call_str(qless_client *c, const char *func, const char *cmd, qless_args *a, char **out,
                    const char *what, const char *id);
/* Helpers checking a reply's shape (EPROTOCOL otherwise). */
int qless__reply_json(redisReply *r, const char *func, json_t **out);
int qless__reply_int(redisReply *r, const char *func, int64_t *out);
/* Writes t as "%.6f" into buf (at least 48 bytes): the now a call sends. */
void qless__fmt_now(char *buf, double t);

#endif
