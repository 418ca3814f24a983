/* Settling a job: the `settle` command (complete, fail or retry, and the
 * next jobs popped in the same call) that the worker holding a job and the
 * engine's job loop both use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "errors.h"
#include "options.h"
#include "job_settle.h"
#include "job_snapshot.h"
#include "joblist.h"
#include "util.h"

int qless_complete_options_init(qless_complete_options *opts, unsigned int version)
{
	static const qless_complete_options init = QLESS_COMPLETE_OPTIONS_INIT;
	return qless__options_init("qless_complete_options_init", opts, version, &init, sizeof init, sizeof init,
	                           QLESS_COMPLETE_OPTIONS_VERSION);
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
	rc = qless__job_set_str(job, "state", v[0] && !state_wins ? v[0] : state);
	if (rc == QLESS_OK)
		rc = qless__job_set_str(job, "queue", v[1] ? v[1] : "");
	if (rc == QLESS_OK)
		rc = qless__job_set_str(job, "worker", v[2] ? v[2] : "");
	if (rc == QLESS_OK)
		rc = qless__job_set_num(job, "expires", v[3] ? strtod(v[3], NULL) : 0);
	if (rc == QLESS_OK && v[4] != NULL)
		rc = qless__job_set_num(job, "remaining", strtod(v[4], NULL));
	if (rc == QLESS_OK)
		rc = qless__job_set_field(job, "failure", failure ? failure : json_object());
	else
		json_decref(failure);
	return qless__job_fields_done(job, rc, F);
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
	qless__args_add(a, qless_job_jid(job));
	qless__args_add(a, qless_job_queue(job));
	qless__args_add(a, qless_job_data(job));
	if (how[0] == 'r')
		qless__args_num(a, delay);
	if (how[0] != 'c' && group != NULL) {
		qless__args_add(a, group);
		qless__args_add(a, message);
	}
}

/* The settled job's snapshot from one {result, fields} of a settle reply. */
static int apply_outcome(qless_job *job, const redisReply *res, const redisReply *fields, int state_from_result,
                         int64_t *out_result, const char *F)
{
	char num[32];
	const char *state = reply_text(res);
	if (res->type == REDIS_REPLY_INTEGER) {
		snprintf(num, sizeof num, "%lld", (long long)res->integer);
		if (out_result != NULL)
			*out_result = res->integer;
		state = res->integer < 0 ? "failed" : num;
	}
	return apply_settled(job, fields, state ? state : "", state_from_result && state, F);
}

static int popped_jobs(qless_client *c, const redisReply *text, qless_joblist **out_next, const char *F)
{
	json_t *jobs = json_loads(text->str, 0, NULL);
	int rc = jobs ? qless__joblist_from_json(c, jobs, out_next, F)
	              : qless__err(QLESS_EPROTOCOL, "%s: unparsable jobs in the settle reply", F);
	json_decref(jobs);
	return rc;
}

int qless__settle(qless_client *c, const char *F, qless_args *a, qless_job *job, int state_from_result,
                  int64_t *out_result, qless_joblist **out_next)
{
	redisReply *r;
	int rc = QLESS_OK;

	if (out_next != NULL)
		*out_next = NULL;
	if ((rc = qless__call(c, F, "settle", a, &r)) != QLESS_OK)
		return rc;
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 3 || reply_text(r->element[2]) == NULL) {
		freeReplyObject(r);
		return qless__err(QLESS_EPROTOCOL, "%s: expected {result, fields, jobs} from settle", F);
	}
	if (job != NULL)
		rc = apply_outcome(job, r->element[0], r->element[1], state_from_result, out_result, F);
	if (rc == QLESS_OK && out_next != NULL)
		rc = popped_jobs(c, r->element[2], out_next, F);
	freeReplyObject(r);
	return rc;
}

/* How many arguments an item's settle takes from <how> on (the batch's n). */
static int item_nargs(const qless_settle_item *it)
{
	int n = 4;
	if (it->how[0] == 'r')
		n++;
	if ((it->how[0] == 'f' || it->how[0] == 'r') && it->group != NULL)
		n += 2;
	return n;
}

/* What a lean settle's result says the job became: complete's, suspend's
 * or terminated's state; "failed" for fail and a retry with none left;
 * "retried" for a retry (waiting or scheduled). */
static int settled_state(char *buf, size_t size, const char *how, const redisReply *res, int64_t *out_result,
                         const char *F)
{
	const char *text = reply_text(res);
	if (res->type == REDIS_REPLY_INTEGER) {
		*out_result = res->integer;
		text = res->integer < 0 ? "failed" : "retried";
	} else if (text != NULL && how[0] == 'f') {
		text = "failed";
	}
	if (text == NULL)
		return qless__err(QLESS_EPROTOCOL, "%s: settle result is neither text nor a number", F);
	snprintf(buf, size, "%s", text);
	return QLESS_OK;
}

int qless__settle_lean(qless_client *c, const char *F, qless_args *a, const char *how, char *state, size_t size,
                       qless_joblist **out_next)
{
	redisReply *r;
	int64_t ignored;
	int rc = QLESS_OK;

	*out_next = NULL;
	state[0] = '\0';
	if ((rc = qless__call(c, F, "settle", a, &r)) != QLESS_OK)
		return rc;
	if (how == NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 3 && reply_text(r->element[2]) != NULL) {
		rc = popped_jobs(c, r->element[2], out_next, F); /* a reservation alone: settle's plain reply */
	} else if (how == NULL || r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
	           reply_text(r->element[1]) == NULL) {
		rc = qless__err(QLESS_EPROTOCOL, "%s: expected {result, jobs} from a lean settle", F);
	} else if ((rc = settled_state(state, size, how, r->element[0], &ignored, F)) == QLESS_OK) {
		rc = popped_jobs(c, r->element[1], out_next, F);
	}
	freeReplyObject(r);
	return rc;
}

/* The refusals of a lean batch reply: {i, "[Kind] message", ...}. */
static int batch_errors(qless_settle_item *items, size_t n, const redisReply *errors, const char *F)
{
	size_t e;
	for (e = 0; e + 1 < errors->elements; e += 2) {
		const redisReply *at = errors->element[e];
		const char *text = reply_text(errors->element[e + 1]);
		qless_settle_item *it;
		if (at->type != REDIS_REPLY_INTEGER || at->integer < 1 || (size_t)at->integer > n || text == NULL)
			return qless__err(QLESS_EPROTOCOL, "%s: malformed refusal in the settle batch reply", F);
		it = &items[at->integer - 1];
		it->rc = qless__script_error_code(text, &text);
		if (it->rc == QLESS_OK)
			it->rc = QLESS_EPROTOCOL;
		if ((it->error = qless__strdup(text)) == NULL)
			return qless__err_nomem(F);
	}
	return QLESS_OK;
}

int qless__settle_batch(qless_client *c, const char *F, const char *queues_json, int count, qless_settle_item *items,
                        size_t n, qless_joblist **out_next)
{
	redisReply *r, *results;
	qless_args a;
	size_t i;
	int rc = QLESS_OK;

	*out_next = NULL;
	for (i = 0; i < n; i++) {
		items[i].rc = QLESS_OK;
		items[i].error = NULL;
		items[i].state[0] = '\0';
	}
	qless__settle_args(&a, c->worker_name, queues_json, count);
	if (n == 0)
		return qless__settle(c, F, &a, NULL, 0, NULL, out_next);
	qless__args_add(&a, "lean");
	qless__args_add(&a, "batch");
	for (i = 0; i < n; i++) {
		qless__args_int(&a, item_nargs(&items[i]));
		qless__settle_job_args(&a, items[i].job, items[i].how, items[i].delay, items[i].group, items[i].message);
	}
	if ((rc = qless__call(c, F, "settle", &a, &r)) != QLESS_OK)
		return rc;
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 3 || reply_text(r->element[2]) == NULL ||
	    (results = r->element[0])->type != REDIS_REPLY_ARRAY || results->elements != n ||
	    r->element[1]->type != REDIS_REPLY_ARRAY) {
		freeReplyObject(r);
		return qless__err(QLESS_EPROTOCOL, "%s: expected {results, errors, jobs} from a lean settle batch", F);
	}
	rc = batch_errors(items, n, r->element[1], F);
	for (i = 0; i < n && rc == QLESS_OK; i++)
		if (items[i].rc == QLESS_OK)
			rc = settled_state(items[i].state, sizeof items[i].state, items[i].how, results->element[i],
			                   &items[i].result, F);
	if (rc == QLESS_OK)
		rc = popped_jobs(c, r->element[2], out_next, F);
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
	qless__settle_args(&a, qless__job_client(job)->worker_name, "[]", 0);
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
	return qless__settle(qless__job_client(job), F, &a, job, 1, NULL, NULL);
}

int qless_job_fail(qless_job *job, const char *group, const char *message)
{
	static const char F[] = "qless_job_fail";
	qless_args a;

	int rc;

	QLESS_CHECK_NULL(F, job);
	if ((rc = qless__check_failure(F, group, message, 0)) != QLESS_OK)
		return rc;
	qless__settle_args(&a, qless__job_client(job)->worker_name, "[]", 0);
	qless__settle_job_args(&a, job, "fail", 0, group, message);
	return qless__settle(qless__job_client(job), F, &a, job, 0, NULL, NULL);
}

int qless_job_retry(int64_t *out_remaining, qless_job *job, double delay, const char *group, const char *message)
{
	static const char F[] = "qless_job_retry";
	qless_args a;

	int rc;

	QLESS_CHECK_NULL(F, job);
	if ((rc = qless__check_failure(F, group, message, 1)) != QLESS_OK)
		return rc;
	if (!qless__finite(delay) || delay < 0)
		return qless__err(QLESS_EINVAL, "%s: delay must be a finite number >= 0", F);
	qless__settle_args(&a, qless__job_client(job)->worker_name, "[]", 0);
	qless__settle_job_args(&a, job, "retry", delay, group, message);
	return qless__settle(qless__job_client(job), F, &a, job, 0, out_remaining, NULL);
}
