/*
 * qless_schedule: a named queue of a client, seen as a schedule (WorkKit's
 * facade, ../shared/spec/schedules.md §6.4-6.5), and its listener pool.
 *
 * A listener is the worker engine (qless_worker_run) on the schedule's
 * queue with a pool of threads, each on a connection of its own and under
 * the worker name "<client worker name>-<i>" (i = 1..threads): the engine's
 * heartbeats, lost-lock handling, reconnects and max_jobs apply unchanged.
 */
#ifndef QLESS_SCHEDULE_H
#define QLESS_SCHEDULE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qless_schedule qless_schedule;

/* *out owned (qless_schedule_free, never while a listen on it runs); keeps
 * the client alive. name: the queue's name, non-empty UTF-8, copied. No I/O. */
QLESS_EXTERN(int) qless_schedule_new(qless_schedule **out, qless_client *client, const char *name);
QLESS_EXTERN(void) qless_schedule_free(qless_schedule *schedule);
/* Borrowed: valid until the schedule is freed. NULL for a NULL schedule. */
QLESS_EXTERN(const char *) qless_schedule_name(const qless_schedule *schedule);
/* The schedule's queue. Borrowed: valid until the schedule is freed. */
QLESS_EXTERN(qless_queue *) qless_schedule_queue(qless_schedule *schedule);

/*
 * The job code of a listener, called on a pool thread with the job
 * borrowed for the call. Returning 0 completes the job; any other value
 * fails it in group "qless-perform" with message "perform returned <rc>".
 * perform may settle the job itself (qless_job_complete, _fail, _retry):
 * then nothing more is done; nor when the job's lock was lost meanwhile.
 * (Named apart from the engine's qless_perform_fn, which takes a result.)
 */
typedef int (*qless_schedule_perform_fn)(qless_job *job, void *userdata);

#define QLESS_LISTEN_OPTIONS_VERSION 1

typedef struct qless_listen_options {
	unsigned int version;   /* QLESS_LISTEN_OPTIONS_VERSION */
	int threads;            /* pool size, 1 to 128; 0: 1 */
	double interval;        /* seconds between reservations while the queue is empty; 0: 5 */
	int64_t max_jobs;       /* stop after this many jobs in total (all threads); 0: no limit */
} qless_listen_options;

#define QLESS_LISTEN_OPTIONS_INIT { QLESS_LISTEN_OPTIONS_VERSION, 1, 0, 0 }

QLESS_EXTERN(int) qless_listen_options_init(qless_listen_options *opts, unsigned int version);

/*
 * Works on the schedule's queue until qless_schedule_stop or max_jobs, then
 * returns QLESS_OK once every running job is finished and settled;
 * QLESS_EIO once Redis has been unreachable for 3 x interval (the pool
 * stops; a job whose result could not be sent is left to its lock's
 * expiry); another error code for bad arguments (nothing run) or when a
 * listener of this schedule is already running. opts NULL: defaults.
 * Installs no signal handlers (call qless_schedule_stop from your own)
 * and logs nothing.
 */
QLESS_EXTERN(int) qless_schedule_listen(qless_schedule *schedule, qless_schedule_perform_fn perform,
                                        void *userdata, const qless_listen_options *opts);
/* Stops a running listener gracefully: no new job is reserved, running
 * jobs finish. Async-signal-safe, callable from any thread. A stop that
 * comes before the listen has begun (the engine clears stops as a run
 * starts) is not kept for it. */
QLESS_EXTERN(void) qless_schedule_stop(qless_schedule *schedule);

#ifdef __cplusplus
}
#endif
#endif
