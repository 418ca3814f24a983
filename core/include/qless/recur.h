/*
 * qless_recur: a recurring job template. Every `interval` seconds (from
 * `now + offset`), or at the fire times of a cron expression (qless/when.h),
 * a new job <jid>-<n> is put into the template's queue; the instances are
 * made lazily by pop and peek on that queue.
 */
#ifndef QLESS_RECUR_H
#define QLESS_RECUR_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version 2 added unique and unique_key; structs of version 1 are still
 * accepted. */
#define QLESS_RECUR_OPTIONS_VERSION 2

typedef struct qless_recur_options {
	unsigned int version;       /* QLESS_RECUR_OPTIONS_VERSION (or 1) */
	const char *jid;            /* NULL: a new jid (qless_jid_generate); else create or replace it */
	double offset;              /* seconds until the first instance */
	double priority;
	int retries;                /* retries of each instance; protocol default 0 */
	int backlog;                /* catch up at most this many missed instances; 0: all */
	const char *const *tags;
	size_t ntags;
	/* Version 2: */
	int unique;                 /* non-zero: keep a template with this jid that is still scheduled;
	                               with jid NULL the jid is qless_unique_jid's interval form */
	const char *unique_key;     /* with unique and jid NULL: jid = qless_unique_jid_for_key */
} qless_recur_options;

#define QLESS_RECUR_OPTIONS_INIT { QLESS_RECUR_OPTIONS_VERSION, NULL, 0, 0, 0, 0, NULL, 0, 0, NULL }

QLESS_EXTERN(int) qless_recur_options_init(qless_recur_options *opts, unsigned int version);

/* Starts putting a job of klass with data (JSON, NULL = "{}") into queue
 * every interval (> 0) seconds. *out_jid (may be NULL) owned. */
QLESS_EXTERN(int) qless_queue_recur(char **out_jid, qless_queue *queue, const char *klass, const char *data,
                                    double interval, const qless_recur_options *opts);

/* Like qless_queue_recur, at the fire times of the cron expression expr
 * (5 or 7 fields or a macro). Its syntax is checked here before any I/O;
 * one that never fires again is refused by the server; both QLESS_EINVAL.
 * opts->offset is ignored (the expression gives the first due time) and
 * opts->backlog is at most 1000; with opts->unique and no jid the jid is
 * qless_unique_jid's cron form. *out_jid (may be NULL) owned. */
QLESS_EXTERN(int) qless_queue_recur_cron(char **out_jid, qless_queue *queue, const char *klass, const char *data,
                                         const char *expr, const qless_recur_options *opts);

/* *out owned (qless_recur_free); keeps the client alive. QLESS_ENOTFOUND if
 * there is no such template. */
QLESS_EXTERN(int) qless_client_get_recur(qless_recur **out, qless_client *client, const char *jid);
QLESS_EXTERN(void) qless_recur_free(qless_recur *recur);

/* Fields of the snapshot; strings borrowed until the handle is freed or the
 * field is changed through it. */
QLESS_EXTERN(const char *) qless_recur_jid(const qless_recur *recur);
QLESS_EXTERN(const char *) qless_recur_klass(const qless_recur *recur);
QLESS_EXTERN(const char *) qless_recur_queue(const qless_recur *recur);
QLESS_EXTERN(const char *) qless_recur_data(const qless_recur *recur);
QLESS_EXTERN(double) qless_recur_priority(const qless_recur *recur);
QLESS_EXTERN(double) qless_recur_interval(const qless_recur *recur);   /* 0 for cron templates */
/* The normalised expression of a cron template; NULL for interval ones. */
QLESS_EXTERN(const char *) qless_recur_cron(const qless_recur *recur);
QLESS_EXTERN(int64_t) qless_recur_retries(const qless_recur *recur);
QLESS_EXTERN(int64_t) qless_recur_backlog(const qless_recur *recur);
QLESS_EXTERN(int64_t) qless_recur_count(const qless_recur *recur);   /* instances so far */
QLESS_EXTERN(size_t) qless_recur_tag_count(const qless_recur *recur);
QLESS_EXTERN(const char *) qless_recur_tag(const qless_recur *recur, size_t index);

/* Changes apply to instances spawned afterwards. */
QLESS_EXTERN(int) qless_recur_set_priority(qless_recur *recur, double priority);
QLESS_EXTERN(int) qless_recur_set_retries(qless_recur *recur, int64_t retries);
/* On a cron template this makes it an interval template; its next due time
 * stays where the expression put it. */
QLESS_EXTERN(int) qless_recur_set_interval(qless_recur *recur, double interval);
/* Makes the template a cron one (either type before); the next due time is
 * the expression's first from now (overdue instances are skipped). expr is
 * checked as for qless_queue_recur_cron. */
QLESS_EXTERN(int) qless_recur_set_cron(qless_recur *recur, const char *expr);
QLESS_EXTERN(int) qless_recur_set_backlog(qless_recur *recur, int64_t backlog);
QLESS_EXTERN(int) qless_recur_set_data(qless_recur *recur, const char *data);
QLESS_EXTERN(int) qless_recur_set_klass(qless_recur *recur, const char *klass);
QLESS_EXTERN(int) qless_recur_set_queue(qless_recur *recur, const char *queue);
QLESS_EXTERN(int) qless_recur_tag_add(qless_recur *recur, QLESS_STRV(tags, ntags));
QLESS_EXTERN(int) qless_recur_tag_remove(qless_recur *recur, QLESS_STRV(tags, ntags));
/* The template's next count (1-1000) due times, from the current one
 * (which may be past when overdue); backlog is not applied; none for a
 * template whose expression fires no more. *out owned (qless_free; NULL
 * when *n is 0). QLESS_ENOTFOUND when the template is gone. */
QLESS_EXTERN(int) qless_recur_next(double **out, size_t *n, qless_recur *recur, int64_t count);
/* Stops the template (instances already made are unaffected). */
QLESS_EXTERN(int) qless_recur_cancel(qless_recur *recur);

#ifdef __cplusplus
}
#endif
#endif
