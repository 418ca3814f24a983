/*
 * qless_job: a snapshot of one job, plus the operations on it.
 *
 * Accessors read the snapshot taken when the job was fetched (get, pop,
 * peek, ...); operations update the fields they change (state, expires,
 * priority, tags, ...) and qless_job_refresh() re-reads everything.
 * Strings returned by accessors are borrowed: valid until the job is freed,
 * refreshed, or the same field is changed through this handle. A job keeps
 * the client it was read with alive until it is freed.
 */
#ifndef QLESS_JOB_H
#define QLESS_JOB_H

#include "common.h"
#include "queue.h"

#ifdef __cplusplus
extern "C" {
#endif

QLESS_EXTERN(void) qless_job_free(qless_job *job);

/* Re-reads the job; QLESS_ENOTFOUND if it no longer exists. */
QLESS_EXTERN(int) qless_job_refresh(qless_job *job);

/* ---- fields (borrowed strings; NULL only for a NULL job unless noted) ---- */
QLESS_EXTERN(const char *) qless_job_jid(const qless_job *job);
QLESS_EXTERN(const char *) qless_job_klass(const qless_job *job);
QLESS_EXTERN(const char *) qless_job_queue(const qless_job *job);   /* "" once complete */
QLESS_EXTERN(const char *) qless_job_state(const qless_job *job);
/* Non-zero once the worker engine's heartbeat found that this job's lock is
 * lost (timed out, canceled, handed to another worker): job code may stop
 * early; the engine will not settle the job. */
QLESS_EXTERN(qless_bool) qless_job_lock_lost(const qless_job *job);
/* The client the job was read with. Borrowed: valid while the job lives
 * (for job code run by the worker engine: the connection of its thread). */
QLESS_EXTERN(qless_client *) qless_job_client(const qless_job *job);
QLESS_EXTERN(const char *) qless_job_worker(const qless_job *job);  /* "" when none */
QLESS_EXTERN(const char *) qless_job_data(const qless_job *job);    /* JSON text */
QLESS_EXTERN(double) qless_job_priority(const qless_job *job);
QLESS_EXTERN(double) qless_job_expires(const qless_job *job);        /* 0 when not running */
QLESS_EXTERN(int64_t) qless_job_retries(const qless_job *job);
QLESS_EXTERN(int64_t) qless_job_remaining(const qless_job *job);
QLESS_EXTERN(qless_bool) qless_job_tracked(const qless_job *job);
/* The recurring template this job was spawned from; NULL if none. */
QLESS_EXTERN(const char *) qless_job_spawned_from_jid(const qless_job *job);

/* List fields: always lists (the wire's "{}" for empty is hidden). */
QLESS_EXTERN(size_t) qless_job_tag_count(const qless_job *job);
QLESS_EXTERN(const char *) qless_job_tag(const qless_job *job, size_t index);
QLESS_EXTERN(size_t) qless_job_dependency_count(const qless_job *job);
QLESS_EXTERN(const char *) qless_job_dependency(const qless_job *job, size_t index);
QLESS_EXTERN(size_t) qless_job_dependent_count(const qless_job *job);
QLESS_EXTERN(const char *) qless_job_dependent(const qless_job *job, size_t index);

/* History, oldest first. what: "put", "popped", "done", "failed",
 * "timed-out" or a logged message. The entry as a JSON object (with its
 * extra keys such as "q", "worker", "group") is qless_job_history_json. */
QLESS_EXTERN(size_t) qless_job_history_count(const qless_job *job);
QLESS_EXTERN(const char *) qless_job_history_what(const qless_job *job, size_t index);
QLESS_EXTERN(double) qless_job_history_when(const qless_job *job, size_t index);
QLESS_EXTERN(const char *) qless_job_history_json(const qless_job *job, size_t index);

/* The last failure; group is NULL when the job never failed. */
QLESS_EXTERN(const char *) qless_job_failure_group(const qless_job *job);
QLESS_EXTERN(const char *) qless_job_failure_message(const qless_job *job);
QLESS_EXTERN(const char *) qless_job_failure_worker(const qless_job *job);
QLESS_EXTERN(double) qless_job_failure_when(const qless_job *job);

/* The whole job object as JSON text, with lists always as arrays. */
QLESS_EXTERN(const char *) qless_job_json(const qless_job *job);

/* Replaces the data sent by the next complete/fail/heartbeat (JSON text;
 * QLESS_EINVAL if it does not parse). Local until then. */
QLESS_EXTERN(int) qless_job_set_data(qless_job *job, const char *data);

/* ---- operations by the worker holding the job ---- */

#define QLESS_COMPLETE_OPTIONS_VERSION 1

typedef struct qless_complete_options {
	unsigned int version;        /* QLESS_COMPLETE_OPTIONS_VERSION */
	const char *next;            /* NULL: final completion; else advance to this queue */
	double delay;                /* with next: seconds before it may run */
	const char *const *depends;  /* with next: jids to wait for */
	size_t ndepends;
} qless_complete_options;

#define QLESS_COMPLETE_OPTIONS_INIT { QLESS_COMPLETE_OPTIONS_VERSION, NULL, 0, NULL, 0 }

QLESS_EXTERN(int) qless_complete_options_init(qless_complete_options *opts, unsigned int version);

/* Completes (or advances) the job held by this client's worker, sending its
 * current data. opts may be NULL. On success the job's state reads
 * "complete", "waiting", "scheduled" or "depends". QLESS_ELOCK when this
 * worker no longer holds the job. */
QLESS_EXTERN(int) qless_job_complete(qless_job *job, const qless_complete_options *opts);
/* Fails the held job into group with message (both required). */
QLESS_EXTERN(int) qless_job_fail(qless_job *job, const char *group, const char *message);
/* Gives the held job back to its queue after delay seconds, using up one
 * retry; with group and message (both or neither) records them as the
 * failure. *out_remaining (may be NULL): retries left, -1 when this retry
 * exhausted them and the job failed. */
QLESS_EXTERN(int) qless_job_retry(int64_t *out_remaining, qless_job *job, double delay, const char *group,
                                  const char *message);
/* Renews the lock, sending the current data; *out_expires may be NULL.
 * QLESS_ELOCK when the lock was lost. */
QLESS_EXTERN(int) qless_job_heartbeat(double *out_expires, qless_job *job);

/* ---- operations by anyone ---- */

QLESS_EXTERN(int) qless_job_cancel(qless_job *job);
/* Puts the job (in any state) into queue, like qless_queue_put with
 * opts->jid set; QLESS_ENOTFOUND if it no longer exists. */
QLESS_EXTERN(int) qless_job_requeue(qless_job *job, const char *queue, const qless_put_options *opts);
QLESS_EXTERN(int) qless_job_timeout(qless_job *job);
QLESS_EXTERN(int) qless_job_set_priority(qless_job *job, double priority);
QLESS_EXTERN(int) qless_job_log(qless_job *job, const char *message, const char *data);
QLESS_EXTERN(int) qless_job_tag_add(qless_job *job, QLESS_STRV(tags, ntags));
QLESS_EXTERN(int) qless_job_tag_remove(qless_job *job, QLESS_STRV(tags, ntags));
QLESS_EXTERN(int) qless_job_track(qless_job *job);
QLESS_EXTERN(int) qless_job_untrack(qless_job *job);
/* Dependencies of a job in state "depends" (QLESS_ESTATE otherwise). */
QLESS_EXTERN(int) qless_job_depends_add(qless_job *job, QLESS_STRV(jids, njids));
QLESS_EXTERN(int) qless_job_depends_remove(qless_job *job, QLESS_STRV(jids, njids));
QLESS_EXTERN(int) qless_job_depends_clear(qless_job *job);

#ifdef __cplusplus
}
#endif
#endif
