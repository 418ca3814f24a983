/* The job loop (job_loop.c) and the parts of it the batched thread pool
 * (pool_batch.c) shares. */
#ifndef QLESS_JOB_LOOP_H
#define QLESS_JOB_LOOP_H

#include "engine.h"
#include "result.h"

/* Reserves, performs and settles jobs in slot until a stop, max_jobs or
 * an outage past give_up; QLESS_ENOMEM when it could not go on. */
int qless__slot_loop(qless_slot *s);

/* Performs job in slot s (allow-list, tree start or shutdown run, heartbeats
 * while it runs) into *r and *took; *settle 1 when the engine must settle it
 * by *r, 0 when it was dropped or the job's code settled it itself (both
 * logged). QLESS_ENOMEM when the loop cannot go on. */
int qless__slot_run(qless_slot *s, qless_job *job, qless_result *r, double *took, int *settle);

/* One reservation against max_jobs: 1, or 0 once stopping or all claimed;
 * unclaim gives one back (a reservation that found no job). */
int qless__claim(qless_worker *w);
void qless__unclaim(qless_worker *w);
/* max_jobs is set and every one of them is claimed. */
int qless__max_jobs_claimed(qless_worker *w);

/* The settle `how` of r's outcome; *delay the retry's delay (the policy's
 * backoff when r gives none), else 0. */
const char *qless__outcome_how(const qless_worker *w, const qless_job *job, const qless_result *r, double *delay);
/* Logs a settle by r that left the job in `state` (qless__settle_lean's). */
void qless__log_settled(qless_slot *s, qless_job *job, const qless_result *r, double took, double delay,
                        const char *state);
/* After a settle refused on its retry past an outage: whether the first try
 * went through (the job reads as that settle leaves it; refreshes job). */
int qless__settled_before(qless_job *job, const qless_result *r);
void qless__result_free(qless_result *r);

#endif
