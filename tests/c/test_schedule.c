/* The schedule handle and its listener pool (schedules.md §6.4-6.5, FAC-7,
 * FAC-8): jobs put while listening are each performed and completed once
 * by several thread-named workers; perform's result decides complete or
 * fail; a stop from a signal handler lets running jobs finish; bad
 * arguments are refused before anything runs. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* What the listener's perform saw: the jids, in call order. */
typedef struct tally {
	pthread_mutex_t mu;
	char *jids[256];
	int calls;
	qless_schedule *s;
	int stop_first;         /* the first call raises SIGUSR1 */
	long sleep_ns;
} tally;

static void tally_init(tally *t, qless_schedule *s)
{
	memset(t, 0, sizeof *t);
	pthread_mutex_init(&t->mu, NULL);
	t->s = s;
}

static void tally_free(tally *t)
{
	for (int i = 0; i < t->calls && i < 256; i++)
		free(t->jids[i]);
	pthread_mutex_destroy(&t->mu);
}

static int record(tally *t, const qless_job *job)
{
	pthread_mutex_lock(&t->mu);
	int call = t->calls++;
	if (call < 256)
		t->jids[call] = strdup(qless_job_jid(job));
	pthread_mutex_unlock(&t->mu);
	return call;
}

static void nap(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static int perform_ok(qless_job *job, void *userdata)
{
	tally *t = userdata;
	int call = record(t, job);
	if (t->stop_first && call == 0)
		kill(getpid(), SIGUSR1);
	if (t->sleep_ns > 0)
		nap(t->sleep_ns);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- FAC-7 ---- */

typedef struct producer {
	int id, n;
	char *jids[100];
} producer;

static void *produce(void *arg)
{
	producer *p = arg;
	char name[32], data[64];
	snprintf(name, sizeof name, "producer-%d", p->id);
	qless_client *c = th_client(name);
	for (int i = 0; i < p->n; i++) {
		snprintf(data, sizeof data, "{\"producer\": %d, \"n\": %d}", p->id, i);
		p->jids[i] = c ? th_put(c, "fac7", "Tick", data, NULL) : NULL;
	}
	qless_client_free(c);
	return NULL;
}

static void test_listen_pool(void)
{
	qless_client *c = th_client("listener");
	qless_schedule *s = NULL;
	TH_OK(qless_schedule_new(&s, c, "fac7"));
	tally t;
	tally_init(&t, s);
	t.sleep_ns = 1000000L; /* a millisecond a job: one thread alone cannot keep the others idle */
	producer p[2] = { { 1, 100, { 0 } }, { 2, 100, { 0 } } };
	pthread_t pt[2];
	for (int i = 0; i < 2; i++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&pt[i], NULL, produce, &p[i]), 0);
	qless_listen_options o = QLESS_LISTEN_OPTIONS_INIT;
	o.threads = 4;
	o.interval = 0.01;
	o.max_jobs = 200;
	TH_OK(qless_schedule_listen(s, perform_ok, &t, &o));
	for (int i = 0; i < 2; i++)
		pthread_join(pt[i], NULL);
	CU_ASSERT_EQUAL_FATAL(t.calls, 200);

	/* Performed exactly the jids put, each once. */
	char *put[200];
	for (int i = 0; i < 200; i++)
		put[i] = p[i / 100].jids[i % 100];
	for (int i = 0; i < 200; i++)
		CU_ASSERT_PTR_NOT_NULL_FATAL(put[i]);
	qsort(put, 200, sizeof *put, cmp_str);
	qsort(t.jids, 200, sizeof *t.jids, cmp_str);
	for (int i = 0; i < 200; i++)
		TH_STREQ(put[i], t.jids[i]);

	/* Completed, popped once (no lock expired), by thread-named workers. */
	char workers[4][64];
	int nworkers = 0;
	for (int i = 0; i < 200; i++) {
		qless_job *j = th_get(c, put[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(j);
		TH_STREQ(qless_job_state(j), "complete");
		int popped = 0;
		for (size_t h = 0; h < qless_job_history_count(j); h++) {
			if (strcmp(qless_job_history_what(j, h), "popped") != 0)
				continue;
			popped++;
			json_t *e = th_json(qless_job_history_json(j, h));
			const char *w = json_string_value(json_object_get(e, "worker"));
			CU_ASSERT_PTR_NOT_NULL(w);
			int k = 0;
			while (w && k < nworkers && strcmp(workers[k], w) != 0)
				k++;
			if (w && k == nworkers && nworkers < 4)
				snprintf(workers[nworkers++], sizeof workers[0], "%s", w);
			json_decref(e);
		}
		CU_ASSERT_EQUAL(popped, 1);
		qless_job_free(j);
	}
	CU_ASSERT(nworkers >= 2);
	for (int k = 0; k < nworkers; k++)
		CU_ASSERT(strlen(workers[k]) == 10 && strncmp(workers[k], "listener-", 9) == 0 &&
		          workers[k][9] >= '1' && workers[k][9] <= '4');
	for (int i = 0; i < 200; i++)
		qless_free(put[i]);
	tally_free(&t);
	qless_schedule_free(s);
	qless_client_free(c);
}

/* ---- FAC-8 ---- */

/* Seeded mix: each job's data says what perform returns and whether it
 * fails the job itself first. */
static int perform_by_data(qless_job *job, void *userdata)
{
	record(userdata, job);
	json_t *d = th_json(qless_job_data(job));
	int rc = (int)json_integer_value(json_object_get(d, "rc"));
	int self = json_is_true(json_object_get(d, "self"));
	json_decref(d);
	if (self)
		CU_ASSERT_EQUAL(qless_job_fail(job, "own", "failed by perform"), QLESS_OK);
	return rc;
}

static void test_listen_results(void)
{
	static const int rcs[] = { 0, 1, -1, 3, 255, INT_MIN, INT_MAX };
	const char *env = getenv("QLESS_TEST_SEED");
	unsigned int seed = env ? (unsigned int)strtoul(env, NULL, 10) : (unsigned int)time(NULL);
	printf("(seed %u) ", seed);
	qless_client *c = th_client("results");
	qless_schedule *s = NULL;
	TH_OK(qless_schedule_new(&s, c, "fac8"));
	enum { N = 40 };
	char *jids[N];
	int rc[N], self[N];
	for (int i = 0; i < N; i++) {
		char data[64];
		rc[i] = rcs[rand_r(&seed) % (sizeof rcs / sizeof *rcs)];
		self[i] = rand_r(&seed) % 5 == 0;
		snprintf(data, sizeof data, "{\"rc\": %d, \"self\": %s}", rc[i], self[i] ? "true" : "false");
		jids[i] = th_put(c, "fac8", "Mixed", data, NULL);
	}
	tally t;
	tally_init(&t, s);
	qless_listen_options o = QLESS_LISTEN_OPTIONS_INIT;
	o.threads = 3;
	o.interval = 0.01;
	o.max_jobs = N;
	TH_OK(qless_schedule_listen(s, perform_by_data, &t, &o));
	CU_ASSERT_EQUAL(t.calls, N);
	for (int i = 0; i < N; i++) {
		qless_job *j = th_get(c, jids[i]);
		char message[48];
		snprintf(message, sizeof message, "perform returned %d", rc[i]);
		if (self[i]) {
			TH_STREQ(qless_job_state(j), "failed");
			TH_STREQ(qless_job_failure_group(j), "own");
		} else if (rc[i] == 0) {
			TH_STREQ(qless_job_state(j), "complete");
		} else {
			TH_STREQ(qless_job_state(j), "failed");
			TH_STREQ(qless_job_failure_group(j), "qless-perform");
			TH_STREQ(qless_job_failure_message(j), message);
		}
		qless_job_free(j);
		qless_free(jids[i]);
	}
	tally_free(&t);
	qless_schedule_free(s);
	qless_client_free(c);
}

static qless_schedule *volatile signal_target;

static void on_usr1(int sig)
{
	(void)sig;
	qless_schedule_stop(signal_target);
}

static void test_stop_from_signal(void)
{
	qless_client *c = th_client("stopper");
	qless_schedule *s = NULL;
	TH_OK(qless_schedule_new(&s, c, "stop"));
	enum { N = 20 };
	char *jids[N];
	for (int i = 0; i < N; i++)
		jids[i] = th_put(c, "stop", "Slow", NULL, NULL);
	tally t;
	tally_init(&t, s);
	t.stop_first = 1;
	t.sleep_ns = 200000000L; /* still running when the stop lands */
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	signal_target = s;
	sigaction(SIGUSR1, &sa, &old);
	qless_listen_options o = QLESS_LISTEN_OPTIONS_INIT;
	o.threads = 2;
	o.interval = 0.01;
	o.max_jobs = N; /* bounds a run whose stop went astray: it then does them all */
	TH_OK(qless_schedule_listen(s, perform_ok, &t, &o));
	sigaction(SIGUSR1, &old, NULL);
	signal_target = NULL;
	CU_ASSERT(t.calls >= 1 && t.calls < N);
	int complete = 0, waiting = 0;
	for (int i = 0; i < N; i++) {
		qless_job *j = th_get(c, jids[i]);
		complete += strcmp(qless_job_state(j), "complete") == 0;
		waiting += strcmp(qless_job_state(j), "waiting") == 0;
		qless_job_free(j);
		qless_free(jids[i]);
	}
	/* Every job begun was finished and completed; the rest were not touched. */
	CU_ASSERT_EQUAL(complete, t.calls);
	CU_ASSERT_EQUAL(waiting, N - t.calls);
	tally_free(&t);
	qless_schedule_free(s);
	qless_client_free(c);
}

/* ---- the handle and bad arguments ---- */

static void assert_refused(int rc, const char *func, const char *arg)
{
	TH_RC(rc, QLESS_EINVAL);
	const char *m = qless_error_last_message();
	CU_ASSERT(strstr(m, func) != NULL && strstr(m, arg) != NULL);
	if (strstr(m, func) == NULL || strstr(m, arg) == NULL)
		fprintf(stderr, "\n  message \"%s\" should name %s and %s\n", m, func, arg);
}

static void test_handle(void)
{
	qless_client *c = th_client("handle");
	qless_schedule *s = (qless_schedule *)&s;
	assert_refused(qless_schedule_new(&s, NULL, "q"), "qless_schedule_new", "client");
	CU_ASSERT_PTR_NULL(s);
	assert_refused(qless_schedule_new(NULL, c, "q"), "qless_schedule_new", "out");
	assert_refused(qless_schedule_new(&s, c, NULL), "qless_schedule_new", "name");
	assert_refused(qless_schedule_new(&s, c, ""), "qless_schedule_new", "name");
	assert_refused(qless_schedule_new(&s, c, "bad\xff"), "qless_schedule_new", "name");
	CU_ASSERT_PTR_NULL(qless_schedule_name(NULL));
	CU_ASSERT_PTR_NULL(qless_schedule_queue(NULL));
	qless_schedule_stop(NULL);
	qless_schedule_free(NULL);

	/* No I/O: the server sees no more commands than between two INFOs. */
	long long a = th_commands(), b = th_commands();
	TH_OK(qless_schedule_new(&s, c, "app-tasks"));
	long long d = th_commands();
	CU_ASSERT_EQUAL(d - b, b - a);
	TH_STREQ(qless_schedule_name(s), "app-tasks");
	TH_STREQ(qless_queue_name(qless_schedule_queue(s)), "app-tasks");

	/* The schedule keeps its client alive. */
	qless_client_free(c);
	char *jid = NULL;
	TH_OK(qless_queue_put(&jid, qless_schedule_queue(s), "K", NULL, NULL));
	CU_ASSERT_EQUAL(th_int("ZCARD ql:q:app-tasks-work"), 1);

	qless_listen_options o = QLESS_LISTEN_OPTIONS_INIT, init;
	assert_refused(qless_listen_options_init(NULL, 1), "qless_listen_options_init", "opts");
	assert_refused(qless_listen_options_init(&init, 3), "qless_listen_options_init", "version");
	TH_OK(qless_listen_options_init(&init, QLESS_LISTEN_OPTIONS_VERSION));
	CU_ASSERT(init.version == o.version && init.threads == o.threads && init.interval == o.interval &&
	          init.max_jobs == o.max_jobs);

	tally t;
	tally_init(&t, s);
	assert_refused(qless_schedule_listen(NULL, perform_ok, &t, NULL), "qless_schedule_listen", "schedule");
	assert_refused(qless_schedule_listen(s, NULL, &t, NULL), "qless_schedule_listen", "perform");
	const struct { unsigned int version; int threads; double interval; int64_t max_jobs; const char *arg; } bad[] = {
		{ 0, 1, 0, 0, "version" }, { 3, 1, 0, 0, "version" }, { 1, -1, 0, 0, "threads" },
		{ 1, 129, 0, 0, "threads" }, { 1, 1, -1, 0, "interval" }, { 1, 1, NAN, 0, "interval" },
		{ 1, 1, INFINITY, 0, "interval" }, { 1, 1, 86401, 0, "interval" }, { 1, 1, 0, -1, "max_jobs" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		qless_listen_options b = { bad[i].version, bad[i].threads, bad[i].interval, bad[i].max_jobs };
		assert_refused(qless_schedule_listen(s, perform_ok, &t, &b), "qless_schedule_listen", bad[i].arg);
	}
	CU_ASSERT_EQUAL(t.calls, 0);
	char *state = th_str("HGET ql:j:%s state", jid);
	TH_STREQ(state, "waiting"); /* nothing ran */
	free(state);
	tally_free(&t);
	qless_free(jid);
	qless_schedule_free(s);
}

/* Default options (one thread), a stop from perform itself, and a second
 * listen of the same schedule while the first runs. */
static int perform_nested(qless_job *job, void *userdata)
{
	qless_schedule *s = userdata;
	int rc = qless_schedule_listen(s, perform_nested, s, NULL);
	CU_ASSERT_EQUAL(rc, QLESS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "qless_schedule_listen"));
	TH_STREQ(qless_client_worker_name(qless_job_client(job)), "nested-1");
	qless_schedule_stop(s);
	return 0;
}

static void test_defaults_and_nesting(void)
{
	qless_client *c = th_client("nested");
	qless_schedule *s = NULL;
	TH_OK(qless_schedule_new(&s, c, "nest"));
	char *a = th_put(c, "nest", "K", NULL, NULL), *b = th_put(c, "nest", "K", NULL, NULL);
	TH_OK(qless_schedule_listen(s, perform_nested, s, NULL));
	qless_job *j = th_get(c, a);
	TH_STREQ(qless_job_state(j), "complete");
	qless_job_free(j);
	j = th_get(c, b);
	TH_STREQ(qless_job_state(j), "waiting"); /* stopped after the first */
	qless_job_free(j);
	qless_free(a);
	qless_free(b);
	qless_schedule_free(s);
	qless_client_free(c);
}

static int perform_count(qless_job *job, void *userdata)
{
	(void)job;
	(*(int *)userdata)++;
	return 0;
}

/* K15: a listener runs a tree job by jobtrees.md §9: job.started is
 * recorded before perform, and a terminating one is ended (no perform). */
static void test_listen_runs_tree_jobs(void)
{
	qless_client *c = th_client("trees");
	qless_schedule *s = NULL;
	qless_queue *q = NULL;
	qless_put_options po = QLESS_PUT_OPTIONS_INIT;
	qless_listen_options o = QLESS_LISTEN_OPTIONS_INIT;
	char *text = NULL;
	int calls = 0;
	int64_t changed = 0;
	TH_OK(qless_schedule_new(&s, c, "treesched"));
	TH_OK(qless_queue_new(&q, c, "treesched"));
	po.jid = "tj";
	po.tree = 1;
	TH_OK(qless_queue_put(NULL, q, "K", NULL, &po));
	o.interval = 0.01;
	o.max_jobs = 1;
	TH_OK(qless_schedule_listen(s, perform_count, &calls, &o));
	CU_ASSERT_EQUAL(calls, 1);
	TH_OK(qless_client_tree_get(&text, c, "tj"));
	json_t *tree = text ? th_json(text) : NULL;
	CU_ASSERT(tree != NULL && json_is_number(json_object_get(tree, "started")));
	json_decref(tree);
	qless_free(text);
	TH_OK(qless_client_job_terminate(&changed, c, "tj", 0));
	CU_ASSERT_EQUAL(changed, 1);
	qless_job *t = th_get(c, "tj");
	/* Only a started job waits for a shutdown run; else listen would wait. */
	int terminating = t && strcmp(qless_job_state(t), "terminating") == 0;
	CU_ASSERT(terminating);
	qless_job_free(t);
	if (terminating)
		TH_OK(qless_schedule_listen(s, perform_count, &calls, &o));
	CU_ASSERT_EQUAL(calls, 1);
	qless_job *j = th_get(c, "tj");
	TH_STREQ(j ? qless_job_state(j) : NULL, "terminated");
	qless_job_free(j);
	qless_queue_free(q);
	qless_schedule_free(s);
	qless_client_free(c);
}

CU_TestInfo schedule_tests[] = {
	{ "listen runs tree jobs (K15)", test_listen_runs_tree_jobs },
	{ "listen_pool", test_listen_pool },
	{ "listen_results", test_listen_results },
	{ "stop_from_signal", test_stop_from_signal },
	{ "handle", test_handle },
	{ "defaults_and_nesting", test_defaults_and_nesting },
	CU_TEST_INFO_NULL,
};
