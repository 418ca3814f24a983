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

/* The worker engine's lean settle (the reply leaves the job's fields out:
 * the engine drops its copy of the job): a caught up with "lean" after
 * qless__settle_args, then qless__settle_job_args (how NULL: a reservation
 * alone, no "lean"). *state (size bytes) is what the job became: complete's,
 * suspend's or terminated's state, "failed" (fail; a retry with none left)
 * or "retried"; *out_next the jobs popped (owned). */
int qless__settle_lean(qless_client *c, const char *func, qless_args *a, const char *how, char *state, size_t size,
                       qless_joblist **out_next);

/* One settle of a batch. The caller fills job (borrowed), how, delay,
 * group and message (as qless__settle_job_args takes them; borrowed); the
 * batch sets rc (QLESS_OK, or the code of this settle's refusal, e.g.
 * QLESS_ELOCK), error (the refusal's message, owned: free; NULL when
 * settled), state (as qless__settle_lean's) and result (retry's remaining).
 * The job's snapshot is left as it was. */
typedef struct qless_settle_item {
	qless_job *job;
	const char *how;
	double delay;
	const char *group, *message;
	int rc;
	char *error;
	char state[24];
	int64_t result;
} qless_settle_item;

/* `settle ... lean batch` (protocol.md, "settle batch"): settles items[0..n)
 * as c's worker and pops up to count jobs (*out_next, owned) in one call.
 * Returns QLESS_OK when the call went through, whatever each item's
 * outcome; an error of the call itself (I/O, a malformed item) leaves every
 * item unsettled. n 0: a plain pop. */
int qless__settle_batch(qless_client *c, const char *func, const char *queues_json, int count,
                        qless_settle_item *items, size_t n, qless_joblist **out_next);

#endif
