/*
 * qless-bench: jobs/s and Redis server CPU per job of the qless protocol
 * through libqless, next to the physical limit of the same server measured
 * in the same run (PING and EVALSHA of `return 1`).
 *
 *   qless-bench --socket PATH --lib build/lua/qless-lib.lua [--quick]
 *               [--json FILE] [--driver NAME=COMMAND]...
 *               [--worker 'NAME POOLS KLASS=COMMAND']... [--level-socket PATH]...
 *
 * The server must be private (bench/run.sh starts one): the run flushes it.
 * Redis CPU is the delta of used_cpu_sys + used_cpu_user of `INFO cpu`
 * around each measured loop, divided by the jobs (or calls) of the loop.
 * Every row is also given as ratios to the trivial EVALSHA of the same mode:
 *   x limit  = jobs/s of the row / calls/s of the trivial EVALSHA
 *   x cpu    = Redis CPU per job / Redis CPU per trivial EVALSHA
 * where mode `seq` rows compare with sequential EVALSHA and `pipe` rows
 * (several calls per round trip) with pipelined EVALSHA.
 * A driver (NAME=COMMAND) is a shell command run with the job count
 * appended; it must print "<name> <jobs> jobs <seconds> s ..." (see
 * bench/roundtrip.py): its sequential life cycle is a row of its own.
 * A worker (NAME POOLS KLASS=COMMAND) is a worker program, run over no-op
 * jobs of class KLASS with each pool of POOLS (serial,threads,processes):
 * see "worker programs" below.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <hiredis/hiredis.h>
#include <qless/qless.h>

#define BATCH 50
#define MAX_ROWS 96
#define MAX_DRIVERS 8

typedef struct row {
	char name[64];
	const char *mode; /* "seq" or "pipe" */
	long jobs;
	double secs;
	double cpu; /* Redis CPU seconds */
	double mem; /* bytes per job, memory rows only (else 0) */
} row;

static row rows[MAX_ROWS];
static int nrows;
static redisContext *adm; /* raw connection: INFO, setup, raw loops */
static redisContext *srv; /* the server whose CPU start()/stop() measure */
static const char *sock_path;
static char url[512];
static int quick;
static int quiet; /* no progress line per measured loop */

/* ---- helpers ---- */

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "qless-bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void qcheck(int rc, const char *what)
{
	if (rc != QLESS_OK)
		die("%s: %s", what, qless_error_last_message());
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static redisReply *cmd(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	redisReply *r = redisvCommand(adm, fmt, ap);
	va_end(ap);
	if (r == NULL)
		die("redis: %s", adm->errstr);
	if (r->type == REDIS_REPLY_ERROR)
		die("redis: %s", r->str);
	return r;
}

static void cmd_free(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	redisReply *r = redisvCommand(adm, fmt, ap);
	va_end(ap);
	if (r == NULL)
		die("redis: %s", adm->errstr);
	if (r->type == REDIS_REPLY_ERROR)
		die("redis: %s", r->str);
	freeReplyObject(r);
}

static double info_field(redisContext *at, const char *section, const char *field)
{
	redisReply *r = redisCommand(at, "INFO %s", section);
	if (r == NULL || r->type != REDIS_REPLY_STRING)
		die("INFO %s failed", section);
	char key[64];
	snprintf(key, sizeof key, "\n%s:", field);
	const char *p = strstr(r->str, key);
	double v = p ? strtod(p + strlen(key), NULL) : 0;
	freeReplyObject(r);
	return v;
}

static double redis_cpu(void)
{
	redisReply *r = redisCommand(srv, "INFO cpu");
	if (r == NULL || r->type != REDIS_REPLY_STRING)
		die("INFO cpu failed");
	const char *s = strstr(r->str, "used_cpu_sys:"), *u = strstr(r->str, "used_cpu_user:");
	double v = (s ? strtod(s + 13, NULL) : 0) + (u ? strtod(u + 14, NULL) : 0);
	freeReplyObject(r);
	return v;
}

/* A measured loop: start() ... stop(name, mode, jobs). */
static double t0, c0;

static void start(void)
{
	c0 = redis_cpu();
	t0 = mono();
}

/* The index of the row (name, mode), or -1. */
static int row_index(const char *name, const char *mode)
{
	for (int i = 0; i < nrows; i++)
		if (strcmp(rows[i].name, name) == 0 && strcmp(rows[i].mode, mode) == 0)
			return i;
	return -1;
}

/* Adds a measurement to the row (name, mode), created on first use: a row
 * measured in several rounds sums them. */
static row *add_row(const char *name, const char *mode, long jobs, double secs, double cpu)
{
	int i = row_index(name, mode);
	row *r = i < 0 ? NULL : &rows[i];
	if (r == NULL) {
		if (nrows == MAX_ROWS)
			die("too many rows");
		r = &rows[nrows++];
		memset(r, 0, sizeof *r);
		snprintf(r->name, sizeof r->name, "%s", name);
		r->mode = mode;
	}
	r->jobs += jobs;
	r->secs += secs;
	r->cpu += cpu;
	return r;
}

static row *stop(const char *name, const char *mode, long jobs)
{
	double secs = mono() - t0;
	double cpu = redis_cpu() - c0;
	if (!quiet)
		fprintf(stderr, "  %-34s %8ld jobs %7.3f s\n", name, jobs, secs);
	return add_row(name, mode, jobs, secs, cpu);
}

static row *find(const char *name)
{
	for (int i = 0; i < nrows; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

static void flush_data(void)
{
	cmd_free("FLUSHALL");
}

/* A fresh jid, made as libqless makes one for a put without a jid. */
static void next_jid(char *buf, size_t size)
{
	if (size < QLESS_JID_SIZE || qless_jid_generate(buf) != QLESS_OK)
		die("no jid: %s", qless_error_last_message());
}

/* ---- the physical limit: PING and trivial EVALSHA ---- */

static void raw_loop(const char *name, int pipelined, long n, int argc, const char **argv)
{
	start();
	if (!pipelined) {
		for (long i = 0; i < n; i++) {
			redisReply *r = redisCommandArgv(adm, argc, argv, NULL);
			if (r == NULL || r->type == REDIS_REPLY_ERROR)
				die("%s failed", name);
			freeReplyObject(r);
		}
	} else {
		for (long i = 0; i < n; i += BATCH) {
			int batch = n - i < BATCH ? (int)(n - i) : BATCH;
			for (int k = 0; k < batch; k++)
				redisAppendCommandArgv(adm, argc, argv, NULL);
			for (int k = 0; k < batch; k++) {
				void *r = NULL;
				if (redisGetReply(adm, &r) != REDIS_OK || r == NULL ||
				    ((redisReply *)r)->type == REDIS_REPLY_ERROR)
					die("%s failed", name);
				freeReplyObject(r);
			}
		}
	}
	stop(name, pipelined ? "pipe" : "seq", n);
}

static char trivial_sha[64];

static void bench_limits_seq(long nseq)
{
	redisReply *r = cmd("SCRIPT LOAD %s", "return 1");
	snprintf(trivial_sha, sizeof trivial_sha, "%s", r->str);
	freeReplyObject(r);
	cmd_free("FUNCTION LOAD REPLACE %s",
	         "#!lua name=qless_bench_trivial\nredis.register_function('qless_bench_trivial', function() return 1 end)");
	const char *ping[] = { "PING" };
	const char *eval[] = { "EVALSHA", trivial_sha, "0" };
	raw_loop("PING", 0, nseq, 1, ping);
	raw_loop("EVALSHA return 1", 0, nseq, 3, eval);
}

static void bench_limits_pipe(long npipe)
{
	const char *ping[] = { "PING" };
	const char *eval[] = { "EVALSHA", trivial_sha, "0" };
	const char *fcall[] = { "FCALL", "qless_bench_trivial", "0" };
	raw_loop("PING", 1, npipe, 1, ping);
	raw_loop("FCALL return 1", 1, npipe, 3, fcall);
	raw_loop("EVALSHA return 1", 1, npipe, 3, eval);
}

/* ---- rounds ----
 * A ratio target is measured in rounds that alternate its two sides: the
 * speed of a shared machine drifts during a run, and alternating makes the
 * drift hit both sides alike. Rows sum their rounds (the table shows the
 * pooled figures); the targets also show the spread of the per-round
 * values. */
static row before[MAX_ROWS];
static int nbefore;

typedef struct spread {
	char what[80];
	double lo, hi;
	int n;
} spread;
static spread spreads[64];
static int nspreads;

static void round_begin(void)
{
	memcpy(before, rows, sizeof rows);
	nbefore = nrows;
}

/* The row (name, mode) minus its value at round_begin(). */
static int round_delta(const char *name, const char *mode, row *d)
{
	int i = row_index(name, mode);
	if (i < 0)
		return 0;
	*d = rows[i];
	if (i < nbefore) {
		d->jobs -= before[i].jobs;
		d->secs -= before[i].secs;
		d->cpu -= before[i].cpu;
	}
	return d->jobs > 0 && d->secs > 0 && d->cpu > 0;
}

/* Records this round's a / b: jobs/s (rate) or Redis CPU per job. */
static void round_ratio(const char *what, const char *a, const char *am, const char *b, const char *bm, int rate)
{
	row da, db;
	if (!round_delta(a, am, &da) || !round_delta(b, bm, &db))
		return;
	double v = rate ? ((double)da.jobs / da.secs) / ((double)db.jobs / db.secs)
	                : (da.cpu / (double)da.jobs) / (db.cpu / (double)db.jobs);
	spread *sp = NULL;
	for (int i = 0; i < nspreads && sp == NULL; i++)
		if (strcmp(spreads[i].what, what) == 0)
			sp = &spreads[i];
	if (sp == NULL) {
		if (nspreads == (int)(sizeof spreads / sizeof spreads[0]))
			return;
		sp = &spreads[nspreads++];
		snprintf(sp->what, sizeof sp->what, "%s", what);
		sp->lo = sp->hi = v;
	}
	if (v < sp->lo)
		sp->lo = v;
	if (v > sp->hi)
		sp->hi = v;
	sp->n++;
}

/* n split over `rounds`, in whole batches. */
static long per_round(long n, int rounds)
{
	long k = n / rounds / BATCH * BATCH;
	return k < BATCH ? BATCH : k;
}

/* ---- entering the protocol: config.get heartbeat ---- */

static void batch_calls(qless_client *c, qless_call *calls, size_t n, const char *what)
{
	int rc = qless_client_call_batch(c, calls, n);
	for (size_t i = 0; i < n; i++)
		qless_free(calls[i].out);
	qcheck(rc, what);
}

static void bench_enter(qless_client *c, const char *name, long n)
{
	static const char *const key[] = { "heartbeat" };
	qless_call calls[BATCH];
	for (int i = 0; i < BATCH; i++) {
		calls[i].command = "config.get";
		calls[i].argv = key;
		calls[i].argc = 1;
	}
	start();
	for (long i = 0; i < n; i += BATCH)
		batch_calls(c, calls, BATCH, name);
	stop(name, "pipe", n);
}

/* ---- single commands through the libqless API ---- */

/* *call: put of a small new job of class klass (jid made into jid) into
 * queue; argv holds its arguments. */
static void put_klass_call(qless_call *call, const char *argv[6], const char *queue, const char *klass,
                           char jid[QLESS_JID_SIZE])
{
	next_jid(jid, QLESS_JID_SIZE);
	argv[0] = "";
	argv[1] = queue;
	argv[2] = jid;
	argv[3] = klass;
	argv[4] = "{\"i\": 1}";
	argv[5] = "0";
	call->command = "put";
	call->argv = argv;
	call->argc = 6;
}

static void put_call(qless_call *call, const char *argv[6], const char *queue, char jid[QLESS_JID_SIZE])
{
	put_klass_call(call, argv, queue, "Bench", jid);
}

/* n puts of small jobs of class klass into queue q through batches (setup,
 * not measured). */
static void fill_klass(qless_client *c, const char *queue, const char *klass, long n)
{
	static char jids[BATCH][QLESS_JID_SIZE];
	const char *argv[BATCH][6];
	qless_call calls[BATCH];
	for (long done = 0; done < n;) {
		int k = 0;
		for (; k < BATCH && done < n; k++, done++)
			put_klass_call(&calls[k], argv[k], queue, klass, jids[k]);
		batch_calls(c, calls, (size_t)k, "fill");
	}
}

static void fill(qless_client *c, const char *queue, long n)
{
	fill_klass(c, queue, "Bench", n);
}

static void put_loop(qless_queue *q, const char *name, long n)
{
	start();
	for (long i = 0; i < n; i++) {
		char *jid = NULL;
		qcheck(qless_queue_put(&jid, q, "Bench", "{\"i\": 1}", NULL), "put");
		qless_free(jid);
	}
	stop(name, "seq", n);
}

/* Pops n jobs, count per call; the popped jobs are returned in *held when
 * held != NULL (else freed). */
static void pop_loop(qless_queue *q, const char *name, long n, int count, qless_joblist ***held, long *nheld)
{
	long calls = n / count, got = 0;
	qless_joblist **keep = held ? calloc((size_t)calls, sizeof *keep) : NULL;
	start();
	for (long i = 0; i < calls; i++) {
		qless_joblist *jobs = NULL;
		qcheck(qless_queue_pop(&jobs, q, count), "pop");
		got += (long)qless_joblist_size(jobs);
		if (keep)
			keep[i] = jobs;
		else
			qless_joblist_free(jobs);
	}
	stop(name, "seq", got);
	if (got != calls * count)
		die("%s: popped %ld of %ld", name, got, calls * count);
	if (held) {
		*held = keep;
		*nheld = calls;
	}
}

static void bench_commands(qless_client *c, long n)
{
	qless_queue *q = NULL;
	qless_joblist **lists = NULL;
	long nlists = 0;
	qcheck(qless_queue_new(&q, c, "bench-cmd"), "queue");

	put_loop(q, "put", n);
	pop_loop(q, "pop (count 1)", n, 1, &lists, &nlists);
	start();
	for (long i = 0; i < nlists; i++)
		qcheck(qless_job_heartbeat(NULL, qless_joblist_get(lists[i], 0)), "heartbeat");
	stop("heartbeat", "seq", nlists);
	start();
	for (long i = 0; i < nlists; i++)
		qcheck(qless_job_complete(qless_joblist_get(lists[i], 0), NULL), "complete");
	stop("complete", "seq", nlists);
	for (long i = 0; i < nlists; i++)
		qless_joblist_free(lists[i]);
	free(lists);

	fill(c, "bench-cmd", n);
	pop_loop(q, "pop (count 50)", n, BATCH, NULL, NULL);

	fill(c, "bench-cmd", n);
	pop_loop(q, "pop (count 1), fail setup", n, 1, &lists, &nlists);
	nrows--; /* setup only */
	start();
	for (long i = 0; i < nlists; i++)
		qcheck(qless_job_fail(qless_joblist_get(lists[i], 0), "bench-group", "bench failure"), "fail");
	stop("fail", "seq", nlists);
	for (long i = 0; i < nlists; i++)
		qless_joblist_free(lists[i]);
	free(lists);
	qless_queue_free(q);
}

/* ---- cron schedules: cron.next and spawning due instances ---- */

/* Pops of count 1 at a fixed time, each spawning (and handing out) one due
 * instance of a template due every second since n seconds before. */
static void spawn_loop(const char *name, long n, const char *type, const char *schedule)
{
	char due[32], now[32];
	snprintf(due, sizeof due, "%ld", 1000000000L);
	snprintf(now, sizeof now, "%ld", 1000000000L + n);
	flush_data();
	if (strcmp(type, "cron") == 0)
		cmd_free("FCALL qless 0 recur %s bench-spawn tpl Noop {} cron %s", due, schedule);
	else
		cmd_free("FCALL qless 0 recur %s bench-spawn tpl Noop {} interval %s 0", due, schedule);
	const char *pop[] = { "FCALL", "qless", "0", "pop", now, "bench-spawn", "bench-worker", "1" };
	raw_loop(name, 0, n, 8, pop);
	redisReply *r = cmd("ZCARD ql:q:bench-spawn-locks");
	if (r->integer != n)
		die("%s: %lld instances popped, expected %ld", name, r->integer, n);
	freeReplyObject(r);
}

static void bench_cron(long n)
{
	const char *near[] = { "FCALL", "qless", "0", "cron.next", "1772619330", "0 9 * * 1-5", "1" };
	const char *far[] = { "FCALL", "qless", "0", "cron.next", "1772619330", "0 0 * 2 3#5", "1" };
	raw_loop("cron.next 0 9 * * 1-5", 0, n, 7, near);
	raw_loop("cron.next 0 0 * 2 3#5 (14 years on)", 0, n, 7, far);
	spawn_loop("pop (count 1) spawning interval", n, "interval", "1");
	spawn_loop("pop (count 1) spawning cron", n, "cron", "* * * * * * *");
}

/* ---- full life cycles ---- */

static void lifecycle_seq(qless_client *c, const char *queue, const char *name, long n)
{
	qless_queue *q = NULL;
	qcheck(qless_queue_new(&q, c, queue), "queue");
	start();
	for (long i = 0; i < n; i++) {
		qless_joblist *jobs = NULL;
		qcheck(qless_queue_put(NULL, q, "Bench", "{\"i\": 1}", NULL), "put");
		qcheck(qless_queue_pop(&jobs, q, 1), "pop");
		if (qless_joblist_size(jobs) != 1)
			die("%s: nothing popped", name);
		qcheck(qless_job_complete(qless_joblist_get(jobs, 0), NULL), "complete");
		qless_joblist_free(jobs);
	}
	stop(name, "seq", n);
	qless_queue_free(q);
}

/* The engine's perform: a no-op job (the engine completes it). */
static void noop_perform(void *ctx, qless_job *job, qless_result *result)
{
	(void)ctx;
	(void)job;
	(void)result;
}

/* The engine logs a line per job; the bench measures the queue, not stderr. */
static void quiet_log(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
}

/* The worker engine over n waiting jobs (put beforehand, not timed):
 * serial, it settles each job and reserves the next in one round trip. */
static void lifecycle_worker(qless_client *c, const char *queue, const char *name, long n, qless_pool_kind pool,
                             int size)
{
	qless_worker *w = NULL;
	const char *qs[] = { queue };
	qless_worker_run_options o = QLESS_WORKER_RUN_OPTIONS_INIT;
	fill(c, queue, n);
	qcheck(qless_worker_new(&w, c, qs, 1, NULL), "worker");
	o.perform = noop_perform;
	o.pool = pool;
	o.size = size;
	o.max_jobs = n;
	o.interval = 0.001;
	o.log = quiet_log;
	start();
	qcheck(qless_worker_run(w, &o), "worker run");
	stop(name, "seq", n);
	qless_worker_free(w);
}

/* ---- pooled worker vs the serial loop: round trips per job ----
 * The engine over the same no-op jobs, serial (settle + reserve 1 per call)
 * and as thread pools (settle ... batch: all finished jobs and a reservation
 * for every idle thread per call), alternating in each round. Round trips
 * are the protocol calls Redis served (INFO commandstats: FCALL and
 * EVALSHA), the workers' start-up and heartbeats included. */
#define POOLED_KINDS 3

typedef struct pooled_row {
	const char *name;
	qless_pool_kind pool;
	int size;
	long jobs;
	double secs, cpu;
	long long calls;
} pooled_row;

static pooled_row pooled_rows[POOLED_KINDS] = {
	{ "C worker, serial loop", QLESS_POOL_SERIAL, 1, 0, 0, 0, 0 },
	{ "C worker, pool of 4 threads (batched)", QLESS_POOL_THREADS, 4, 0, 0, 0, 0 },
	{ "C worker, pool of 16 threads (batched)", QLESS_POOL_THREADS, 16, 0, 0, 0, 0 },
};

static long long protocol_calls(void)
{
	static const char *const keys[] = { "cmdstat_fcall:calls=", "cmdstat_evalsha:calls=" };
	redisReply *r = redisCommand(srv, "INFO commandstats");
	long long total = 0;
	if (r == NULL || r->type != REDIS_REPLY_STRING)
		die("INFO commandstats failed");
	for (int i = 0; i < 2; i++) {
		const char *at = strstr(r->str, keys[i]);
		if (at != NULL)
			total += atoll(at + strlen(keys[i]));
	}
	freeReplyObject(r);
	return total;
}

static void pooled_run(qless_client *c, pooled_row *pr, long n)
{
	qless_worker *w = NULL;
	const char *qs[] = { "bench-pooled" };
	qless_worker_run_options o = QLESS_WORKER_RUN_OPTIONS_INIT;
	flush_data();
	fill(c, qs[0], n);
	qcheck(qless_worker_new(&w, c, qs, 1, NULL), "worker");
	o.perform = noop_perform;
	o.pool = pr->pool;
	o.size = pr->size;
	o.max_jobs = n;
	o.interval = 0.001;
	o.log = quiet_log;
	long long calls = protocol_calls();
	double c0p = redis_cpu(), t0p = mono();
	qcheck(qless_worker_run(w, &o), "worker run");
	pr->secs += mono() - t0p;
	pr->cpu += redis_cpu() - c0p;
	pr->calls += protocol_calls() - calls;
	pr->jobs += n;
	qless_worker_free(w);
}

static void bench_pooled(qless_client *c, long n, int rounds)
{
	double began = mono();
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < POOLED_KINDS; k++)
			pooled_run(c, &pooled_rows[r % 2 == 0 ? k : POOLED_KINDS - 1 - k], n);
	if (!quiet)
		fprintf(stderr, "  (pooled worker: %.1f s in all)\n", mono() - began);
}

static void print_pooled(FILE *out)
{
	const pooled_row *serial = &pooled_rows[0];
	fprintf(out, "\n%-40s %8s %10s %12s %14s %10s\n", "pooled worker (no-op jobs)", "jobs", "jobs/s",
	        "Redis us/job", "round trips/job", "x serial");
	for (int i = 0; i < POOLED_KINDS; i++) {
		const pooled_row *pr = &pooled_rows[i];
		if (pr->jobs == 0)
			continue;
		fprintf(out, "%-40s %8ld %10.0f %12.2f %14.3f %10.2f\n", pr->name, pr->jobs, pr->jobs / pr->secs,
		        pr->cpu / pr->jobs * 1e6, (double)pr->calls / pr->jobs,
		        (pr->jobs / pr->secs) / (serial->jobs / serial->secs));
	}
}

/* put 50 pipelined, one pop of 50, 50 completes pipelined. */
static void lifecycle_batched(qless_client *c, const char *queue, const char *name, long n, int measured)
{
	qless_queue *q = NULL;
	static char jids[BATCH][QLESS_JID_SIZE];
	const char *pargv[BATCH][6], *cargv[BATCH][4];
	qless_call calls[BATCH];
	const char *worker = qless_client_worker_name(c);
	qcheck(qless_queue_new(&q, c, queue), "queue");
	if (measured)
		start();
	for (long i = 0; i < n; i += BATCH) {
		for (int k = 0; k < BATCH; k++)
			put_call(&calls[k], pargv[k], queue, jids[k]);
		batch_calls(c, calls, BATCH, "put batch");
		qless_joblist *jobs = NULL;
		qcheck(qless_queue_pop(&jobs, q, BATCH), "pop");
		size_t got = qless_joblist_size(jobs);
		if (got != BATCH)
			die("%s: popped %zu", name, got);
		for (size_t k = 0; k < got; k++) {
			cargv[k][0] = qless_job_jid(qless_joblist_get(jobs, k));
			cargv[k][1] = worker;
			cargv[k][2] = queue;
			cargv[k][3] = "{}";
			calls[k].command = "complete";
			calls[k].argv = cargv[k];
			calls[k].argc = 4;
		}
		batch_calls(c, calls, got, "complete batch");
		qless_joblist_free(jobs);
	}
	if (measured)
		stop(name, "pipe", n);
	qless_queue_free(q);
}

/* The same sequential life cycle with hiredis alone, by FCALL of the
 * published library (loaded as "qless"), no reply parsing: the floor. */
static void lifecycle_hiredis(const char *name, long n)
{
	redisContext *r = redisConnectUnix(sock_path);
	if (r == NULL || r->err)
		die("cannot connect");
	const char *verb = "FCALL", *target = "qless";
	start();
	for (long i = 0; i < n; i++) {
		char jid[40], now[40];
		next_jid(jid, sizeof jid);
		snprintf(now, sizeof now, "%.6f", wall());
		freeReplyObject(redisCommand(r, "%s %s 0 put %s w bench-raw %s Bench %s 0", verb, target, now, jid,
		                             "{\"i\": 1}"));
		freeReplyObject(redisCommand(r, "%s %s 0 pop %s bench-raw w 1", verb, target, now));
		redisReply *rep = redisCommand(r, "%s %s 0 complete %s %s w bench-raw {}", verb, target, now, jid);
		if (!rep || rep->type != REDIS_REPLY_STRING || strcmp(rep->str, "complete") != 0)
			die("%s: loop failed: %s", name, rep && rep->type == REDIS_REPLY_ERROR ? rep->str : "?");
		freeReplyObject(rep);
	}
	stop(name, "seq", n);
	redisFree(r);
}

static void run_driver(const char *spec, long n)
{
	const char *eq = strchr(spec, '=');
	if (eq == NULL)
		die("driver %s: expected NAME=COMMAND", spec);
	char name[64], command[4096], line[512];
	snprintf(name, sizeof name, "%.*s life cycle", (int)(eq - spec), spec);
	snprintf(command, sizeof command, "%s %ld", eq + 1, n);
	double cpu0 = redis_cpu();
	FILE *p = popen(command, "r");
	if (p == NULL)
		die("cannot run %s", command);
	long jobs = 0;
	double secs = 0;
	int ok = 0;
	while (fgets(line, sizeof line, p) != NULL) {
		char who[64];
		if (sscanf(line, "%63s %ld jobs %lf s", who, &jobs, &secs) == 3)
			ok = 1;
	}
	if (pclose(p) != 0 || !ok) {
		fprintf(stderr, "qless-bench: driver %s failed; row skipped\n", name);
		return;
	}
	double cpu = redis_cpu() - cpu0;
	add_row(name, "seq", jobs, secs, cpu);
	fprintf(stderr, "  %-34s %8ld jobs %7.3f s\n", name, jobs, secs);
}

/* ---- worker programs ----
 * Each language's worker program (--worker 'NAME POOLS KLASS=COMMAND') run
 * as its users run it, over n no-op jobs of class KLASS put beforehand (not
 * timed): from the start of the program until it has exited and all n jobs
 * are complete. Serial and thread pools stop by themselves (--max-jobs n);
 * a process pool's children each count their own max-jobs, so the bench
 * polls ZCARD ql:completed (every 2 to 20 ms) and sends SIGTERM once all
 * n are complete (the polls, tens per run, are in the Redis CPU). Nothing is
 * subtracted: the program's start-up is shown separately, as the time of a
 * run over 0 jobs (start until its first reservation, then SIGTERM, exit).
 * The first --worker (C) is the reference of the ratios. */
#define MAX_WPROGS 8
#define MAX_WROWS 24
#define WQUEUE "bench-wp"

typedef struct wprog {
	char name[16], klass[128];
	int pools; /* bit (1 << qless_pool_kind) per pool measured */
	const char *command;
} wprog;
static wprog wprogs[MAX_WPROGS];
static int nwprogs;

typedef struct wrow {
	const wprog *p;
	qless_pool_kind pool;
	char name[64];
	int ref;          /* index in wrows of the reference's row of the same pool, or -1 */
	double zero_secs; /* runs over 0 jobs: their time, summed */
	int nzero;
	int failed;
} wrow;
static wrow wrows[MAX_WROWS];
static int nwrows;
static long wjobs;
static int wrounds;

static const char *const pool_flag[] = { "serial", "threads", "processes" };
static const char *const pool_label[] = { "serial", "4 threads", "4 processes" };
#define WPOOL_SIZE(pool) ((pool) == QLESS_POOL_SERIAL ? 1 : 4)

static void parse_wprog(const char *spec)
{
	const char *eq = strchr(spec, '=');
	char pools[64];
	if (nwprogs == MAX_WPROGS)
		die("too many --worker");
	wprog *p = &wprogs[nwprogs];
	if (eq == NULL || sscanf(spec, "%15s %63s %127[^= ]", p->name, pools, p->klass) != 3)
		die("--worker %s: expected 'NAME POOLS KLASS=COMMAND'", spec);
	p->command = eq + 1;
	p->pools = 0;
	for (char *tok = strtok(pools, ","); tok != NULL; tok = strtok(NULL, ",")) {
		int k = 0;
		while (k < 3 && strcmp(tok, pool_flag[k]) != 0)
			k++;
		if (k == 3)
			die("--worker %s: unknown pool %s", spec, tok);
		p->pools |= 1 << k;
	}
	nwprogs++;
}

static long long zcard(const char *key)
{
	redisReply *r = cmd("ZCARD %s", key);
	long long n = r->integer;
	freeReplyObject(r);
	return n;
}

/* Jobs failed in any group. */
static long long zcard_failed(void)
{
	long long n = 0;
	redisReply *r = cmd("SMEMBERS ql:failures");
	for (size_t i = 0; i < r->elements; i++) {
		redisReply *l = cmd("LLEN ql:f:%s", r->element[i]->str);
		n += l->integer;
		freeReplyObject(l);
	}
	freeReplyObject(r);
	return n;
}

static void log_path(char *buf, size_t size)
{
	snprintf(buf, size, "%s.worker.log", sock_path);
}

static pid_t spawn_worker(const wrow *w, long max_jobs)
{
	char command[4096], lp[600];
	int len = snprintf(command, sizeof command,
	                   "exec %s --url '%s' --queue " WQUEUE " --name bench-wp --pool %s --size %d --interval 0.01",
	                   w->p->command, url, pool_flag[w->pool], WPOOL_SIZE(w->pool));
	if (max_jobs > 0 && len > 0 && (size_t)len < sizeof command)
		snprintf(command + len, sizeof command - (size_t)len, " --max-jobs %ld", max_jobs);
	log_path(lp, sizeof lp);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY), out = open(lp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Waits (polling every ms) for pid to exit, at most until `until`; 1 if
 * it exited (*status set). */
static int reap(pid_t pid, int *status, double until)
{
	struct timespec ms = { 0, 1000000 };
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			die("waitpid: %s", strerror(errno));
		if (mono() > until)
			return 0;
		nanosleep(&ms, NULL);
	}
}

/* One run of w's program over n jobs (n = 0: the start-up run). */
static void run_wprog(qless_client *c, wrow *w, long n)
{
	int status = 0, exited = 0;
	flush_data();
	if (n > 0)
		fill_klass(c, WQUEUE, w->p->klass, n);
	int poll = n == 0 || w->pool == QLESS_POOL_PROCESSES;
	const char *key = n > 0 ? "ql:completed" : "ql:workers";
	long want = n > 0 ? n : w->pool == QLESS_POOL_PROCESSES ? WPOOL_SIZE(w->pool) : 1;
	double cpu0 = redis_cpu(), t = mono(), until = t + 60;
	pid_t pid = spawn_worker(w, poll ? 0 : n);
	if (poll) {
		/* Polls cost Redis CPU (a sequential command each): sleep half the
		 * time the jobs left should take at the rate so far, 2 to 20 ms.
		 * Every 0.5 s also look for failed jobs (a wrong KLASS): no point
		 * waiting for the time limit then. */
		double check = t + 0.5;
		for (long long got; (got = zcard(key)) < want && mono() < until;) {
			if ((exited = waitpid(pid, &status, WNOHANG) == pid))
				break;
			double now = mono(), nap = got > 0 ? (double)(want - got) * (now - t) / (double)got / 2 : 0.01;
			if (now > check) {
				redisReply *r = cmd("SCARD ql:failures");
				long long failed = r->integer;
				freeReplyObject(r);
				if (failed > 0)
					break;
				check = now + 0.5;
			}
			nap = nap < 0.002 ? 0.002 : nap > 0.02 ? 0.02 : nap;
			struct timespec ts = { 0, (long)(nap * 1e9) };
			nanosleep(&ts, NULL);
		}
		if (!exited)
			kill(pid, SIGTERM);
	}
	if (!exited && !reap(pid, &status, until)) {
		kill(pid, SIGKILL);
		reap(pid, &status, mono() + 10);
	}
	double secs = mono() - t, cpu = redis_cpu() - cpu0;
	long long done = zcard("ql:completed");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || done != n) {
		char lp[600], tail[2001];
		log_path(lp, sizeof lp);
		FILE *f = fopen(lp, "r");
		size_t got = 0;
		if (f != NULL) {
			fseek(f, -2000, SEEK_END);
			got = fread(tail, 1, sizeof tail - 1, f);
			fclose(f);
		}
		tail[got] = '\0';
		fprintf(stderr, "qless-bench: %s over %ld jobs: %s %d, %lld complete, %lld failed; row skipped from "
		        "now on; its log ends:\n%s\n", w->name, n, WIFEXITED(status) ? "exit status" : "signal",
		        WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? WTERMSIG(status) : -1, done,
		        zcard_failed(), tail);
		w->failed = 1;
		return;
	}
	if (n == 0) {
		w->zero_secs += secs;
		w->nzero++;
		return;
	}
	add_row(w->name, "seq", n, secs, cpu);
	fprintf(stderr, "  %-34s %8ld jobs %7.3f s\n", w->name, n, secs);
}

/* Rounds over every worker program row, in the opposite order every other
 * round; each row next to its run over 0 jobs. */
static void bench_worker_programs(qless_client *c, long n, int rounds)
{
	double began = mono();
	wjobs = n;
	wrounds = rounds;
	for (int pool = 0; pool < 3; pool++) {
		int ref = -1;
		for (int i = 0; i < nwprogs && nwrows < MAX_WROWS; i++) {
			if (!(wprogs[i].pools & (1 << pool)))
				continue;
			wrow *w = &wrows[nwrows];
			memset(w, 0, sizeof *w);
			w->p = &wprogs[i];
			w->pool = (qless_pool_kind)pool;
			snprintf(w->name, sizeof w->name, "%s worker program, %s", wprogs[i].name, pool_label[pool]);
			if (i == 0)
				ref = nwrows;
			w->ref = ref;
			nwrows++;
		}
	}
	for (int r = 0; r < rounds; r++) {
		round_begin();
		for (int k = 0; k < nwrows; k++) {
			wrow *w = &wrows[r % 2 == 0 ? k : nwrows - 1 - k];
			if (!w->failed)
				run_wprog(c, w, n);
			if (!w->failed)
				run_wprog(c, w, 0);
		}
		for (int k = 0; k < nwrows; k++) {
			const wrow *w = &wrows[k];
			char what[80];
			if (w->ref < 0 || w->ref == k)
				continue;
			round_ratio(w->name, w->name, "seq", wrows[w->ref].name, "seq", 1);
			snprintf(what, sizeof what, "%s cpu", w->name);
			round_ratio(what, w->name, "seq", wrows[w->ref].name, "seq", 0);
		}
	}
	flush_data();
	if (nwrows > 0)
		fprintf(stderr, "  (worker programs: %.1f s in all)\n", mono() - began);
}

/* ---- scaling ---- */

/* Each level (1k, 100k, 1M waiting jobs) lives on a server of its own, so
 * that it has the memory and keyspace of its size alone; the levels are
 * measured in alternating chunks so that they see the same machine. */
typedef struct level {
	long jobs;
	const char *socket;
	redisContext *adm;
	qless_client *c;
	qless_queue *q;
	char pop_row[64], put_row[64], mem_row[64];
	double mem;
} level;

static void level_fill(level *lv)
{
	char u[600];
	lv->adm = redisConnectUnix(lv->socket);
	if (lv->adm == NULL || lv->adm->err)
		die("cannot connect to %s", lv->socket);
	snprintf(u, sizeof u, "unix://%s", lv->socket);
	qcheck(qless_client_new(&lv->c, u, NULL), "level client");
	qcheck(qless_queue_new(&lv->q, lv->c, "bench-scale"), "queue");
	freeReplyObject(redisCommand(lv->adm, "FLUSHALL"));
	const char *unit = lv->jobs >= 1000000 ? "M" : "k";
	long shown = lv->jobs >= 1000000 ? lv->jobs / 1000000 : lv->jobs / 1000;
	snprintf(lv->pop_row, sizeof lv->pop_row, "pop (count 1), %ld%s waiting", shown, unit);
	snprintf(lv->put_row, sizeof lv->put_row, "put, %ld%s waiting", shown, unit);
	snprintf(lv->mem_row, sizeof lv->mem_row, "memory per waiting job, %ld%s", shown, unit);
	double mem0 = info_field(lv->adm, "memory", "used_memory"), f0 = mono();
	fill(lv->c, "bench-scale", lv->jobs);
	lv->mem = (info_field(lv->adm, "memory", "used_memory") - mem0) / (double)lv->jobs;
	fprintf(stderr, "  (filled %ld waiting jobs in %.1f s)\n", lv->jobs, mono() - f0);
}

/* Per level and round: pops (count 1) in a chunk of at most half the
 * level, refilled afterwards (not measured), then puts a chunk and pops it
 * back (not measured), so every queue stays at its level. */
static void bench_scaling(level *lv, int nlv, long n)
{
	long chunk = 250;
	for (int i = 0; i < nlv; i++) {
		level_fill(&lv[i]);
		if (lv[i].jobs / 2 < chunk)
			chunk = lv[i].jobs / 2;
	}
	quiet = 1;
	for (long done = 0; done < n; done += chunk) {
		/* Levels in the opposite order every other round. */
		int flip = (int)(done / chunk) % 2;
		round_begin();
		for (int k = 0; k < nlv; k++) {
			level *l = &lv[flip ? nlv - 1 - k : k];
			srv = l->adm;
			pop_loop(l->q, l->pop_row, chunk, 1, NULL, NULL);
			fill(l->c, "bench-scale", chunk);
		}
		for (int k = 0; k < nlv; k++) {
			level *l = &lv[flip ? nlv - 1 - k : k];
			srv = l->adm;
			put_loop(l->q, l->put_row, chunk);
			for (long m = 0; m < chunk; m++) {
				qless_joblist *jobs = NULL;
				qcheck(qless_queue_pop(&jobs, l->q, 1), "pop");
				qless_joblist_free(jobs);
			}
		}
		if (nlv > 1)
			round_ratio("pop scaling", lv[nlv - 1].pop_row, "seq", lv[0].pop_row, "seq", 0);
	}
	quiet = 0;
	srv = adm;
	for (int i = 0; i < nlv; i++) {
		row *r = add_row(lv[i].mem_row, "-", lv[i].jobs, 0, 0);
		r->mem = lv[i].mem;
		qless_queue_free(lv[i].q);
		qless_client_free(lv[i].c);
		freeReplyObject(redisCommand(lv[i].adm, "FLUSHALL"));
		redisFree(lv[i].adm);
	}
}

/* The completed-job purge: completes while more than `keep` completed jobs
 * are kept (each complete then deletes the oldest). */
static void bench_purge(qless_client *c, long keep, long n)
{
	char kbuf[32], name[64];
	flush_data();
	if (keep != 50000) {
		snprintf(kbuf, sizeof kbuf, "%ld", keep);
		const char *kv[] = { "jobs-history-count", kbuf };
		char *out = NULL;
		qcheck(qless_client_call(&out, c, "config.set", kv, 2), "config.set");
		qless_free(out);
	}
	double f0 = mono();
	lifecycle_batched(c, "bench-purge", "purge fill", keep + BATCH * 4, 0);
	fprintf(stderr, "  (completed %ld jobs in %.1f s)\n", keep + BATCH * 4, mono() - f0);
	snprintf(name, sizeof name, "batched life cycle, purging (%ldk kept)", keep / 1000);
	lifecycle_batched(c, "bench-purge", name, n, 1);
	redisReply *r = cmd("ZCARD ql:completed");
	if (r->integer != keep)
		die("purge: %lld completed jobs kept, expected %ld", r->integer, keep);
	freeReplyObject(r);
}

/* ---- job trees: port.write, channel.publish fan-out, suspend/wake ----
 * Pipelined FCALLs (batches of 50), each row in every round next to the
 * trivial EVALSHA of the same rounds, in the opposite order every other
 * round. The fan-out subscribers are waiting tree jobs (a publish appends to
 * each input port); waking is the cycle row's business. */
#define TREE_QUEUE "bench-tree"
#define WAKE_JID "bench-wake"
#define MAX_FANOUTS 4

typedef struct trow {
	char name[64];
	int ports; /* fan-out rows: ports per publish; else 0 */
} trow;
static trow trows[2 + MAX_FANOUTS];
static int ntrows, tree_rounds;
static const char *const tree_trivial = "EVALSHA return 1, tree rounds";

static void fcall_append(int argc, const char **argv)
{
	const char *full[16];
	full[0] = "FCALL";
	full[1] = "qless";
	full[2] = "0";
	for (int i = 0; i < argc && i < 13; i++)
		full[3 + i] = argv[i];
	redisAppendCommandArgv(adm, argc + 3, full, NULL);
}

/* Reads n pipelined replies; dies on an error or, when `want` is given, on
 * a string reply other than it. */
static void replies(long n, const char *what, const char *want)
{
	for (long k = 0; k < n; k++) {
		void *v = NULL;
		if (redisGetReply(adm, &v) != REDIS_OK || v == NULL)
			die("%s: no reply", what);
		redisReply *r = v;
		if (r->type == REDIS_REPLY_ERROR || (want && (r->type != REDIS_REPLY_STRING || strcmp(r->str, want) != 0)))
			die("%s: %s", what, r->type == REDIS_REPLY_ERROR || r->type == REDIS_REPLY_STRING ? r->str : "?");
		freeReplyObject(r);
	}
}

/* n tree jobs named <prefix><i> with input port `in` linked to channel (or
 * none: NULL), waiting in the bench queue. */
static void tree_jobs(const char *prefix, int n, const char *channel, const char *now)
{
	for (int i = 0; i < n; i++) {
		char jid[64];
		snprintf(jid, sizeof jid, "%s%d", prefix, i);
		const char *put[] = { "put", now, "bench", TREE_QUEUE, jid, "Bench", "{}", "0", "tree", "1",
		                      "inports", "{\"in\":{}}" };
		const char *link[] = { "port.connect", now, jid, "in", "in", channel };
		fcall_append(12, put);
		if (channel)
			fcall_append(6, link);
		if (i % BATCH == BATCH - 1 || i == n - 1)
			replies((i % BATCH + 1) * (channel ? 2 : 1), "tree setup", NULL);
	}
}

static void tree_fanout_name(char *buf, size_t size, int ports)
{
	snprintf(buf, size, "channel.publish to %d port%s", ports, ports == 1 ? "" : "s");
}

/* pop -> job.suspend -> port.write that wakes it, `cycles` times in
 * batches; `now` moves 0.2 s a cycle (300 runs a minute: under the runaway
 * guard's 600). */
static double wake_now;

static void wake_cycles(long cycles)
{
	start();
	for (long i = 0; i < cycles; i += BATCH / 3) {
		long k = cycles - i < BATCH / 3 ? cycles - i : BATCH / 3;
		for (long j = 0; j < k; j++) {
			char now[40];
			snprintf(now, sizeof now, "%.1f", wake_now += 0.2);
			const char *pop[] = { "pop", now, "bench-wake", "bench", "1" };
			const char *suspend[] = { "job.suspend", now, WAKE_JID, "bench" };
			const char *write[] = { "port.write", now, WAKE_JID, "in", "in", "1" };
			fcall_append(5, pop);
			fcall_append(4, suspend);
			fcall_append(6, write);
		}
		for (long j = 0; j < k; j++) {
			replies(1, "wake pop", NULL);
			replies(1, "job.suspend", "suspended");
			replies(1, "port.write", NULL);
		}
	}
	stop("suspend -> input -> wake cycle", "pipe", cycles);
}

static void bench_trees(long nwrite, long deliveries, long ncycles, int rounds)
{
	static const int fanouts[MAX_FANOUTS] = { 1, 10, 100, 1000 };
	int nfan = quick ? 3 : 4;
	char now[40], name[64];
	snprintf(now, sizeof now, "%.1f", wall());
	wake_now = wall();
	flush_data();
	tree_jobs("bench-w", 1, NULL, now);
	for (int f = 0; f < nfan; f++) {
		char prefix[32], channel[32];
		snprintf(prefix, sizeof prefix, "bench-f%d-", fanouts[f]);
		snprintf(channel, sizeof channel, "/bench/fan%d", fanouts[f]);
		tree_jobs(prefix, fanouts[f], channel, now);
	}
	const char *wake_put[] = { "put", now, "bench", "bench-wake", WAKE_JID, "Bench", "{}", "0", "tree", "1",
	                           "inports", "{\"in\":{}}" };
	fcall_append(12, wake_put);
	replies(1, "wake setup", NULL);

	ntrows = 0;
	snprintf(trows[ntrows++].name, sizeof trows[0].name, "port.write, 1 value to a waiting job");
	for (int f = 0; f < nfan; f++) {
		tree_fanout_name(trows[ntrows].name, sizeof trows[0].name, fanouts[f]);
		trows[ntrows++].ports = fanouts[f];
	}
	snprintf(trows[ntrows++].name, sizeof trows[0].name, "suspend -> input -> wake cycle");
	tree_rounds = rounds;

	const char *eval[] = { "EVALSHA", trivial_sha, "0" };
	const char *write[] = { "FCALL", "qless", "0", "port.write", now, "bench-w0", "in", "in", "1" };
	int steps = 3 + nfan;
	quiet = 1;
	for (int r = 0; r < rounds; r++) {
		round_begin();
		for (int s = 0; s < steps; s++) {
			int step = r % 2 == 0 ? s : steps - 1 - s;
			if (step == 0)
				raw_loop(tree_trivial, 1, per_round(nwrite * 2, rounds), 3, eval);
			else if (step == 1)
				raw_loop(trows[0].name, 1, per_round(nwrite, rounds), 9, write);
			else if (step == 2)
				wake_cycles(ncycles / rounds);
			else {
				char channel[32];
				int ports = fanouts[step - 3];
				long n = deliveries / rounds / ports;
				snprintf(channel, sizeof channel, "/bench/fan%d", ports);
				const char *pub[] = { "FCALL", "qless", "0", "channel.publish", now, channel, "1" };
				tree_fanout_name(name, sizeof name, ports);
				raw_loop(name, 1, n < 1 ? 1 : n, 7, pub);
			}
		}
		for (int i = 0; i < ntrows; i++)
			round_ratio(trows[i].name, trows[i].name, "pipe", tree_trivial, "pipe", 0);
	}
	quiet = 0;
	flush_data();
}

/* ---- output ---- */

static const row *limit_for(const row *r)
{
	return find(strcmp(r->mode, "pipe") == 0 ? "EVALSHA return 1 (pipe)" : "EVALSHA return 1 (seq)");
}

static void print_table(FILE *out)
{
	fprintf(out, "\n%-40s %-4s %8s %10s %8s %12s %8s\n", "row", "mode", "jobs", "jobs/s", "x limit",
	        "Redis us/job", "x cpu");
	for (int i = 0; i < nrows; i++) {
		const row *r = &rows[i];
		if (r->mem > 0) {
			fprintf(out, "%-40s %-4s %8ld %10s %8s %9.0f B/job\n", r->name, r->mode, r->jobs, "", "",
			        r->mem);
			continue;
		}
		const row *l = limit_for(r);
		double rate = (double)r->jobs / r->secs, cpu = r->cpu / (double)r->jobs * 1e6;
		double lrate = (double)l->jobs / l->secs, lcpu = l->cpu / (double)l->jobs * 1e6;
		fprintf(out, "%-40s %-4s %8ld %10.0f %8.3f %12.2f %8.2f\n", r->name, r->mode, r->jobs, rate,
		        rate / lrate, cpu, cpu / lcpu);
	}
}

/* The row `name` of `mode`, as suffix_modes() has named it, or NULL. */
static const row *row_named(const char *name, const char *mode)
{
	char full[80];
	snprintf(full, sizeof full, "%s (%s)", name, mode);
	return find(full);
}

static const row *wrow_row(const wrow *w)
{
	return row_named(w->name, "seq");
}

/* The worker program of row r, or NULL. */
static const wrow *wrow_of(const row *r)
{
	for (int i = 0; i < nwrows; i++)
		if (wrow_row(&wrows[i]) == r)
			return &wrows[i];
	return NULL;
}

/* w's jobs/s (rate) or Redis CPU per job as a ratio to its reference, or -1. */
static double wrow_ratio(const wrow *w, int rate)
{
	const row *a = wrow_row(w), *b = w->ref >= 0 ? wrow_row(&wrows[w->ref]) : NULL;
	if (a == NULL || b == NULL || a->cpu <= 0 || b->cpu <= 0)
		return -1;
	return rate ? ((double)a->jobs / a->secs) / ((double)b->jobs / b->secs)
	            : (a->cpu / (double)a->jobs) / (b->cpu / (double)b->jobs);
}

static const spread *spread_of(const char *what)
{
	for (int i = 0; i < nspreads; i++)
		if (strcmp(spreads[i].what, what) == 0 && spreads[i].n > 1)
			return &spreads[i];
	return NULL;
}

static void print_spread_cell(FILE *out, const char *what)
{
	const spread *sp = spread_of(what);
	char cell[40] = "";
	if (sp != NULL)
		snprintf(cell, sizeof cell, "%.2f..%.2f", sp->lo, sp->hi);
	fprintf(out, " %-11s", cell);
}

/* The worker program rows again, as ratios to the C worker program of the
 * same pool (the first --worker), with the per-round spread. */
static void print_workers(FILE *out)
{
	if (nwrows == 0)
		return;
	fprintf(out, "\nworker programs: %ld no-op jobs per run, %d rounds; x C = ratio to the %s worker program "
	        "of the same pool\n", wjobs, wrounds, wprogs[0].name);
	fprintf(out, "%-34s %7s %6s %-11s %9s %6s %-11s %9s\n", "row", "jobs/s", "x C", "  per round", "us/job",
	        "x C", "  per round", "0 jobs s");
	for (int i = 0; i < nwrows; i++) {
		const wrow *w = &wrows[i];
		const row *r = wrow_row(w);
		char what[80];
		if (r == NULL) {
			fprintf(out, "%-34s no result\n", w->name);
			continue;
		}
		fprintf(out, "%-34s %7.0f %6.3f", w->name, (double)r->jobs / r->secs, wrow_ratio(w, 1));
		print_spread_cell(out, w->name);
		snprintf(what, sizeof what, "%s cpu", w->name);
		fprintf(out, " %9.2f %6.3f", r->cpu / (double)r->jobs * 1e6, wrow_ratio(w, 0));
		print_spread_cell(out, what);
		fprintf(out, " %9.3f\n", w->nzero ? w->zero_secs / w->nzero : -1);
	}
}

/* The job-tree row of table row r, or NULL. */
static const trow *trow_of(const row *r)
{
	for (int i = 0; i < ntrows; i++)
		if (row_named(trows[i].name, "pipe") == r)
			return &trows[i];
	return NULL;
}

/* Redis CPU per operation of the pipelined row `name`, or -1. */
static double pipe_cpu(const char *name)
{
	const row *r = row_named(name, "pipe");
	return r && r->jobs > 0 ? r->cpu / (double)r->jobs : -1;
}

/* The job-tree rows again, as ratios to the trivial EVALSHA of their own
 * rounds, with the fan-out cost per delivered port: overall, and marginal
 * (the extra CPU over the next smaller fan-out, per extra port), which stays
 * flat while the cost grows linearly. */
static void print_trees(FILE *out)
{
	double lim = pipe_cpu(tree_trivial), prev_cpu = -1;
	int prev_ports = 0;
	if (ntrows == 0 || lim <= 0)
		return;
	fprintf(out, "\njob trees: %d rounds, pipelined; x trivial = Redis CPU / the trivial EVALSHA of the same "
	        "rounds (%.2f us); fan-out subscribers are waiting jobs\n", tree_rounds, lim * 1e6);
	fprintf(out, "%-38s %8s %9s %-15s %5s %8s %9s\n", "row", "us/op", "x trivial", "  per round", "ports",
	        "us/port", "marginal");
	for (int i = 0; i < ntrows; i++) {
		const trow *t = &trows[i];
		const spread *sp = spread_of(t->name);
		double cpu = pipe_cpu(t->name);
		char cell[40] = "";
		if (cpu < 0)
			continue;
		if (sp != NULL)
			snprintf(cell, sizeof cell, "%.1f..%.1f", sp->lo, sp->hi);
		fprintf(out, "%-38s %8.2f %9.1f %-15s", t->name, cpu * 1e6, cpu / lim, cell);
		if (t->ports > 0) {
			fprintf(out, " %5d %8.2f", t->ports, cpu / t->ports * 1e6);
			if (prev_ports > 0)
				fprintf(out, " %9.2f", (cpu - prev_cpu) / (t->ports - prev_ports) * 1e6);
			prev_cpu = cpu;
			prev_ports = t->ports;
		}
		fprintf(out, "\n");
	}
}

static double cpu_per(const char *name)
{
	const row *r = find(name);
	return r ? r->cpu / (double)r->jobs : -1;
}

static double rate_of(const char *name)
{
	const row *r = find(name);
	return r ? (double)r->jobs / r->secs : -1;
}

/* The per-round spread of a target measured in rounds. */
static void print_spread(FILE *out, const char *what)
{
	for (int i = 0; i < nspreads; i++)
		if (strcmp(spreads[i].what, what) == 0 && spreads[i].n > 1)
			fprintf(out, "         per round: %.3g .. %.3g (%d rounds)\n", spreads[i].lo, spreads[i].hi,
			        spreads[i].n);
}

static int print_targets(FILE *out, const char *const *drivers, int ndrivers)
{
	int all = 1;
	double lim = cpu_per("EVALSHA return 1 (pipe)");
	double v;
	fprintf(out, "\ntargets\n");
#define TARGET(ok, ...) do { int ok_ = (ok); all &= ok_; fprintf(out, "  [%s] ", ok_ ? "met " : "MISS"); \
		fprintf(out, __VA_ARGS__); fprintf(out, "\n"); } while (0)
	v = cpu_per("batched life cycle (pipe)") / lim;
	TARGET(v <= 32, "Redis CPU per batched life cycle = %.1f x trivial EVALSHA (target <= 32)", v);
	print_spread(out, "batched");
	v = cpu_per("batched life cycle, namespace (pipe)") / cpu_per("batched life cycle (pipe)");
	TARGET(v <= 1.05, "Redis CPU per batched life cycle in a namespace = %.3f x without (target <= 1.05)", v);
	print_spread(out, "namespace");
	v = cpu_per("config.get heartbeat (pipe)") / lim;
	TARGET(v <= 2, "entering the protocol (config.get heartbeat) = %.2f x trivial EVALSHA (target <= 2)", v);
	print_spread(out, "config.get");
	v = rate_of("C libqless life cycle (seq)") / rate_of("hiredis FCALL life cycle (seq)");
	TARGET(v >= 0.9, "C sequential life cycle = %.3f x bare hiredis loop (target >= 0.9)", v);
	print_spread(out, "C vs hiredis");
	v = rate_of("C worker, serial (seq)") / rate_of("C libqless life cycle (seq)");
	TARGET(v >= 1.3, "serial C worker (settle + reserve in one call) = %.2f x the put/pop/complete life cycle "
	       "(target >= 1.3)", v);
	print_spread(out, "worker vs life cycle");
	for (int i = 0; i < ndrivers; i++) {
		char name[80];
		snprintf(name, sizeof name, "%.*s life cycle (seq)", (int)(strchr(drivers[i], '=') - drivers[i]),
		         drivers[i]);
		v = rate_of(name) / rate_of("C libqless life cycle (seq)");
		if (find(name) == NULL)
			TARGET(0, "%s: no result", name);
		else
			TARGET(v >= 0.8, "%s = %.3f x C (target >= 0.8)", name, v);
		name[strlen(name) - strlen(" (seq)")] = '\0';
		print_spread(out, name);
	}
	const char *big = find("pop (count 1), 1M waiting (seq)") ? "pop (count 1), 1M waiting (seq)"
	                                                          : "pop (count 1), 100k waiting (seq)";
	if (find(big) == NULL || find("pop (count 1), 1k waiting (seq)") == NULL) {
		TARGET(0, "pop scaling: no result (no --level-socket)");
	} else {
		v = cpu_per(big) / cpu_per("pop (count 1), 1k waiting (seq)");
		TARGET(v <= 1.2, "Redis CPU of %s = %.2f x with 1k waiting (target <= 1.2)", big, v);
		print_spread(out, "pop scaling");
	}
	return all;
}

static void write_json(const char *path, int met)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		die("cannot write %s", path);
	const row *lp = find("EVALSHA return 1 (pipe)"), *ls = find("EVALSHA return 1 (seq)");
	fprintf(f, "{\n  \"quick\": %s,\n  \"all_targets_met\": %s,\n  \"rows\": [\n", quick ? "true" : "false",
	        met ? "true" : "false");
	for (int i = 0; i < nrows; i++) {
		const row *r = &rows[i];
		if (r->mem > 0) {
			fprintf(f, "    {\"name\": \"%s\", \"waiting_jobs\": %ld, \"bytes_per_job\": %.1f}", r->name,
			        r->jobs, r->mem);
		} else {
			const row *l = strcmp(r->mode, "pipe") == 0 ? lp : ls;
			double rate = (double)r->jobs / r->secs, cpu = r->cpu / (double)r->jobs;
			fprintf(f,
			        "    {\"name\": \"%s\", \"mode\": \"%s\", \"jobs\": %ld, \"seconds\": %.6f, "
			        "\"jobs_per_s\": %.1f, \"redis_cpu_s\": %.6f, \"redis_cpu_us_per_job\": %.3f, "
			        "\"rate_vs_evalsha\": %.4f, \"cpu_vs_evalsha\": %.3f",
			        r->name, r->mode, r->jobs, r->secs, rate, r->cpu, cpu * 1e6,
			        rate / ((double)l->jobs / l->secs), cpu / (l->cpu / (double)l->jobs));
			const wrow *w = wrow_of(r);
			const trow *t = trow_of(r);
			if (t != NULL)
				fprintf(f, ", \"tree_rounds\": %d, \"cpu_vs_trivial_same_rounds\": %.3f", tree_rounds,
				        cpu / pipe_cpu(tree_trivial));
			if (t != NULL && t->ports > 0)
				fprintf(f, ", \"ports\": %d, \"redis_cpu_us_per_port\": %.3f", t->ports, cpu * 1e6 / t->ports);
			if (w != NULL)
				fprintf(f, ", \"jobs_per_run\": %ld, \"rate_vs_c_worker\": %.4f, \"cpu_vs_c_worker\": %.4f, "
				        "\"zero_job_run_s\": %.4f",
				        wjobs, wrow_ratio(w, 1), wrow_ratio(w, 0), w->nzero ? w->zero_secs / w->nzero : -1);
			fprintf(f, "}");
		}
		fprintf(f, "%s\n", i + 1 < nrows ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	fclose(f);
}

/* Row names carry their mode so that lookups are unambiguous. */
static void suffix_modes(void)
{
	for (int i = 0; i < nrows; i++)
		if (rows[i].mem == 0) {
			char buf[80];
			snprintf(buf, sizeof buf, "%s (%s)", rows[i].name, rows[i].mode);
			snprintf(rows[i].name, sizeof rows[i].name, "%s", buf);
		}
}

int main(int argc, char **argv)
{
	const char *json = NULL, *libpath = NULL;
	const char *drivers[MAX_DRIVERS];
	int ndrivers = 0, pooled_only = 0;
	static const long level_jobs[] = { 1000, 100000, 1000000 };
	level levels[3];
	int nlevels = 0;
	memset(levels, 0, sizeof levels);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc)
			sock_path = argv[++i];
		else if (strcmp(argv[i], "--lib") == 0 && i + 1 < argc)
			libpath = argv[++i];
		else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc)
			json = argv[++i];
		else if (strcmp(argv[i], "--driver") == 0 && i + 1 < argc && ndrivers < MAX_DRIVERS)
			drivers[ndrivers++] = argv[++i];
		else if (strcmp(argv[i], "--worker") == 0 && i + 1 < argc)
			parse_wprog(argv[++i]);
		else if (strcmp(argv[i], "--level-socket") == 0 && i + 1 < argc && nlevels < 3) {
			levels[nlevels].jobs = level_jobs[nlevels];
			levels[nlevels++].socket = argv[++i];
		} else if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
		else if (strcmp(argv[i], "--pooled-only") == 0)
			pooled_only = 1;
		else
			die("usage: qless-bench --socket PATH --lib qless-lib.lua [--quick] [--pooled-only] [--json FILE] "
			    "[--driver NAME=COMMAND]... [--worker 'NAME POOLS KLASS=COMMAND']... [--level-socket PATH]...");
	}
	if (sock_path == NULL || libpath == NULL)
		die("--socket and --lib are required");
	snprintf(url, sizeof url, "unix://%s", sock_path);
	adm = redisConnectUnix(sock_path);
	if (adm == NULL || adm->err)
		die("cannot connect to %s", sock_path);
	srv = adm;

	/* The published library as "qless", for the bare hiredis loop. */
	static char lib[1 << 20];
	FILE *f = fopen(libpath, "rb");
	if (f == NULL)
		die("cannot read %s", libpath);
	size_t len = fread(lib, 1, sizeof lib - 1, f);
	fclose(f);
	lib[len] = '\0';
	cmd_free("FUNCTION LOAD REPLACE %b", lib, len);

	/* Full-run sizes give each row about a second of Redis CPU or more:
	 * INFO cpu comes from the kernel's tick-based accounting, so short
	 * samples (--quick) are rough. */
	long nseq = quick ? 5000 : 30000, npipe = quick ? 50000 : 1000000;
	long ncmd = quick ? 1000 : 10000, nlife = quick ? 1000 : 10000, nbatch = quick ? 5000 : 30000;
	long nscale = quick ? 1000 : 10000, ndrv = quick ? 500 : 8000;
	/* Worker programs: jobs per run, so that start-up is a small part of a
	 * run (of a full one), and rounds. */
	long nwp = quick ? 500 : 2000;
	int wp_rounds = quick ? 2 : 4;

	qless_client *c = NULL, *ce = NULL, *cn = NULL;
	qcheck(qless_client_new(&c, url, NULL), "client");
	{
		/* The same life cycle in a namespace: FCALL qless 1 {bench}:ql: ... */
		qless_client_options no = QLESS_CLIENT_OPTIONS_INIT;
		no.namespace_name = "bench";
		qcheck(qless_client_new(&cn, url, &no), "namespace client");
	}
	setenv("QLESS_EVALSHA", "1", 1);
	qcheck(qless_client_new(&ce, url, NULL), "EVALSHA client");
	unsetenv("QLESS_EVALSHA");

	fprintf(stderr, "qless-bench: %s run against %s\n", quick ? "quick" : "full", sock_path);
	if (pooled_only) {
		bench_pooled(c, quick ? 2000 : 10000, quick ? 2 : 4);
		print_pooled(stdout);
		qless_client_free(ce);
		qless_client_free(c);
		redisFree(adm);
		return 0;
	}
	/* Short rounds: the machine's speed changes within seconds. */
	int rounds = quick ? 4 : 20, seq_rounds = quick ? 2 : 20;
	flush_data();
	bench_limits_seq(nseq);
	for (int r = 0; r < rounds; r++) {
		/* The two sides of each ratio next to each other, in the opposite
		 * order every other round (no side always runs first). */
		round_begin();
		for (int step = 0; step < 6; step++) {
			switch (r % 2 == 0 ? step : 5 - step) {
			case 0:
				flush_data();
				lifecycle_batched(ce, "bench-batch", "batched life cycle, EVALSHA",
				                  per_round(nbatch / 4, rounds), 1);
				break;
			case 1:
				bench_enter(ce, "config.get heartbeat, EVALSHA", per_round(npipe / 10, rounds));
				break;
			case 2:
				bench_limits_pipe(per_round(npipe, rounds));
				break;
			case 3:
				bench_enter(c, "config.get heartbeat", per_round(npipe / 2, rounds));
				break;
			case 4:
				flush_data();
				lifecycle_batched(cn, "bench-batch", "batched life cycle, namespace", per_round(nbatch, rounds),
				                  1);
				break;
			default:
				flush_data();
				lifecycle_batched(c, "bench-batch", "batched life cycle", per_round(nbatch, rounds), 1);
			}
		}
		round_ratio("batched", "batched life cycle", "pipe", "EVALSHA return 1", "pipe", 0);
		round_ratio("namespace", "batched life cycle, namespace", "pipe", "batched life cycle", "pipe", 0);
		round_ratio("config.get", "config.get heartbeat", "pipe", "EVALSHA return 1", "pipe", 0);
	}

	flush_data();
	bench_commands(c, ncmd);
	bench_cron(ncmd);
	for (int r = 0; r < seq_rounds; r++) {
		int steps = 5 + ndrivers;
		round_begin();
		for (int step = 0; step < steps; step++) {
			int what = r % 2 == 0 ? step : steps - 1 - step;
			flush_data();
			if (what == 0)
				lifecycle_seq(c, "bench-c", "C libqless life cycle", per_round(nlife, seq_rounds));
			else if (what == 1)
				lifecycle_hiredis("hiredis FCALL life cycle", per_round(nlife, seq_rounds));
			else if (what == 2)
				lifecycle_seq(ce, "bench-ce", "C libqless life cycle, EVALSHA", per_round(nlife, seq_rounds));
			else if (what == 3)
				lifecycle_worker(c, "bench-w", "C worker, serial", per_round(nlife, seq_rounds),
				                 QLESS_POOL_SERIAL, 1);
			else if (what == 4)
				lifecycle_worker(c, "bench-w4", "C worker, 4 threads", per_round(nlife, seq_rounds),
				                 QLESS_POOL_THREADS, 4);
			else
				run_driver(drivers[what - 5], per_round(ndrv, seq_rounds));
		}
		round_ratio("C vs hiredis", "C libqless life cycle", "seq", "hiredis FCALL life cycle", "seq", 1);
		round_ratio("worker vs life cycle", "C worker, serial", "seq", "C libqless life cycle", "seq", 1);
		for (int i = 0; i < ndrivers; i++) {
			char name[80];
			snprintf(name, sizeof name, "%.*s life cycle", (int)(strchr(drivers[i], '=') - drivers[i]), drivers[i]);
			round_ratio(name, name, "seq", "C libqless life cycle", "seq", 1);
		}
	}

	bench_worker_programs(c, nwp, wp_rounds);
	bench_pooled(c, quick ? 2000 : 10000, quick ? 2 : 4);
	bench_scaling(levels, nlevels, nscale);
	bench_purge(c, quick ? 5000 : 50000, nbatch / 2);
	{
		double began = mono();
		bench_trees(quick ? 20000 : 200000, quick ? 10000 : 100000, quick ? 2000 : 20000, quick ? 4 : 10);
		fprintf(stderr, "  (job trees: %.1f s in all)\n", mono() - began);
	}
	flush_data();

	suffix_modes();
	print_table(stdout);
	print_workers(stdout);
	print_pooled(stdout);
	print_trees(stdout);
	int met = print_targets(stdout, drivers, ndrivers);
	if (json)
		write_json(json, met);
	qless_client_free(ce);
	qless_client_free(cn);
	qless_client_free(c);
	redisFree(adm);
	return 0;
}
