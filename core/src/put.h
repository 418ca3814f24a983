/* The put shared by put, put_unique and requeue (put.c). */
#ifndef QLESS_PUT_H
#define QLESS_PUT_H

#include <hiredis/hiredis.h>

#include "qless/qless.h"

/* Puts for queue_put, queue_put_unique and job_requeue. opts: as read by
 * qless__put_options (never NULL). unique: NULL, "1" or "report"; with
 * "report", *out_inserted (may be NULL) is set. */
int qless__put(qless_client *c, const char *func, const char *cmd, const char *queue, char **out_jid,
               int *out_inserted, const char *klass, const char *data, const qless_put_options *opts,
               const char *unique);
/* The caller's put options (opts may be NULL) as a current-version struct. */
int qless__put_options(const char *func, const qless_put_options *opts, qless_put_options *o);
/* The reply of a put or recur with `unique report`: {"jid", "inserted", ...}.
 * Takes r. *out_jid (may be NULL) owned; *out_inserted may be NULL. */
int qless__reply_report(const char *func, redisReply *r, char **out_jid, int *out_inserted);
/* The reply of a put or recur: the jid, or with unique "report" the
 * report (qless__reply_report). Takes r. *out_jid (may be NULL) owned. */
int qless__reply_put(const char *func, redisReply *r, const char *unique, char **out_jid, int *out_inserted);

#endif
