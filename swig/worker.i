/*
 * swig/worker.i — the worker trampoline, written once for every language
 * (included by qless.i). The engine (qless_worker_run, core/) is the one
 * loop; a language gives it job code through the callbacks below, which
 * dispatch the phase (perform, a tree job's startup or shutdown), run the
 * job's code inside the interpreter and map what happened to the outcome:
 *   the code returned             complete (the engine's default)
 *   it raised the binding's       retry after the backoff delay (group: the
 *   RetryableError (or subclass)  exception's class, message: its description)
 *   it raised anything else       fail with that group and message
 *   it called job.suspend()       suspend (qless_swig_worker_suspend, below)
 * Job code reaches its client as job.client; it may settle the job itself,
 * and the engine then leaves it alone. docs/workers.md is the contract.
 * Two entries run the engine with these callbacks: qless_swig_worker_run
 * (the worker command, argv) and qless_swig_worker_listen (a schedule's
 * listen, typed options); each language wraps both the same way.
 *
 * Each swig/<lang>.i defines `struct qless_swig_worker` (its interpreter
 * state and the layer's dispatcher), QLESS_SWIG_WORKER_ERROR (the group of
 * a failure the trampoline itself reports) before including qless.i, and
 * these hooks after:
 *   qless_swig_lang_enter(call)    enter the interpreter (GIL, GVL, the
 *                                  lua_State, PHP's one thread), run
 *                                  qless_swig_call_run(call), leave it
 *   qless_swig_lang_call(call)     call the layer's dispatcher with proxies
 *                                  of call->job and its client (borrowed:
 *                                  emptied after the call) and the phase
 *                                  name; 0, or -1 with an exception pending
 *   qless_swig_lang_describe(call) take the pending exception and report it
 *                                  with qless_swig_call_outcome
 *   qless_swig_lang_fork(w)        fork a process pool's child as the
 *                                  runtime needs (its at-fork handling)
 */

%{
enum qless_swig_phase { QLESS_SWIG_PERFORM = 0, QLESS_SWIG_STARTUP = 1, QLESS_SWIG_SHUTDOWN = 2 };
static const char *const qless_swig_phase_names[] = { "perform", "startup", "shutdown" };

struct qless_swig_worker;

/* One call of job code: what the engine lent it and what came of it. */
struct qless_swig_call {
	struct qless_swig_worker *worker;
	qless_job *job;                  /* borrowed for the call */
	qless_result *result;            /* borrowed for the call */
	enum qless_swig_phase phase;
	struct qless_swig_call *outer;   /* the thread's call before this one */
	int outcome;                     /* 0 complete, 1 fail, 2 retry */
	char *group, *message;           /* malloc'ed, for fail and retry */
};

static void qless_swig_lang_enter(struct qless_swig_call *call);
static int qless_swig_lang_call(struct qless_swig_call *call);
static void qless_swig_lang_describe(struct qless_swig_call *call);
static int qless_swig_lang_fork(struct qless_swig_worker *w);

/* The call running on this thread (the interpreter's thread: a Ruby pool's
 * calls run on Ruby threads), for job.suspend. */
static __thread struct qless_swig_call *qless_swig_current;

/* The job fails (retry 0) or is retried (1) with group and message
 * (copied; NULL or empty: a placeholder, so the failure is never lost). */
static void qless_swig_call_outcome(struct qless_swig_call *call, int retry, const char *group, const char *message)
{
	free(call->group);
	free(call->message);
	call->outcome = retry ? 2 : 1;
	call->group = strdup(group && *group ? group : QLESS_SWIG_WORKER_ERROR);
	call->message = strdup(message && *message ? message : "(no message)");
}

/* Runs the job's code; the interpreter is entered. */
static void qless_swig_call_run(struct qless_swig_call *call)
{
	call->outer = qless_swig_current;
	qless_swig_current = call;
	if (qless_swig_lang_call(call) < 0) {
		qless_swig_lang_describe(call);
		if (!call->outcome)
			qless_swig_call_outcome(call, 0, QLESS_SWIG_WORKER_ERROR, "the job code failed and its error could not be described");
	}
	qless_swig_current = call->outer;
}

/* The outcome into the engine's result. A refused one (e.g. out of memory
 * for the copies) still fails the job: never the default complete. */
static void qless_swig_call_apply(struct qless_swig_call *call)
{
	const char *group = call->group ? call->group : QLESS_SWIG_WORKER_ERROR;
	const char *message = call->message ? call->message : "out of memory describing the job's error";
	int rc = QLESS_OK;

	if (call->outcome == 2)
		rc = qless_result_retry(call->result, group, message, -1.0);
	else if (call->outcome == 1)
		rc = qless_result_fail(call->result, group, message);
	if (rc < 0) {
		fprintf(stderr, "qless-worker: %s: outcome %s refused (%s): failing the job\n", qless_job_jid(call->job), group,
		        qless_error_last_message());
		qless_result_fail(call->result, QLESS_SWIG_WORKER_ERROR, message);
	}
	free(call->group);
	free(call->message);
}

static void qless_swig_dispatch(void *ctx, qless_job *job, qless_result *result, enum qless_swig_phase phase)
{
	struct qless_swig_call call;
	memset(&call, 0, sizeof call);
	call.worker = ctx;
	call.job = job;
	call.result = result;
	call.phase = phase;
	qless_swig_lang_enter(&call);
	qless_swig_call_apply(&call);
}

static void qless_swig_perform(void *ctx, qless_job *job, qless_result *result)
{
	qless_swig_dispatch(ctx, job, result, QLESS_SWIG_PERFORM);
}

static void qless_swig_startup(void *ctx, qless_job *job, qless_result *result)
{
	qless_swig_dispatch(ctx, job, result, QLESS_SWIG_STARTUP);
}

static void qless_swig_shutdown(void *ctx, qless_job *job, qless_result *result)
{
	qless_swig_dispatch(ctx, job, result, QLESS_SWIG_SHUTDOWN);
}

static int qless_swig_fork(void *ctx)
{
	return qless_swig_lang_fork(ctx);
}

/* The engine's callbacks into the language and the run's tree classes
 * with their worker.register configs (configs: NULL, or one per class,
 * each JSON text or NULL). run: the language's fields (single_threaded,
 * log), the rest is set here. 0, or 2 with a message on stderr when the
 * configs do not match the classes. */
static int qless_swig_worker_setup(struct qless_swig_worker *w, qless_worker_run_options *run,
                                   const char *const *klasses, size_t nklasses, const char *const *configs,
                                   size_t nconfigs)
{
	if (configs && nconfigs != nklasses) {
		fprintf(stderr, "qless-worker: the tree configs must have one entry per tree class\n");
		return 2;
	}
	run->perform = qless_swig_perform;
	run->ctx = w;
	run->fork = qless_swig_fork;
	/* Job code is found by class name: the operator's allow-list is required. */
	run->resolves_classes = 1;
	if (klasses && nklasses) {
		run->tree_klasses = klasses;
		run->tree_configs = configs;
		run->ntree = nklasses;
		run->startup = qless_swig_startup;
		run->shutdown = qless_swig_shutdown;
	}
	/* A pool child exits from C: what the runtime buffered so far must not
	 * be written once by the parent and again by every child. */
	fflush(NULL);
	return 0;
}

/*
 * qless_worker_main with the trampoline: argv (argc strings, argv[0] the
 * program name; none: "qless-worker"), the tree classes and run as for
 * qless_swig_worker_setup. Returns the exit status.
 */
static int qless_swig_worker_run(struct qless_swig_worker *w, qless_worker_run_options *run,
                                 const char *const *argv, size_t argc, const char *const *klasses, size_t nklasses,
                                 const char *const *configs, size_t nconfigs)
{
	const char **args;
	size_t n = argc ? argc : 1, i;
	int status;

	if ((status = qless_swig_worker_setup(w, run, klasses, nklasses, configs, nconfigs)) != 0)
		return status;
	/* A C main's argv: a program name first, NULL after the last. */
	if (!(args = calloc(n + 1, sizeof *args))) {
		fputs("qless-worker: out of memory\n", stderr);
		return 1;
	}
	args[0] = "qless-worker";
	for (i = 0; i < argc; i++)
		args[i] = argv[i];
	status = qless_worker_main((int)n, args, run);
	free(args);
	return status;
}

/*
 * A schedule's listen with the trampoline: the same job code as
 * qless_swig_worker_run, the options typed (qless_schedule_listen_run;
 * opts from the language's map, QLESS_OPTIONS in qless.i): no command
 * line is built or parsed. Returns an exit status as the worker command
 * does: 0 after a graceful stop or max_jobs, 2 for bad options (nothing
 * run), 1 for another failure, its message on stderr.
 */
static int qless_swig_worker_listen(struct qless_swig_worker *w, qless_worker_run_options *run,
                                    qless_schedule *schedule, const qless_listen_options *opts,
                                    const char *const *klasses, size_t nklasses, const char *const *configs,
                                    size_t nconfigs)
{
	int rc;

	if ((rc = qless_swig_worker_setup(w, run, klasses, nklasses, configs, nconfigs)) != 0)
		return rc;
	if ((rc = qless_schedule_listen_run(schedule, run, opts)) == QLESS_OK)
		return 0;
	fprintf(stderr, "qless-worker: %s\n", qless_error_last_message());
	return rc == QLESS_EINVAL ? 2 : 1;
}

/* opts and its allow-list copied into one malloc'ed block (free() it);
 * NULL when out of memory. For a language whose strings may move while
 * the engine runs without the interpreter's lock (Ruby's compacting GC). */
static qless_listen_options *qless_swig_listen_options_copy(const qless_listen_options *opts)
{
	qless_listen_options *copy;
	const char **allow;
	size_t size = sizeof *copy + opts->nallow * sizeof *allow, i;
	char *p;

	for (i = 0; i < opts->nallow; i++)
		size += opts->allow[i] ? strlen(opts->allow[i]) + 1 : 0;
	if (!(copy = malloc(size)))
		return NULL;
	*copy = *opts;
	allow = (const char **)(copy + 1);
	p = (char *)(allow + opts->nallow);
	for (i = 0; i < opts->nallow; i++) {
		allow[i] = opts->allow[i] ? strcpy(p, opts->allow[i]) : NULL;
		p += allow[i] ? strlen(p) + 1 : 0;
	}
	copy->allow = opts->nallow ? allow : NULL;
	return copy;
}
%}

%inline %{
/* job.suspend() in job code: *handled is 1 after qless_result_suspend on
 * the worker's perform of this job (raises, e.g. StateError, when the job
 * runs as no tree job); 0 when no perform of this job is running on this
 * thread, so that a job the client holds suspends with its own method. */
static int qless_swig_worker_suspend(qless_job *job, int *handled)
{
	struct qless_swig_call *call;
	*handled = 0;
	for (call = qless_swig_current; call; call = call->outer) {
		if (job && call->job == job) {
			/* The engine decides: a startup that suspends has not started
			 * the job; a shutdown's result refuses. */
			*handled = 1;
			return qless_result_suspend(call->result);
		}
	}
	return QLESS_OK;
}
%}
