/*
 * qless_client: one connection to a Redis (or Valkey) server running the
 * qless protocol, plus the client-wide commands.
 *
 * The client is reference counted: queues, jobs, recurring jobs, workers and
 * event handles made from it keep it alive, so handles may be freed in any
 * order (and on any thread; see common.h). qless_client_free() drops the
 * caller's reference; the connection closes with the last reference.
 */
#ifndef QLESS_CLIENT_H
#define QLESS_CLIENT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QLESS_CLIENT_OPTIONS_VERSION 2

typedef struct qless_client_options {
	unsigned int version;       /* QLESS_CLIENT_OPTIONS_VERSION */
	/* Bounds each step of connecting: the connect itself, AUTH, SELECT and
	 * loading the protocol. 0: 5000 ms; < 0: wait forever */
	int connect_timeout_ms;
	/* Bounds each command's write and reply. 0: 30000 ms; < 0: wait forever */
	int command_timeout_ms;
	const char *worker_name;    /* NULL: "<hostname>-<pid>"; else non-empty UTF-8; copied */
	/* Version 2. The namespace every call of the client works in (keys and
	 * channels `{NAME}:ql:...`, docs/cluster.md); NULL: the URL's
	 * `namespace=` parameter, else none (keys `ql:...`). NAME: 1 to 64
	 * printable ASCII characters other than space, `{`, `}` and `/`. Copied. */
	const char *namespace_name;
	/* Version 2. After each call that may have written, WAIT until this
	 * many replicas acknowledged it, else fail the call with QLESS_EIO
	 * (it ran: it may be lost if the primary fails now; docs/cluster.md,
	 * "Failover and wait_replicas"). 0: the URL's wait_replicas=, else no
	 * WAIT; < 0 refused. */
	int wait_replicas;
	/* Version 2. How long that WAIT waits. 0: the URL's wait_timeout_ms=,
	 * else 1000 ms; < 0 refused. */
	int wait_timeout_ms;
} qless_client_options;

#define QLESS_CLIENT_OPTIONS_INIT { QLESS_CLIENT_OPTIONS_VERSION, 0, 0, NULL, NULL, 0, 0 }

/* Initialises opts to the defaults; version must be QLESS_CLIENT_OPTIONS_VERSION. */
QLESS_EXTERN(int) qless_client_options_init(qless_client_options *opts, unsigned int version);

/*
 * Connects to url (the connection is kept; one the server has closed since,
 * e.g. by restarting, is noticed and replaced before the next call is sent):
 *   redis://[[user]:password@]host[:port][/db]     (port 6379, db 0 by default)
 *   rediss://[[user]:password@]host[:port][/db][?ca=FILE&cert=FILE&key=FILE&insecure]
 *                                                  (TLS; the server's certificate and host
 *                                                  name are verified unless ?insecure)
 *   unix:///path/to/redis.sock[?db=N&password=P&user=U]
 * Either takes ?namespace=NAME (&namespace=NAME after other parameters):
 * the client's namespace, as opts->namespace_name (both given must agree);
 * and wait_replicas=N, wait_timeout_ms=MS as the options of those names.
 *   redis+cluster://[[user]:password@]host:port[,host:port...]/?namespace=NAME
 *                                                  (Redis Cluster; a namespace is required, from
 *                                                  the URL or opts; wait_replicas= and
 *                                                  wait_timeout_ms= too; docs/cluster.md)
 * A user (ACL) and/or password triggers AUTH; a db other than 0 triggers
 * SELECT. url NULL means the QLESS_URL environment variable, else the
 * embedded server (see server.h), started on demand. opts may be NULL for
 * the defaults.
 * *out is an owned handle: release with qless_client_free().
 */
QLESS_EXTERN(int) qless_client_new(qless_client **out, const char *url, const qless_client_options *opts);
QLESS_EXTERN(void) qless_client_free(qless_client *client);

/* This client's worker name. Borrowed: valid until the client is freed. */
QLESS_EXTERN(const char *) qless_client_worker_name(const qless_client *client);

/* This client's namespace, or NULL when it has none (keys `ql:...`).
 * Borrowed: valid until the client is freed. */
QLESS_EXTERN(const char *) qless_client_namespace(const qless_client *client);

/* The time the client sends as `now` (seconds since the epoch, with
 * microsecond resolution) is the system clock plus this offset; default 0.
 * Useful to correct a known skew (and to test expiry without waiting). */
QLESS_EXTERN(int) qless_client_set_time_offset(qless_client *client, double seconds);
QLESS_EXTERN(double) qless_client_now(const qless_client *client);

/*
 * Raw protocol call: runs `command` with `now` and argv. The reply is
 * rendered as text in *out (owned, free with qless_free): a bulk string as
 * is, an integer in decimal, an array as a JSON array of strings; nil gives
 * *out = NULL. Script errors come back as a negative code with the script's
 * message (an unknown command is QLESS_EINVAL). This is the escape hatch for commands newer than this library.
 */
QLESS_EXTERN(int) qless_client_call(char **out, qless_client *client, const char *command,
                                    QLESS_STRV(argv, argc));

/* One call of qless_client_call_batch: inputs, then results. */
typedef struct qless_call {
	const char *command;        /* in: as qless_client_call's */
	const char *const *argv;    /* in */
	size_t argc;                /* in */
	char *out;                  /* out: reply text as qless_client_call renders it (owned) or NULL */
	int rc;                     /* out: QLESS_OK or this call's negative code */
} qless_call;

/*
 * Raw protocol calls in one round trip: sends calls[0..ncalls) pipelined,
 * all with the same `now`, then reads every reply into calls[i].out/.rc.
 * Each call runs atomically on its own and in order; they are not one
 * transaction (a failing call does not stop the next ones).
 * Returns QLESS_OK when every call succeeded, else the code of the first
 * failed call, whose message is qless_error_last_message(). On a connection
 * error every call gets QLESS_EIO (which of them ran is unknown, as for any
 * call that loses its connection).
 */
QLESS_EXTERN(int) qless_client_call_batch(qless_client *client, qless_call *calls, size_t ncalls);

/* ---- jobs by id ---- */

/* *out: owned job; QLESS_ENOTFOUND when the job does not exist. */
QLESS_EXTERN(int) qless_client_get_job(qless_job **out, qless_client *client, const char *jid);
/* Jobs that exist, in argument order (unknown jids skipped). *out owned. */
QLESS_EXTERN(int) qless_client_get_jobs(qless_joblist **out, qless_client *client,
                                        QLESS_STRV(jids, njids));
/* Cancels the jobs (and only them: a job others depend on can be canceled
 * only together with its dependents, else QLESS_ESTATE). Completed and
 * unknown jobs are skipped. */
QLESS_EXTERN(int) qless_client_cancel(qless_client *client, QLESS_STRV(jids, njids));
/* Forces the running jobs' locks to expire now (they are popped first next). */
QLESS_EXTERN(int) qless_client_timeout(qless_client *client, QLESS_STRV(jids, njids));

/*
 * Jids by state. state is "complete" (queue ignored, may be NULL) or one of
 * "running", "stalled", "scheduled", "depends", "recurring" and the tree-job
 * states "suspended", "terminating", "terminated" (queue required).
 * count 0 means the protocol default (25). *out owned.
 */
QLESS_EXTERN(int) qless_client_jobs(qless_strlist **out, qless_client *client, const char *state,
                                    const char *queue, int64_t offset, int64_t count);

/* ---- tags ---- */

/* Jids carrying tag, oldest tagging first; *total (may be NULL) gets the
 * number of all such jobs. count 0: 25. *out owned. */
QLESS_EXTERN(int) qless_client_tagged(qless_strlist **out, int64_t *total, qless_client *client,
                                      const char *tag, int64_t offset, int64_t count);
/* Tags used by at least two jobs, most used first, with their use counts as
 * the list numbers. count 0: 25. *out owned. */
QLESS_EXTERN(int) qless_client_top_tags(qless_strlist **out, qless_client *client,
                                        int64_t offset, int64_t count);

/* ---- tracking ---- */

/* *jobs: tracked jobs that exist; *expired: tracked jids that no longer do.
 * Either pointer may be NULL if not wanted. Both owned. */
QLESS_EXTERN(int) qless_client_tracked(qless_joblist **jobs, qless_strlist **expired, qless_client *client);

/* ---- failures ---- */

/* Failure groups, each with its number of failed jobs. *out owned. */
QLESS_EXTERN(int) qless_client_failed_groups(qless_strlist **out, qless_client *client);
/* Jids failed in group, newest first; *total may be NULL. limit 0: 25. */
QLESS_EXTERN(int) qless_client_failed(qless_strlist **out, int64_t *total, qless_client *client,
                                      const char *group, int64_t start, int64_t limit);

/* ---- queues and workers ---- */

/* Names of the known queues, oldest first. *out owned. */
QLESS_EXTERN(int) qless_client_queue_names(qless_strlist **out, qless_client *client);
/* Every known queue's counts (see qless_queue_countlist in queue.h).
 * *out owned: release with qless_queue_countlist_free(). */
QLESS_EXTERN(int) qless_client_queue_counts(qless_queue_countlist **out, qless_client *client);
/* The protocol's `queues` reply: JSON array of per-queue counts. *out owned.
 * Kept for programs that want the raw reply; qless_client_queue_counts is
 * the typed form. */
QLESS_EXTERN(int) qless_client_queues_json(char **out, qless_client *client);

/* Workers seen recently, most recent first; list numbers are their running
 * job counts. *out owned. */
QLESS_EXTERN(int) qless_client_workers(qless_strlist **out, qless_client *client);
/* Jids a worker holds (*jobs) and holds with an expired lock (*stalled).
 * Either may be NULL if not wanted. Both owned. */
QLESS_EXTERN(int) qless_client_worker_jobs(qless_strlist **jobs, qless_strlist **stalled,
                                           qless_client *client, const char *worker);
/* Forgets workers (their job lists are kept until they expire). */
QLESS_EXTERN(int) qless_client_deregister_workers(qless_client *client, QLESS_STRV(workers, n));

/* ---- configuration ---- */

/* *out: owned value as text, or NULL when the option is neither set nor has
 * a default. */
QLESS_EXTERN(int) qless_client_config_get(char **out, qless_client *client, const char *key);
/* All options with defaults overlaid by stored values, as a JSON object. Owned. */
QLESS_EXTERN(int) qless_client_config_all(char **out, qless_client *client);
QLESS_EXTERN(int) qless_client_config_set(qless_client *client, const char *key, const char *value);
QLESS_EXTERN(int) qless_client_config_unset(qless_client *client, const char *key);

#ifdef __cplusplus
}
#endif
#endif
