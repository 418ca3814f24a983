/*
 * qless_queue: a named queue of a client. Making one does no I/O; a queue
 * "exists" as soon as something is put in it.
 */
#ifndef QLESS_QUEUE_H
#define QLESS_QUEUE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *out owned (qless_queue_free); keeps the client alive. */
QLESS_EXTERN(int) qless_queue_new(qless_queue **out, qless_client *client, const char *name);
QLESS_EXTERN(void) qless_queue_free(qless_queue *queue);
/* Borrowed: valid until the queue is freed. */
QLESS_EXTERN(const char *) qless_queue_name(const qless_queue *queue);

/* Version 2 added unique and unique_key, version 3 the tree-job fields
 * (qless/tree.h); structs of versions 1 and 2 (without them) are still
 * accepted. */
#define QLESS_PUT_OPTIONS_VERSION 3

typedef struct qless_put_options {
	unsigned int version;        /* QLESS_PUT_OPTIONS_VERSION (or 1, 2) */
	const char *jid;             /* NULL: a new jid (qless_jid_generate); else put (or move) this job */
	double delay;                /* seconds before the job may run; 0: now */
	int has_priority;            /* 0: keep an existing job's priority (new job: 0) */
	double priority;             /* higher pops first */
	int retries;                 /* < 0: keep an existing job's retries (new job: 5) */
	const char *const *tags;     /* NULL: keep an existing job's tags (new: none) */
	size_t ntags;
	const char *const *depends;  /* jids that must complete first; NULL/0: none */
	size_t ndepends;
	/* Version 2: */
	int unique;                  /* non-zero: a no-op while the job exists and is not complete;
	                                with jid NULL the jid is qless_unique_jid's one-off form */
	const char *unique_key;      /* with unique and jid NULL: jid = qless_unique_jid_for_key */
	/* Version 3 (jobtrees.md §5.2); any of these but `by` makes the put
	 * create or convert a tree job: */
	int tree;                    /* non-zero: a tree job even without the fields below */
	const char *parent;          /* attach as child `name` of this tree job: both or neither */
	const char *name;
	const char *inports;         /* JSON objects {port: {} or {"default": v}}; NULL: none */
	const char *outports;
	const char *const *aliases;  /* global names of the job; NULL/0: none */
	size_t naliases;
	const char *by;              /* recorded at creation (the put's "by"); NULL: the worker name */
} qless_put_options;

#define QLESS_PUT_OPTIONS_INIT \
	{ QLESS_PUT_OPTIONS_VERSION, NULL, 0, 0, 0, -1, NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL, NULL, NULL, NULL, 0, NULL }

QLESS_EXTERN(int) qless_put_options_init(qless_put_options *opts, unsigned int version);

/* Size of a jid made by the library, terminating NUL included. */
#define QLESS_JID_SIZE 33

/*
 * Writes a new jid into out: 32 lowercase hex digits and a NUL, as put makes
 * when no jid is given (useful to put jobs with qless_client_call_batch).
 * The first 13 digits count down with time, strictly within a process, so a
 * jid made later sorts lower: jobs of equal priority put with the same `now`
 * (one batch), which the queue orders by jid, pop in the order their jids
 * were made. The other 19 digits are random (76 bits).
 */
QLESS_EXTERN(int) qless_jid_generate(char out[QLESS_JID_SIZE]);

/*
 * Puts a job of class klass with data (JSON text; NULL means "{}") into the
 * queue. *out_jid (may be NULL) receives the jid, owned. opts may be NULL.
 * Data that is not valid JSON is refused with QLESS_EINVAL before any I/O.
 */
QLESS_EXTERN(int) qless_queue_put(char **out_jid, qless_queue *queue, const char *klass,
                                  const char *data, const qless_put_options *opts);

/*
 * Like qless_queue_put, always unique (opts->unique need not be set):
 * nothing is written while a job with that jid exists and is not complete.
 * *out_inserted (may be NULL) is 1 when the job was put, 0 when it already
 * existed. *out_jid (may be NULL) owned.
 */
QLESS_EXTERN(int) qless_queue_put_unique(char **out_jid, int *out_inserted, qless_queue *queue,
                                         const char *klass, const char *data, const qless_put_options *opts);

/* Size of a unique jid, terminating NUL included. */
#define QLESS_UNIQUE_JID_SIZE 41

/*
 * The unique jid of an entry: 40 lowercase hex digits of the SHA-1 of its
 * identity (queue, klass, data and, for templates, cron or interval) in
 * canonical JSON, so the same entry gets the same jid in every client
 * whatever the spacing or key order of data (NULL: "{}"). cron NULL and
 * interval 0 for a one-off; both given is QLESS_EINVAL. No I/O.
 */
QLESS_EXTERN(int) qless_unique_jid(char out[QLESS_UNIQUE_JID_SIZE], const char *queue, const char *klass,
                                   const char *data, const char *cron, double interval);
/* The unique jid of a caller's key in queue (identity {"queue","key"}). No I/O. */
QLESS_EXTERN(int) qless_unique_jid_for_key(char out[QLESS_UNIQUE_JID_SIZE], const char *queue, const char *key);
/*
 * JSON text in canonical form: compact, object keys sorted by bytes, numbers
 * and strings written one way. Refuses (QLESS_EINVAL) invalid JSON or UTF-8,
 * duplicate keys, \u0000, integers outside int64 and reals that overflow.
 * *out owned (qless_free).
 */
QLESS_EXTERN(int) qless_json_canonicalize(char **out, const char *json);

/* Hands up to count jobs to this client's worker, locking them. *out owned
 * (an empty list when nothing is ready or the queue is paused). */
QLESS_EXTERN(int) qless_queue_pop(qless_joblist **out, qless_queue *queue, int64_t count);
/* The next count jobs, without locking them. *out owned. */
QLESS_EXTERN(int) qless_queue_peek(qless_joblist **out, qless_queue *queue, int64_t count);

/* Jobs running, waiting or scheduled in the queue. */
QLESS_EXTERN(int) qless_queue_length(int64_t *out, qless_queue *queue);

#define QLESS_QUEUE_COUNTS_VERSION 1

typedef struct qless_queue_counts {
	unsigned int version;  /* set by the caller: QLESS_QUEUE_COUNTS_VERSION */
	int64_t waiting;       /* includes timed-out jobs awaiting a new worker */
	int64_t running;
	int64_t stalled;       /* running with an expired lock */
	int64_t scheduled;
	int64_t depends;
	int64_t recurring;     /* recurring templates attached to the queue */
	qless_bool paused;
} qless_queue_counts;

#define QLESS_QUEUE_COUNTS_INIT { QLESS_QUEUE_COUNTS_VERSION, 0, 0, 0, 0, 0, 0, 0 }

/* The queue's counts into *out (out->version set by the caller). A queue
 * nothing was ever put in has all counts 0 and is not paused. */
QLESS_EXTERN(int) qless_queue_counts_get(qless_queue_counts *out, qless_queue *queue);

/*
 * qless_queue_countlist: every known queue's name and counts, oldest queue
 * first, as qless_client_queue_counts (client.h) returned them. Immutable;
 * it holds no reference to the client and may outlive it.
 */
QLESS_EXTERN(size_t) qless_queue_countlist_size(const qless_queue_countlist *list);
/* Borrowed: valid until the list is freed. NULL when index is out of range. */
QLESS_EXTERN(const char *) qless_queue_countlist_name(const qless_queue_countlist *list, size_t index);
/* The counts of queue index into *out (out->version set by the caller);
 * QLESS_EINVAL when index is out of range. */
QLESS_EXTERN(int) qless_queue_countlist_get(qless_queue_counts *out, const qless_queue_countlist *list,
                                            size_t index);
QLESS_EXTERN(void) qless_queue_countlist_free(qless_queue_countlist *list);

QLESS_EXTERN(int) qless_queue_pause(qless_queue *queue);
QLESS_EXTERN(int) qless_queue_unpause(qless_queue *queue);
/* Removes the name from the list of known queues; its jobs are untouched. */
QLESS_EXTERN(int) qless_queue_forget(qless_queue *queue);

/* Moves up to count (0: 25) of the oldest jobs failed in group back into
 * this queue. *out_moved may be NULL. */
QLESS_EXTERN(int) qless_queue_unfail(int64_t *out_moved, qless_queue *queue, const char *group, int64_t count);

/* Per-queue lock duration (`<queue>-heartbeat`) and concurrency cap
 * (`<queue>-max-concurrency`, 0 = unlimited). */
QLESS_EXTERN(int) qless_queue_set_heartbeat(qless_queue *queue, int64_t seconds);
QLESS_EXTERN(int) qless_queue_set_max_concurrency(qless_queue *queue, int64_t max);

#define QLESS_STATS_BUCKETS 148

typedef struct qless_timing_stats {
	int64_t count;
	double mean;
	double std;                                 /* sample standard deviation */
	int64_t histogram[QLESS_STATS_BUCKETS];     /* s0..s59, m1..m59, h1..h23, d1..d6 */
} qless_timing_stats;

#define QLESS_STATS_VERSION 1

typedef struct qless_stats {
	unsigned int version;  /* set by the caller: QLESS_STATS_VERSION */
	int64_t retries;       /* lock-expiry notices */
	int64_t failed;        /* jobs currently failed (approximately) */
	int64_t failures;      /* failure events */
	qless_timing_stats wait;
	qless_timing_stats run;
} qless_stats;

/* Statistics of the UTC day containing date (seconds since the epoch). */
QLESS_EXTERN(int) qless_queue_stats(qless_stats *out, qless_queue *queue, double date);

#ifdef __cplusplus
}
#endif
#endif
