/* The worker engine's private state, shared by worker.c (reservation and
 * policy), engine.c (the job loop and the heartbeat thread), pool.c (thread
 * and process pools) and worker_main.c (the command line). */
#ifndef QLESS_ENGINE_H
#define QLESS_ENGINE_H

#include <pthread.h>
#include <signal.h>
#include <sys/types.h>

#include "internal.h"

typedef struct qless_policy {
	char *klass, *queue;   /* one of them, or neither (the default) */
	qless_backoff backoff;
} qless_policy;

typedef struct qless_beater qless_beater;

/* DROP: the job is left to its lock (a step before perform could not
 * reach Redis, or the job vanished); the reason is logged where it arose. */
typedef enum qless_outcome {
	QLESS_OUTCOME_COMPLETE, QLESS_OUTCOME_FAIL, QLESS_OUTCOME_RETRY,
	QLESS_OUTCOME_SUSPEND, QLESS_OUTCOME_TERMINATED, QLESS_OUTCOME_DROP
} qless_outcome;

struct qless_result {
	qless_outcome outcome;
	char *group, *message;
	double delay;
	int oom;
	const char *jid;       /* borrowed from the job for messages */
	int tree;              /* the job runs as a tree job: suspend is allowed */
};

struct qless_worker {
	qless_client *client;
	qless_queue **queues;  /* for qless_worker_reserve */
	char **names;          /* queue names in reservation order */
	size_t n;
	size_t next;           /* round robin: the queue to try first */
	qless_reserve_order order;
	qless_events *events;  /* NULL unless watch_locks */
	qless_policy *policies;
	size_t npolicies;

	/* run state */
	qless_worker_run_options run;
	int running;           /* a run is under way (no second one) */
	int stopping;          /* atomic: graceful stop asked */
	int wake[2];           /* self-pipe: a stop interrupts waits */
	int64_t done;          /* atomic: jobs performed */
	int64_t claimed;       /* atomic: reservations made against max_jobs */
	int gave_up;           /* atomic: Redis stayed away longer than run.give_up */
	pthread_mutex_t mu;    /* guards `next` between pool threads */
	qless_beater *beater;
	pid_t *children;       /* process pool: pids of live children (0: free slot) */
	size_t nchildren;
};

/* One job loop: the serial worker, a pool thread or a pool child. */
typedef struct qless_slot {
	qless_worker *worker;
	qless_client *client;  /* the loop's connection */
	qless_job *job;        /* the job running, or NULL (guarded by the beater) */
	unsigned long seq;     /* bumped per job, so a late beat never marks the next job */
	double interval, next_beat;
} qless_slot;

/* beater.c: the heartbeat thread of a process and the slots it beats */
int qless__beater_start(qless_worker *w, qless_client *like);
void qless__beater_stop(qless_worker *w);
void qless__beater_add(qless_worker *w, qless_slot *slot);
void qless__beater_remove(qless_worker *w, qless_slot *slot);
/* A job starts / ends running in the slot (beats begin / stop). */
void qless__slot_begin(qless_slot *slot, qless_job *job);
void qless__slot_end(qless_slot *slot);

/* engine.c */
int qless__slot_loop(qless_slot *slot);
int qless__result_set(qless_result *r, qless_outcome outcome, const char *group, const char *message, double delay);
int qless__stopping(const qless_worker *w);
/* Opens the worker's wake pipe (non-blocking) if needed and empties it;
 * -1 if no pipe can be made. */
int qless__wake_open(qless_worker *w);
double qless__mono(void); /* CLOCK_MONOTONIC seconds */
/* Waits up to `seconds`, less when a stop is asked. */
void qless__wait(qless_worker *w, double seconds);
void qless__log(qless_worker *w, const char *fmt, ...) QLESS_PRINTF(2, 3);
/* While Redis is away: waits, logging the first failure of a series
 * (`what` failed), and returns the next, doubled wait (0 the first time). */
double qless__io_backoff(qless_worker *w, double wait, const char *what);
/* Whether an outage that began at *since (0: it begins now) has outlasted
 * run.give_up: then the whole run is being stopped, to return QLESS_EIO. */
int qless__outage_over(qless_worker *w, double *since);
/* A clone of `like` (worker name `name` when not NULL), retried with the
 * reconnect backoff while Redis is away; NULL once a stop is asked. */
qless_client *qless__connect_retry(qless_worker *w, const qless_client *like, const char *name);
void qless__signals_install(qless_worker *w);
void qless__signals_restore(void);
/* Blocks the signals the engine handles (old: the mask to restore). */
void qless__signals_block(sigset_t *old);

/* worker.c */
/* The queue names as a JSON list in the order to try them now. Owned. */
char *qless__reserve_order_json(qless_worker *w);
void qless__reserve_advance(qless_worker *w, const char *queue);
double qless__retry_delay(const qless_worker *w, const qless_job *job);
/* Why an allow pattern is invalid (static text), or NULL if it is valid. */
const char *qless__allow_invalid(const char *pattern);

/* engine_tree.c: the tree-job steps of jobtrees.md §9 */
/* The version 4 fields of run options, checked as qless_worker_run does. */
int qless__tree_check(const char *func, const qless_worker_run_options *o);
/* worker.register of each configured tree class on each queue, retried
 * while Redis is away (QLESS_OK as well when a stop ends the wait). */
int qless__tree_register(qless_worker *w);
/* Before perform, for a running job: 1 to perform it, 0 when r already
 * says how it ends (startup failed, or DROP). */
int qless__tree_start(qless_slot *s, qless_job *job, qless_result *r);
/* The shutdown run of a terminating job; r says TERMINATED or DROP. */
void qless__tree_shutdown(qless_slot *s, qless_job *job, qless_result *r);

/* pool.c */
int qless__pool_threads(qless_worker *w);
int qless__pool_processes(qless_worker *w);

#endif
