/* The job loop of the worker engine: reserve, perform, settle, over and
 * over on one connection (the serial worker, a pool thread or a pool
 * child). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "args.h"
#include "backoff.h"
#include "beater.h"
#include "client_state.h"
#include "engine.h"
#include "engine_log.h"
#include "engine_stop.h"
#include "engine_tree.h"
#include "errors.h"
#include "job_loop.h"
#include "job_settle.h"
#include "joblist.h"
#include "reconnect.h"
#include "result.h"
#include "worker_reserve.h"

/* How many jobs to ask for next: 0 once stopping or max_jobs are claimed. */
int qless__claim(qless_worker *w)
{
	if (qless__stopping(w))
		return 0;
	if (w->run.max_jobs > 0 && __atomic_add_fetch(&w->claimed, 1, __ATOMIC_RELAXED) > w->run.max_jobs) {
		__atomic_sub_fetch(&w->claimed, 1, __ATOMIC_RELAXED);
		return 0;
	}
	return 1;
}

int qless__max_jobs_claimed(qless_worker *w)
{
	return w->run.max_jobs > 0 && __atomic_load_n(&w->claimed, __ATOMIC_RELAXED) >= w->run.max_jobs;
}

void qless__unclaim(qless_worker *w)
{
	if (w->run.max_jobs > 0)
		__atomic_sub_fetch(&w->claimed, 1, __ATOMIC_RELAXED);
}

const char *qless__outcome_how(const qless_worker *w, const qless_job *job, const qless_result *r, double *delay)
{
	static const char *const how[] = { "complete", "fail", "retry", "suspend", "terminated" };
	*delay = 0;
	if (r->outcome == QLESS_OUTCOME_RETRY)
		*delay = r->delay >= 0 ? r->delay : qless__retry_delay(w, job);
	return how[r->outcome];
}

/* The lean settle arguments for job by result (none: reserve only); the
 * settle's `how`, or NULL. */
static const char *settle_args(qless_slot *s, qless_args *a, const char *order, int count, qless_job *job,
                               const qless_result *r, double *delay)
{
	const char *how;
	qless__settle_args(a, s->client->worker_name, order, count);
	if (job == NULL)
		return NULL;
	how = qless__outcome_how(s->worker, job, r, delay);
	qless__args_add(a, "lean");
	qless__settle_job_args(a, job, how, *delay, r->group, r->message);
	return how;
}

void qless__log_settled(qless_slot *s, qless_job *job, const qless_result *r, double took, double delay,
                        const char *state)
{
	qless_worker *w = s->worker;
	const char *jid = qless_job_jid(job), *klass = qless_job_klass(job);
	if (r->outcome == QLESS_OUTCOME_COMPLETE)
		qless__log(w, "%s %s complete in %.3fs", jid, klass, took);
	else if (r->outcome == QLESS_OUTCOME_SUSPEND && strcmp(state, "suspended") == 0)
		qless__log(w, "%s %s suspended in %.3fs", jid, klass, took);
	else if (r->outcome == QLESS_OUTCOME_SUSPEND)
		qless__log(w, "%s %s %s in %.3fs, not suspended: input arrived while it ran", jid, klass, state, took);
	else if (r->outcome == QLESS_OUTCOME_TERMINATED)
		qless__log(w, "%s %s terminated (shutdown run %.3fs)", jid, klass, took);
	else if (r->outcome == QLESS_OUTCOME_FAIL)
		qless__log(w, "%s %s failed %s in %.3fs", jid, klass, r->group, took);
	else if (strcmp(state, "failed") == 0)
		qless__log(w, "%s %s failed %s (retries used up) in %.3fs", jid, klass, r->group ? r->group : "", took);
	else
		qless__log(w, "%s %s retried in %.3gs (%s) after %.3fs", jid, klass, delay, r->group ? r->group : "", took);
}

/* After a settle whose connection broke was refused on its retry: whether
 * the first try went through, by the state it would have left (a completed
 * job may be purged at once). A lock that expired during the outage leaves
 * the job waiting or running elsewhere: that is a drop. */
int qless__settled_before(qless_job *job, const qless_result *r)
{
	int rc = qless_job_refresh(job);
	const char *state = rc == QLESS_OK ? qless_job_state(job) : "";
	const char *group = rc == QLESS_OK ? qless_job_failure_group(job) : NULL;
	int same_group = group != NULL && r->group != NULL && strcmp(group, r->group) == 0;
	if (r->outcome == QLESS_OUTCOME_COMPLETE)
		return rc == QLESS_ENOTFOUND || strcmp(state, "complete") == 0;
	if (r->outcome == QLESS_OUTCOME_SUSPEND)
		return strcmp(state, "suspended") == 0 || strcmp(state, "waiting") == 0;
	if (r->outcome == QLESS_OUTCOME_TERMINATED)
		return strcmp(state, "terminated") == 0;
	if (r->outcome == QLESS_OUTCOME_FAIL)
		return strcmp(state, "failed") == 0 && same_group;
	return same_group && (strcmp(state, "waiting") == 0 || strcmp(state, "scheduled") == 0 ||
	                      strcmp(state, "failed") == 0);
}

/*
 * Settles `job` by `r` (if not NULL) and reserves the next job in the same
 * call. A refused settle (lock lost meanwhile, job canceled) drops the job
 * and reserves on its own; Redis away: retried after reconnecting until it
 * goes through (a settle that went through before the connection broke is
 * then refused, and logged as settled when the job reads so).
 */
static int settle_and_reserve(qless_slot *s, qless_job *job, const qless_result *r, double took, qless_job **next)
{
	qless_worker *w = s->worker;
	double wait = 0, since = 0;
	int count = qless__claim(w);
	*next = NULL;
	for (;;) {
		qless_joblist *l = NULL;
		qless_args a;
		double delay = 0;
		char *order = qless__reserve_order_json(w), state[24];
		const char *how;
		int rc;
		if (order == NULL) {
			qless__unclaim(w);
			return qless__err_nomem("qless_worker_run");
		}
		how = settle_args(s, &a, order, count, job, r, &delay);
		rc = qless__settle_lean(s->client, "qless_worker_run", &a, how, state, sizeof state, &l);
		free(order); /* the arguments borrowed it until the call */
		if (rc == QLESS_OK) {
			if (wait > 0)
				qless__log(w, "Redis is back");
			if (job != NULL)
				qless__log_settled(s, job, r, took, delay, state);
			if (l->size > 0) {
				*next = qless_joblist_take(l, 0);
				qless__reserve_advance(w, qless_job_queue(*next));
			} else if (count > 0) {
				qless__unclaim(w);
			}
			qless_joblist_free(l);
			return QLESS_OK;
		}
		if (rc == QLESS_EIO) {
			if (qless__outage_over(w, &since)) {
				if (count > 0)
					qless__unclaim(w);
				if (job != NULL)
					qless__log(w, "%s %s not settled: its lock will expire", qless_job_jid(job),
					           qless_job_klass(job));
				return QLESS_EIO;
			}
			wait = qless__io_backoff(w, wait, job ? "settle" : "reserve");
			if (job == NULL && qless__stopping(w) && count > 0) {
				qless__unclaim(w);
				return QLESS_OK;
			}
			continue;
		}
		if (job == NULL) {
			/* A reservation the script refused: say why, then idle. */
			if (count > 0)
				qless__unclaim(w);
			qless__log(w, "reserve failed: %s", qless_error_last_message());
			return rc;
		}
		if (wait > 0 && qless__settled_before(job, r))
			qless__log(w, "%s %s settled before the connection broke (its reply was lost): now %s",
			           qless_job_jid(job), qless_job_klass(job), qless_job_state(job));
		else
			qless__log(w, "%s %s dropped: %s", qless_job_jid(job), qless_job_klass(job),
			           qless_error_last_message());
		job = NULL; /* reserve alone next */
	}
}

/* A job of a class the allow-list leaves out fails before any of the
 * language's code sees its name (importing or requiring it could already
 * run code); the message says how to let it through. */
static void refuse_class(qless_result *r, const char *klass)
{
	static const char FMT[] = "job class '%s' is not allowed by this worker; to run it, add it to the "
	                          "worker's allow-list (--allow '%s', a prefix such as --allow 'myapp.jobs.*', "
	                          "or QLESS_WORKER_ALLOW) and requeue the job";
	size_t len = sizeof FMT + 2 * strlen(klass);
	char *message = malloc(len);
	if (message != NULL)
		snprintf(message, len, FMT, klass, klass);
	qless__result_set(r, QLESS_OUTCOME_FAIL, "qless.ClassNotAllowed",
	           message ? message : "job class not allowed by this worker's allow-list", 0);
	free(message);
}

static int perform(qless_slot *s, qless_job *job, qless_result *r, double *took)
{
	const qless_worker_run_options *o = &s->worker->run;
	double t0 = qless__mono();
	memset(r, 0, sizeof *r);
	r->jid = qless_job_jid(job);
	qless__slot_begin(s, job);
	/* Only tree jobs are handed out terminating (jobtrees.md §3.3). */
	if (strcmp(qless_job_state(job), "terminating") == 0)
		qless__tree_shutdown(s, job, r);
	else if (o->nallow > 0 && !qless_allowlist_match(o->allow, o->nallow, qless_job_klass(job)))
		refuse_class(r, qless_job_klass(job));
	else if (qless__tree_start(s, job, r))
		o->perform(o->ctx, job, r);
	qless__slot_end(s);
	*took = qless__mono() - t0;
	__atomic_add_fetch(&s->worker->done, 1, __ATOMIC_RELAXED);
	if (r->oom) {
		qless__log(s->worker, "%s: out of memory recording the result: failing it", qless_job_jid(job));
		qless__result_set(r, QLESS_OUTCOME_FAIL, "qless.OutOfMemory", "out of memory recording the job's result", 0);
		return r->oom ? QLESS_ENOMEM : QLESS_OK;
	}
	return QLESS_OK;
}

void qless__result_free(qless_result *r)
{
	free(r->group);
	free(r->message);
	r->group = r->message = NULL;
}

int qless__slot_run(qless_slot *s, qless_job *job, qless_result *r, double *took, int *settle)
{
	qless_worker *w = s->worker;
	/* The state it was handed out in: a job whose code settled it itself
	 * has another one after perform. */
	const char *held = strcmp(qless_job_state(job), "terminating") == 0 ? "terminating" : "running";
	int rc;

	*settle = 0;
	if ((rc = perform(s, job, r, took)) != QLESS_OK)
		return rc;
	if (r->outcome == QLESS_OUTCOME_DROP)
		return QLESS_OK; /* logged where it arose */
	if (qless_job_lock_lost(job))
		qless__log(w, "%s %s dropped: its lock was lost while it ran", qless_job_jid(job), qless_job_klass(job));
	else if (strcmp(qless_job_state(job), held) != 0)
		qless__log(w, "%s %s %s by the job itself in %.3fs", qless_job_jid(job), qless_job_klass(job),
		           qless_job_state(job), *took);
	else
		*settle = 1;
	return QLESS_OK;
}

int qless__slot_loop(qless_slot *s)
{
	qless_worker *w = s->worker;
	qless_job *job = NULL, *next = NULL;
	qless_result r;
	double took = 0;
	int settle = 0, rc;

	memset(&r, 0, sizeof r);
	qless__beater_add(w, s);
	for (;;) {
		rc = settle_and_reserve(s, settle ? job : NULL, &r, took, &next);
		qless__result_free(&r);
		qless_job_free(job);
		job = next;
		settle = 0;
		if (rc == QLESS_ENOMEM)
			break;
		if (job == NULL) {
			if (qless__stopping(w) || qless__max_jobs_claimed(w))
				break;
			qless__wait(w, w->run.interval);
			continue;
		}
		if ((rc = qless__slot_run(s, job, &r, &took, &settle)) != QLESS_OK)
			break;
	}
	qless__result_free(&r);
	qless_job_free(job);
	qless__beater_remove(w, s);
	return rc == QLESS_ENOMEM ? rc : QLESS_OK;
}
