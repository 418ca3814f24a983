/* The `settle` command (job_settle.c). */
#ifndef QLESS_JOB_SETTLE_H
#define QLESS_JOB_SETTLE_H

#include <stdint.h>

#include "qless/qless.h"
#include "args.h"

/* The `settle` command (settle.lua): qless__settle_args starts the
 * arguments (worker, queues JSON list, count to pop), qless__settle_job_args
 * adds `how` ("complete", "fail" or "retry") with the job's jid, queue and
 * data, then retry's delay and fail's or retry's group and message (group
 * NULL: none); complete's options, if any, the caller adds after.
 * qless__settle runs it: job (if not NULL) takes its fields from the reply
 * (its state from a string result when state_from_result: complete),
 * *out_result the integer result (retry's remaining), *out_next (if not
 * NULL) the jobs popped. */
void qless__settle_args(qless_args *a, const char *worker, const char *queues_json, int count);
void qless__settle_job_args(qless_args *a, const qless_job *job, const char *how, double delay, const char *group,
                            const char *message);
int qless__settle(qless_client *c, const char *func, qless_args *a, qless_job *job, int state_from_result,
                  int64_t *out_result, qless_joblist **out_next);

#endif
