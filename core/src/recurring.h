/* Recurring job templates (recur.c), shared with the schedule facade. */
#ifndef QLESS_RECURRING_H
#define QLESS_RECURRING_H

#include "qless/qless.h"

/* recur (qless_queue_recur, qless_queue_recur_cron, the schedule facade):
 * an interval template when expr is NULL, else a cron template of expr
 * (already checked). o: a current-version struct, whose priority, retries,
 * backlog and tags are sent only when send_opts is set (else the protocol's
 * defaults apply). unique: NULL, "1" or "report" (then *out_inserted, which
 * may be NULL, is set). *out_jid (may be NULL) owned. */
int qless__recur(qless_queue *queue, const char *func, char **out_jid, int *out_inserted, const char *klass,
                 const char *data, double interval, const char *expr, const qless_recur_options *o,
                 int send_opts, const char *unique);

#endif
