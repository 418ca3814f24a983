/* The worker engine running tree jobs (jobtrees.md §9, TBN-1 on the C
 * side): startup once per life and again after a crash before job.started,
 * shutdown once on termination (a failing one still terminates, with its
 * history entry), suspend and wake, and plain jobs beside them costing no
 * extra round trip. A seeded walk mixes all of it. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXJOBS 64

/* The protocol's own commands, so these tests stand on the engine alone. */
static char *call(qless_client *c, const char *command, const char *a, const char *b)
{
	const char *argv[2] = { a, b };
	char *out = NULL;
	TH_OK(qless_client_call(&out, c, command, argv, b ? 2 : a ? 1 : 0));
	return out;
}

static void call_expect(qless_client *c, const char *command, const char *jid, const char *want)
{
	char *out = call(c, command, jid, NULL);
	TH_STREQ(out, want);
	qless_free(out);
}

/* Input: one value on port "in" (a suspended job wakes). */
static void write_in(qless_client *c, const char *jid)
{
	const char *argv[] = { jid, "in", "in", "1" };
	char *out = NULL;
	TH_OK(qless_client_call(&out, c, "port.write", argv, 4));
	TH_STREQ(out, "1");
	qless_free(out);
}

/* What the hooks saw, per jid, and what they are told to do. */
typedef struct job_count {
	char jid[64];
	int startups, performs, shutdowns;
	int suspend;      /* perform suspends the job */
	int fail;         /* perform fails the job */
} job_count;

typedef struct tree_ctx {
	pthread_mutex_t mu;   /* pool threads share the counts */
	job_count jobs[MAXJOBS];
	int n;
	int startup_crash;    /* startups left that "crash" (lose the lock) */
	int shutdown_fail;    /* shutdown reports a failure */
	int wake_self;        /* perform wakes its own job (input during the run) */
	int suspend_refused;  /* qless_result_suspend calls refused */
	qless_client *c;
} tree_ctx;

static job_count *count_of(tree_ctx *t, const char *jid)
{
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->jobs[i].jid, jid) == 0)
			return &t->jobs[i];
	CU_ASSERT_FATAL(t->n < MAXJOBS);
	job_count *j = &t->jobs[t->n++];
	memset(j, 0, sizeof *j);
	snprintf(j->jid, sizeof j->jid, "%s", jid);
	return j;
}

/* One more at offset `field` of jid's entry (under the lock). */
static job_count *bump(tree_ctx *t, const char *jid, size_t field)
{
	pthread_mutex_lock(&t->mu);
	job_count *j = count_of(t, jid);
	(*(int *)((char *)j + field))++;
	pthread_mutex_unlock(&t->mu);
	return j;
}

static void startup(void *ctx, qless_job *job, qless_result *r)
{
	tree_ctx *t = ctx;
	bump(t, qless_job_jid(job), offsetof(job_count, startups));
	if (t->startup_crash > 0) {
		/* As if the process died mid-startup: the lock goes, job.started
		 * was never sent. */
		t->startup_crash--;
		TH_OK(qless_job_timeout(job));
	}
}

static void perform(void *ctx, qless_job *job, qless_result *r)
{
	tree_ctx *t = ctx;
	job_count *j = bump(t, qless_job_jid(job), offsetof(job_count, performs));
	if (t->wake_self) {
		write_in(t->c, qless_job_jid(job));
	}
	if (j->fail) {
		TH_OK(qless_result_fail(r, "TreeError", "perform broke"));
	} else if (j->suspend) {
		int rc = qless_result_suspend(r);
		if (rc == QLESS_ESTATE)
			t->suspend_refused++;
		else
			TH_OK(rc);
	}
}

static void shutdown(void *ctx, qless_job *job, qless_result *r)
{
	tree_ctx *t = ctx;
	bump(t, qless_job_jid(job), offsetof(job_count, shutdowns));
	if (t->shutdown_fail)
		TH_OK(qless_result_fail(r, "ShutdownError", "disk gone"));
}

typedef struct rig {
	qless_client *c;
	qless_worker *w;
	char *jid;         /* rig_tree's job, freed by rig_close */
	tree_ctx t;
	qless_worker_run_options o;
} rig;

static const char *const TREE_KLASSES[] = { "Tree*" };

static void rig_open(rig *r)
{
	const char *qs[] = { "t" };
	const qless_worker_run_options init = QLESS_WORKER_RUN_OPTIONS_INIT;
	r->c = th_client("tw");
	r->w = NULL;
	r->jid = NULL;
	TH_OK(qless_worker_new(&r->w, r->c, qs, 1, NULL));
	memset(&r->t, 0, sizeof r->t);
	pthread_mutex_init(&r->t.mu, NULL);
	r->t.c = r->c;
	r->o = init;
	r->o.perform = perform;
	r->o.startup = startup;
	r->o.shutdown = shutdown;
	r->o.ctx = &r->t;
	r->o.tree_klasses = TREE_KLASSES;
	r->o.ntree = 1;
	r->o.interval = 0.01;
	r->o.heartbeat = 86400; /* no beats: the round trips counted are the loop's */
	r->o.log = NULL;
}

static void rig_close(rig *r)
{
	pthread_mutex_destroy(&r->t.mu);
	qless_free(r->jid);
	qless_worker_free(r->w);
	qless_client_free(r->c);
}

static void quiet(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
}

static void run_jobs(rig *r, int64_t n)
{
	r->o.max_jobs = n;
	r->o.log = quiet;
	TH_OK(qless_worker_run(r->w, &r->o));
}

/* A tree job with input port "in", through which tests wake it. */
static char *put_tree(qless_client *c, const char *klass)
{
	const char *argv[] = { "tw", "t", "", klass, "{}", "0", "inports", "{\"in\": {}}" };
	char jid[40], *out = NULL;
	static unsigned int n;
	snprintf(jid, sizeof jid, "tree-%u", ++n);
	argv[2] = jid;
	TH_OK(qless_client_call(&out, c, "put", argv, 8));
	return out;
}

/* A rig with one waiting tree job of class Tree: its counts. */
static job_count *rig_tree(rig *r)
{
	rig_open(r);
	r->jid = put_tree(r->c, "Tree");
	return count_of(&r->t, r->jid);
}

static char *state_of(qless_client *c, const char *jid)
{
	qless_job *job = th_get(c, jid);
	char *s = job ? strdup(qless_job_state(job)) : NULL;
	qless_job_free(job);
	return s;
}

#define TH_STATE(c, jid, want) do { \
	char *th_s_ = state_of((c), (jid)); \
	TH_STREQ(th_s_, (want)); \
	free(th_s_); \
} while (0)

/* tree.get's `started`: 1 set, 0 not. */
static int started(qless_client *c, const char *jid)
{
	char *json = call(c, "tree.get", jid, NULL);
	json_t *j = th_json(json);
	int s = j != NULL && !json_is_false(json_object_get(j, "started"));
	json_decref(j);
	qless_free(json);
	return s;
}

static void test_startup_once(void)
{
	rig r;
	job_count *j = rig_tree(&r);
	const char *jid = j->jid;
	run_jobs(&r, 1);
	CU_ASSERT_EQUAL(j->startups, 1);
	CU_ASSERT_EQUAL(j->performs, 1);
	CU_ASSERT(started(r.c, jid));
	TH_STATE(r.c, jid, "complete");
	call_expect(r.c, "job.run", jid, "waiting");
	run_jobs(&r, 1);
	CU_ASSERT_EQUAL(j->startups, 1); /* started: not again */
	CU_ASSERT_EQUAL(j->performs, 2);
	rig_close(&r);
}

/* A worker popped the job and died before job.started: once its lock has
 * expired the next worker runs the startup (perform was never reached). */
static void test_startup_after_crash(void)
{
	rig r;
	job_count *j = rig_tree(&r);
	const char *jid = j->jid;
	qless_client *dead = th_client("dead");
	qless_job *held = th_pop1(dead, "t");
	CU_ASSERT_PTR_NOT_NULL_FATAL(held);
	TH_OK(qless_client_config_set(r.c, "grace-period", "0"));
	th_clock_at(r.c, qless_client_now(r.c) + 3600);
	run_jobs(&r, 1);
	CU_ASSERT_EQUAL(j->startups, 1);
	CU_ASSERT_EQUAL(j->performs, 1);
	CU_ASSERT(started(r.c, jid));
	TH_STATE(r.c, jid, "complete");
	qless_job_free(held);
	qless_client_free(dead);
	rig_close(&r);
}

/* The startup itself is cut short (its lock lost): no job.started, so the
 * next run starts the job again before perform. */
static void test_startup_cut_short(void)
{
	rig r;
	job_count *j = rig_tree(&r);
	const char *jid = j->jid;
	r.t.startup_crash = 1;
	run_jobs(&r, 2);
	CU_ASSERT_EQUAL(j->startups, 2);
	CU_ASSERT_EQUAL(j->performs, 1);
	CU_ASSERT(started(r.c, jid));
	TH_STATE(r.c, jid, "complete");
	rig_close(&r);
}

static void test_suspend_and_wake(void)
{
	rig r;
	job_count *j = rig_tree(&r);
	const char *jid = j->jid;
	j->suspend = 1;
	run_jobs(&r, 1);
	TH_STATE(r.c, jid, "suspended");
	CU_ASSERT_EQUAL(j->performs, 1);
	write_in(r.c, jid);
	TH_STATE(r.c, jid, "waiting");
	j->suspend = 0;
	run_jobs(&r, 1);
	CU_ASSERT_EQUAL(j->performs, 2);
	CU_ASSERT_EQUAL(j->startups, 1);
	TH_STATE(r.c, jid, "complete");
	rig_close(&r);
}

/* Input that arrives while the job runs: its suspend puts it back to work
 * at once, and the same run performs it again. */
static void test_suspend_with_input_runs_again(void)
{
	rig r;
	job_count *j = rig_tree(&r);
	const char *jid = j->jid;
	j->suspend = 1;
	r.t.wake_self = 1;
	run_jobs(&r, 2);
	CU_ASSERT_EQUAL(j->performs, 2);
	TH_STATE(r.c, jid, "waiting"); /* the second run was woken again */
	rig_close(&r);
}

/* Suspending a job the engine does not run as a tree job is refused at
 * the call; the job completes. */
static void test_suspend_refused_for_plain(void)
{
	rig r;
	rig_open(&r);
	char *plain = th_put(r.c, "t", "Plain", NULL, NULL);
	char *unlisted = put_tree(r.c, "Other"); /* a tree job, class not in tree_klasses */
	char *plain_tree_class = th_put(r.c, "t", "TreePlain", NULL, NULL);
	count_of(&r.t, plain)->suspend = 1;
	count_of(&r.t, unlisted)->suspend = 1;
	count_of(&r.t, plain_tree_class)->suspend = 1;
	run_jobs(&r, 3);
	CU_ASSERT_EQUAL(r.t.suspend_refused, 3);
	TH_STATE(r.c, plain, "complete");
	TH_STATE(r.c, unlisted, "complete");
	TH_STATE(r.c, plain_tree_class, "complete");
	CU_ASSERT_EQUAL(count_of(&r.t, plain_tree_class)->startups, 0);
	qless_free(plain);
	qless_free(unlisted);
	qless_free(plain_tree_class);
	rig_close(&r);
}

/* The history entries named `what` of jid, as JSON texts (at most 4). */
static int history_of(qless_client *c, const char *jid, const char *what, char *out[4])
{
	qless_job *job = th_get(c, jid);
	int n = 0;
	for (size_t i = 0; job != NULL && i < qless_job_history_count(job) && n < 4; i++)
		if (strcmp(qless_job_history_what(job, i), what) == 0)
			out[n++] = strdup(qless_job_history_json(job, i));
	qless_job_free(job);
	return n;
}

/* A started job is terminated: its next hand-out is the shutdown run
 * (no perform), then job.terminated. */
static void terminate_started(rig *r, const char *jid)
{
	run_jobs(r, 1); /* startup, perform, complete */
	call_expect(r->c, "job.terminate", jid, "1");
	TH_STATE(r->c, jid, "terminating");
	run_jobs(r, 1);
}

static void test_shutdown_once(void)
{
	rig r;
	job_count *j = rig_tree(&r);
	const char *jid = j->jid;
	char *h[4];
	terminate_started(&r, jid);
	CU_ASSERT_EQUAL(j->shutdowns, 1);
	CU_ASSERT_EQUAL(j->performs, 1);
	CU_ASSERT_EQUAL(j->startups, 1);
	TH_STATE(r.c, jid, "terminated");
	CU_ASSERT_EQUAL(history_of(r.c, jid, "shutdown-error", h), 0);
	rig_close(&r);
}

/* A failing shutdown is recorded and the job is terminated all the same. */
static void test_shutdown_failure_still_terminates(void)
{
	rig r;
	const char *jid = rig_tree(&r)->jid;
	char *h[4];
	r.t.shutdown_fail = 1;
	terminate_started(&r, jid);
	CU_ASSERT_EQUAL(count_of(&r.t, jid)->shutdowns, 1);
	TH_STATE(r.c, jid, "terminated");
	CU_ASSERT_EQUAL_FATAL(history_of(r.c, jid, "shutdown-error", h), 1);
	json_t *e = th_json(h[0]);
	TH_STREQ(json_string_value(json_object_get(e, "error")), "ShutdownError: disk gone");
	json_decref(e);
	free(h[0]);
	rig_close(&r);
}

/* A worker with no shutdown hook (e.g. an older binding) still ends a
 * terminating job rather than leaving it to its lock. */
static void test_terminating_without_hook(void)
{
	rig r;
	const char *jid = rig_tree(&r)->jid;
	r.o.shutdown = NULL;
	terminate_started(&r, jid);
	CU_ASSERT_EQUAL(count_of(&r.t, jid)->shutdowns, 0);
	CU_ASSERT_EQUAL(count_of(&r.t, jid)->performs, 1);
	TH_STATE(r.c, jid, "terminated");
	rig_close(&r);
}

/* The allow-list stops the shutdown hook of a class this worker refuses
 * (its code is never looked up) but not the termination. */
static void test_terminating_of_refused_class(void)
{
	rig r;
	static const char *const only_other[] = { "Other" };
	const char *jid = rig_tree(&r)->jid;
	char *h[4];
	run_jobs(&r, 1);
	call_expect(r.c, "job.terminate", jid, "1");
	r.o.allow = only_other;
	r.o.nallow = 1;
	run_jobs(&r, 1);
	CU_ASSERT_EQUAL(count_of(&r.t, jid)->shutdowns, 0);
	TH_STATE(r.c, jid, "terminated");
	CU_ASSERT_EQUAL_FATAL(history_of(r.c, jid, "shutdown-error", h), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(h[0], "allow-list"));
	free(h[0]);
	rig_close(&r);
}

/* Script calls (EVALSHA/EVAL/FCALL) since the last CONFIG RESETSTAT. */
static long script_calls(void)
{
	static const char *const names[] = { "cmdstat_evalsha:", "cmdstat_eval:", "cmdstat_fcall:" };
	redisReply *r = redisCommand(th_raw(), "INFO commandstats");
	long total = 0;
	for (size_t i = 0; i < 3; i++) {
		const char *p = r && r->type == REDIS_REPLY_STRING ? strstr(r->str, names[i]) : NULL;
		if (p != NULL && (p = strstr(p, "calls=")) != NULL)
			total += strtol(p + 6, NULL, 10);
	}
	freeReplyObject(r);
	return total;
}

/* The cost rule: plain jobs cost one settle each whether or not the
 * worker serves tree classes; a tree job's first run adds tree.get and
 * job.started, a later run tree.get alone. */
static void test_round_trips(void)
{
	rig r;
	rig_open(&r);
	char *jids[6];
	for (int i = 0; i < 4; i++)
		jids[i] = th_put(r.c, "t", "Plain", NULL, NULL);
	freeReplyObject(redisCommand(th_raw(), "CONFIG RESETSTAT"));
	run_jobs(&r, 4);
	CU_ASSERT_EQUAL(script_calls(), 4 + 1); /* a settle per job, plus the first reservation */
	jids[4] = put_tree(r.c, "Tree");
	jids[5] = put_tree(r.c, "Tree");
	freeReplyObject(redisCommand(th_raw(), "CONFIG RESETSTAT"));
	run_jobs(&r, 2);
	CU_ASSERT_EQUAL(script_calls(), 2 + 1 + 2 * 2);
	/* A shutdown run: state terminating is in the pop reply, so no tree.get. */
	call_expect(r.c, "job.terminate", jids[4], "1");
	freeReplyObject(redisCommand(th_raw(), "CONFIG RESETSTAT"));
	run_jobs(&r, 1);
	CU_ASSERT_EQUAL(script_calls(), 1 + 1);
	for (int i = 0; i < 6; i++) {
		TH_STATE(r.c, jids[i], i == 4 ? "terminated" : "complete");
		qless_free(jids[i]);
	}
	rig_close(&r);
}

/* ---- a seeded walk ---- */

typedef enum kind { PLAIN, TREE, PLAIN_OF_TREE_CLASS } kind;

typedef struct model {
	char *jid;
	kind kind;
	const char *state;   /* as the protocol should have it */
	int started, performs, shutdowns, suspends_left;
} model;

static int coin(unsigned int *seed, int percent)
{
	return rand_r(seed) % 100 < percent;
}

/* Jobs of three kinds with seeded outcomes (complete, fail, suspend up to
 * twice), run round after round; between rounds suspended jobs are woken
 * and started ones terminated at random (some before their first run).
 * After each round the hooks' counts and states must match the model, and
 * the script calls must be the settles plus tree.get per running tree-class
 * hand-out plus job.started per first run: nothing more. */
static void test_seeded_walk(void)
{
	const char *env = getenv("QLESS_TEST_SEED");
	unsigned int seed = env ? (unsigned int)strtoul(env, NULL, 10) : (unsigned int)time(NULL);
	static const char *const klass[] = { "Plain", "Tree", "TreePlain" };
	enum { N = 24 };
	model m[N];
	rig r;
	fprintf(stderr, "\n  engine_tree seeded_walk: seed %u (QLESS_TEST_SEED)\n", seed);
	rig_open(&r);
	for (int i = 0; i < N; i++) {
		memset(&m[i], 0, sizeof m[i]);
		m[i].kind = (kind)(rand_r(&seed) % 3);
		m[i].jid = m[i].kind == TREE ? put_tree(r.c, klass[TREE]) : th_put(r.c, "t", klass[m[i].kind], NULL, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m[i].jid);
		m[i].state = "waiting";
		job_count *j = count_of(&r.t, m[i].jid);
		j->fail = coin(&seed, 15);
		m[i].suspends_left = m[i].kind == TREE ? rand_r(&seed) % 3 : 0;
		if (m[i].kind == TREE && coin(&seed, 10)) {
			call_expect(r.c, "job.terminate", m[i].jid, "1");
			m[i].state = "terminated"; /* never started: nothing to shut down */
		}
	}
	enum { ROUNDS = 8 };
	for (int round = 0; round < ROUNDS; round++) {
		int handouts = 0;
		long expect = 0;
		for (int i = 0; i < N; i++) {
			job_count *j = count_of(&r.t, m[i].jid);
			if (strcmp(m[i].state, "terminating") == 0) {
				handouts++;
				m[i].shutdowns++;
				m[i].state = "terminated";
			} else if (strcmp(m[i].state, "waiting") == 0) {
				handouts++;
				m[i].performs++;
				expect += m[i].kind != PLAIN;                    /* tree.get */
				if (m[i].kind == TREE && !m[i].started) {
					expect++;                                /* job.started */
					m[i].started = 1;
				}
				j->suspend = m[i].suspends_left > 0;
				if (j->fail)
					m[i].state = "failed";
				else if (m[i].suspends_left-- > 0)
					m[i].state = "suspended";
				else
					m[i].state = "complete";
			}
		}
		if (handouts == 0)
			break;
		freeReplyObject(redisCommand(th_raw(), "CONFIG RESETSTAT"));
		run_jobs(&r, handouts);
		CU_ASSERT_EQUAL(script_calls(), expect + handouts + 1);
		for (int i = 0; i < N; i++) {
			job_count *j = count_of(&r.t, m[i].jid);
			TH_STATE(r.c, m[i].jid, m[i].state);
			CU_ASSERT_EQUAL(j->performs, m[i].performs);
			CU_ASSERT_EQUAL(j->shutdowns, m[i].shutdowns);
			CU_ASSERT_EQUAL(j->startups, m[i].started);
			/* No round follows the last one to run what a terminate or a
			 * wake-up would leave waiting. */
			if (round == ROUNDS - 1 || m[i].kind != TREE || strcmp(m[i].state, "terminated") == 0)
				continue;
			if (m[i].started && coin(&seed, 25)) {
				call_expect(r.c, "job.terminate", m[i].jid, "1");
				m[i].state = "terminating";
			} else if (strcmp(m[i].state, "suspended") == 0) {
				write_in(r.c, m[i].jid);
				m[i].state = "waiting";
			}
		}
	}
	for (int i = 0; i < N; i++) {
		CU_ASSERT(strcmp(m[i].state, "waiting") != 0 && strcmp(m[i].state, "terminating") != 0);
		qless_free(m[i].jid);
	}
	rig_close(&r);
}

static void test_options_checked(void)
{
	rig r;
	rig_open(&r);
	const char *const bad_pattern[] = { "Tree**" };
	const char *const exact[] = { "Tree", "Tree*" };
	const char *const not_object[] = { "[1]", NULL };
	const char *const on_pattern[] = { NULL, "{}" };

	r.o.tree_klasses = bad_pattern;
	TH_RC(qless_worker_run(r.w, &r.o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "tree_klasses[0]"));
	r.o.tree_klasses = exact;
	r.o.ntree = 2;
	r.o.tree_configs = not_object;
	TH_RC(qless_worker_run(r.w, &r.o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "tree_configs[0]"));
	r.o.tree_configs = on_pattern;
	TH_RC(qless_worker_run(r.w, &r.o), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "pattern 'Tree*'"));
	r.o.tree_configs = NULL;
	r.o.ntree = 0;
	TH_RC(qless_worker_run(r.w, &r.o), QLESS_EINVAL); /* startup without tree classes */
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "startup"));
	TH_RC(qless_result_suspend(NULL), QLESS_EINVAL);
	rig_close(&r);
}

/* At start the worker registers each configured class's ports on each of
 * its queues, so a tree job put afterwards gets them. */
static void test_register_at_start(void)
{
	rig r;
	const char *qs[] = { "t", "u" };
	static const char *const klasses[] = { "Tree", "Tree*", "Refused" };
	static const char *const configs[] = { "{\"inports\": {\"in\": {\"default\": 0}}, \"outports\": {\"out\": {}}}",
		                               NULL, "{}" };
	static const char *const allow[] = { "Tree*" };
	rig_open(&r);
	qless_worker_free(r.w);
	TH_OK(qless_worker_new(&r.w, r.c, qs, 2, NULL));
	r.o.tree_klasses = klasses;
	r.o.tree_configs = configs;
	r.o.ntree = 3;
	r.o.allow = allow; /* Refused is outside it: not registered */
	r.o.nallow = 1;
	qless_worker_stop(r.w, 0); /* a stop asked before the run: it registers, then returns */
	TH_OK(qless_worker_run(r.w, &r.o));
	for (size_t i = 0; i < 2; i++) {
		const char *argv[] = { qs[i], "Tree" };
		char *out = NULL;
		TH_OK(qless_client_call(&out, r.c, "worker.config", argv, 2));
		TH_STREQ(out, configs[0]);
		qless_free(out);
		argv[1] = "Refused";
		TH_OK(qless_client_call(&out, r.c, "worker.config", argv, 2));
		CU_ASSERT_PTR_NULL(out);
		qless_free(out);
	}
	const char *put[] = { "tw", "u", "fresh", "Tree", "{}", "0", "tree", "1" };
	char *jid = NULL, *tree = NULL;
	TH_OK(qless_client_call(&jid, r.c, "put", put, 8));
	tree = call(r.c, "tree.get", "fresh", NULL);
	json_t *j = th_json(tree);
	CU_ASSERT(json_is_object(json_object_get(json_object_get(j, "outports"), "out")));
	CU_ASSERT(json_is_integer(json_object_get(json_object_get(json_object_get(j, "inports"), "in"), "default")));
	json_decref(j);
	qless_free(tree);
	qless_free(jid);
	rig_close(&r);
}

/* A job put before its class was registered gets the class's ports it
 * lacks at its first run, before the startup hook; its own port options
 * stay, and a job that has them all costs no call for it. */
static void test_missing_ports_defined(void)
{
	rig r;
	job_count *j = rig_tree(&r); /* has inport "in" {} from its put */
	static const char *const klasses[] = { "Tree" };
	static const char *const configs[] = { "{\"inports\": {\"in\": {\"default\": 5}, \"x\": {\"default\": 1}}, "
		                               "\"outports\": {\"out\": {}}}" };
	const char *plain_put[] = { "tw", "t", "bare", "Tree", "{}", "0", "tree", "1" };
	char *bare = NULL;
	TH_OK(qless_client_call(&bare, r.c, "put", plain_put, 8));
	r.o.tree_klasses = klasses;
	r.o.tree_configs = configs;
	run_jobs(&r, 2);
	char *tree = call(r.c, "tree.get", j->jid, NULL);
	json_t *t = th_json(tree);
	CU_ASSERT_EQUAL(json_object_size(json_object_get(json_object_get(t, "inports"), "in")), 0); /* kept {} */
	CU_ASSERT(json_is_object(json_object_get(json_object_get(t, "inports"), "x")));
	CU_ASSERT(json_is_object(json_object_get(json_object_get(t, "outports"), "out")));
	json_decref(t);
	qless_free(tree);
	/* Registered at start now, so a new job has them all: no port.define. */
	char *fresh = put_tree(r.c, "Tree");
	freeReplyObject(redisCommand(th_raw(), "CONFIG RESETSTAT"));
	run_jobs(&r, 1);
	CU_ASSERT_EQUAL(script_calls(), 1 + 2 + 2); /* worker.register, 2 settles, tree.get, job.started */
	qless_free(fresh);
	qless_free(bare);
	rig_close(&r);
}

/* The registry is written before any job runs; a config the server
 * refuses (a port name it forbids) stops the run before it pops. */
static void test_register_refused_runs_nothing(void)
{
	rig r;
	static const char *const klasses[] = { "Tree" };
	static const char *const configs[] = { "{\"inports\": {\"a-b\": {}}}" };
	const char *jid = rig_tree(&r)->jid;
	r.o.tree_klasses = klasses;
	r.o.tree_configs = configs;
	r.o.max_jobs = 1;
	r.o.log = quiet;
	CU_ASSERT_NOT_EQUAL(qless_worker_run(r.w, &r.o), QLESS_OK);
	CU_ASSERT_EQUAL(count_of(&r.t, jid)->performs, 0);
	TH_STATE(r.c, jid, "waiting");
	rig_close(&r);
}

/* Tree jobs on a thread pool whose threads have names of their own: each
 * started once, under the name of the thread that holds it. */
static void test_thread_pool(void)
{
	rig r;
	rig_open(&r);
	char *jids[8];
	for (int i = 0; i < 8; i++)
		jids[i] = put_tree(r.c, "Tree");
	r.o.pool = QLESS_POOL_THREADS;
	r.o.size = 3;
	r.o.thread_names = 1;
	run_jobs(&r, 8);
	for (int i = 0; i < 8; i++) {
		CU_ASSERT_EQUAL(count_of(&r.t, jids[i])->startups, 1);
		CU_ASSERT_EQUAL(count_of(&r.t, jids[i])->performs, 1);
		TH_STATE(r.c, jids[i], "complete");
		qless_free(jids[i]);
	}
	rig_close(&r);
}

/* A version 3 struct still runs (its jobs as plain ones). */
static void test_v3_options(void)
{
	rig r;
	rig_open(&r);
	char *jid = r.jid = th_put(r.c, "t", "Plain", NULL, NULL);
	qless_worker_run_options v3 = r.o;
	v3.version = 3;
	v3.ntree = 99;         /* past a version 3 struct: never read */
	v3.startup = NULL;
	v3.max_jobs = 1;
	v3.log = quiet;
	TH_OK(qless_worker_run(r.w, &v3));
	TH_STATE(r.c, jid, "complete");
	rig_close(&r);
}

CU_TestInfo engine_tree_tests[] = {
	{ "startup_once", test_startup_once },
	{ "startup_after_crash", test_startup_after_crash },
	{ "startup_cut_short", test_startup_cut_short },
	{ "suspend_and_wake", test_suspend_and_wake },
	{ "suspend_with_input_runs_again", test_suspend_with_input_runs_again },
	{ "suspend_refused_for_plain", test_suspend_refused_for_plain },
	{ "shutdown_once", test_shutdown_once },
	{ "shutdown_failure_still_terminates", test_shutdown_failure_still_terminates },
	{ "terminating_without_hook", test_terminating_without_hook },
	{ "terminating_of_refused_class", test_terminating_of_refused_class },
	{ "round_trips", test_round_trips },
	{ "seeded_walk", test_seeded_walk },
	{ "options_checked", test_options_checked },
	{ "register_at_start", test_register_at_start },
	{ "missing_ports_defined", test_missing_ports_defined },
	{ "register_refused_runs_nothing", test_register_refused_runs_nothing },
	{ "thread_pool", test_thread_pool },
	{ "v3_options", test_v3_options },
	CU_TEST_INFO_NULL,
};
