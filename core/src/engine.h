/* The worker engine's shared state: the worker (its queues, policies and
 * run state) and the slots its job loops run in. Used by worker.c
 * (construction and policy), job_loop.c, beater.c, pool.c, engine.c and
 * the helpers they share. */
#ifndef QLESS_ENGINE_H
#define QLESS_ENGINE_H

#include <pthread.h>
#include <sys/types.h>

#include "qless/qless.h"

typedef struct qless_policy {
	char *klass, *queue;   /* one of them, or neither (the default) */
	qless_backoff backoff;
} qless_policy;

typedef struct qless_beater qless_beater;

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
	/* qless_worker_main over several namespaces: the next namespace's
	 * worker, which a stop of this one (a signal) also stops. */
	qless_worker *peer;
};

/* One job loop: the serial worker, a pool thread or a pool child. */
typedef struct qless_slot {
	qless_worker *worker;
	qless_client *client;  /* the loop's connection */
	qless_job *job;        /* the job running, or NULL (guarded by the beater) */
	unsigned long seq;     /* bumped per job, so a late beat never marks the next job */
	double interval, next_beat;
} qless_slot;

#endif
