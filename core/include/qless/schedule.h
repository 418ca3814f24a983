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
#include "worker.h"

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

/* ---- entries (§6.4) ---- */

#define QLESS_SCHEDULE_OPTIONS_VERSION 1

typedef struct qless_schedule_options {
	unsigned int version;       /* QLESS_SCHEDULE_OPTIONS_VERSION */
	int unique;                 /* 1 (default): an identical pending entry is not added again;
	                               0: plain put/recur, a new jid each time unless jid is set */
	const char *key;            /* with unique: the entry's identity is this key (qless_unique_jid_for_key) */
	const char *jid;            /* explicit jid; overrides the unique one */
	int has_priority;           /* 0: priority 0 */
	double priority;
	int retries;                /* < 0: the protocol's default (5 for one-offs, 0 for templates) */
	int backlog;                /* templates only: missed instances to catch up (cron: at most 1000) */
	const char *const *tags;
	size_t ntags;
} qless_schedule_options;

#define QLESS_SCHEDULE_OPTIONS_INIT { QLESS_SCHEDULE_OPTIONS_VERSION, 1, NULL, NULL, 0, 0, -1, 0, NULL, 0 }

QLESS_EXTERN(int) qless_schedule_options_init(qless_schedule_options *opts, unsigned int version);

/*
 * Adding an entry. Each add takes *out_jid (may be NULL; owned:
 * qless_free), *out_inserted (may be NULL; 0 when an identical entry was
 * pending, so nothing was added), the schedule, when the entry runs, klass, data (JSON;
 * NULL: "{}") and opts (NULL: defaults). Times are epoch seconds; "now" is
 * the client's (qless_client_now, its time offset included). A bad time,
 * text or expression is QLESS_EINVAL before any I/O.
 */
/* A one-off job that may run at once. */
QLESS_EXTERN(int) qless_schedule_add_now(char **out_jid, int *out_inserted, qless_schedule *schedule,
                                         const char *klass, const char *data, const qless_schedule_options *opts);
/* A one-off job at time `when`. A when more than a minute before now is
 * QLESS_EINVAL naming it in ISO 8601 (a stale time is a mistake; add_now
 * runs at once); less than a minute past runs at once. */
QLESS_EXTERN(int) qless_schedule_add_at(char **out_jid, int *out_inserted, qless_schedule *schedule, double when,
                                        const char *klass, const char *data, const qless_schedule_options *opts);
/* A one-off job in `seconds` (-60 to 0: at once; below -60: QLESS_EINVAL, as
 * add_at). */
QLESS_EXTERN(int) qless_schedule_add_in(char **out_jid, int *out_inserted, qless_schedule *schedule,
                                        double seconds, const char *klass, const char *data,
                                        const qless_schedule_options *opts);
/* A template firing every `interval` (> 0) seconds, first at time `first`
 * (0 or a past time: now). */
QLESS_EXTERN(int) qless_schedule_add_every(char **out_jid, int *out_inserted, qless_schedule *schedule,
                                           double interval, double first, const char *klass, const char *data,
                                           const qless_schedule_options *opts);
/* A template firing at the times of a cron expression (qless/when.h). */
QLESS_EXTERN(int) qless_schedule_add_cron(char **out_jid, int *out_inserted, qless_schedule *schedule,
                                          const char *expr, const char *klass, const char *data,
                                          const qless_schedule_options *opts);
/* when_text read by qless_when_parse at the client's now ("7pm tomorrow",
 * "in 5 minutes", "every monday 9am"), then added as add_at, add_every or
 * add_cron. */
QLESS_EXTERN(int) qless_schedule_add(char **out_jid, int *out_inserted, qless_schedule *schedule,
                                     const char *when_text, const char *klass, const char *data,
                                     const qless_schedule_options *opts);
/*
 * The time-text adds of the bindings' add(at=, in=, every=), each argument
 * keeping its meaning. Text as qless_when_parse reads it at the client's
 * now; bad text is QLESS_EINVAL before any I/O, naming the function, the
 * argument and the column in the text as given. After any text add (these
 * and qless_schedule_add), qless_when_warning() says what the text was read
 * as that it may not mean, as for qless_schedule_put.
 */
/* A one-off time ("7pm tomorrow", "in 5 minutes"), added as add_at; a
 * recurring text is refused (use add_every_text or add_cron). */
QLESS_EXTERN(int) qless_schedule_add_at_text(char **out_jid, int *out_inserted, qless_schedule *schedule,
                                             const char *at_text, const char *klass, const char *data,
                                             const qless_schedule_options *opts);
/* A duration ("5 minutes", or "in 5 minutes": "in " is put before the
 * text unless its first word is "in"), added as add_at the time it ends. */
QLESS_EXTERN(int) qless_schedule_add_in_text(char **out_jid, int *out_inserted, qless_schedule *schedule,
                                             const char *in_text, const char *klass, const char *data,
                                             const qless_schedule_options *opts);
/* A recurrence ("monday 9am", "every 2 days at 9am": "every " is put
 * before the text unless its first word is "every"), added as add_cron or
 * add_every by what it means. */
QLESS_EXTERN(int) qless_schedule_add_every_text(char **out_jid, int *out_inserted, qless_schedule *schedule,
                                                const char *every_text, const char *klass, const char *data,
                                                const qless_schedule_options *opts);
/* Removes the template or scheduled job jid of this schedule; *out_removed
 * (may be NULL) is 0 when there was none (a job already waiting, running
 * or done is left alone). */
QLESS_EXTERN(int) qless_schedule_remove(int *out_removed, qless_schedule *schedule, const char *jid);
/* The pending entries as a JSON array (owned: qless_free): the templates
 * (by next due time, then jid), then the scheduled jobs, each
 * {"jid", "klass", "kind": "cron"|"interval"|"at", "cron" or "interval" for
 * templates, "next", "priority", "tags"}. Promotes and spawns nothing. */
QLESS_EXTERN(int) qless_schedule_list(char **out_json, qless_schedule *schedule);

/*
 * The job code of a listener, called on a pool thread with the job
 * borrowed for the call. Returning 0 completes the job; any other value
 * fails it in group "qless-perform" with message "perform returned <rc>".
 * perform may settle the job itself (qless_job_complete, _fail, _retry):
 * then nothing more is done; nor when the job's lock was lost meanwhile.
 * (Named apart from the engine's qless_perform_fn, which takes a result.)
 */
typedef int (*qless_schedule_perform_fn)(qless_job *job, void *userdata);

/* Version 2 added pool, allow, nallow and signals; a version 1 struct
 * (without them) is still accepted: a thread pool, every class, no signals. */
#define QLESS_LISTEN_OPTIONS_VERSION 2

typedef struct qless_listen_options {
	unsigned int version;   /* QLESS_LISTEN_OPTIONS_VERSION */
	int threads;            /* pool size (threads, or processes with pool), 1 to 128; 0: 1 */
	double interval;        /* seconds between reservations while the queue is empty; 0: 5 */
	int64_t max_jobs;       /* stop after this many jobs in total (all threads; a process
	                           pool's child: its own); 0: no limit */
	/* version 2 */
	qless_pool_kind pool;   /* QLESS_POOL_THREADS (the default: 0 too) or, for
	                           qless_schedule_listen_run only, QLESS_POOL_PROCESSES */
	const char *const *allow; /* the job classes the listen may run (qless_allowlist_match
	                           patterns), borrowed for the call; nallow 0: every class, or
	                           for a run that resolves classes $QLESS_WORKER_ALLOW
	                           (comma-separated), which it then requires */
	size_t nallow;
	int signals;            /* non-zero: during the listen SIGTERM and SIGINT stop it
	                           gracefully, SIGQUIT at once (handlers restored afterwards) */
} qless_listen_options;

#define QLESS_LISTEN_OPTIONS_INIT { QLESS_LISTEN_OPTIONS_VERSION, 1, 0, 0, QLESS_POOL_THREADS, NULL, 0, 0 }

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
/*
 * The listen of a language binding, whose job code the worker engine
 * reaches through run (qless/worker.h): run's perform, ctx, fork, log,
 * single_threaded, resolves_classes and tree fields (tree_klasses,
 * tree_configs, ntree, startup, shutdown) are used, the rest of run is
 * ignored and comes from opts, typed: no command line is parsed. Returns
 * as qless_schedule_listen (a process pool's children never return); a
 * run that resolves classes with no allow-list (neither opts nor
 * $QLESS_WORKER_ALLOW) is QLESS_EINVAL, nothing run. Logs as run->log
 * says (NULL: lines on stderr). A run with no tree classes runs tree jobs
 * of every class by jobtrees.md §9, as qless_schedule_listen does.
 */
QLESS_EXTERN(int) qless_schedule_listen_run(qless_schedule *schedule, const qless_worker_run_options *run,
                                            const qless_listen_options *opts);
/* Stops a running listener gracefully: no new job is reserved, running
 * jobs finish. Async-signal-safe, callable from any thread. A stop that
 * comes before the listen has begun is kept: that listen returns at once. */
QLESS_EXTERN(void) qless_schedule_stop(qless_schedule *schedule);

/* ==== one add, typed entries, next times (out-parameters first) ==== */

/* 2 added day_first; a version 1 struct (without it) is still accepted. */
#define QLESS_SCHEDULE_ADD_OPTIONS_VERSION 2

/* When the entry runs: exactly one of at, at_text, in_seconds, in_text,
 * every, every_text and cron (has_at, has_in, has_every say a number is
 * given).
 * The texts are read as qless_schedule_add_at_text, _in_text and
 * _every_text read them (day_first: as QLESS_WHEN_DAY_FIRST says); the
 * numbers as add_at, add_in and add_every. The rest are
 * qless_schedule_options' fields, with its defaults (unique). */
typedef struct qless_schedule_add_options {
	unsigned int version;      /* QLESS_SCHEDULE_ADD_OPTIONS_VERSION */
	int has_at;
	double at;                 /* epoch seconds (more than a minute past: QLESS_EINVAL) */
	const char *at_text;       /* "7pm tomorrow" */
	int has_in;
	double in_seconds;         /* seconds from now (<= 0: at once) */
	const char *in_text;       /* "5 minutes" */
	int has_every;
	double every;              /* seconds (> 0) between runs of a template */
	double first;              /* with every: its first time (0: now) */
	const char *every_text;    /* "monday 9am", "2 days at 9am" */
	const char *cron;          /* a cron expression */
	int unique;                /* as qless_schedule_options */
	const char *key;
	const char *jid;
	int has_priority;
	double priority;
	int retries;
	int backlog;
	const char *const *tags;
	size_t ntags;
	/* version 2 */
	int day_first;             /* non-zero: a/b/c dates in the texts are day/month/year
	                              (27/5/1979, QLESS_WHEN_DAY_FIRST); 0: month/day/year */
} qless_schedule_add_options;

#define QLESS_SCHEDULE_ADD_OPTIONS_INIT \
	{ QLESS_SCHEDULE_ADD_OPTIONS_VERSION, 0, 0, NULL, 0, 0, NULL, 0, 0, 0, NULL, NULL, 1, NULL, NULL, 0, 0, -1, 0, \
	  NULL, 0, 0 }

QLESS_EXTERN(int) qless_schedule_add_options_init(qless_schedule_add_options *opts, unsigned int version);

/* Adds the entry opts describe (opts required: it says when). *out_jid
 * (may be NULL) owned (qless_free); *out_inserted (may be NULL) 0 when an
 * identical entry was pending. QLESS_EINVAL before any I/O when not exactly
 * one of the time fields is given, naming those given. Afterwards (success
 * or not) qless_when_warning() on this thread is what the text was read as
 * that it may not mean ("2026-08-10 is a Monday, not a Thursday (...); the
 * date is used"), "" when there is nothing to say or no text was given:
 * the entry is added all the same (the date wins), so show it to the user. */
QLESS_EXTERN(int) qless_schedule_put(char **out_jid, int *out_inserted, qless_schedule *schedule, const char *klass,
                                     const char *data, const qless_schedule_add_options *opts);

typedef enum qless_entry_kind {
	QLESS_ENTRY_AT = 0,        /* a scheduled one-off job */
	QLESS_ENTRY_INTERVAL = 1,  /* a template firing every interval seconds */
	QLESS_ENTRY_CRON = 2       /* a template firing at a cron expression's times */
} qless_entry_kind;

/* The pending entries (as qless_schedule_list): templates by next due
 * time, then scheduled jobs. Strings borrowed from the list, valid until
 * qless_entries_free. */
typedef struct qless_entries qless_entries;

/* *out owned (qless_entries_free). Promotes and spawns nothing. */
QLESS_EXTERN(int) qless_entries_get(qless_entries **out, qless_schedule *schedule);
QLESS_EXTERN(void) qless_entries_free(qless_entries *entries);
QLESS_EXTERN(size_t) qless_entries_size(const qless_entries *entries);
QLESS_EXTERN(const char *) qless_entries_jid(const qless_entries *entries, size_t index);
QLESS_EXTERN(const char *) qless_entries_klass(const qless_entries *entries, size_t index);
QLESS_EXTERN(qless_entry_kind) qless_entries_kind(const qless_entries *entries, size_t index);
/* "at", "interval" or "cron" (static). */
QLESS_EXTERN(const char *) qless_entries_kind_name(const qless_entries *entries, size_t index);
/* The cron expression (NULL unless kind is CRON); the interval (0 unless INTERVAL). */
QLESS_EXTERN(const char *) qless_entries_cron(const qless_entries *entries, size_t index);
QLESS_EXTERN(double) qless_entries_interval(const qless_entries *entries, size_t index);
/* The next due time, epoch seconds. */
QLESS_EXTERN(double) qless_entries_next(const qless_entries *entries, size_t index);
QLESS_EXTERN(double) qless_entries_priority(const qless_entries *entries, size_t index);
QLESS_EXTERN(size_t) qless_entries_tag_count(const qless_entries *entries, size_t index);
QLESS_EXTERN(const char *) qless_entries_tag(const qless_entries *entries, size_t index, size_t tag);
/* English for tables: qless_cron_describe's for a cron template, "every N
 * seconds" for an interval, "once at <ISO time>" for a one-off. */
QLESS_EXTERN(const char *) qless_entries_description(const qless_entries *entries, size_t index);
/* The entry's whole record as JSON text, for callers that want JSON. */
QLESS_EXTERN(const char *) qless_entries_json(const qless_entries *entries, size_t index);

/* The next count (1-1000) due times of entry jid: a template's (recur.next,
 * from the server), a scheduled job's one time. *out owned (qless_free;
 * NULL when *out_n is 0). QLESS_ENOTFOUND when jid is no pending entry of
 * this schedule. */
QLESS_EXTERN(int) qless_schedule_next_times(double **out, size_t *out_n, qless_schedule *schedule, const char *jid,
                                            int64_t count);

#ifdef __cplusplus
}
#endif
#endif
