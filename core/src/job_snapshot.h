/* The job snapshot (job.c): made from the protocol's job JSON, updated locally. */
#ifndef QLESS_JOB_SNAPSHOT_H
#define QLESS_JOB_SNAPSHOT_H

#include <jansson.h>

#include "qless/qless.h"

/* Takes the reference of obj; normalises it. EPROTOCOL on a bad shape. */
int qless__job_from_json(qless_client *c, json_t *obj, qless_job **out, const char *func);
qless_client *qless__job_client(const qless_job *job);
/* The client the job's own calls go through; the caller moves the
 * reference (pool_batch.c: reserved on one connection, run on another). */
void qless__job_set_client(qless_job *job, qless_client *c);
/* Local updates of the snapshot: set_field takes value's reference; each
 * returns QLESS_ENOMEM (unrecorded) on failure. A series of them ends with
 * fields_done, which refreshes the cached fields and records a failure
 * (rc, the series' first) as naming func. */
int qless__job_set_field(qless_job *job, const char *key, json_t *value);
int qless__job_set_str(qless_job *job, const char *key, const char *value);
int qless__job_set_num(qless_job *job, const char *key, double value);
int qless__job_fields_done(qless_job *job, int rc, const char *func);
/* job takes fresh's snapshot; fresh is freed. */
void qless__job_replace(qless_job *job, qless_job *fresh);
/* The job's state after a call that ended its run: worker "", expires 0. */
int qless__job_released(qless_job *job, const char *state, const char *func);
/* Set by the engine's heartbeat thread (atomic). */
void qless__job_set_lock_lost(qless_job *job);

#endif
