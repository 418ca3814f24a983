/*
 * qless_worker: support for C programs that process jobs. It reserves jobs
 * from several queues under the client's worker name and learns about lost
 * locks from the worker's own event channel (ql:w:<name>).
 */
#ifndef QLESS_WORKER_H
#define QLESS_WORKER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qless_reserve_order {
	QLESS_RESERVE_ORDERED = 0,     /* always try the queues in the given order */
	QLESS_RESERVE_ROUND_ROBIN = 1  /* start each reservation after the last queue tried */
} qless_reserve_order;

#define QLESS_WORKER_OPTIONS_VERSION 1

typedef struct qless_worker_options {
	unsigned int version;        /* QLESS_WORKER_OPTIONS_VERSION */
	qless_reserve_order order;
	int watch_locks;             /* non-zero: subscribe to ql:w:<name> for lost locks */
} qless_worker_options;

#define QLESS_WORKER_OPTIONS_INIT { QLESS_WORKER_OPTIONS_VERSION, QLESS_RESERVE_ORDERED, 1 }

QLESS_EXTERN(int) qless_worker_options_init(qless_worker_options *opts, unsigned int version);

/* *out owned (qless_worker_free). queues: at least one name, copied. */
QLESS_EXTERN(int) qless_worker_new(qless_worker **out, qless_client *client, const char *const *queues,
                                   size_t nqueues, const qless_worker_options *opts);
QLESS_EXTERN(void) qless_worker_free(qless_worker *worker);
/* Borrowed: valid until the worker is freed. */
QLESS_EXTERN(const char *) qless_worker_name(const qless_worker *worker);

/* Pops one job from the first queue (in the reservation order) that has
 * one. *out: owned job, or NULL when every queue is empty or paused. */
QLESS_EXTERN(int) qless_worker_reserve(qless_worker *worker, qless_job **out);

/*
 * Jids whose lock this worker lost (handed to another worker, timed out,
 * moved or canceled) since the last call, from the worker channel; waits up
 * to timeout_ms for the first one (0: do not wait). *out owned, possibly
 * empty. QLESS_EINVAL if the worker was made with watch_locks = 0.
 */
QLESS_EXTERN(int) qless_worker_lost_locks(qless_worker *worker, int timeout_ms, qless_strlist **out);

#ifdef __cplusplus
}
#endif
#endif
