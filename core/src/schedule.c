/* qless_schedule: the handle (a named queue of a client) and its listener,
 * which is the worker engine run on that queue by a thread pool. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "errors.h"
#include "handles.h"
#include "options.h"
#include "run_hooks.h"
#include "util.h"

struct qless_schedule {
	qless_queue *queue;
	/* Made with the schedule (no I/O): qless_schedule_stop needs it to
	 * exist before any listen, since a signal handler may call it. */
	qless_worker *worker;
};

int qless_schedule_new(qless_schedule **out, qless_client *client, const char *name)
{
	static const char F[] = "qless_schedule_new";
	const qless_worker_options wo = { QLESS_WORKER_OPTIONS_VERSION, QLESS_RESERVE_ORDERED, 0 };
	const char *queues[1];
	qless_schedule *s;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, name);
	if (!qless__utf8_valid(name))
		return qless__err(QLESS_EINVAL, "%s: name is not valid UTF-8", F);
	if ((s = calloc(1, sizeof *s)) == NULL)
		return qless__err_nomem(F);
	queues[0] = name;
	if ((rc = qless_queue_new(&s->queue, client, name)) != QLESS_OK ||
	    (rc = qless_worker_new(&s->worker, client, queues, 1, &wo)) != QLESS_OK) {
		qless_queue_free(s->queue);
		free(s);
		return rc;
	}
	qless__handle_add(1);
	*out = s;
	return QLESS_OK;
}

void qless_schedule_free(qless_schedule *schedule)
{
	if (schedule == NULL)
		return;
	qless_worker_free(schedule->worker);
	qless_queue_free(schedule->queue);
	qless__handle_add(-1);
	free(schedule);
}

const char *qless_schedule_name(const qless_schedule *schedule)
{
	return schedule ? qless_queue_name(schedule->queue) : NULL;
}

qless_queue *qless_schedule_queue(qless_schedule *schedule)
{
	return schedule ? schedule->queue : NULL;
}

/* Version 1 ended before pool. */
#define LISTEN_V1_SIZE offsetof(qless_listen_options, pool)

int qless_listen_options_init(qless_listen_options *opts, unsigned int version)
{
	static const qless_listen_options init = QLESS_LISTEN_OPTIONS_INIT;
	return qless__options_init("qless_listen_options_init", opts, version, &init, LISTEN_V1_SIZE, sizeof init,
	                           QLESS_LISTEN_OPTIONS_VERSION);
}

/* ---- listening ---- */

typedef struct listener {
	qless_schedule_perform_fn perform;
	void *userdata;
} listener;

/* The engine leaves a job that perform settled itself, or whose lock was
 * lost, alone whatever is recorded here. */
static void listen_perform(void *ctx, qless_job *job, qless_result *result)
{
	const listener *l = ctx;
	char message[48];
	int rc = l->perform(job, l->userdata);
	if (rc == 0)
		return;
	snprintf(message, sizeof message, "perform returned %d", rc);
	(void)qless_result_fail(result, "qless-perform", message);
}

/* A library call must not write to the program's stderr. */
static void listen_log(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
}

/* The engine's run options for listen options of any supported version
 * (o: read into the current version). processes: whether a process pool
 * may be asked for. */
static int listen_run_options(const char *F, const qless_listen_options *opts, int processes,
                              qless_listen_options *o, qless_worker_run_options *run)
{
	static const qless_listen_options defaults = QLESS_LISTEN_OPTIONS_INIT;
	int rc = qless__options_read(F, opts, o, &defaults, LISTEN_V1_SIZE, sizeof *o, QLESS_LISTEN_OPTIONS_VERSION);
	if (rc != QLESS_OK)
		return rc;
	if (o->threads < 0 || o->threads > 128)
		return qless__err(QLESS_EINVAL, "%s: opts->threads must be from 0 to 128, not %d", F, o->threads);
	if (!qless__finite(o->interval) || o->interval < 0 || o->interval > 86400)
		return qless__err(QLESS_EINVAL, "%s: opts->interval must be from 0 to 86400 seconds", F);
	if (o->max_jobs < 0)
		return qless__err(QLESS_EINVAL, "%s: opts->max_jobs must be >= 0, not %lld", F, (long long)o->max_jobs);
	if (o->pool != QLESS_POOL_SERIAL && o->pool != QLESS_POOL_THREADS &&
	    !(processes && o->pool == QLESS_POOL_PROCESSES))
		return qless__err(QLESS_EINVAL, "%s: opts->pool must be QLESS_POOL_THREADS%s, not %d", F,
		                  processes ? " or QLESS_POOL_PROCESSES" : "", (int)o->pool);
	if ((rc = qless__check_strv(F, "opts->allow", o->allow, o->nallow, 1)) != QLESS_OK ||
	    (o->nallow > 0 && (rc = qless_allowlist_check(o->allow, o->nallow)) != QLESS_OK))
		return rc;
	run->pool = o->pool == QLESS_POOL_PROCESSES ? QLESS_POOL_PROCESSES : QLESS_POOL_THREADS;
	run->size = o->threads == 0 ? 1 : o->threads;
	run->interval = o->interval == 0 ? 5.0 : o->interval;
	run->max_jobs = o->max_jobs;
	run->thread_names = 1;
	run->allow = o->nallow > 0 ? o->allow : NULL;
	run->nallow = o->nallow;
	run->signals = o->signals != 0;
	/* §6.5: a connection error that persists for 3 x interval ends it. */
	run->give_up = run->interval < 28800 ? 3 * run->interval : 86400;
	/* K15: a tree job popped by a listener runs by jobtrees.md §9 (startup
	 * recorded, termination ended), whatever its class; schedules are slow
	 * enough that the tree.get this costs per job does not matter. */
	static const char *const every_class[] = { "*" };
	run->tree_klasses = every_class;
	run->ntree = 1;
	return QLESS_OK;
}

/* The engine's answer as a listen reports it. */
static int listen_result(const char *F, qless_schedule *schedule, const qless_worker_run_options *run, int rc)
{
	if (rc == QLESS_EIO)
		return qless__err(QLESS_EIO, "%s: Redis was unreachable for %g seconds (3 x interval)", F, run->give_up);
	if (rc == QLESS_ESTATE)
		return qless__err(QLESS_ESTATE, "%s: schedule \"%s\" is already listening", F,
		                  qless_schedule_name(schedule));
	return rc;
}

/* $QLESS_WORKER_ALLOW split at commas (blanks around items dropped) into
 * *out (one malloc'ed block: the array, then the text), *n items. */
static int env_allow(const char *F, const char ***out, size_t *n)
{
	const char *env = getenv("QLESS_WORKER_ALLOW");
	size_t items = 1, len;
	char *text, *item, *next;

	*out = NULL;
	*n = 0;
	if (env == NULL || *env == '\0')
		return QLESS_OK;
	for (item = strchr(env, ','); item != NULL; item = strchr(item + 1, ','))
		items++;
	len = strlen(env);
	if ((*out = malloc(items * sizeof **out + len + 1)) == NULL)
		return qless__err_nomem(F);
	text = memcpy((char *)(*out + items), env, len + 1);
	for (item = text; item != NULL; item = next) {
		char *end;
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		while (*item == ' ' || *item == '\t')
			item++;
		for (end = item + strlen(item); end > item && (end[-1] == ' ' || end[-1] == '\t');)
			*--end = '\0';
		(*out)[(*n)++] = item;
	}
	return qless_allowlist_check(*out, *n);
}

int qless_schedule_listen_run(qless_schedule *schedule, const qless_worker_run_options *run,
                              const qless_listen_options *opts)
{
	static const char F[] = "qless_schedule_listen_run";
	qless_worker_run_options r = QLESS_WORKER_RUN_OPTIONS_INIT;
	qless_listen_options o;
	const char **from_env = NULL;
	size_t nenv = 0;
	int rc;

	QLESS_CHECK_NULL(F, schedule);
	QLESS_CHECK_NULL(F, run);
	QLESS_CHECK_NULL(F, run->perform);
	if ((rc = listen_run_options(F, opts, 1, &o, &r)) != QLESS_OK)
		return rc;
	if (run->version >= 2 && run->resolves_classes && o.nallow == 0) {
		if ((rc = env_allow(F, &from_env, &nenv)) != QLESS_OK) {
			free(from_env);
			return rc;
		}
		if (nenv == 0)
			return qless__err(QLESS_EINVAL, "%s: no job classes are allowed: this run finds job code by class "
			                  "name, so name the classes it may run in opts->allow or $QLESS_WORKER_ALLOW "
			                  "(comma-separated), e.g. 'myapp.jobs.*' ('*' allows every class)", F);
		r.allow = from_env;
		r.nallow = nenv;
	}
	qless__run_hooks_copy(&r, run);
	rc = listen_result(F, schedule, &r, qless_worker_run(schedule->worker, &r));
	free(from_env);
	return rc;
}

int qless_schedule_listen(qless_schedule *schedule, qless_schedule_perform_fn perform, void *userdata,
                          const qless_listen_options *opts)
{
	static const char F[] = "qless_schedule_listen";
	qless_worker_run_options run = QLESS_WORKER_RUN_OPTIONS_INIT;
	qless_listen_options o;
	listener l;
	int rc;

	QLESS_CHECK_NULL(F, schedule);
	QLESS_CHECK_NULL(F, perform);
	if ((rc = listen_run_options(F, opts, 0, &o, &run)) != QLESS_OK)
		return rc;
	l.perform = perform;
	l.userdata = userdata;
	run.perform = listen_perform;
	run.ctx = &l;
	run.log = listen_log;
	return listen_result(F, schedule, &run, qless_worker_run(schedule->worker, &run));
}

void qless_schedule_stop(qless_schedule *schedule)
{
	if (schedule != NULL)
		qless_worker_stop(schedule->worker, 0);
}
