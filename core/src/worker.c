/* qless_worker: reserving jobs over several queues; lost-lock notices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct qless_worker {
	qless_client *client;
	qless_queue **queues;
	size_t n;
	size_t next;
	qless_reserve_order order;
	qless_events *events; /* NULL unless watch_locks */
};

int qless_worker_options_init(qless_worker_options *opts, unsigned int version)
{
	static const qless_worker_options init = QLESS_WORKER_OPTIONS_INIT;
	QLESS_CHECK_NULL("qless_worker_options_init", opts);
	if (version != QLESS_WORKER_OPTIONS_VERSION)
		return qless__err(QLESS_EINVAL, "qless_worker_options_init: unsupported version %u", version);
	*opts = init;
	return QLESS_OK;
}

void qless_worker_free(qless_worker *worker)
{
	size_t i;
	if (worker == NULL)
		return;
	for (i = 0; i < worker->n; i++)
		qless_queue_free(worker->queues[i]);
	free(worker->queues);
	qless_events_free(worker->events);
	qless__handle_add(-1);
	qless__client_unref(worker->client);
	free(worker);
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
		if (opts->order != QLESS_RESERVE_ORDERED && opts->order != QLESS_RESERVE_ROUND_ROBIN)
			return qless__err(QLESS_EINVAL, "%s: unknown reserve order %d", F, (int)opts->order);
		o = *opts;
	}
	w = calloc(1, sizeof *w);
	if (w == NULL)
		return qless__err_nomem(F);
	w->client = client;
	qless__client_ref(client);
	qless__handle_add(1);
	w->order = o.order;
	w->queues = calloc(nqueues, sizeof *w->queues);
	if (w->queues == NULL) {
		qless_worker_free(w);
		return qless__err_nomem(F);
	}
	for (i = 0; i < nqueues; i++) {
		if ((rc = qless_queue_new(&w->queues[i], client, queues[i])) != QLESS_OK) {
			qless_worker_free(w);
			return rc;
		}
		w->n++;
	}
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

int qless_worker_reserve(qless_worker *worker, qless_job **out)
{
	static const char F[] = "qless_worker_reserve";
	size_t i, start;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, worker);
	start = worker->order == QLESS_RESERVE_ROUND_ROBIN ? worker->next : 0;
	for (i = 0; i < worker->n; i++) {
		size_t idx = (start + i) % worker->n;
		qless_joblist *l;
		if (worker->order == QLESS_RESERVE_ROUND_ROBIN)
			worker->next = (idx + 1) % worker->n;
		rc = qless_queue_pop(worker->queues[idx], &l, 1);
		if (rc != QLESS_OK)
			return rc;
		if (l->size > 0) {
			*out = qless_joblist_take(l, 0);
			qless_joblist_free(l);
			return QLESS_OK;
		}
		qless_joblist_free(l);
	}
	return QLESS_OK;
}

int qless_worker_lost_locks(qless_worker *worker, int timeout_ms, qless_strlist **out)
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
		rc = qless_events_next(worker->events, wait, &ch, &msg);
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
