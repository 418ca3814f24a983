/* The worker engine: qless_worker_run settles by the perform callback's
 * result, honours max_jobs and stops, runs thread pools, and checks its
 * options; backoff specs and delays. (Process pools, signals and faults:
 * the conformance suite, tests/worker/.) */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

typedef struct seen {
	pthread_mutex_t mu;
	int calls, concurrent, most;
	qless_worker *w;
	int stop_after;
} seen;

/* klass decides: Ok completes, Boom fails, Again retries (policy delay),
 * Self completes the job itself, Slow takes 50 ms. */
static void perform(void *ctx, qless_job *job, qless_result *r)
{
	seen *s = ctx;
	const char *k = qless_job_klass(job);
	pthread_mutex_lock(&s->mu);
	s->calls++;
	if (++s->concurrent > s->most)
		s->most = s->concurrent;
	if (s->stop_after && s->calls == s->stop_after)
		qless_worker_stop(s->w, 0);
	pthread_mutex_unlock(&s->mu);
	if (strcmp(k, "Boom") == 0) {
		CU_ASSERT_EQUAL(qless_result_fail(r, "BoomError", "it went boom"), QLESS_OK);
	} else if (strcmp(k, "Again") == 0) {
		CU_ASSERT_EQUAL(qless_result_retry(r, "AgainError", "later", -1), QLESS_OK);
	} else if (strcmp(k, "Self") == 0) {
		CU_ASSERT_EQUAL(qless_job_complete(job, NULL), QLESS_OK);
	} else if (strcmp(k, "Slow") == 0) {
		struct timespec ts = { 0, 50000000L };
		nanosleep(&ts, NULL);
	}
	CU_ASSERT_EQUAL(qless_result_fail(r, "", "x"), QLESS_EINVAL);   /* refused: nothing changes */
	CU_ASSERT_EQUAL(qless_result_retry(r, "g", NULL, 0), QLESS_EINVAL);
	pthread_mutex_lock(&s->mu);
	s->concurrent--;
	pthread_mutex_unlock(&s->mu);
}

static qless_job *get(qless_client *c, const char *jid)
{
	qless_job *job = NULL;
	TH_OK(qless_client_get_job(&job, c, jid));
	return job;
}

/* A client, a worker on one queue and run options calling perform with
 * the rig's own count: what every engine test starts from. */
typedef struct rig {
	qless_client *c;
	qless_worker *w;
	seen s;
	qless_worker_run_options o;
} rig;

static void rig_open(rig *r, const char *queue)
{
	const char *qs[] = { queue };
	const seen fresh = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, NULL, 0 };
	const qless_worker_run_options init = QLESS_WORKER_RUN_OPTIONS_INIT;
	r->c = th_client("eng");
	r->w = NULL;
	TH_OK(qless_worker_new(&r->w, r->c, qs, 1, NULL));
	r->s = fresh;
	r->s.w = r->w;
	r->o = init;
	r->o.perform = perform;
	r->o.ctx = &r->s;
}

static void rig_close(rig *r)
{
	qless_worker_free(r->w);
	qless_client_free(r->c);
}

static void test_serial_outcomes(void)
{
	rig r;
	rig_open(&r, "e");
	qless_client *c = r.c;
	qless_worker *w = r.w;
	qless_put_options po = QLESS_PUT_OPTIONS_INIT;
	po.retries = 1;
	char *ok = th_put(c, "e", "Ok", NULL, NULL), *boom = th_put(c, "e", "Boom", NULL, NULL);
	char *again = th_put(c, "e", "Again", NULL, &po), *self = th_put(c, "e", "Self", NULL, NULL);
	qless_backoff b = QLESS_BACKOFF_INIT;
	TH_OK(qless_backoff_parse(&b, "fixed:0"));
	TH_OK(qless_worker_set_backoff(w, "Again", NULL, &b));
	r.o.interval = 0.01;
	r.o.max_jobs = 5; /* four jobs, Again twice: its retry, then its failure */
	TH_OK(qless_worker_run(w, &r.o));
	CU_ASSERT_EQUAL(r.s.calls, 5);
	CU_ASSERT_EQUAL(qless_worker_jobs_done(w), 5);
	qless_job *j;
	TH_STREQ(qless_job_state(j = get(c, ok)), "complete");
	qless_job_free(j);
	j = get(c, boom);
	TH_STREQ(qless_job_state(j), "failed");
	TH_STREQ(qless_job_failure_group(j), "BoomError");
	TH_STREQ(qless_job_failure_message(j), "it went boom");
	qless_job_free(j);
	j = get(c, again);
	TH_STREQ(qless_job_state(j), "failed"); /* one retry allowed, then used up */
	TH_STREQ(qless_job_failure_group(j), "AgainError");
	qless_job_free(j);
	TH_STREQ(qless_job_state(j = get(c, self)), "complete");
	qless_job_free(j);
	qless_free(ok);
	qless_free(boom);
	qless_free(again);
	qless_free(self);
	rig_close(&r);
}

static void test_retry_delay(void)
{
	rig r;
	rig_open(&r, "e");
	qless_client *c = r.c;
	qless_worker *w = r.w;
	char *again = th_put(c, "e", "Again", NULL, NULL);
	qless_backoff b = QLESS_BACKOFF_INIT;
	TH_OK(qless_backoff_parse(&b, "fixed:300"));
	TH_OK(qless_worker_set_backoff(w, NULL, "e", &b));
	r.o.interval = 0.01;
	r.o.max_jobs = 1;
	TH_OK(qless_worker_run(w, &r.o));
	qless_job *j = get(c, again);
	TH_STREQ(qless_job_state(j), "scheduled");
	CU_ASSERT_EQUAL(qless_job_remaining(j), 4);
	qless_job_free(j);
	qless_strlist *sched = NULL;
	TH_OK(qless_client_jobs(&sched, c, "scheduled", "e", 0, 10));
	CU_ASSERT_EQUAL(qless_strlist_size(sched), 1);
	qless_strlist_free(sched);
	qless_free(again);
	rig_close(&r);
}

static void test_thread_pool(void)
{
	rig r;
	rig_open(&r, "p");
	qless_client *c = r.c;
	qless_worker *w = r.w;
	char *jids[12];
	for (int i = 0; i < 12; i++)
		jids[i] = th_put(c, "p", "Slow", NULL, NULL);
	r.o.pool = QLESS_POOL_THREADS;
	r.o.size = 4;
	r.o.interval = 0.01;
	r.o.max_jobs = 12;
	TH_OK(qless_worker_run(w, &r.o));
	CU_ASSERT_EQUAL(r.s.calls, 12);
	CU_ASSERT(r.s.most > 1 && r.s.most <= 4);
	for (int i = 0; i < 12; i++) {
		qless_job *j = get(c, jids[i]);
		TH_STREQ(qless_job_state(j), "complete");
		qless_job_free(j);
		qless_free(jids[i]);
	}
	rig_close(&r);
}

static void test_graceful_stop(void)
{
	rig r;
	rig_open(&r, "g");
	qless_client *c = r.c;
	qless_worker *w = r.w;
	r.s.stop_after = 2;
	char *jids[5];
	for (int i = 0; i < 5; i++)
		jids[i] = th_put(c, "g", "Ok", NULL, NULL);
	TH_OK(qless_worker_run(w, &r.o)); /* no max_jobs: returns because of the stop */
	CU_ASSERT_EQUAL(r.s.calls, 2);
	int complete = 0;
	for (int i = 0; i < 5; i++) {
		qless_job *j = get(c, jids[i]);
		complete += strcmp(qless_job_state(j), "complete") == 0;
		CU_ASSERT(strcmp(qless_job_state(j), "running") != 0); /* none left held */
		qless_job_free(j);
		qless_free(jids[i]);
	}
	CU_ASSERT_EQUAL(complete, 2);
	rig_close(&r);
}

/* Calls the server has run since its stats were reset (INFO commandstats:
 * every "calls=" summed). */
static long server_calls(void)
{
	redisReply *r = redisCommand(th_raw(), "INFO commandstats");
	long total = 0;
	for (const char *p = r && r->type == REDIS_REPLY_STRING ? r->str : ""; (p = strstr(p, "calls=")) != NULL; p++)
		total += strtol(p + 6, NULL, 10);
	freeReplyObject(r);
	return total;
}

static void *stop_later(void *arg)
{
	struct timespec ts = { 0, 600000000L };
	nanosleep(&ts, NULL);
	qless_worker_stop(arg, 0);
	return NULL;
}

/* A worker run again after a graceful stop still waits `interval` between
 * reservations over empty queues (the stop's wake-up must not be left
 * behind to cut every wait short): a handful of calls in 0.6 s, not the
 * thousands a loop that never waits makes (plain build). INFO commandstats counts
 * the whole server, which the other C suites (plain, ASan, valgrind) use at
 * the same time, so the bound leaves room for their calls: 40 was crossed
 * by them alone. */
static void test_run_again_waits(void)
{
	rig r;
	rig_open(&r, "idle");
	qless_worker *w = r.w;
	pthread_t t;
	r.o.interval = 0.2;
	for (int run = 0; run < 2; run++) {
		freeReplyObject(redisCommand(th_raw(), "CONFIG RESETSTAT"));
		CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, stop_later, w), 0);
		TH_OK(qless_worker_run(w, &r.o));
		pthread_join(t, NULL);
		long calls = server_calls();
		CU_ASSERT(calls < 1000);
		if (calls >= 1000)
			fprintf(stderr, "\n  run %d: %ld calls while idle", run, calls);
	}
	CU_ASSERT_EQUAL(r.s.calls, 0);
	rig_close(&r);
}

static void test_options_checked(void)
{
	qless_client *c = th_client("eng");
	const char *qs[] = { "o" };
	qless_worker *w = NULL;
	TH_OK(qless_worker_new(&w, c, qs, 1, NULL));
	qless_worker_run_options o = QLESS_WORKER_RUN_OPTIONS_INIT;
	TH_RC(qless_worker_run(w, &o), QLESS_EINVAL); /* no perform */
	TH_RC(qless_worker_run(w, NULL), QLESS_EINVAL);
	TH_RC(qless_worker_run(NULL, &o), QLESS_EINVAL);
	o.perform = perform;
	const struct { int pool, size; double interval, heartbeat; int single; } bad[] = {
		{ 9, 1, 1, 0, 0 }, { QLESS_POOL_SERIAL, 2, 1, 0, 0 }, { QLESS_POOL_THREADS, 0, 1, 0, 0 },
		{ QLESS_POOL_THREADS, 129, 1, 0, 0 }, { QLESS_POOL_SERIAL, 1, -1, 0, 0 },
		{ QLESS_POOL_SERIAL, 1, 1.0 / 0.0, 0, 0 }, { QLESS_POOL_SERIAL, 1, 1, -2, 0 },
		{ QLESS_POOL_THREADS, 2, 1, 0, 1 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		qless_worker_run_options b = o;
		b.pool = bad[i].pool;
		b.size = bad[i].size;
		b.interval = bad[i].interval;
		b.heartbeat = bad[i].heartbeat;
		b.single_threaded = bad[i].single;
		TH_RC(qless_worker_run(w, &b), QLESS_EINVAL);
	}
	const double give_up[] = { -1, 0.0 / 0.0, 86401 };
	for (size_t i = 0; i < sizeof give_up / sizeof *give_up; i++) {
		qless_worker_run_options b = o;
		b.give_up = give_up[i];
		TH_RC(qless_worker_run(w, &b), QLESS_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "give_up"));
	}
	qless_worker_free(w);
	qless_client_free(c);
}

static void test_backoff(void)
{
	qless_backoff b = QLESS_BACKOFF_INIT;
	const char *bad[] = { "", "fixed", "fixed:", "fixed:x", "fixed:-1", "fixed:1:2", "exponential:1:2:3",
	                      "exponential:1:2:0.5:9", "exp:1", "fixed:nan", "fixed:inf", "exponential:1:-5" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		TH_RC(qless_backoff_parse(&b, bad[i]), QLESS_EINVAL);
	TH_RC(qless_backoff_parse(&b, NULL), QLESS_EINVAL);
	TH_RC(qless_backoff_parse(NULL, "fixed:1"), QLESS_EINVAL);

	qless_client *c = th_client("eng");
	const char *qs[] = { "b" };
	qless_worker *w = NULL;
	TH_OK(qless_worker_new(&w, c, qs, 1, NULL));
	CU_ASSERT_EQUAL(qless_worker_backoff_delay(w, "K", "b", 3), 0); /* no policy: at once */
	TH_OK(qless_backoff_parse(&b, "fixed:7"));
	TH_OK(qless_worker_set_backoff(w, NULL, NULL, &b));
	TH_OK(qless_backoff_parse(&b, "exponential:2:50"));
	TH_OK(qless_worker_set_backoff(w, NULL, "b", &b));
	TH_OK(qless_backoff_parse(&b, "exponential:1:0:0.5"));
	TH_OK(qless_worker_set_backoff(w, "K", NULL, &b));
	TH_RC(qless_worker_set_backoff(w, "K", "b", &b), QLESS_EINVAL);
	CU_ASSERT_EQUAL(qless_worker_backoff_delay(w, "X", "other", 5), 7);     /* default */
	CU_ASSERT_EQUAL(qless_worker_backoff_delay(w, "X", "b", 0), 2);         /* queue's */
	CU_ASSERT_EQUAL(qless_worker_backoff_delay(w, "X", "b", 3), 16);
	CU_ASSERT_EQUAL(qless_worker_backoff_delay(w, "X", "b", 10), 50);       /* capped */
	for (int k = 0; k < 200; k++) {                                        /* class's, jittered */
		double d = qless_worker_backoff_delay(w, "K", "b", 4);
		CU_ASSERT(d > 8 - 1e-9 && d <= 16);
	}
	qless_worker_free(w);
	qless_client_free(c);
}

/* The allow-list: unlisted classes fail unperformed, the run goes on; a
 * run that resolves classes needs a list; a version 1 struct (which ends
 * before the list) runs every class and is read no further. */
static void test_allow_list(void)
{
	rig r;
	rig_open(&r, "a");
	qless_client *c = r.c;
	qless_worker *w = r.w;
	const char *allow[] = { "Ok", "app.*" }, *bad[] = { "Ok", "a*b" };
	char *ok = th_put(c, "a", "Ok", NULL, NULL), *app = th_put(c, "a", "app.Job", NULL, NULL);
	char *boom = th_put(c, "a", "Boom", NULL, NULL), *near = th_put(c, "a", "application", NULL, NULL);
	r.o.interval = 0.01;
	r.o.resolves_classes = 1;
	/* Runs that must be refused get a worker with one job that stops it,
	 * so that a run wrongly let through ends (and fails the check). */
	const char *guard_q[] = { "a-guard" };
	qless_worker *guard = NULL;
	char *sentinel = th_put(c, "a-guard", "Ok", NULL, NULL);
	TH_OK(qless_worker_new(&guard, c, guard_q, 1, NULL));
	r.s.w = guard;
	r.s.stop_after = 1;
	TH_RC(qless_worker_run(guard, &r.o), QLESS_EINVAL); /* no list */
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "allow"));
	r.o.allow = bad;
	r.o.nallow = 2;
	TH_RC(qless_worker_run(guard, &r.o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "'a*b'"));
	CU_ASSERT_EQUAL(r.s.calls, 0);
	r.s.stop_after = 0;
	qless_worker_free(guard);
	qless_free(sentinel);
	r.o.allow = allow;
	r.o.max_jobs = 4;
	TH_OK(qless_worker_run(w, &r.o));
	CU_ASSERT_EQUAL(r.s.calls, 2); /* Ok and app.Job */
	qless_job *j;
	TH_STREQ(qless_job_state(j = get(c, ok)), "complete");
	qless_job_free(j);
	TH_STREQ(qless_job_state(j = get(c, app)), "complete");
	qless_job_free(j);
	const char *refused[] = { boom, near }, *klass[] = { "'Boom'", "'application'" };
	for (int i = 0; i < 2; i++) {
		j = get(c, refused[i]);
		TH_STREQ(qless_job_state(j), "failed");
		TH_STREQ(qless_job_failure_group(j), "qless.ClassNotAllowed");
		const char *m = qless_job_failure_message(j);
		CU_ASSERT(m != NULL && strstr(m, klass[i]) != NULL && strstr(m, "--allow") != NULL);
		qless_job_free(j);
	}

	/* Version 1: exactly the bytes such a caller has (ASan/valgrind see a
	 * read past them); Boom is performed although `allow` would refuse it. */
	char *again = th_put(c, "a", "Boom", NULL, NULL);
	size_t v1 = offsetof(qless_worker_run_options, allow);
	qless_worker_run_options v = r.o, *old = malloc(v1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(old);
	v.version = 1;
	v.max_jobs = 1;
	memcpy(old, &v, v1);
	r.s.calls = 0;
	TH_OK(qless_worker_run(w, old));
	CU_ASSERT_EQUAL(r.s.calls, 1);
	TH_STREQ(qless_job_failure_group(j = get(c, again)), "BoomError");
	qless_job_free(j);
	free(old);
	qless_free(again);
	qless_free(ok);
	qless_free(app);
	qless_free(boom);
	qless_free(near);
	rig_close(&r);
}

/* A stop that reaches a pool child while it is being made: the fork below
 * stops the parent at once (the parent forwards SIGTERM to the new child)
 * and the child dawdles before the engine has reset the stop state it
 * inherited. The child must still stop without taking the waiting job; a
 * lost SIGTERM left it working (here: it took the job, max_jobs 1 ended it;
 * without max_jobs the parent waited for it for ever). */
static int fork_then_stop(void *ctx)
{
	(void)ctx;
	pid_t pid = fork();
	if (pid == 0) {
		struct timespec ts = { 0, 300000000L };
		while (nanosleep(&ts, &ts) != 0)
			;
		return 0;
	}
	if (pid > 0)
		kill(getpid(), SIGTERM);
	return pid;
}

static void test_stop_while_forking(void)
{
	rig r;
	rig_open(&r, "forkstop");
	qless_client *c = r.c;
	qless_worker *w = r.w;
	char *jid = th_put(c, "forkstop", "Ok", NULL, NULL);
	r.o.pool = QLESS_POOL_PROCESSES;
	r.o.size = 1;
	r.o.max_jobs = 1;
	r.o.signals = 1;
	r.o.fork = fork_then_stop;
	TH_OK(qless_worker_run(w, &r.o));
	qless_job *j = get(c, jid);
	TH_STREQ(qless_job_state(j), "waiting");
	qless_job_free(j);
	qless_free(jid);
	rig_close(&r);
}

/* A graceful stop asked before a run is kept for it (a program's signal
 * handler may fire before it calls run): that run reserves nothing and
 * returns; the stop is spent, so the next run works. */
static void test_stop_before_run(void)
{
	rig r;
	rig_open(&r, "early");
	char *jid = th_put(r.c, "early", "Ok", NULL, NULL);
	r.o.interval = 0.01;
	r.o.max_jobs = 1;
	qless_worker_stop(r.w, 0);
	TH_OK(qless_worker_run(r.w, &r.o));
	CU_ASSERT_EQUAL(r.s.calls, 0);
	qless_job *j = get(r.c, jid);
	TH_STREQ(qless_job_state(j), "waiting");
	qless_job_free(j);
	TH_OK(qless_worker_run(r.w, &r.o));
	CU_ASSERT_EQUAL(r.s.calls, 1);
	TH_STREQ(qless_job_state(j = get(r.c, jid)), "complete");
	qless_job_free(j);
	qless_free(jid);
	rig_close(&r);
}

/* Thread names: each thread of the pool works as "<name>-<i>". A slow job
 * whose perform spans several heartbeats still completes (its beats go out
 * under the thread's name, which holds the lock), and a job timed out
 * while it runs is seen as lost by the heartbeat and dropped. */
typedef struct named {
	pthread_mutex_t mu;
	char names[4][64];
	int nnames, lost_seen, timed_out;
} named;

static void named_perform(void *ctx, qless_job *job, qless_result *r)
{
	named *n = ctx;
	const char *who = qless_job_worker(job);
	int lose = strcmp(qless_job_klass(job), "Lose") == 0, known = 0;
	pthread_mutex_lock(&n->mu);
	for (int i = 0; i < n->nnames; i++)
		known |= strcmp(n->names[i], who) == 0;
	if (!known && n->nnames < 4)
		snprintf(n->names[n->nnames++], sizeof n->names[0], "%s", who);
	/* Once: the timed-out job is handed out again and then completes. */
	lose = lose && !n->timed_out;
	n->timed_out |= lose;
	pthread_mutex_unlock(&n->mu);
	struct timespec ts = { 0, 10000000L };
	if (strcmp(qless_job_klass(job), "Slow") == 0) {
		for (int i = 0; i < 30; i++)
			nanosleep(&ts, NULL);
	} else if (lose) {
		CU_ASSERT_EQUAL(qless_job_timeout(job), QLESS_OK);
		/* Bounded only so that a missed loss fails instead of hanging. */
		for (int i = 0; i < 500 && !qless_job_lock_lost(job); i++)
			nanosleep(&ts, NULL);
		pthread_mutex_lock(&n->mu);
		n->lost_seen += qless_job_lock_lost(job);
		pthread_mutex_unlock(&n->mu);
	}
	(void)r;
}

/* The batched pool of two threads running named_perform. */
static qless_worker_run_options pooled_options(named *n, int max_jobs)
{
	qless_worker_run_options o = QLESS_WORKER_RUN_OPTIONS_INIT;
	o.perform = named_perform;
	o.ctx = n;
	o.pool = QLESS_POOL_THREADS;
	o.size = 2;
	o.interval = 0.01;
	o.heartbeat = 0.05;
	o.max_jobs = max_jobs;
	return o;
}

/* The job that lost its lock once: handed out again, then completed. */
static void assert_lost_then_complete(qless_client *c, const char *jid)
{
	qless_job *j = get(c, jid);
	TH_STREQ(qless_job_state(j), "complete");
	size_t popped = 0;
	for (size_t i = 0; i < qless_job_history_count(j); i++)
		popped += strcmp(qless_job_history_what(j, i), "popped") == 0;
	CU_ASSERT_EQUAL(popped, 2);
	qless_job_free(j);
}

/* Every job complete; frees the jids. */
static void assert_complete_free(qless_client *c, char **jids, int n)
{
	for (int i = 0; i < n; i++) {
		qless_job *j = get(c, jids[i]);
		TH_STREQ(qless_job_state(j), "complete");
		qless_job_free(j);
		qless_free(jids[i]);
	}
}

static void test_thread_names(void)
{
	qless_client *c = th_client("eng");
	const char *qs[] = { "tn" };
	qless_worker *w = NULL;
	named n = { PTHREAD_MUTEX_INITIALIZER, { "" }, 0, 0, 0 };
	char *slow = th_put(c, "tn", "Slow", NULL, NULL), *lose = th_put(c, "tn", "Lose", NULL, NULL);
	char *more[4];
	for (int i = 0; i < 4; i++)
		more[i] = th_put(c, "tn", "Slow", NULL, NULL);
	TH_OK(qless_worker_new(&w, c, qs, 1, NULL));
	qless_worker_run_options o = pooled_options(&n, 7); /* six jobs, Lose twice */
	o.thread_names = 1;
	TH_OK(qless_worker_run(w, &o));
	CU_ASSERT_EQUAL(n.lost_seen, 1);
	CU_ASSERT_EQUAL(n.nnames, 2); /* six jobs of 0.3 s on two threads: both take some */
	for (int i = 0; i < n.nnames; i++)
		CU_ASSERT(strcmp(n.names[i], "eng-1") == 0 || strcmp(n.names[i], "eng-2") == 0);
	assert_lost_then_complete(c, lose);
	assert_complete_free(c, more, 4);
	assert_complete_free(c, &slow, 1);

	/* A version 2 struct (which ends before thread_names) is accepted and
	 * runs every thread under the worker's own name. */
	char *old_job = th_put(c, "tn", "Ok", NULL, NULL);
	size_t v2 = offsetof(qless_worker_run_options, thread_names);
	qless_worker_run_options *old = malloc(v2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(old);
	o.version = 2;
	o.max_jobs = 1;
	memcpy(old, &o, v2);
	n.nnames = 0;
	TH_OK(qless_worker_run(w, old));
	CU_ASSERT_EQUAL(n.nnames, 1);
	TH_STREQ(n.names[0], "eng");
	free(old);
	qless_free(old_job);
	qless_free(lose);
	qless_worker_free(w);
	qless_client_free(c);
}

/* Calls of the protocol (FCALL or EVALSHA, whichever the library uses) the
 * fixture has served, from INFO commandstats. */
static long long protocol_calls(void)
{
	redisReply *r = th_cmd("INFO commandstats");
	long long total = 0;
	const char *names[] = { "cmdstat_fcall:calls=", "cmdstat_evalsha:calls=" };
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	for (int i = 0; i < 2; i++) {
		const char *at = strstr(r->str, names[i]);
		if (at != NULL)
			total += atoll(at + strlen(names[i]));
	}
	freeReplyObject(r);
	return total;
}

/* A thread pool whose threads share the worker's name settles and reserves
 * for all its slots in one call: 200 jobs on a pool of 4 cost fewer protocol
 * calls than jobs (a count, not a time), with every outcome as the serial
 * worker gives it; a job whose code settles it itself is left alone. */
static void test_pooled_round_trips(void)
{
	enum { M = 200 };
	rig r;
	rig_open(&r, "rt");
	qless_client *c = r.c;
	char *jids[M];
	const char *klass[] = { "Ok", "Boom", "Again", "Self" };
	qless_put_options po = QLESS_PUT_OPTIONS_INIT;
	po.retries = 0; /* Again: its retry fails it (retries used up) */
	for (int i = 0; i < M; i++)
		jids[i] = th_put(c, "rt", klass[i % 20 == 19 ? 3 : i % 10 == 9 ? 1 : i % 10 == 8 ? 2 : 0], NULL, &po);
	r.o.pool = QLESS_POOL_THREADS;
	r.o.size = 4;
	r.o.interval = 0.01;
	r.o.max_jobs = M;
	long long before = protocol_calls();
	TH_OK(qless_worker_run(r.w, &r.o));
	long long calls = protocol_calls() - before;
	CU_ASSERT_EQUAL(r.s.calls, M);
	CU_ASSERT(r.s.most > 1 && r.s.most <= 4);
	/* Serially: one settle per job. Here: a call settles several. */
	CU_ASSERT(calls < M);
	CU_ASSERT(calls < M * 3 / 4);
	fprintf(stderr, "pooled_round_trips: %lld protocol calls for %d jobs on a pool of 4\n", calls, M);
	for (int i = 0; i < M; i++) {
		qless_job *j = get(c, jids[i]);
		const char *k = qless_job_klass(j);
		if (strcmp(k, "Boom") == 0) {
			TH_STREQ(qless_job_state(j), "failed");
			TH_STREQ(qless_job_failure_group(j), "BoomError");
		} else if (strcmp(k, "Again") == 0) {
			TH_STREQ(qless_job_state(j), "failed");
			TH_STREQ(qless_job_failure_group(j), "AgainError");
		} else {
			TH_STREQ(qless_job_state(j), "complete");
		}
		qless_job_free(j);
		qless_free(jids[i]);
	}
	rig_close(&r);
}

/* A job whose lock went to another worker while it ran in the batched pool:
 * the heartbeat sees the loss and the job is dropped, not settled over the
 * other worker's run; the rest of the batch settles. */
static void test_pooled_lock_lost(void)
{
	named n = { PTHREAD_MUTEX_INITIALIZER, { "" }, 0, 0, 0 };
	qless_client *c = th_client("eng");
	const char *qs[] = { "pl" };
	qless_worker *w = NULL;
	char *lose = th_put(c, "pl", "Lose", NULL, NULL), *slow[3];
	for (int i = 0; i < 3; i++)
		slow[i] = th_put(c, "pl", "Slow", NULL, NULL);
	TH_OK(qless_worker_new(&w, c, qs, 1, NULL));
	qless_worker_run_options o = pooled_options(&n, 5); /* four jobs, Lose twice */
	TH_OK(qless_worker_run(w, &o));
	CU_ASSERT_EQUAL(n.lost_seen, 1);
	CU_ASSERT_EQUAL(n.nnames, 1);
	TH_STREQ(n.names[0], "eng");
	assert_lost_then_complete(c, lose);
	assert_complete_free(c, slow, 3);
	qless_free(lose);
	qless_worker_free(w);
	qless_client_free(c);
}

/* A stop while the batched pool runs: the jobs handed out finish and are
 * settled (none left running), nothing more is reserved. */
static void test_pooled_graceful_stop(void)
{
	rig r;
	rig_open(&r, "pg");
	char *jids[20];
	for (int i = 0; i < 20; i++)
		jids[i] = th_put(r.c, "pg", "Slow", NULL, NULL);
	r.s.stop_after = 2;
	r.o.pool = QLESS_POOL_THREADS;
	r.o.size = 4;
	r.o.interval = 0.01;
	TH_OK(qless_worker_run(r.w, &r.o)); /* no max_jobs: returns because of the stop */
	CU_ASSERT(r.s.calls >= 2 && r.s.calls < 20);
	int complete = 0;
	for (int i = 0; i < 20; i++) {
		qless_job *j = get(r.c, jids[i]);
		complete += strcmp(qless_job_state(j), "complete") == 0;
		CU_ASSERT(strcmp(qless_job_state(j), "running") != 0); /* none left held */
		qless_job_free(j);
		qless_free(jids[i]);
	}
	CU_ASSERT_EQUAL(complete, r.s.calls);
	rig_close(&r);
}

CU_TestInfo engine_tests[] = {
	{ "serial_outcomes", test_serial_outcomes },
	{ "retry_delay", test_retry_delay },
	{ "thread_pool", test_thread_pool },
	{ "graceful_stop", test_graceful_stop },
	{ "run_again_waits", test_run_again_waits },
	{ "options_checked", test_options_checked },
	{ "backoff", test_backoff },
	{ "allow_list", test_allow_list },
	{ "stop_while_forking", test_stop_while_forking },
	{ "stop_before_run", test_stop_before_run },
	{ "thread_names", test_thread_names },
	{ "pooled_round_trips", test_pooled_round_trips },
	{ "pooled_lock_lost", test_pooled_lock_lost },
	{ "pooled_graceful_stop", test_pooled_graceful_stop },
	CU_TEST_INFO_NULL,
};
