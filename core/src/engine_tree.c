/* The worker engine's tree-job steps (jobtrees.md §9): registering the
 * tree classes' ports, the startup run before a job's first perform, and
 * the shutdown run of a terminating job. Kept in the engine so that every
 * language's worker follows the same rules by passing its class hooks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "qless/qless.h"
#include "allowlist.h"
#include "engine.h"
#include "engine_log.h"
#include "engine_stop.h"
#include "engine_tree.h"
#include "errors.h"
#include "reconnect.h"
#include "result.h"

/* ---- run options ---- */

static int check_config(const char *F, const qless_worker_run_options *o, size_t i)
{
	const char *klass = o->tree_klasses[i], *config = o->tree_configs[i];
	json_error_t e;
	json_t *j;
	int parsed, is_object;
	if (config == NULL)
		return QLESS_OK;
	/* The registry is per class: a pattern names no class to register. */
	if (strchr(klass, '*') != NULL)
		return qless__err(QLESS_EINVAL, "%s: tree_configs[%zu]: a config needs an exact class name, "
		                  "not the pattern '%s'", F, i, klass);
	j = json_loads(config, JSON_DECODE_ANY, &e);
	parsed = j != NULL;
	is_object = json_is_object(j);
	json_decref(j);
	if (!is_object)
		return qless__err(QLESS_EINVAL, "%s: tree_configs[%zu] (class '%s') is not a JSON object%s%s", F, i,
		                  klass, parsed ? "" : ": ", parsed ? "" : e.text);
	return QLESS_OK;
}

int qless__tree_check(const char *F, const qless_worker_run_options *o)
{
	size_t i;
	int rc;
	if (o->ntree > 0 && o->tree_klasses == NULL)
		return qless__err_null(F, "opts->tree_klasses");
	if (o->startup != NULL && o->ntree == 0)
		return qless__err(QLESS_EINVAL, "%s: a startup hook runs only for tree_klasses, and there are none", F);
	for (i = 0; i < o->ntree; i++) {
		const char *klass = o->tree_klasses[i], *why;
		if (klass == NULL)
			return qless__err(QLESS_EINVAL, "%s: tree_klasses[%zu] is NULL", F, i);
		if ((why = qless__allow_invalid(klass)) != NULL)
			return qless__err(QLESS_EINVAL, "%s: tree_klasses[%zu] %s", F, i, why);
		if (o->tree_configs != NULL && (rc = check_config(F, o, i)) != QLESS_OK)
			return rc;
	}
	return QLESS_OK;
}

/* ---- registration (§9.1) ---- */

/* A class the allow-list (e.g. a narrower --allow) keeps from this run is
 * not registered: its ports would invite jobs nobody here performs. */
static int allowed(const qless_worker_run_options *o, const char *klass)
{
	return o->nallow == 0 || qless_allowlist_match(o->allow, o->nallow, klass);
}

/* One pass over queues x configured classes; the first error stops it. */
static int register_all(qless_worker *w)
{
	const qless_worker_run_options *o = &w->run;
	size_t q, i;
	int rc = QLESS_OK;
	for (q = 0; q < w->n && rc == QLESS_OK; q++) {
		qless_queue *queue = NULL;
		if ((rc = qless_queue_new(&queue, w->client, w->names[q])) != QLESS_OK)
			break;
		for (i = 0; i < o->ntree && rc == QLESS_OK; i++)
			if (o->tree_configs[i] != NULL && allowed(o, o->tree_klasses[i]))
				rc = qless_queue_register_klass(NULL, queue, o->tree_klasses[i], o->tree_configs[i]);
		qless_queue_free(queue);
	}
	return rc;
}

int qless__tree_register(qless_worker *w)
{
	double wait = 0, since = 0;
	int rc;
	if (w->run.tree_configs == NULL)
		return QLESS_OK;
	/* worker.register replaces, so a pass cut short by an outage is
	 * simply made again. */
	while ((rc = register_all(w)) == QLESS_EIO) {
		if (qless__stopping(w) || qless__outage_over(w, &since))
			return QLESS_OK;
		wait = qless__io_backoff(w, wait, "worker.register");
	}
	if (rc == QLESS_OK && wait > 0)
		qless__log(w, "Redis is back");
	return rc;
}

/* ---- startup (§9.4) ---- */

static void drop(qless_slot *s, qless_job *job, qless_result *r, const char *step)
{
	qless__log(s->worker, "%s %s dropped: %s: %s", qless_job_jid(job), qless_job_klass(job), step,
	           qless_error_last_message());
	r->outcome = QLESS_OUTCOME_DROP;
}

/* The config of klass in the run's tree_configs (an exact name), or NULL. */
static const char *config_of(const qless_worker_run_options *o, const char *klass)
{
	size_t i;
	for (i = 0; o->tree_configs != NULL && i < o->ntree; i++)
		if (o->tree_configs[i] != NULL && strcmp(o->tree_klasses[i], klass) == 0)
			return o->tree_configs[i];
	return NULL;
}

/*
 * A job put before its class was registered has none of the class's
 * ports, which its code expects: its first run defines those it lacks
 * (ports it has keep their options). Nothing is sent when none are
 * missing, so only such jobs pay for it.
 */
static int define_missing_ports(qless_slot *s, qless_job *job, const json_t *tree)
{
	static const char *const dirs[2] = { "inports", "outports" };
	const char *config = config_of(&s->worker->run, qless_job_klass(job)), *name;
	json_t *c = config ? json_loads(config, 0, NULL) : NULL, *opts;
	int d, rc = QLESS_OK;
	for (d = 0; d < 2 && rc == QLESS_OK; d++) {
		json_t *have = json_object_get(tree, dirs[d]), *missing = json_object();
		char *text = NULL;
		json_object_foreach(json_object_get(c, dirs[d]), name, opts)
			if (json_object_get(have, name) == NULL)
				json_object_set(missing, name, opts);
		if (json_object_size(missing) > 0) {
			text = json_dumps(missing, JSON_COMPACT);
			rc = text ? qless_port_define(s->client, qless_job_jid(job), d ? QLESS_PORT_OUT : QLESS_PORT_IN, text)
			          : qless__err_nomem("qless_worker_run");
		}
		free(text);
		json_decref(missing);
	}
	json_decref(c);
	return rc;
}

int qless__tree_start(qless_slot *s, qless_job *job, qless_result *r)
{
	const qless_worker_run_options *o = &s->worker->run;
	char *json = NULL;
	json_t *tree, *started;
	int rc;

	/* The cost rule: a job of a class not named a tree class costs no call. */
	if (o->ntree == 0 || !qless_allowlist_match(o->tree_klasses, o->ntree, qless_job_klass(job)))
		return 1;
	rc = qless_client_tree_get(&json, s->client, qless_job_jid(job));
	/* A plain job of a tree class runs as one (§9.2): tree.get's only
	 * StateError is "is not a tree job". A StateError of libqless itself (a
	 * database this library may not serve, K2) is not that answer. */
	if (rc == QLESS_ESTATE && qless__err_is_from_script())
		return 1;
	if (rc != QLESS_OK) {
		drop(s, job, r, "tree.get");
		return 0;
	}
	tree = json_loads(json, 0, NULL);
	qless_free(json);
	started = json_object_get(tree, "started");
	if (started == NULL) {
		json_decref(tree);
		qless__err(QLESS_EPROTOCOL, "tree.get's reply has no \"started\"");
		drop(s, job, r, "tree.get");
		return 0;
	}
	r->tree = 1;
	if (!json_is_false(started)) {
		json_decref(tree);
		return 1;
	}
	rc = define_missing_ports(s, job, tree);
	json_decref(tree);
	if (rc != QLESS_OK) {
		drop(s, job, r, "port.define");
		return 0;
	}
	if (o->startup != NULL) {
		o->startup(o->ctx, job, r);
		/* Failed, retried, suspended, settled by itself or lock lost: the
		 * startup did not complete, so job.started is not sent and the
		 * next run starts the job again. */
		if (r->oom || r->outcome != QLESS_OUTCOME_COMPLETE || qless_job_lock_lost(job) ||
		    strcmp(qless_job_state(job), "running") != 0)
			return 0;
	}
	if (qless_job_started(job) != QLESS_OK) {
		drop(s, job, r, "job.started");
		return 0;
	}
	return 1;
}

/* ---- shutdown (§9.3) ---- */

/* The history entry shutdown-error {"error": text}; a failure to write it
 * is only logged, as the termination goes on either way. */
static void record_shutdown_error(qless_slot *s, qless_job *job, const char *text)
{
	json_t *j = json_pack("{s:s}", "error", text);
	char *data = j ? json_dumps(j, JSON_COMPACT) : NULL;
	if (data == NULL || qless_job_log(job, "shutdown-error", data) != QLESS_OK)
		qless__log(s->worker, "%s %s: cannot record its shutdown error (%s): %s", qless_job_jid(job),
		           qless_job_klass(job), text, data ? qless_error_last_message() : "out of memory");
	else
		qless__log(s->worker, "%s %s shutdown failed: %s", qless_job_jid(job), qless_job_klass(job), text);
	free(data);
	json_decref(j);
}

static void shutdown_failed(qless_slot *s, qless_job *job, const qless_result *h)
{
	const char *group = h->group ? h->group : "shutdown asked for a retry";
	size_t len = strlen(group) + (h->message ? strlen(h->message) + 2 : 0) + 1;
	char *text = malloc(len);
	if (text == NULL) {
		record_shutdown_error(s, job, group);
		return;
	}
	snprintf(text, len, "%s%s%s", group, h->message ? ": " : "", h->message ? h->message : "");
	record_shutdown_error(s, job, text);
	free(text);
}

void qless__tree_shutdown(qless_slot *s, qless_job *job, qless_result *r)
{
	const qless_worker_run_options *o = &s->worker->run;
	const char *klass = qless_job_klass(job);
	qless_result h;

	memset(&h, 0, sizeof h);
	h.jid = r->jid;
	if (!allowed(o, klass)) {
		/* Its code may not be loaded here, and the job still has to end. */
		record_shutdown_error(s, job, "job class not allowed by this worker's allow-list: no shutdown hook run");
	} else if (o->shutdown != NULL) {
		/* No tree.get to learn `started`: TERMINATE ends a job that never
		 * started at once (jobtrees.md §4), so a terminating one has. */
		o->shutdown(o->ctx, job, &h);
		if (h.oom)
			record_shutdown_error(s, job, "out of memory recording the shutdown's result");
		else if (h.outcome == QLESS_OUTCOME_FAIL || h.outcome == QLESS_OUTCOME_RETRY)
			shutdown_failed(s, job, &h);
	}
	free(h.group);
	free(h.message);
	r->outcome = QLESS_OUTCOME_TERMINATED;
}
