/*
 * qless_heartbeater: keeps a running job's lock alive from a background
 * thread, on a connection of its own, while the program works on the job.
 * This is how workers in every language heartbeat long jobs without
 * threads of their own.
 */
#ifndef QLESS_HEARTBEATER_H
#define QLESS_HEARTBEATER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Starts heartbeating job (held by its client's worker) every interval
 * seconds (> 0; a good value is a third of the queue's heartbeat). The job
 * handle is only read here: the thread keeps copies of what it needs.
 * *out owned: qless_heartbeater_free stops the thread.
 */
QLESS_EXTERN(int) qless_heartbeater_new(qless_heartbeater **out, qless_job *job, double interval);
/* 1 once a heartbeat was refused because the lock was lost (the thread
 * then stops), else 0. */
QLESS_EXTERN(qless_bool) qless_heartbeater_lost(const qless_heartbeater *heartbeater);
/* Number of heartbeats that succeeded so far. */
QLESS_EXTERN(int64_t) qless_heartbeater_beats(const qless_heartbeater *heartbeater);
/* Stops the thread (waiting for an in-flight heartbeat) and frees. */
QLESS_EXTERN(void) qless_heartbeater_free(qless_heartbeater *heartbeater);

#ifdef __cplusplus
}
#endif
#endif
