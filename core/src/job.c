/* qless_job: the job snapshot, parsed from the protocol's job JSON, with
 * its accessors and the local updates the operations make to it (the
 * operations are in job_settle.c and job_ops.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "qless/qless.h"
#include "client_state.h"
#include "errors.h"
#include "handles.h"
#include "job_snapshot.h"
#include "util.h"

struct qless_job {
	qless_client *client;
	json_t *obj;            /* normalised job object: lists always arrays */
	const char *jid, *klass, *queue, *state, *worker, *data, *spawned;
	double priority, expires;
	int64_t retries, remaining;
	int tracked;
	json_t *tags, *deps, *dependents, *history, *failure;
	char *json_text;        /* lazily dumped obj */
	char **hist_text;       /* lazily dumped history entries */
	size_t nhist_text;
	int lock_lost;          /* set by the engine's heartbeat thread (atomic) */
};

/* ---- parsing and caching ---- */

static int norm_list(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (v == NULL || (json_is_object(v) && json_object_size(v) == 0))
		return json_object_set_new(obj, key, json_array()) == 0 ? QLESS_OK : QLESS_ENOMEM;
	return json_is_array(v) ? QLESS_OK : QLESS_EPROTOCOL;
}

static int normalise(json_t *obj, const char *F)
{
	static const char *const strings[] = { "jid", "klass", "state", "queue", "data" };
	static const char *const lists[] = { "tags", "dependencies", "dependents", "history" };
	static const char *const numbers[] = { "priority", "expires", "retries", "remaining" };
	json_t *v;
	size_t i;

	if (!json_is_object(obj))
		return qless__err(QLESS_EPROTOCOL, "%s: expected a job object in the reply", F);
	for (i = 0; i < sizeof strings / sizeof *strings; i++)
		if (!json_is_string(json_object_get(obj, strings[i])))
			return qless__err(QLESS_EPROTOCOL, "%s: job object without a string \"%s\"", F, strings[i]);
	for (i = 0; i < sizeof numbers / sizeof *numbers; i++) {
		v = json_object_get(obj, numbers[i]);
		if (v != NULL && !json_is_number(v))
			return qless__err(QLESS_EPROTOCOL, "%s: job field \"%s\" is not a number", F, numbers[i]);
	}
	for (i = 0; i < sizeof lists / sizeof *lists; i++) {
		int rc = norm_list(obj, lists[i]);
		if (rc == QLESS_ENOMEM)
			return qless__err_nomem(F);
		if (rc != QLESS_OK)
			return qless__err(QLESS_EPROTOCOL, "%s: job field \"%s\" is not a list", F, lists[i]);
	}
	v = json_object_get(obj, "worker");
	if (!json_is_string(v) && json_object_set_new(obj, "worker", json_string("")) != 0)
		return qless__err_nomem(F);
	v = json_object_get(obj, "failure");
	if (!json_is_object(v) && json_object_set_new(obj, "failure", json_object()) != 0)
		return qless__err_nomem(F);
	return QLESS_OK;
}

static void drop_texts(qless_job *job)
{
	size_t i;
	free(job->json_text);
	job->json_text = NULL;
	for (i = 0; i < job->nhist_text; i++)
		free(job->hist_text[i]);
	free(job->hist_text);
	job->hist_text = NULL;
	job->nhist_text = 0;
}

static void cache(qless_job *job)
{
	json_t *o = job->obj;
	job->jid = json_string_value(json_object_get(o, "jid"));
	job->klass = json_string_value(json_object_get(o, "klass"));
	job->queue = json_string_value(json_object_get(o, "queue"));
	job->state = json_string_value(json_object_get(o, "state"));
	job->worker = json_string_value(json_object_get(o, "worker"));
	job->data = json_string_value(json_object_get(o, "data"));
	job->spawned = json_string_value(json_object_get(o, "spawned_from_jid"));
	job->priority = qless__jnum(json_object_get(o, "priority"));
	job->expires = qless__jnum(json_object_get(o, "expires"));
	job->retries = qless__jint(json_object_get(o, "retries"));
	job->remaining = qless__jint(json_object_get(o, "remaining"));
	job->tracked = json_is_true(json_object_get(o, "tracked"));
	job->tags = json_object_get(o, "tags");
	job->deps = json_object_get(o, "dependencies");
	job->dependents = json_object_get(o, "dependents");
	job->history = json_object_get(o, "history");
	job->failure = json_object_get(o, "failure");
}

int qless__job_from_json(qless_client *c, json_t *obj, qless_job **out, const char *F)
{
	qless_job *job;
	int rc = normalise(obj, F);
	*out = NULL;
	if (rc != QLESS_OK) {
		json_decref(obj);
		return rc;
	}
	job = calloc(1, sizeof *job);
	if (job == NULL) {
		json_decref(obj);
		return qless__err_nomem(F);
	}
	job->client = c;
	qless__client_ref(c);
	qless__handle_add(1);
	job->obj = obj;
	cache(job);
	*out = job;
	return QLESS_OK;
}

void qless_job_free(qless_job *job)
{
	if (job == NULL)
		return;
	qless__handle_add(-1);
	drop_texts(job);
	json_decref(job->obj);
	qless__client_unref(job->client);
	free(job);
}

/* ---- local field updates ---- */

static json_t *jnumber(double v)
{
	if (v > -9e15 && v < 9e15 && v == (double)(json_int_t)v)
		return json_integer((json_int_t)v);
	return json_real(v);
}

int qless__job_set_field(qless_job *job, const char *key, json_t *value)
{
	if (value == NULL || json_object_set_new(job->obj, key, value) != 0)
		return QLESS_ENOMEM;
	free(job->json_text);
	job->json_text = NULL;
	return QLESS_OK;
}

int qless__job_fields_done(qless_job *job, int rc, const char *F)
{
	cache(job);
	return rc == QLESS_OK ? QLESS_OK : qless__err_nomem(F);
}

int qless__job_set_str(qless_job *job, const char *key, const char *value)
{
	return qless__job_set_field(job, key, json_string(value));
}

int qless__job_set_num(qless_job *job, const char *key, double value)
{
	return qless__job_set_field(job, key, jnumber(value));
}

int qless__job_released(qless_job *job, const char *state, const char *F)
{
	int rc = qless__job_set_str(job, "state", state);
	if (rc == QLESS_OK)
		rc = qless__job_set_str(job, "worker", "");
	if (rc == QLESS_OK)
		rc = qless__job_set_num(job, "expires", 0);
	return qless__job_fields_done(job, rc, F);
}

qless_client *qless__job_client(const qless_job *job)
{
	return job->client;
}

void qless__job_set_client(qless_job *job, qless_client *c)
{
	job->client = c;
}

qless_client *qless_job_client(const qless_job *job)
{
	return job ? job->client : NULL;
}

int qless_job_lock_lost(const qless_job *job)
{
	return job ? __atomic_load_n(&job->lock_lost, __ATOMIC_RELAXED) : 0;
}

void qless__job_set_lock_lost(qless_job *job)
{
	__atomic_store_n(&job->lock_lost, 1, __ATOMIC_RELAXED);
}

/* job takes fresh's snapshot (fresh is freed): the cached fields and texts
 * follow the new one. */
void qless__job_replace(qless_job *job, qless_job *fresh)
{
	json_t *tmp = job->obj;
	job->obj = fresh->obj;
	fresh->obj = tmp;
	drop_texts(job);
	cache(job);
	qless_job_free(fresh);
}

/* ---- accessors ---- */

const char *qless_job_jid(const qless_job *job) { return job ? job->jid : NULL; }
const char *qless_job_klass(const qless_job *job) { return job ? job->klass : NULL; }
const char *qless_job_queue(const qless_job *job) { return job ? job->queue : NULL; }
const char *qless_job_state(const qless_job *job) { return job ? job->state : NULL; }
const char *qless_job_worker(const qless_job *job) { return job ? job->worker : NULL; }
const char *qless_job_data(const qless_job *job) { return job ? job->data : NULL; }
double qless_job_priority(const qless_job *job) { return job ? job->priority : 0; }
double qless_job_expires(const qless_job *job) { return job ? job->expires : 0; }
int64_t qless_job_retries(const qless_job *job) { return job ? job->retries : 0; }
int64_t qless_job_remaining(const qless_job *job) { return job ? job->remaining : 0; }
int qless_job_tracked(const qless_job *job) { return job ? job->tracked : 0; }
const char *qless_job_spawned_from_jid(const qless_job *job) { return job ? job->spawned : NULL; }

size_t qless_job_tag_count(const qless_job *job) { return job ? json_array_size(job->tags) : 0; }
const char *qless_job_tag(const qless_job *job, size_t index)
{
	return job ? json_string_value(json_array_get(job->tags, index)) : NULL;
}
size_t qless_job_dependency_count(const qless_job *job) { return job ? json_array_size(job->deps) : 0; }
const char *qless_job_dependency(const qless_job *job, size_t index)
{
	return job ? json_string_value(json_array_get(job->deps, index)) : NULL;
}
size_t qless_job_dependent_count(const qless_job *job) { return job ? json_array_size(job->dependents) : 0; }
const char *qless_job_dependent(const qless_job *job, size_t index)
{
	return job ? json_string_value(json_array_get(job->dependents, index)) : NULL;
}

size_t qless_job_history_count(const qless_job *job) { return job ? json_array_size(job->history) : 0; }
const char *qless_job_history_what(const qless_job *job, size_t index)
{
	return job ? json_string_value(json_object_get(json_array_get(job->history, index), "what")) : NULL;
}
double qless_job_history_when(const qless_job *job, size_t index)
{
	return job ? qless__jnum(json_object_get(json_array_get(job->history, index), "when")) : 0;
}
const char *qless_job_history_json(const qless_job *job, size_t index)
{
	qless_job *j = (qless_job *)job; /* lazily filled cache */
	size_t n;
	if (job == NULL || index >= (n = json_array_size(job->history)))
		return NULL;
	if (j->hist_text == NULL) {
		j->hist_text = calloc(n, sizeof *j->hist_text);
		if (j->hist_text == NULL)
			return NULL;
		j->nhist_text = n;
	}
	if (j->hist_text[index] == NULL)
		j->hist_text[index] = json_dumps(json_array_get(job->history, index), JSON_COMPACT | JSON_SORT_KEYS);
	return j->hist_text[index];
}

static const char *failure_str(const qless_job *job, const char *key)
{
	return job ? json_string_value(json_object_get(job->failure, key)) : NULL;
}
const char *qless_job_failure_group(const qless_job *job) { return failure_str(job, "group"); }
const char *qless_job_failure_message(const qless_job *job) { return failure_str(job, "message"); }
const char *qless_job_failure_worker(const qless_job *job) { return failure_str(job, "worker"); }
double qless_job_failure_when(const qless_job *job)
{
	return job ? qless__jnum(json_object_get(job->failure, "when")) : 0;
}

const char *qless_job_json(const qless_job *job)
{
	qless_job *j = (qless_job *)job;
	if (job == NULL)
		return NULL;
	if (j->json_text == NULL)
		j->json_text = json_dumps(job->obj, JSON_COMPACT | JSON_SORT_KEYS);
	return j->json_text;
}

int qless_job_set_data(qless_job *job, const char *data)
{
	static const char F[] = "qless_job_set_data";
	int rc;
	QLESS_CHECK_NULL(F, job);
	QLESS_CHECK_NULL(F, data);
	if ((rc = qless__check_json(F, "data", data)) != QLESS_OK)
		return rc;
	return qless__job_fields_done(job, qless__job_set_str(job, "data", data), F);
}
