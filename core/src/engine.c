/* The worker engine: the job loop (reserve, perform, settle), stops and
 * signals, and reconnecting while Redis is away (the heartbeat thread is in
 * beater.c, the pools in pool.c). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

/* ---- results ---- */

int qless__result_set(qless_result *r, qless_outcome outcome, const char *group, const char *message, double delay)
{
	free(r->group);
	free(r->message);
	r->group = group ? qless__strdup(group) : NULL;
	r->message = message ? qless__strdup(message) : NULL;
	r->outcome = outcome;
	r->delay = delay;
	r->oom = (group && !r->group) || (message && !r->message);
	return r->oom ? qless__err_nomem("qless_result") : QLESS_OK;
}

int qless_result_fail(qless_result *result, const char *group, const char *message)
{
	static const char F[] = "qless_result_fail";
	int rc;
	QLESS_CHECK_NULL(F, result);
	if ((rc = qless__check_failure(F, group, message, 0)) != QLESS_OK)
		return rc;
	return qless__result_set(result, QLESS_OUTCOME_FAIL, group, message, 0);
}

int qless_result_retry(qless_result *result, const char *group, const char *message, double delay)
{
	static const char F[] = "qless_result_retry";
	int rc;
	QLESS_CHECK_NULL(F, result);
	if ((rc = qless__check_failure(F, group, message, 1)) != QLESS_OK)
		return rc;
	if (!qless__finite(delay) || delay > 1e9)
		return qless__err(QLESS_EINVAL, "%s: delay must be a finite number (< 0: the backoff policy)", F);
	return qless__result_set(result, QLESS_OUTCOME_RETRY, group, message, delay);
}

int qless_result_suspend(qless_result *result)
{
	static const char F[] = "qless_result_suspend";
	QLESS_CHECK_NULL(F, result);
	if (!result->tree)
		return qless__err(QLESS_ESTATE, "%s: job %s is not run as a tree job (a plain job, or its class "
		                  "is not in the worker's tree_klasses)", F, result->jid ? result->jid : "?");
	return qless__result_set(result, QLESS_OUTCOME_SUSPEND, NULL, NULL, 0);
}

/* ---- time, waits, log ---- */

double qless__mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int qless__wake_open(qless_worker *w)
{
	char drain[64];
	int i;
	if (w->wake[0] < 0) {
		if (pipe(w->wake) != 0) {
			w->wake[0] = w->wake[1] = -1;
			return -1;
		}
		/* Non-blocking: a stop from a signal handler never blocks on a full
		 * pipe, and draining below never waits. */
		for (i = 0; i < 2; i++)
			fcntl(w->wake[i], F_SETFL, fcntl(w->wake[i], F_GETFL) | O_NONBLOCK);
	}
	/* A stop of an earlier run left a byte: waits would not wait. */
	while (read(w->wake[0], drain, sizeof drain) > 0)
		;
	return 0;
}

int qless__stopping(const qless_worker *w)
{
	return __atomic_load_n(&w->stopping, __ATOMIC_RELAXED);
}

void qless__wait(qless_worker *w, double seconds)
{
	struct timespec ts;
	if (seconds <= 0)
		return;
	if (!qless__stopping(w) && w->wake[0] >= 0) {
		struct pollfd p = { w->wake[0], POLLIN, 0 };
		(void)poll(&p, 1, (int)(seconds * 1000 + 0.5));
		return;
	}
	/* Stopping: the pipe stays readable, so sleep instead of spinning. */
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void qless__log(qless_worker *w, const char *fmt, ...)
{
	char line[1024];
	int n = snprintf(line, sizeof line, "qless-worker %s: ", w->client->worker_name);
	va_list ap;
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof line)
		vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	if (w->run.log != NULL) {
		w->run.log(w->run.ctx, line);
	} else {
		fprintf(stderr, "%s\n", line);
		fflush(stderr);
	}
}

double qless__io_backoff(qless_worker *w, double wait, const char *what)
{
	if (wait == 0)
		qless__log(w, "%s: %s; retrying until Redis is back", what, qless_error_last_message());
	qless__wait(w, wait == 0 ? 0.1 : wait);
	wait = wait == 0 ? 0.2 : wait * 2;
	return wait > w->run.reconnect_max ? w->run.reconnect_max : wait;
}

int qless__outage_over(qless_worker *w, double *since)
{
	double now = qless__mono();
	if (*since == 0)
		*since = now;
	if (w->run.give_up <= 0 || now - *since < w->run.give_up)
		return 0;
	if (!__atomic_exchange_n(&w->gave_up, 1, __ATOMIC_ACQ_REL))
		qless__log(w, "Redis unreachable for %.3gs: giving up", now - *since);
	qless_worker_stop(w, 0);
	return 1;
}

qless_client *qless__connect_retry(qless_worker *w, const qless_client *like, const char *name)
{
	double wait = 0, since = 0;
	for (;;) {
		qless_client *c = NULL;
		int rc = qless__client_clone(like, &c);
		if (rc == QLESS_OK && name != NULL) {
			char *copy = qless__strdup(name);
			if (copy == NULL) {
				qless_client_free(c);
				return NULL;
			}
			free(c->worker_name);
			c->worker_name = copy;
		}
		if (rc == QLESS_OK) {
			if (wait > 0)
				qless__log(w, "connected again");
			return c;
		}
		if (rc != QLESS_EIO || qless__stopping(w) || qless__outage_over(w, &since))
			return NULL;
		wait = qless__io_backoff(w, wait, "connect");
	}
}

/* ---- the job loop ---- */

/* How many jobs to ask for next: 0 once stopping or max_jobs are claimed. */
static int claim(qless_worker *w)
{
	if (qless__stopping(w))
		return 0;
	if (w->run.max_jobs > 0 && __atomic_add_fetch(&w->claimed, 1, __ATOMIC_RELAXED) > w->run.max_jobs) {
		__atomic_sub_fetch(&w->claimed, 1, __ATOMIC_RELAXED);
		return 0;
	}
	return 1;
}

static void unclaim(qless_worker *w)
{
	if (w->run.max_jobs > 0)
		__atomic_sub_fetch(&w->claimed, 1, __ATOMIC_RELAXED);
}

/* The settle arguments for job by result (none: reserve only). */
static void settle_args(qless_slot *s, qless_args *a, const char *order, int count, qless_job *job,
                        const qless_result *r, double *delay)
{
	static const char *const how[] = { "complete", "fail", "retry", "suspend", "terminated" };
	qless__settle_args(a, s->client->worker_name, order, count);
	if (job == NULL)
		return;
	if (r->outcome == QLESS_OUTCOME_RETRY)
		*delay = r->delay >= 0 ? r->delay : qless__retry_delay(s->worker, job);
	qless__settle_job_args(a, job, how[r->outcome], *delay, r->group, r->message);
}

static void log_settled(qless_slot *s, qless_job *job, const qless_result *r, double took, double delay)
{
	qless_worker *w = s->worker;
	const char *jid = qless_job_jid(job), *klass = qless_job_klass(job);
	if (r->outcome == QLESS_OUTCOME_COMPLETE)
		qless__log(w, "%s %s complete in %.3fs", jid, klass, took);
	else if (r->outcome == QLESS_OUTCOME_SUSPEND && strcmp(qless_job_state(job), "suspended") == 0)
		qless__log(w, "%s %s suspended in %.3fs", jid, klass, took);
	else if (r->outcome == QLESS_OUTCOME_SUSPEND)
		qless__log(w, "%s %s %s in %.3fs, not suspended: input arrived while it ran", jid, klass,
		           qless_job_state(job), took);
	else if (r->outcome == QLESS_OUTCOME_TERMINATED)
		qless__log(w, "%s %s terminated (shutdown run %.3fs)", jid, klass, took);
	else if (r->outcome == QLESS_OUTCOME_FAIL)
		qless__log(w, "%s %s failed %s in %.3fs", jid, klass, r->group, took);
	else if (strcmp(qless_job_state(job), "failed") == 0)
		qless__log(w, "%s %s failed %s (retries used up) in %.3fs", jid, klass,
		           qless_job_failure_group(job) ? qless_job_failure_group(job) : "", took);
	else
		qless__log(w, "%s %s retried in %.3gs (%s) after %.3fs", jid, klass, delay, r->group ? r->group : "", took);
}

/* After a settle whose connection broke was refused on its retry: whether
 * the first try went through, by the state it would have left (a completed
 * job may be purged at once). A lock that expired during the outage leaves
 * the job waiting or running elsewhere: that is a drop. */
static int settled_before(qless_job *job, const qless_result *r)
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

/* complete, job.suspend and job.terminated reply with the job's new state. */
static int result_is_state(const qless_result *r)
{
	return r->outcome == QLESS_OUTCOME_COMPLETE || r->outcome == QLESS_OUTCOME_SUSPEND ||
	       r->outcome == QLESS_OUTCOME_TERMINATED;
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
	int count = claim(w);
	*next = NULL;
	for (;;) {
		qless_joblist *l = NULL;
		qless_args a;
		double delay = 0;
		char *order = qless__reserve_order_json(w);
		int rc;
		if (order == NULL) {
			unclaim(w);
			return qless__err_nomem("qless_worker_run");
		}
		settle_args(s, &a, order, count, job, r, &delay);
		rc = qless__settle(s->client, "qless_worker_run", &a, job, job && result_is_state(r), NULL, &l);
		free(order); /* the arguments borrowed it until the call */
		if (rc == QLESS_OK) {
			if (wait > 0)
				qless__log(w, "Redis is back");
			if (job != NULL)
				log_settled(s, job, r, took, delay);
			if (l->size > 0) {
				*next = qless_joblist_take(l, 0);
				qless__reserve_advance(w, qless_job_queue(*next));
			} else if (count > 0) {
				unclaim(w);
			}
			qless_joblist_free(l);
			return QLESS_OK;
		}
		if (rc == QLESS_EIO) {
			if (qless__outage_over(w, &since)) {
				if (count > 0)
					unclaim(w);
				if (job != NULL)
					qless__log(w, "%s %s not settled: its lock will expire", qless_job_jid(job),
					           qless_job_klass(job));
				return QLESS_EIO;
			}
			wait = qless__io_backoff(w, wait, job ? "settle" : "reserve");
			if (job == NULL && qless__stopping(w) && count > 0) {
				unclaim(w);
				return QLESS_OK;
			}
			continue;
		}
		if (job == NULL) {
			/* A reservation the script refused: say why, then idle. */
			if (count > 0)
				unclaim(w);
			qless__log(w, "reserve failed: %s", qless_error_last_message());
			return rc;
		}
		if (wait > 0 && settled_before(job, r))
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

static void result_free(qless_result *r)
{
	free(r->group);
	free(r->message);
	r->group = r->message = NULL;
}

int qless__slot_loop(qless_slot *s)
{
	qless_worker *w = s->worker;
	qless_job *job = NULL, *next = NULL;
	qless_result r;
	const char *held;
	double took = 0;
	int settle = 0, rc;

	memset(&r, 0, sizeof r);
	qless__beater_add(w, s);
	for (;;) {
		rc = settle_and_reserve(s, settle ? job : NULL, &r, took, &next);
		result_free(&r);
		qless_job_free(job);
		job = next;
		settle = 0;
		if (rc == QLESS_ENOMEM)
			break;
		if (job == NULL) {
			if (qless__stopping(w) || (w->run.max_jobs > 0 &&
			                           __atomic_load_n(&w->claimed, __ATOMIC_RELAXED) >= w->run.max_jobs))
				break;
			qless__wait(w, w->run.interval);
			continue;
		}
		/* The state it was handed out in: a job whose code settled it
		 * itself has another one after perform. */
		held = strcmp(qless_job_state(job), "terminating") == 0 ? "terminating" : "running";
		if ((rc = perform(s, job, &r, &took)) != QLESS_OK)
			break;
		if (r.outcome == QLESS_OUTCOME_DROP)
			continue; /* logged where it arose; reserve alone next */
		if (qless_job_lock_lost(job))
			qless__log(w, "%s %s dropped: its lock was lost while it ran", qless_job_jid(job),
			           qless_job_klass(job));
		else if (strcmp(qless_job_state(job), held) != 0)
			qless__log(w, "%s %s %s by the job itself in %.3fs", qless_job_jid(job), qless_job_klass(job),
			           qless_job_state(job), took);
		else
			settle = 1;
	}
	result_free(&r);
	qless_job_free(job);
	qless__beater_remove(w, s);
	return rc == QLESS_ENOMEM ? rc : QLESS_OK;
}

/* ---- stop and signals ---- */

static qless_worker *volatile signal_worker;
static struct sigaction saved[3];
static const int handled[3] = { SIGTERM, SIGINT, SIGQUIT };

void qless_worker_stop(qless_worker *worker, int immediate)
{
	size_t i;
	int saved_errno = errno;
	if (worker == NULL)
		return;
	if (immediate) {
		for (i = 0; i < worker->nchildren; i++)
			if (worker->children != NULL && worker->children[i] > 0)
				kill(worker->children[i], SIGKILL);
		_exit(1);
	}
	__atomic_store_n(&worker->stopping, 1, __ATOMIC_RELAXED);
	if (worker->wake[1] >= 0)
		(void)!write(worker->wake[1], "x", 1);
	errno = saved_errno;
}

static void on_signal(int sig)
{
	if (signal_worker != NULL)
		qless_worker_stop(signal_worker, sig == SIGQUIT);
}

void qless__signals_install(qless_worker *w)
{
	struct sigaction sa;
	size_t i;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	signal_worker = w;
	for (i = 0; i < 3; i++)
		sigaction(handled[i], &sa, &saved[i]);
}

void qless__signals_block(sigset_t *old)
{
	sigset_t set;
	size_t i;
	sigemptyset(&set);
	for (i = 0; i < 3; i++)
		sigaddset(&set, handled[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void qless__signals_restore(void)
{
	size_t i;
	for (i = 0; i < 3; i++)
		sigaction(handled[i], &saved[i], NULL);
	signal_worker = NULL;
}

int64_t qless_worker_jobs_done(const qless_worker *worker)
{
	return worker ? __atomic_load_n(&worker->done, __ATOMIC_RELAXED) : 0;
}

/* ---- qless_worker_run ---- */

/* The options of any supported version as the current struct: an older
 * caller's struct ends before the fields its version lacks, so only its
 * own fields are read. */
static int run_options_copy(const char *F, const qless_worker_run_options *src, qless_worker_run_options *dst)
{
	static const qless_worker_run_options init = QLESS_WORKER_RUN_OPTIONS_INIT;
	static const size_t size_of[] = { 0, offsetof(qless_worker_run_options, allow),
		                          offsetof(qless_worker_run_options, thread_names),
		                          offsetof(qless_worker_run_options, tree_klasses),
		                          offsetof(qless_worker_run_options, loads_files),
		                          sizeof(qless_worker_run_options) };
	if (src->version < 1 || src->version > QLESS_WORKER_RUN_OPTIONS_VERSION)
		return qless__err(QLESS_EINVAL, "%s: unsupported options version %u", F, src->version);
	*dst = init;
	memcpy(dst, src, size_of[src->version]);
	dst->version = QLESS_WORKER_RUN_OPTIONS_VERSION;
	return QLESS_OK;
}

static int check_run(const char *F, const qless_worker_run_options *o)
{
	int rc;
	if (o->perform == NULL)
		return qless__err_null(F, "opts->perform");
	if (o->pool != QLESS_POOL_SERIAL && o->pool != QLESS_POOL_THREADS && o->pool != QLESS_POOL_PROCESSES)
		return qless__err(QLESS_EINVAL, "%s: unknown pool kind %d", F, (int)o->pool);
	if (o->size < 1 || o->size > 128 || (o->pool == QLESS_POOL_SERIAL && o->size != 1))
		return qless__err(QLESS_EINVAL, "%s: size must be 1 for a serial worker, 1 to 128 for a pool", F);
	if (o->pool == QLESS_POOL_THREADS && o->single_threaded)
		return qless__err(QLESS_EINVAL, "%s: this language's jobs cannot run on pool threads: "
		                  "use a process pool", F);
	if (!qless__finite(o->interval) || o->interval < 0 || o->interval > 86400)
		return qless__err(QLESS_EINVAL, "%s: interval must be from 0 to 86400 seconds", F);
	if (!qless__finite(o->heartbeat) || o->heartbeat < 0 || o->heartbeat > 86400)
		return qless__err(QLESS_EINVAL, "%s: heartbeat must be from 0 to 86400 seconds", F);
	if (!qless__finite(o->give_up) || o->give_up < 0 || o->give_up > 86400)
		return qless__err(QLESS_EINVAL, "%s: give_up must be from 0 to 86400 seconds", F);
	if (!qless__finite(o->reconnect_max) || o->reconnect_max < 0.1 || o->reconnect_max > 3600)
		return qless__err(QLESS_EINVAL, "%s: reconnect_max must be from 0.1 to 3600 seconds", F);
	if (o->max_jobs < 0)
		return qless__err(QLESS_EINVAL, "%s: max_jobs must be >= 0", F);
	if ((rc = qless_allowlist_check(o->allow, o->nallow)) != QLESS_OK)
		return rc;
	if (o->resolves_classes && o->nallow == 0)
		return qless__err(QLESS_EINVAL, "%s: perform finds job code by class name (resolves_classes): "
		                  "give the job classes it may run in allow/nallow (\"*\" for every class)", F);
	return qless__tree_check(F, o);
}

/* The serial worker, on the caller's thread and connection. */
static int run_serial(qless_worker *w)
{
	qless_slot slot;
	int rc = qless__beater_start(w, w->client);
	if (rc != QLESS_OK || w->beater == NULL)
		return rc;
	memset(&slot, 0, sizeof slot);
	slot.worker = w;
	slot.client = w->client;
	rc = qless__slot_loop(&slot);
	qless__beater_stop(w);
	return rc;
}

int qless_worker_run(qless_worker *worker, const qless_worker_run_options *opts)
{
	static const char F[] = "qless_worker_run";
	qless_worker_run_options o;
	int rc;

	QLESS_CHECK_NULL(F, worker);
	QLESS_CHECK_NULL(F, opts);
	if ((rc = run_options_copy(F, opts, &o)) != QLESS_OK || (rc = check_run(F, &o)) != QLESS_OK)
		return rc;
	if (__atomic_exchange_n(&worker->running, 1, __ATOMIC_ACQ_REL))
		return qless__err(QLESS_ESTATE, "%s: this worker is already running", F);
	worker->run = o;
	worker->claimed = 0;
	worker->gave_up = 0;
	if (qless__wake_open(worker) != 0) {
		__atomic_store_n(&worker->running, 0, __ATOMIC_RELEASE);
		return qless__err(QLESS_ENOMEM, "%s: cannot make a pipe: %s", F, strerror(errno));
	}
	if (o.signals)
		qless__signals_install(worker);
	qless__log(worker, "working on %zu queue(s), %s pool of %d", worker->n,
	           o.pool == QLESS_POOL_SERIAL ? "serial" : o.pool == QLESS_POOL_THREADS ? "thread" : "process",
	           o.size);
	/* Before any job: a tree job created meanwhile gets its class's ports. */
	if ((rc = qless__tree_register(worker)) != QLESS_OK)
		qless__log(worker, "worker.register: %s", qless_error_last_message());
	else if (o.pool == QLESS_POOL_THREADS)
		rc = qless__pool_threads(worker);
	else if (o.pool == QLESS_POOL_PROCESSES)
		rc = qless__pool_processes(worker);
	else
		rc = run_serial(worker);
	qless__log(worker, "stopped after %lld job(s)", (long long)qless_worker_jobs_done(worker));
	if (rc == QLESS_OK && __atomic_load_n(&worker->gave_up, __ATOMIC_ACQUIRE))
		rc = qless__err(QLESS_EIO, "%s: Redis was unreachable for %g seconds (give_up)", F, o.give_up);
	if (o.signals)
		qless__signals_restore();
	/* Cleared as a run ends, not as it begins: a stop asked before the run
	 * (a SIGTERM between a program installing its handler and calling
	 * run) ends that run at once instead of being forgotten. */
	__atomic_store_n(&worker->stopping, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&worker->running, 0, __ATOMIC_RELEASE);
	return rc;
}
