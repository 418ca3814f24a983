/* qless_job: the job snapshot (parsed from the protocol's job JSON) and the
 * operations on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

int qless__joblist_from_json(qless_client *c, json_t *arr, qless_joblist **out, const char *F)
{
	qless_joblist *l;
	size_t i, n;
	int rc;

	*out = NULL;
	if (json_is_object(arr) && json_object_size(arr) == 0)
		n = 0;
	else if (json_is_array(arr))
		n = json_array_size(arr);
	else
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array of jobs", F);
	l = qless__joblist_empty();
	if (l == NULL || (n > 0 && (l->jobs = calloc(n, sizeof *l->jobs)) == NULL)) {
		qless_joblist_free(l);
		return qless__err_nomem(F);
	}
	for (i = 0; i < n; i++) {
		json_t *e = json_array_get(arr, i);
		json_incref(e);
		rc = qless__job_from_json(c, e, &l->jobs[i], F);
		if (rc != QLESS_OK) {
			l->size = i;
			qless_joblist_free(l);
			return rc;
		}
	}
	l->size = n;
	*out = l;
	return QLESS_OK;
}

int qless__joblist_from_reply(qless_client *c, redisReply *r, qless_joblist **out, const char *F)
{
	json_t *arr;
	int rc = qless__reply_json(r, F, &arr);
	*out = NULL;
	if (rc != QLESS_OK)
		return rc;
	rc = qless__joblist_from_json(c, arr, out, F);
	json_decref(arr);
	return rc;
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

/* Sets key to value (reference stolen). The caller re-runs cache(job)
 * once after its last change (also on failure). */
static int set_field(qless_job *job, const char *key, json_t *value)
{
	if (value == NULL || json_object_set_new(job->obj, key, value) != 0)
		return QLESS_ENOMEM;
	free(job->json_text);
	job->json_text = NULL;
	return QLESS_OK;
}

/* Ends a series of set_field calls: refreshes the cached fields. */
static int done(qless_job *job, int rc, const char *F)
{
	cache(job);
	return rc == QLESS_OK ? QLESS_OK : qless__err_nomem(F);
}

static int set_str(qless_job *job, const char *key, const char *value)
{
	return set_field(job, key, json_string(value));
}

static int set_num(qless_job *job, const char *key, double value)
{
	return set_field(job, key, jnumber(value));
}

int qless__job_released(qless_job *job, const char *state, const char *F)
{
	int rc = set_str(job, "state", state);
	if (rc == QLESS_OK)
		rc = set_str(job, "worker", "");
	if (rc == QLESS_OK)
		rc = set_num(job, "expires", 0);
	return done(job, rc, F);
}

qless_client *qless__job_client(const qless_job *job)
{
	return job->client;
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

/* ---- refresh ---- */

int qless_job_refresh(qless_job *job)
{
	static const char F[] = "qless_job_refresh";
	qless_job *fresh;
	json_t *tmp;
	int rc;

	QLESS_CHECK_NULL(F, job);
	rc = qless_client_get_job(job->client, &fresh, job->jid);
	if (rc != QLESS_OK)
		return rc;
	/* swap the snapshots */
	tmp = job->obj;
	job->obj = fresh->obj;
	fresh->obj = tmp;
	drop_texts(job);
	cache(job);
	qless_job_free(fresh);
	return QLESS_OK;
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
	return done(job, set_str(job, "data", data), F);
}

/* ---- operations by the worker holding the job ---- */

int qless_complete_options_init(qless_complete_options *opts, unsigned int version)
{
	QLESS_CHECK_NULL("qless_complete_options_init", opts);
	if (version != QLESS_COMPLETE_OPTIONS_VERSION)
		return qless__err(QLESS_EINVAL, "qless_complete_options_init: unsupported version %u", version);
	memset(opts, 0, sizeof *opts);
	opts->version = version;
	return QLESS_OK;
}

/* The text of a reply element; NULL for nil (a field not stored). */
static const char *reply_text(const redisReply *r)
{
	return r != NULL && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS) ? r->str : NULL;
}

/* The job's fields as the script stored them after a settle (the `fields`
 * of its reply: state, queue, worker, expires, remaining, failure), so the
 * snapshot follows the protocol's transitions without repeating them. A
 * job the settle deleted (a completed job purged at once) keeps `state`
 * from the result and reads as finished. complete's result is the state it
 * reports (state_wins): "scheduled" for a job whose hash says waiting while
 * it sits in the next queue's scheduled set. */
static int apply_settled(qless_job *job, const redisReply *fields, const char *state, int state_wins,
                         const char *F)
{
	const char *v[6] = { NULL, NULL, NULL, NULL, NULL, NULL };
	json_t *failure = NULL;
	size_t i;
	int rc;

	if (fields == NULL || fields->type != REDIS_REPLY_ARRAY || fields->elements != 6)
		return qless__err(QLESS_EPROTOCOL, "%s: settle reply without the job's fields", F);
	for (i = 0; i < 6; i++)
		v[i] = reply_text(fields->element[i]);
	if (v[5] != NULL && v[5][0] != '\0' && (failure = json_loads(v[5], 0, NULL)) != NULL &&
	    !json_is_object(failure)) {
		json_decref(failure);
		failure = NULL;
	}
	rc = set_str(job, "state", v[0] && !state_wins ? v[0] : state);
	if (rc == QLESS_OK)
		rc = set_str(job, "queue", v[1] ? v[1] : "");
	if (rc == QLESS_OK)
		rc = set_str(job, "worker", v[2] ? v[2] : "");
	if (rc == QLESS_OK)
		rc = set_num(job, "expires", v[3] ? strtod(v[3], NULL) : 0);
	if (rc == QLESS_OK && v[4] != NULL)
		rc = set_num(job, "remaining", strtod(v[4], NULL));
	if (rc == QLESS_OK)
		rc = set_field(job, "failure", failure ? failure : json_object());
	else
		json_decref(failure);
	return done(job, rc, F);
}

void qless__settle_args(qless_args *a, const char *worker, const char *queues_json, int count)
{
	qless__args_init(a);
	qless__args_add(a, worker);
	qless__args_add(a, queues_json);
	qless__args_int(a, count);
}

void qless__settle_job_args(qless_args *a, const qless_job *job, const char *how, double delay, const char *group,
                            const char *message)
{
	qless__args_add(a, how);
	qless__args_add(a, job->jid);
	qless__args_add(a, job->queue);
	qless__args_add(a, job->data);
	if (how[0] == 'r')
		qless__args_num(a, delay);
	if (how[0] != 'c' && group != NULL) {
		qless__args_add(a, group);
		qless__args_add(a, message);
	}
}

int qless__settle(qless_client *c, const char *F, qless_args *a, qless_job *job, int state_from_result,
                  int64_t *out_result, qless_joblist **out_next)
{
	redisReply *r, *res;
	json_t *jobs;
	int rc;

	if (out_next != NULL)
		*out_next = NULL;
	if ((rc = qless__call(c, F, "settle", a, &r)) != QLESS_OK)
		return rc;
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 3 || reply_text(r->element[2]) == NULL) {
		freeReplyObject(r);
		return qless__err(QLESS_EPROTOCOL, "%s: expected {result, fields, jobs} from settle", F);
	}
	res = r->element[0];
	if (job != NULL) {
		char num[32];
		const char *state = reply_text(res);
		if (res->type == REDIS_REPLY_INTEGER) {
			snprintf(num, sizeof num, "%lld", (long long)res->integer);
			if (out_result != NULL)
				*out_result = res->integer;
			state = res->integer < 0 ? "failed" : num;
		}
		if ((rc = apply_settled(job, r->element[1], state ? state : "", state_from_result && state, F)) !=
		    QLESS_OK) {
			freeReplyObject(r);
			return rc;
		}
	}
	if (out_next != NULL) {
		jobs = json_loads(r->element[2]->str, 0, NULL);
		rc = jobs ? qless__joblist_from_json(c, jobs, out_next, F)
		          : qless__err(QLESS_EPROTOCOL, "%s: unparsable jobs in the settle reply", F);
		json_decref(jobs);
	}
	freeReplyObject(r);
	return rc;
}

int qless_job_complete(qless_job *job, const qless_complete_options *opts)
{
	static const char F[] = "qless_job_complete";
	const char *next = NULL;
	qless_args a;
	int rc;

	QLESS_CHECK_NULL(F, job);
	if (opts != NULL) {
		if (opts->version != QLESS_COMPLETE_OPTIONS_VERSION)
			return qless__err(QLESS_EINVAL, "%s: unsupported options version %u", F, opts->version);
		next = opts->next;
		if (next != NULL && next[0] == '\0')
			return qless__err_empty(F, "next");
		if ((rc = qless__check_finite(F, "delay", opts->delay)) != QLESS_OK ||
		    (rc = qless__check_strv(F, "depends", opts->depends, opts->ndepends, 1)) != QLESS_OK)
			return rc;
		if (next == NULL && (opts->delay != 0 || opts->ndepends > 0))
			return qless__err(QLESS_EINVAL, "%s: delay and depends need next", F);
	}
	qless__settle_args(&a, job->client->worker_name, "[]", 0);
	qless__settle_job_args(&a, job, "complete", 0, NULL, NULL);
	if (next != NULL) {
		qless__args_add(&a, "next");
		qless__args_add(&a, next);
		if (opts->delay != 0) {
			qless__args_add(&a, "delay");
			qless__args_num(&a, opts->delay);
		}
		if (opts->ndepends > 0) {
			qless__args_add(&a, "depends");
			qless__args_own(&a, qless__json_strv(opts->depends, opts->ndepends));
		}
	}
	return qless__settle(job->client, F, &a, job, 1, NULL, NULL);
}

int qless_job_fail(qless_job *job, const char *group, const char *message)
{
	static const char F[] = "qless_job_fail";
	qless_args a;

	int rc;

	QLESS_CHECK_NULL(F, job);
	if ((rc = qless__check_failure(F, group, message, 0)) != QLESS_OK)
		return rc;
	qless__settle_args(&a, job->client->worker_name, "[]", 0);
	qless__settle_job_args(&a, job, "fail", 0, group, message);
	return qless__settle(job->client, F, &a, job, 0, NULL, NULL);
}

int qless_job_retry(qless_job *job, double delay, const char *group, const char *message, int64_t *out_remaining)
{
	static const char F[] = "qless_job_retry";
	qless_args a;

	int rc;

	QLESS_CHECK_NULL(F, job);
	if ((rc = qless__check_failure(F, group, message, 1)) != QLESS_OK)
		return rc;
	if (!qless__finite(delay) || delay < 0)
		return qless__err(QLESS_EINVAL, "%s: delay must be a finite number >= 0", F);
	qless__settle_args(&a, job->client->worker_name, "[]", 0);
	qless__settle_job_args(&a, job, "retry", delay, group, message);
	return qless__settle(job->client, F, &a, job, 0, out_remaining, NULL);
}

int qless_job_heartbeat(qless_job *job, double *out_expires)
{
	static const char F[] = "qless_job_heartbeat";
	qless_args a;
	int64_t expires;
	int rc;

	if (out_expires != NULL)
		*out_expires = 0;
	QLESS_CHECK_NULL(F, job);
	qless__args_init(&a);
	qless__args_add(&a, job->jid);
	qless__args_add(&a, job->client->worker_name);
	qless__args_add(&a, job->data);
	if ((rc = qless__call_int(job->client, F, "heartbeat", &a, &expires)) != QLESS_OK)
		return rc;
	if (out_expires != NULL)
		*out_expires = (double)expires;
	rc = set_num(job, "expires", (double)expires);
	return done(job, rc, F);
}

/* ---- operations by anyone ---- */

int qless_job_cancel(qless_job *job)
{
	static const char F[] = "qless_job_cancel";
	qless_args a;
	QLESS_CHECK_NULL(F, job);
	qless__args_init(&a);
	qless__args_add(&a, job->jid);
	return qless__call_void(job->client, F, "cancel", &a);
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
	o.jid = job->jid;
	o.unique_key = NULL;
	rc = qless__put(job->client, F, "requeue", queue, NULL, NULL, job->klass, job->data, &o, NULL);
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
	qless__args_add(&a, job->jid);
	if ((rc = qless__call_void(job->client, F, "timeout", &a)) != QLESS_OK)
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
	qless__args_add(&a, job->jid);
	qless__args_num(&a, priority);
	if ((rc = qless__call_void(job->client, F, "priority", &a)) != QLESS_OK)
		return rc;
	return done(job, set_num(job, "priority", priority), F);
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
	qless__args_add(&a, job->jid);
	qless__args_add(&a, message);
	if (data != NULL)
		qless__args_add(&a, data);
	return qless__call_void(job->client, F, "log", &a);
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
	qless__args_add(&a, job->jid);
	qless__args_addv(&a, tags, ntags);
	if ((rc = qless__call_json(job->client, F, "tag", &a, &j)) != QLESS_OK)
		return rc;
	if (json_is_object(j) && json_object_size(j) == 0) {
		json_decref(j);
		j = json_array();
	} else if (!json_is_array(j)) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array of tags", F);
	}
	return done(job, set_field(job, "tags", j), F);
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
	qless__args_add(&a, job->jid);
	if ((rc = qless__call_void(job->client, F, "track", &a)) != QLESS_OK)
		return rc;
	return done(job, set_field(job, "tracked", json_boolean(tracked)), F);
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
	if (!all && njids == 0)
		return QLESS_OK;
	qless__args_init(&a);
	qless__args_add(&a, job->jid);
	qless__args_add(&a, op);
	if (all)
		qless__args_add(&a, "all");
	else
		qless__args_addv(&a, jids, njids);
	if ((rc = qless__call_void(job->client, F, "depends", &a)) != QLESS_OK)
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
