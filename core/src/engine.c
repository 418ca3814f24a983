/* qless_worker_run: checks the run options, then runs the job loop serially
 * or in a pool (the loop is in job_loop.c, the heartbeat thread in
 * beater.c, the pools in pool.c, stops and signals in engine_stop.c). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "qless/qless.h"
#include "beater.h"
#include "engine.h"
#include "engine_log.h"
#include "engine_stop.h"
#include "engine_tree.h"
#include "errors.h"
#include "job_loop.h"
#include "pool.h"
#include "util.h"

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
	else if (o.pool == QLESS_POOL_THREADS && o.size > 1 && !o.thread_names)
		rc = qless__pool_batched(worker);
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
