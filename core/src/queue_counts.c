/* Queue counts: the one parser of the protocol's `queues` entries, used for
 * a single queue (qless_queue_counts_get) and for every queue
 * (qless_client_queue_counts), and the list the latter returns. */
#include <stdlib.h>

#include <jansson.h>

#include "qless/qless.h"
#include "client_admin.h"
#include "errors.h"
#include "handles.h"
#include "queue_counts.h"
#include "util.h"

struct qless_queue_countlist {
	size_t size;
	char **names;
	qless_queue_counts *counts;
};

int qless__queue_counts_parse(const json_t *obj, qless_queue_counts *out, const char **name, const char *F)
{
	static const char *const keys[] = { "waiting", "running", "stalled", "scheduled", "depends", "recurring" };
	int64_t *const fields[] = { &out->waiting, &out->running, &out->stalled,
	                            &out->scheduled, &out->depends, &out->recurring };
	int64_t vals[6];
	const json_t *n, *paused;
	size_t i;

	if (!json_is_object(obj))
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON object of queue counts", F);
	n = json_object_get(obj, "name");
	if (!json_is_string(n) || json_string_length(n) == 0)
		return qless__err(QLESS_EPROTOCOL, "%s: queue counts without a name", F);
	for (i = 0; i < 6; i++) {
		const json_t *v = json_object_get(obj, keys[i]);
		if (!json_is_number(v) || qless__jnum(v) < 0)
			return qless__err(QLESS_EPROTOCOL, "%s: queue counts lack the count \"%s\"", F, keys[i]);
		vals[i] = qless__jint(v);
	}
	paused = json_object_get(obj, "paused");
	if (!json_is_boolean(paused))
		return qless__err(QLESS_EPROTOCOL, "%s: queue counts lack the flag \"paused\"", F);
	/* Written only once the whole entry is known good. */
	for (i = 0; i < 6; i++)
		*fields[i] = vals[i];
	out->paused = json_is_true(paused);
	*name = json_string_value(n);
	return QLESS_OK;
}

void qless_queue_countlist_free(qless_queue_countlist *list)
{
	size_t i;
	if (list == NULL)
		return;
	qless__handle_add(-1);
	for (i = 0; i < list->size; i++)
		free(list->names[i]);
	free(list->names);
	free(list->counts);
	free(list);
}

int qless_client_queue_counts(qless_queue_countlist **out, qless_client *client)
{
	static const char F[] = "qless_client_queue_counts";
	static const qless_queue_counts init = QLESS_QUEUE_COUNTS_INIT;
	qless_queue_countlist *l;
	json_t *j, *v;
	size_t i, n;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__queues_reply(client, F, &j)) != QLESS_OK)
		return rc;
	n = json_array_size(j);
	l = calloc(1, sizeof *l);
	if (l != NULL) {
		qless__handle_add(1);
		/* One spare slot: calloc(0) may return NULL, which is not OOM. */
		l->names = calloc(n + 1, sizeof *l->names);
		l->counts = calloc(n + 1, sizeof *l->counts);
	}
	if (l == NULL || l->names == NULL || l->counts == NULL) {
		qless_queue_countlist_free(l);
		json_decref(j);
		return qless__err_nomem(F);
	}
	json_array_foreach(j, i, v) {
		const char *name;
		l->counts[i] = init;
		if ((rc = qless__queue_counts_parse(v, &l->counts[i], &name, F)) != QLESS_OK)
			break;
		if ((l->names[i] = qless__strdup(name)) == NULL) {
			rc = qless__err_nomem(F);
			break;
		}
		l->size++;
	}
	json_decref(j);
	if (rc != QLESS_OK) {
		qless_queue_countlist_free(l);
		return rc;
	}
	*out = l;
	return QLESS_OK;
}

size_t qless_queue_countlist_size(const qless_queue_countlist *list)
{
	return list ? list->size : 0;
}

const char *qless_queue_countlist_name(const qless_queue_countlist *list, size_t index)
{
	if (list == NULL || index >= list->size)
		return NULL;
	return list->names[index];
}

int qless_queue_countlist_get(qless_queue_counts *out, const qless_queue_countlist *list, size_t index)
{
	static const char F[] = "qless_queue_countlist_get";
	QLESS_CHECK_NULL(F, out);
	if (out->version != QLESS_QUEUE_COUNTS_VERSION)
		return qless__err(QLESS_EINVAL, "%s: out->version must be QLESS_QUEUE_COUNTS_VERSION", F);
	QLESS_CHECK_NULL(F, list);
	if (index >= list->size)
		return qless__err(QLESS_EINVAL, "%s: index %zu is out of range (%zu queues)", F, index, list->size);
	*out = list->counts[index];
	return QLESS_OK;
}
