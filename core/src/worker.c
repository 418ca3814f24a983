/* qless_worker: construction, the reservation order, and the reserve /
 * lost-lock calls for programs that drive their own loop (backoff policies
 * are in backoff.c, the allow-list in allowlist.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "client_state.h"
#include "engine.h"
#include "errors.h"
#include "handles.h"
#include "job_settle.h"
#include "joblist.h"
#include "namespace.h"
#include "options.h"
#include "strlist.h"
#include "util.h"
#include "worker_reserve.h"

int qless_worker_options_init(qless_worker_options *opts, unsigned int version)
{
	static const qless_worker_options init = QLESS_WORKER_OPTIONS_INIT;
	return qless__options_init("qless_worker_options_init", opts, version, &init, sizeof init, sizeof init, QLESS_WORKER_OPTIONS_VERSION);
}

void qless_worker_free(qless_worker *worker)
{
	size_t i;
	if (worker == NULL)
		return;
	for (i = 0; i < worker->n; i++)
		free(worker->names[i]);
	free(worker->names);
	for (i = 0; i < worker->npolicies; i++) {
		free(worker->policies[i].klass);
		free(worker->policies[i].queue);
	}
	free(worker->policies);
	qless_events_free(worker->events);
	if (worker->wake[0] >= 0)
		close(worker->wake[0]);
	if (worker->wake[1] >= 0)
		close(worker->wake[1]);
	pthread_mutex_destroy(&worker->mu);
	free(worker->children);
	qless__handle_add(-1);
	qless__client_unref(worker->client);
	free(worker);
}

/* Fisher-Yates with a seed of the process, so workers of one host differ. */
static void shuffle(char **names, size_t n)
{
	unsigned int seed = (unsigned int)getpid() ^ (unsigned int)(uintptr_t)names;
	size_t i;
	for (i = n; i > 1; i--) {
		size_t j = (size_t)rand_r(&seed) % i;
		char *t = names[i - 1];
		names[i - 1] = names[j];
		names[j] = t;
	}
}

int qless_worker_new(qless_worker **out, qless_client *client, const char *const *queues, size_t nqueues,
                     const qless_worker_options *opts)
{
	static const char F[] = "qless_worker_new";
	qless_worker_options o = QLESS_WORKER_OPTIONS_INIT;
	qless_worker *w;
	size_t i;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_NULL(F, queues);
	if (nqueues == 0)
		return qless__err(QLESS_EINVAL, "%s: no queues", F);
	if ((rc = qless__check_strv(F, "queues", queues, nqueues, 1)) != QLESS_OK)
		return rc;
	if (opts != NULL) {
		if (opts->version != QLESS_WORKER_OPTIONS_VERSION)
			return qless__err(QLESS_EINVAL, "%s: unsupported options version %u", F, opts->version);
		if (opts->order != QLESS_RESERVE_ORDERED && opts->order != QLESS_RESERVE_ROUND_ROBIN &&
		    opts->order != QLESS_RESERVE_SHUFFLED)
			return qless__err(QLESS_EINVAL, "%s: unknown reserve order %d", F, (int)opts->order);
		o = *opts;
	}
	w = calloc(1, sizeof *w);
	if (w == NULL)
		return qless__err_nomem(F);
	w->wake[0] = w->wake[1] = -1;
	pthread_mutex_init(&w->mu, NULL);
	w->client = client;
	qless__client_ref(client);
	qless__handle_add(1);
	w->order = o.order;
	if ((w->names = calloc(nqueues, sizeof *w->names)) == NULL) {
		qless_worker_free(w);
		return qless__err_nomem(F);
	}
	for (i = 0; i < nqueues; i++, w->n++) {
		char *ns = NULL;
		const char *queue;
		/* "NAME/queue": a queue of the client's own namespace only (a
		 * worker over several namespaces is one worker per namespace,
		 * as qless_worker_main makes them). */
		if ((rc = qless__namespace_split(F, queues[i], &ns, &queue)) == QLESS_OK && ns != NULL &&
		    (client->ns == NULL || strcmp(ns, client->ns) != 0))
			rc = qless__err(QLESS_EINVAL, "%s: queue \"%s\" is in namespace \"%s\", but the worker's client works "
			                "in %s%s%s: one worker serves one namespace", F, queues[i], ns,
			                client->ns ? "namespace \"" : "none", client->ns ? client->ns : "",
			                client->ns ? "\"" : "");
		free(ns);
		if (rc != QLESS_OK) {
			qless_worker_free(w);
			return rc;
		}
		if ((w->names[i] = qless__strdup(queue)) == NULL) {
			qless_worker_free(w);
			return qless__err_nomem(F);
		}
	}
	if (w->order == QLESS_RESERVE_SHUFFLED)
		shuffle(w->names, w->n);
	if (o.watch_locks) {
		size_t len = strlen(client->worker_name) + 3;
		char *ch = malloc(len);
		const char *chs[1];
		if (ch == NULL) {
			qless_worker_free(w);
			return qless__err_nomem(F);
		}
		snprintf(ch, len, "w:%s", client->worker_name);
		chs[0] = ch;
		rc = qless_events_new(&w->events, client, chs, 1);
		free(ch);
		if (rc != QLESS_OK) {
			qless_worker_free(w);
			return rc;
		}
	}
	*out = w;
	return QLESS_OK;
}

const char *qless_worker_name(const qless_worker *worker)
{
	return worker ? worker->client->worker_name : NULL;
}

char *qless__reserve_order_json(qless_worker *w)
{
	const char **v = malloc(w->n * sizeof *v);
	size_t i, start;
	char *json;
	if (v == NULL)
		return NULL;
	pthread_mutex_lock(&w->mu);
	start = w->order == QLESS_RESERVE_ORDERED ? 0 : w->next;
	pthread_mutex_unlock(&w->mu);
	for (i = 0; i < w->n; i++)
		v[i] = w->names[(start + i) % w->n];
	json = qless__json_strv(v, w->n);
	free(v);
	return json;
}

/* Round robin: the next reservation starts after the queue that gave a job. */
void qless__reserve_advance(qless_worker *w, const char *queue)
{
	size_t i;
	if (w->order == QLESS_RESERVE_ORDERED || queue == NULL)
		return;
	pthread_mutex_lock(&w->mu);
	for (i = 0; i < w->n; i++)
		if (strcmp(w->names[i], queue) == 0) {
			w->next = (i + 1) % w->n;
			break;
		}
	pthread_mutex_unlock(&w->mu);
}

int qless_worker_reserve(qless_job **out, qless_worker *worker)
{
	static const char F[] = "qless_worker_reserve";
	qless_joblist *l = NULL;
	qless_args a;
	char *order;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, worker);
	if ((order = qless__reserve_order_json(worker)) == NULL)
		return qless__err_nomem(F);
	qless__settle_args(&a, worker->client->worker_name, order, 1);
	rc = qless__settle(worker->client, F, &a, NULL, 0, NULL, &l);
	free(order); /* the arguments borrowed it until the call */
	if (rc != QLESS_OK)
		return rc;
	if (l->size > 0) {
		*out = qless_joblist_take(l, 0);
		qless__reserve_advance(worker, qless_job_queue(*out));
	} else if (worker->order != QLESS_RESERVE_ORDERED) {
		/* Nothing anywhere: the next try still starts one queue further. */
		pthread_mutex_lock(&worker->mu);
		worker->next = (worker->next + 1) % worker->n;
		pthread_mutex_unlock(&worker->mu);
	}
	qless_joblist_free(l);
	return QLESS_OK;
}

int qless_worker_lost_locks(qless_strlist **out, qless_worker *worker, int timeout_ms)
{
	static const char F[] = "qless_worker_lost_locks";
	qless_strlist *l;
	int rc, wait = timeout_ms;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, worker);
	if (worker->events == NULL)
		return qless__err(QLESS_EINVAL, "%s: the worker was made with watch_locks = 0", F);
	if ((l = qless__strlist_new(0)) == NULL)
		return qless__err_nomem(F);
	for (;;) {
		char *ch, *msg;
		json_t *j, *jid, *ev;
		rc = qless_events_next(&ch, &msg, worker->events, wait);
		if (rc != QLESS_OK) {
			qless_strlist_free(l);
			return rc;
		}
		if (msg == NULL)
			break;
		wait = 0; /* after the first, only what has already arrived */
		j = json_loads(msg, 0, NULL);
		jid = json_object_get(j, "jid");
		ev = json_object_get(j, "event");
		if (json_is_string(jid) && json_is_string(ev) &&
		    (strcmp(json_string_value(ev), "lock_lost") == 0 || strcmp(json_string_value(ev), "canceled") == 0))
			rc = qless__strlist_push(l, json_string_value(jid), json_string_length(jid), 0);
		json_decref(j);
		free(ch);
		free(msg);
		if (rc != QLESS_OK) {
			qless_strlist_free(l);
			return qless__err_nomem(F);
		}
	}
	*out = l;
	return QLESS_OK;
}
