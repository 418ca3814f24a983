/* qless_schedule: the handle (a named queue of a client) and its listener,
 * which is the worker engine run on that queue by a thread pool. */
#include <stdio.h>
#include <stdlib.h>

#include "qless/qless.h"
#include "errors.h"
#include "handles.h"
#include "options.h"
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

int qless_listen_options_init(qless_listen_options *opts, unsigned int version)
{
	static const qless_listen_options init = QLESS_LISTEN_OPTIONS_INIT;
	return qless__options_init("qless_listen_options_init", opts, version, &init, sizeof init, sizeof init, QLESS_LISTEN_OPTIONS_VERSION);
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

/* The engine's run options for listen options of any supported version. */
static int listen_run_options(const char *F, const qless_listen_options *opts, qless_worker_run_options *run)
{
	static const qless_listen_options defaults = QLESS_LISTEN_OPTIONS_INIT;
	const qless_listen_options *o = opts ? opts : &defaults;
	if (o->version != QLESS_LISTEN_OPTIONS_VERSION)
		return qless__err(QLESS_EINVAL, "%s: unsupported options version %u", F, o->version);
	if (o->threads < 0 || o->threads > 128)
		return qless__err(QLESS_EINVAL, "%s: opts->threads must be from 0 to 128, not %d", F, o->threads);
	if (!qless__finite(o->interval) || o->interval < 0 || o->interval > 86400)
		return qless__err(QLESS_EINVAL, "%s: opts->interval must be from 0 to 86400 seconds", F);
	if (o->max_jobs < 0)
		return qless__err(QLESS_EINVAL, "%s: opts->max_jobs must be >= 0, not %lld", F, (long long)o->max_jobs);
	run->pool = QLESS_POOL_THREADS;
	run->size = o->threads == 0 ? 1 : o->threads;
	run->interval = o->interval == 0 ? 5.0 : o->interval;
	run->max_jobs = o->max_jobs;
	run->thread_names = 1;
	/* §6.5: a connection error that persists for 3 x interval ends it. */
	run->give_up = run->interval < 28800 ? 3 * run->interval : 86400;
	run->log = listen_log;
	/* K15: a tree job popped by a listener runs by jobtrees.md §9 (startup
	 * recorded, termination ended), whatever its class; schedules are slow
	 * enough that the tree.get this costs per job does not matter. */
	static const char *const every_class[] = { "*" };
	run->tree_klasses = every_class;
	run->ntree = 1;
	return QLESS_OK;
}

int qless_schedule_listen(qless_schedule *schedule, qless_schedule_perform_fn perform, void *userdata,
                          const qless_listen_options *opts)
{
	static const char F[] = "qless_schedule_listen";
	qless_worker_run_options run = QLESS_WORKER_RUN_OPTIONS_INIT;
	listener l;
	int rc;

	QLESS_CHECK_NULL(F, schedule);
	QLESS_CHECK_NULL(F, perform);
	if ((rc = listen_run_options(F, opts, &run)) != QLESS_OK)
		return rc;
	l.perform = perform;
	l.userdata = userdata;
	run.perform = listen_perform;
	run.ctx = &l;
	rc = qless_worker_run(schedule->worker, &run);
	if (rc == QLESS_EIO)
		return qless__err(QLESS_EIO, "%s: Redis was unreachable for %g seconds (3 x interval)", F, run.give_up);
	if (rc == QLESS_ESTATE)
		return qless__err(QLESS_ESTATE, "%s: schedule \"%s\" is already listening", F,
		                  qless_schedule_name(schedule));
	return rc;
}

void qless_schedule_stop(qless_schedule *schedule)
{
	if (schedule != NULL)
		qless_worker_stop(schedule->worker, 0);
}
