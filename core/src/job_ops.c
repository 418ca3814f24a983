/* Operations on a job other than settling it: refresh, heartbeat, cancel,
 * requeue, timeout, priority, log, tags, tracking and dependencies. */
#include <stdlib.h>

#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "errors.h"
#include "namespace.h"
#include "job_snapshot.h"
#include "put.h"
#include "util.h"

int qless_job_refresh(qless_job *job)
{
	static const char F[] = "qless_job_refresh";
	qless_job *fresh;
	int rc;

	QLESS_CHECK_NULL(F, job);
	rc = qless_client_get_job(&fresh, qless__job_client(job), qless_job_jid(job));
	if (rc != QLESS_OK)
		return rc;
	qless__job_replace(job, fresh);
	return QLESS_OK;
}

int qless_job_heartbeat(double *out_expires, qless_job *job)
{
	static const char F[] = "qless_job_heartbeat";
	qless_args a;
	int64_t expires;
	int rc;

	if (out_expires != NULL)
		*out_expires = 0;
	QLESS_CHECK_NULL(F, job);
	qless__args_init(&a);
	qless__args_add(&a, qless_job_jid(job));
	qless__args_add(&a, qless__job_client(job)->worker_name);
	qless__args_add(&a, qless_job_data(job));
	if ((rc = qless__call_int(qless__job_client(job), F, "heartbeat", &a, &expires)) != QLESS_OK)
		return rc;
	if (out_expires != NULL)
		*out_expires = (double)expires;
	rc = qless__job_set_num(job, "expires", (double)expires);
	return qless__job_fields_done(job, rc, F);
}

int qless_job_cancel(qless_job *job)
{
	static const char F[] = "qless_job_cancel";
	qless_args a;
	QLESS_CHECK_NULL(F, job);
	qless__args_init(&a);
	qless__args_add(&a, qless_job_jid(job));
	return qless__call_void(qless__job_client(job), F, "cancel", &a);
}

int qless_job_requeue(qless_job *job, const char *queue, const qless_put_options *opts)
{
	static const char F[] = "qless_job_requeue";
	qless_put_options o;
	int rc;

	QLESS_CHECK_NULL(F, job);
	QLESS_CHECK_STR(F, queue);
	if ((rc = qless__put_options(F, opts, &o)) != QLESS_OK)
		return rc;
	/* requeue exists to force a move: `unique` does not apply. */
	o.jid = qless_job_jid(job);
	o.unique_key = NULL;
	rc = qless__put(qless__job_client(job), F, "requeue", queue, NULL, NULL, qless_job_klass(job), qless_job_data(job), &o, NULL);
	if (rc != QLESS_OK)
		return rc;
	return qless_job_refresh(job);
}

int qless_job_timeout(qless_job *job)
{
	static const char F[] = "qless_job_timeout";
	qless_args a;
	int rc;
	QLESS_CHECK_NULL(F, job);
	qless__args_init(&a);
	qless__args_add(&a, qless_job_jid(job));
	if ((rc = qless__call_void(qless__job_client(job), F, "timeout", &a)) != QLESS_OK)
		return rc;
	/* The new state is the script's to say: read it back. */
	return qless_job_refresh(job);
}

int qless_job_set_priority(qless_job *job, double priority)
{
	static const char F[] = "qless_job_set_priority";
	qless_args a;
	int rc;
	QLESS_CHECK_NULL(F, job);
	if ((rc = qless__check_finite(F, "priority", priority)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_add(&a, qless_job_jid(job));
	qless__args_num(&a, priority);
	if ((rc = qless__call_void(qless__job_client(job), F, "priority", &a)) != QLESS_OK)
		return rc;
	return qless__job_fields_done(job, qless__job_set_num(job, "priority", priority), F);
}

int qless_job_log(qless_job *job, const char *message, const char *data)
{
	static const char F[] = "qless_job_log";
	qless_args a;
	int rc;
	QLESS_CHECK_NULL(F, job);
	QLESS_CHECK_STR(F, message);
	if (data != NULL) {
		json_t *d;
		if ((rc = qless__check_json(F, "data", data)) != QLESS_OK)
			return rc;
		d = json_loads(data, JSON_DECODE_ANY, NULL);
		int ok = json_is_object(d);
		json_decref(d);
		if (!ok)
			return qless__err(QLESS_EINVAL, "%s: data is not a JSON object", F);
	}
	qless__args_init(&a);
	qless__args_add(&a, qless_job_jid(job));
	qless__args_add(&a, message);
	if (data != NULL)
		qless__args_add(&a, data);
	return qless__call_void(qless__job_client(job), F, "log", &a);
}

static int tag_op(qless_job *job, const char *F, const char *op, const char *const *tags, size_t ntags)
{
	qless_args a;
	json_t *j;
	int rc;
	QLESS_CHECK_NULL(F, job);
	if ((rc = qless__check_strv(F, "tags", tags, ntags, 1)) != QLESS_OK)
		return rc;
	if (ntags == 0)
		return QLESS_OK;
	qless__args_init(&a);
	qless__args_add(&a, op);
	qless__args_add(&a, qless_job_jid(job));
	qless__args_addv(&a, tags, ntags);
	if ((rc = qless__call_json(qless__job_client(job), F, "tag", &a, &j)) != QLESS_OK)
		return rc;
	if (json_is_object(j) && json_object_size(j) == 0) {
		json_decref(j);
		j = json_array();
	} else if (!json_is_array(j)) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array of tags", F);
	}
	return qless__job_fields_done(job, qless__job_set_field(job, "tags", j), F);
}

int qless_job_tag_add(qless_job *job, const char *const *tags, size_t ntags)
{
	return tag_op(job, "qless_job_tag_add", "add", tags, ntags);
}

int qless_job_tag_remove(qless_job *job, const char *const *tags, size_t ntags)
{
	return tag_op(job, "qless_job_tag_remove", "remove", tags, ntags);
}

static int track_op(qless_job *job, const char *F, const char *op, int tracked)
{
	qless_args a;
	int rc;
	QLESS_CHECK_NULL(F, job);
	qless__args_init(&a);
	qless__args_add(&a, op);
	qless__args_add(&a, qless_job_jid(job));
	if ((rc = qless__call_void(qless__job_client(job), F, "track", &a)) != QLESS_OK)
		return rc;
	return qless__job_fields_done(job, qless__job_set_field(job, "tracked", json_boolean(tracked)), F);
}

int qless_job_track(qless_job *job)
{
	return track_op(job, "qless_job_track", "track", 1);
}

int qless_job_untrack(qless_job *job)
{
	return track_op(job, "qless_job_untrack", "untrack", 0);
}

static int depends_op(qless_job *job, const char *F, const char *op, const char *const *jids, size_t njids, int all)
{
	qless_args a;
	int rc;

	QLESS_CHECK_NULL(F, job);
	if ((rc = qless__check_strv(F, "jids", jids, njids, 1)) != QLESS_OK)
		return rc;
	for (size_t i = 0; i < njids; i++)
		if ((rc = qless__namespace_same(F, "jid", qless__job_client(job)->ns, jids[i])) != QLESS_OK)
			return rc;
	if (!all && njids == 0)
		return QLESS_OK;
	qless__args_init(&a);
	qless__args_add(&a, qless_job_jid(job));
	qless__args_add(&a, op);
	if (all)
		qless__args_add(&a, "all");
	else
		qless__args_addv(&a, jids, njids);
	if ((rc = qless__call_void(qless__job_client(job), F, "depends", &a)) != QLESS_OK)
		return rc;
	/* Which dependencies were made (not on finished jobs) and the state
	 * the job is left in (waiting, or scheduled when a delay was pending)
	 * are the script's rules: read them back. */
	return qless_job_refresh(job);
}

int qless_job_depends_add(qless_job *job, const char *const *jids, size_t njids)
{
	return depends_op(job, "qless_job_depends_add", "on", jids, njids, 0);
}

int qless_job_depends_remove(qless_job *job, const char *const *jids, size_t njids)
{
	return depends_op(job, "qless_job_depends_remove", "off", jids, njids, 0);
}

int qless_job_depends_clear(qless_job *job)
{
	return depends_op(job, "qless_job_depends_clear", "off", NULL, 0, 1);
}
