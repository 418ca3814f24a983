/*
 * qless_worker: the worker engine. It reserves jobs from several queues
 * under the client's worker name, runs each through a perform callback,
 * keeps its lock alive from a C thread and settles it by one policy, alone
 * or as a pool of threads or of supervised processes. Every language's
 * worker is this engine plus a callback that finds and calls the job's code.
 *
 * The loop (qless_worker_run), for each job:
 *   1. reserve: the queues are tried in the reservation order; the settle of
 *      the previous job and the reservation of the next are one call
 *      (the protocol's `settle`), so a busy serial worker makes one round
 *      trip per job;
 *   2. perform(ctx, job, result) runs the job's code while a heartbeat
 *      thread renews the lock every `heartbeat` seconds (default: a third of
 *      the lock time, at least 0.1 s) and never calls into the callback;
 *   3. settle by the result: complete (the default); fail with the group and
 *      message set by qless_result_fail; retry by qless_result_retry after
 *      the backoff delay of the job's class or queue (the protocol fails the
 *      job once its retries are used up); nothing when the job code settled
 *      the job itself (its state is no longer "running"); nothing, silently,
 *      when the lock was lost (timed out, canceled, handed to another worker).
 * Redis going away is survived: the engine reconnects with a backoff
 * doubling from 0.1 s up to reconnect_max and carries on where it was.
 *
 * Tree jobs (jobtrees.md §9) run by the same loop, so no binding repeats
 * their rules: a job handed out as "terminating" gets its shutdown run; a
 * running job of a tree class gets its startup once per life, then
 * perform, then complete, or job.suspend when perform asked for it
 * (qless_result_suspend). See the version 4 run options below.
 */
#ifndef QLESS_WORKER_H
#define QLESS_WORKER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qless_reserve_order {
	QLESS_RESERVE_ORDERED = 0,     /* always try the queues in the given order */
	QLESS_RESERVE_ROUND_ROBIN = 1, /* start each reservation after the last queue tried */
	QLESS_RESERVE_SHUFFLED = 2     /* round robin over an order shuffled once per worker */
} qless_reserve_order;

#define QLESS_WORKER_OPTIONS_VERSION 1

typedef struct qless_worker_options {
	unsigned int version;        /* QLESS_WORKER_OPTIONS_VERSION */
	qless_reserve_order order;
	int watch_locks;             /* non-zero: subscribe to ql:w:<name> for lost locks */
} qless_worker_options;

#define QLESS_WORKER_OPTIONS_INIT { QLESS_WORKER_OPTIONS_VERSION, QLESS_RESERVE_ORDERED, 1 }

QLESS_EXTERN(int) qless_worker_options_init(qless_worker_options *opts, unsigned int version);

/* *out owned (qless_worker_free); keeps the client alive. queues: at least
 * one name, copied. */
QLESS_EXTERN(int) qless_worker_new(qless_worker **out, qless_client *client, QLESS_STRV(queues, nqueues),
                                   const qless_worker_options *opts);
QLESS_EXTERN(void) qless_worker_free(qless_worker *worker);
/* Borrowed: valid until the worker is freed. */
QLESS_EXTERN(const char *) qless_worker_name(const qless_worker *worker);

/* Pops one job from the first queue (in the reservation order) that has
 * one. *out: owned job, or NULL when every queue is empty or paused. */
QLESS_EXTERN(int) qless_worker_reserve(qless_job **out, qless_worker *worker);

/*
 * Jids whose lock this worker lost (handed to another worker, timed out,
 * moved or canceled) since the last call, from the worker channel; waits up
 * to timeout_ms for the first one (0: do not wait). *out owned, possibly
 * empty. QLESS_EINVAL if the worker was made with watch_locks = 0.
 */
QLESS_EXTERN(int) qless_worker_lost_locks(qless_strlist **out, qless_worker *worker, int timeout_ms);

/* ---- the engine ---- */

/* What perform decided; complete unless a setter was called. Valid only
 * during the perform call it was given to. */
typedef struct qless_result qless_result;

/* Fail the job: group (non-empty; languages use the exception's class name)
 * and message (e.g. the error and its backtrace) are copied. */
QLESS_EXTERN(int) qless_result_fail(qless_result *result, const char *group, const char *message);
/* Retry the job: after `delay` seconds, or (delay < 0) the backoff policy's
 * delay for its class or queue. group/message: both or neither, copied;
 * they become the job's failure (and the failed group once retries are
 * used up). */
QLESS_EXTERN(int) qless_result_retry(qless_result *result, const char *group, const char *message, double delay);
/* Suspend the job (a tree job): after perform it waits, holding no lock,
 * until input or job.run wakes it; input that arrived while it ran makes it
 * run again at once instead. QLESS_ESTATE, nothing recorded, when the
 * engine did not run the job as a tree job (its class is not among the run's
 * tree_klasses, or the job is a plain one), so the job code learns at the
 * call, not from a refused settle. */
QLESS_EXTERN(int) qless_result_suspend(qless_result *result);

typedef enum qless_backoff_kind {
	QLESS_BACKOFF_FIXED = 0,       /* every retry waits `base` */
	QLESS_BACKOFF_EXPONENTIAL = 1  /* retry k (0, 1, ...) waits base * 2^k */
} qless_backoff_kind;

#define QLESS_BACKOFF_VERSION 1

typedef struct qless_backoff {
	unsigned int version;        /* QLESS_BACKOFF_VERSION */
	qless_backoff_kind kind;
	double base;                 /* seconds, >= 0 */
	double max;                  /* cap in seconds; 0: none */
	double jitter;               /* 0..1: the delay is d * (1 - jitter * U), U uniform in [0, 1) */
} qless_backoff;

#define QLESS_BACKOFF_INIT { QLESS_BACKOFF_VERSION, QLESS_BACKOFF_FIXED, 0, 0, 0 }

/* The backoff of retries for jobs of class `klass` (non-NULL) or else of
 * queue `queue` (non-NULL) or else (both NULL) of every job. A class's
 * policy wins over its queue's, which wins over the default (no delay).
 * Setting one again replaces it. Call before qless_worker_run. */
QLESS_EXTERN(int) qless_worker_set_backoff(qless_worker *worker, const char *klass, const char *queue,
                                           const qless_backoff *backoff);
/* The delay policy gives a job of klass/queue whose retry number is `retry`
 * (0 for the first): for tests and for job code that reports it. */
QLESS_EXTERN(double) qless_worker_backoff_delay(const qless_worker *worker, const char *klass, const char *queue,
                                                int64_t retry);

/* Runs the job's code. Called on the thread that runs the job: the caller
 * of qless_worker_run, a pool thread, or a pool child's main thread. The job
 * is borrowed for the call; job code may settle it itself (complete, fail,
 * retry, cancel, requeue) with the qless_job_* calls. */
typedef void (*qless_perform_fn)(void *ctx, qless_job *job, qless_result *result);
/* Forks the process as the language runtime needs (e.g. Python's os.fork):
 * returns the child's pid in the parent, 0 in the child, < 0 on failure. */
typedef int (*qless_fork_fn)(void *ctx);
/* One line of the worker's log, without a newline. */
typedef void (*qless_log_fn)(void *ctx, const char *line);

typedef enum qless_pool_kind {
	QLESS_POOL_SERIAL = 0,    /* jobs run one at a time on the calling thread */
	QLESS_POOL_THREADS = 1,   /* `size` threads, each with its own connection */
	QLESS_POOL_PROCESSES = 2  /* `size` forked children, restarted when they die */
} qless_pool_kind;

/* Version 2 added allow, nallow and resolves_classes; a version 1 struct
 * (without them) is still accepted and runs every class. Version 3 added
 * thread_names and give_up; older structs run every pool thread under the
 * worker's name and wait for Redis for ever. Version 4 added the tree-job
 * fields; older structs run every job as a plain one (a terminating tree
 * job still ends, with no shutdown hook). Version 5 added loads_files. */
#define QLESS_WORKER_RUN_OPTIONS_VERSION 5

typedef struct qless_worker_run_options {
	unsigned int version;     /* QLESS_WORKER_RUN_OPTIONS_VERSION */
	qless_perform_fn perform; /* required */
	void *ctx;                /* passed to the callbacks */
	qless_fork_fn fork;       /* NULL: fork(2) */
	qless_log_fn log;         /* NULL: lines on stderr */
	qless_pool_kind pool;
	int size;                 /* threads or processes of a pool (>= 1; 1 for serial) */
	double interval;          /* seconds between reservations while every queue is empty */
	double heartbeat;         /* seconds between heartbeats; 0: a third of the lock time */
	int64_t max_jobs;         /* stop after this many jobs (a pool child: its own); 0: no limit */
	double reconnect_max;     /* cap of the reconnect backoff, seconds */
	int signals;              /* non-zero: during the run SIGTERM and SIGINT stop gracefully,
	                             SIGQUIT immediately (handlers restored afterwards) */
	int single_threaded;      /* non-zero: perform must not be called from another thread
	                             (Ruby, Lua): a thread pool is refused */
	/* version 2 */
	const char *const *allow; /* the job classes this run may perform (see qless_allowlist_match),
	                             borrowed for the run; nallow 0: every class */
	size_t nallow;
	int resolves_classes;     /* non-zero: perform finds code by the job's class name (Python,
	                             Ruby, Lua), so a run without an allow-list is refused */
	/* version 3 */
	int thread_names;         /* non-zero: thread i (1..size) of a thread pool reserves, beats and
	                             settles as worker "<name>-<i>", so each thread's jobs and lost
	                             locks are told apart; 0: every thread is "<name>", and a pool
	                             of 2 or more settles and reserves for all its threads in one
	                             call (fewer round trips than jobs). Serial workers and process
	                             pools (children: "<name>-<pid>") ignore it */
	double give_up;           /* seconds Redis may stay unreachable (connecting, reserving or
	                             settling) before the run stops, as gracefully as it can, and
	                             returns QLESS_EIO; 0: wait for it for ever. Process pools ignore it */
	/* version 4: tree jobs (jobtrees.md §9) */
	const char *const *tree_klasses; /* patterns as for allow (exact, "prefix*", "*") of the classes
	                             whose jobs may be tree jobs, borrowed for the run. Only their jobs
	                             cost a tree.get (to learn `started`) when handed out running: a
	                             worker with none pays no extra round trip per job. A tree job of
	                             another class runs as a plain job (no startup, no suspend) */
	const char *const *tree_configs; /* NULL, or one per tree_klasses entry: the class's
	                             worker.register config ({"inports": ..., "outports": ...}) or NULL
	                             for none. Sent for each of the worker's queues as the run starts
	                             (the registry is kept by Redis, so not again on a reconnect),
	                             except for classes the allow-list keeps from the run; a job put
	                             before that gets the ports it lacks at its first run. Only an
	                             exact class name may have one */
	size_t ntree;
	qless_perform_fn startup; /* NULL: none. Before the first perform of a tree job's life (until
	                             job.started); a result other than complete (fail, retry) settles
	                             the job without job.started, so the next run starts it again */
	qless_perform_fn shutdown; /* NULL: none. The shutdown run of a terminating tree job that was
	                             started; a fail or retry result is kept as the history entry
	                             shutdown-error {"error": "<group>: <message>"} and the job is
	                             terminated all the same */
	/* version 5 */
	int loads_files;          /* non-zero: qless_worker_main accepts --require FILE / -r FILE
	                             (repeatable), files of job code the language loaded before the
	                             call (qless_worker_main_args lists them); 0: they are unknown flags */
} qless_worker_run_options;

#define QLESS_WORKER_RUN_OPTIONS_INIT \
	{ QLESS_WORKER_RUN_OPTIONS_VERSION, NULL, NULL, NULL, NULL, QLESS_POOL_SERIAL, 1, 5.0, 0, 0, 5.0, 0, 0, \
	  NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL, NULL, 0 }

/*
 * The allow-list of job classes. A pattern is a class name (exact match),
 * a prefix ending in '*' ("myapp.jobs.*", "MyApp::Jobs::*": every class
 * whose name starts with what precedes the '*'), or "*" alone (every
 * class). A job whose class no pattern matches is never given to perform:
 * it fails in group "qless.ClassNotAllowed" and the worker goes on.
 */
/* QLESS_OK if every pattern is valid (non-empty UTF-8, '*' only at the
 * end); QLESS_EINVAL naming the first one that is not. */
QLESS_EXTERN(int) qless_allowlist_check(QLESS_STRV(patterns, n));
/* 1 if a pattern of the list matches klass, else 0 (also for NULL). */
QLESS_EXTERN(int) qless_allowlist_match(QLESS_STRV(patterns, n), const char *klass);

/*
 * Processes jobs until stopped or max_jobs are done. Returns QLESS_OK after
 * a graceful stop (running jobs finished and settled) or max_jobs, or an
 * error code for bad options (nothing run). A process pool's parent only
 * supervises: it forks `size` children (worker names "<name>-<pid>"),
 * forwards SIGTERM/SIGINT to them, and replaces a child that died; a job
 * the dead child held is retried (group "qless.ChildDied"), or failed in
 * that group once its retries are used up. Children never return from this
 * call: they exit with status 0 after a graceful stop.
 */
QLESS_EXTERN(int) qless_worker_run(qless_worker *worker, const qless_worker_run_options *opts);

/*
 * Stops a running worker; safe from a signal handler and from any thread.
 * Graceful (immediate = 0): no new job is reserved, running jobs finish
 * and are settled, then qless_worker_run returns. Immediate: the process
 * exits at once with status 1 (a pool's children are killed first); the
 * locks of running jobs expire and other workers pick the jobs up.
 * A graceful stop asked while the worker is not running is kept for its
 * next run, which then returns at once without reserving anything.
 */
QLESS_EXTERN(void) qless_worker_stop(qless_worker *worker, int immediate);

/* Jobs this process's run has performed so far (all threads). */
QLESS_EXTERN(int64_t) qless_worker_jobs_done(const qless_worker *worker);

/* Parses a backoff spec: "fixed:BASE" or "exponential:BASE[:MAX[:JITTER]]"
 * (seconds; JITTER 0..1). QLESS_EINVAL naming what is wrong otherwise. */
QLESS_EXTERN(int) qless_backoff_parse(qless_backoff *out, const char *spec);

/*
 * The worker command that every language's worker program is: parses argv
 * (argv[0] is the program name), connects, builds the worker and runs it
 * with signals handled; returns the process exit status (0 after a graceful
 * stop, 1 on a failure, 2 on a usage error, explained on stderr). `run`
 * supplies perform, ctx, fork, log, single_threaded, resolves_classes and
 * the tree-job fields (tree_klasses, tree_configs, ntree, startup, shutdown);
 * the rest come from the flags (see `--help`):
 *   --url URL  --queue Q (repeatable)  --order ordered|round-robin|shuffled
 *   --pool serial|threads|processes  --size N  --interval S  --heartbeat S
 *   --max-jobs N  --name NAME  --reconnect-max S
 *   --backoff SPEC  --backoff-queue Q=SPEC  --backoff-class KLASS=SPEC
 *   --allow PATTERN (repeatable; default: $QLESS_WORKER_ALLOW, comma-separated;
 *                    required when run->resolves_classes is set)
 *   --require FILE, -r FILE (repeatable; only with run->loads_files)
 */
QLESS_EXTERN(int) qless_worker_main(int argc, const char *const *argv, const qless_worker_run_options *run);

/*
 * What a language acts on before it calls qless_worker_main with the same
 * flags (argv: the flags only, without the program name): *allow, the
 * allow-list the run will use (the --allow patterns, else the items of
 * $QLESS_WORKER_ALLOW), by which a language finds its tree classes before
 * any job arrives; *files, the --require / -r files in order, which it
 * loads first. Both owned (qless_strlist_free), possibly empty. Flags are
 * not checked here: a bad one is qless_worker_main's usage error. With
 * --help or -h anywhere both lists are empty.
 */
QLESS_EXTERN(int) qless_worker_main_args(qless_strlist **allow, qless_strlist **files, QLESS_STRV(argv, argc));

#ifdef __cplusplus
}
#endif
#endif
