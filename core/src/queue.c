/* qless_queue: the handle, pop, peek, counts, stats and queue settings (put is
 * in put.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "errors.h"
#include "handles.h"
#include "joblist.h"
#include "queue_counts.h"
#include "queue_handle.h"
#include "util.h"

struct qless_queue {
	qless_client *client;
	char *name;
};

int qless_queue_new(qless_queue **out, qless_client *client, const char *name)
{
	static const char F[] = "qless_queue_new";
	qless_queue *q;
	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_NULL(F, name);
	if (name[0] == '\0')
		return qless__err_empty(F, "queue name");
	q = calloc(1, sizeof *q);
	if (q == NULL || (q->name = qless__strdup(name)) == NULL) {
		free(q);
		return qless__err_nomem(F);
	}
	q->client = client;
	qless__client_ref(client);
	qless__handle_add(1);
	*out = q;
	return QLESS_OK;
}

void qless_queue_free(qless_queue *queue)
{
	if (queue == NULL)
		return;
	qless__handle_add(-1);
	qless__client_unref(queue->client);
	free(queue->name);
	free(queue);
}

qless_client *qless__queue_client(const qless_queue *queue)
{
	return queue->client;
}

const char *qless_queue_name(const qless_queue *queue)
{
	return queue ? queue->name : NULL;
}

static int pop_peek(qless_queue *queue, qless_joblist **out, int64_t count, const char *F, int pop)
{
	qless_args a;
	redisReply *r;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, queue);
	if (count < 0)
		return qless__err(QLESS_EINVAL, "%s: count is negative", F);
	if (count == 0) {
		*out = qless__joblist_empty();
		return *out ? QLESS_OK : qless__err_nomem(F);
	}
	qless__args_init(&a);
	qless__args_add(&a, queue->name);
	if (pop)
		qless__args_add(&a, queue->client->worker_name);
	qless__args_int(&a, count);
	if ((rc = qless__call(queue->client, F, pop ? "pop" : "peek", &a, &r)) != QLESS_OK)
		return rc;
	rc = qless__joblist_from_reply(queue->client, r, out, F);
	freeReplyObject(r);
	return rc;
}

int qless_queue_pop(qless_joblist **out, qless_queue *queue, int64_t count)
{
	return pop_peek(queue, out, count, "qless_queue_pop", 1);
}

int qless_queue_peek(qless_joblist **out, qless_queue *queue, int64_t count)
{
	return pop_peek(queue, out, count, "qless_queue_peek", 0);
}

int qless_queue_length(int64_t *out, qless_queue *queue)
{
	static const char F[] = "qless_queue_length";
	qless_args a;
	QLESS_CHECK_NULL(F, out);
	*out = 0;
	QLESS_CHECK_NULL(F, queue);
	qless__args_init(&a);
	qless__args_add(&a, queue->name);
	return qless__call_int(queue->client, F, "length", &a, out);
}

int qless_queue_counts_get(qless_queue_counts *out, qless_queue *queue)
{
	static const char F[] = "qless_queue_counts_get";
	const char *name;
	qless_args a;
	json_t *j;
	int rc;

	QLESS_CHECK_NULL(F, out);
	if (out->version != QLESS_QUEUE_COUNTS_VERSION)
		return qless__err(QLESS_EINVAL, "%s: out->version must be QLESS_QUEUE_COUNTS_VERSION", F);
	QLESS_CHECK_NULL(F, queue);
	qless__args_init(&a);
	qless__args_add(&a, queue->name);
	if ((rc = qless__call_json(queue->client, F, "queues", &a, &j)) != QLESS_OK)
		return rc;
	rc = qless__queue_counts_parse(j, out, &name, F);
	json_decref(j);
	return rc;
}

static int name_command(qless_queue *queue, const char *F, const char *cmd)
{
	qless_args a;
	QLESS_CHECK_NULL(F, queue);
	qless__args_init(&a);
	qless__args_add(&a, queue->name);
	return qless__call_void(queue->client, F, cmd, &a);
}

int qless_queue_pause(qless_queue *queue)
{
	return name_command(queue, "qless_queue_pause", "pause");
}

int qless_queue_unpause(qless_queue *queue)
{
	return name_command(queue, "qless_queue_unpause", "unpause");
}

int qless_queue_forget(qless_queue *queue)
{
	return name_command(queue, "qless_queue_forget", "queue.forget");
}

int qless_queue_unfail(int64_t *out_moved, qless_queue *queue, const char *group, int64_t count)
{
	static const char F[] = "qless_queue_unfail";
	qless_args a;
	if (out_moved != NULL)
		*out_moved = 0;
	QLESS_CHECK_NULL(F, queue);
	QLESS_CHECK_STR(F, group);
	if (count < 0)
		return qless__err(QLESS_EINVAL, "%s: count is negative", F);
	qless__args_init(&a);
	qless__args_add(&a, queue->name);
	qless__args_add(&a, group);
	qless__args_int(&a, count ? count : 25);
	return qless__call_int(queue->client, F, "unfail", &a, out_moved);
}

static int set_config(qless_queue *queue, const char *F, const char *suffix, int64_t value)
{
	char *key;
	char buf[32];
	size_t n;
	int rc;
	QLESS_CHECK_NULL(F, queue);
	n = strlen(queue->name) + strlen(suffix) + 1;
	if ((key = malloc(n)) == NULL)
		return qless__err_nomem(F);
	snprintf(key, n, "%s%s", queue->name, suffix);
	snprintf(buf, sizeof buf, "%lld", (long long)value);
	rc = qless_client_config_set(queue->client, key, buf);
	free(key);
	return rc;
}

int qless_queue_set_heartbeat(qless_queue *queue, int64_t seconds)
{
	/* A lock of no time (or less) would expire as it is handed out. */
	if (seconds < 1)
		return qless__err(QLESS_EINVAL, "qless_queue_set_heartbeat: seconds must be at least 1");
	return set_config(queue, "qless_queue_set_heartbeat", "-heartbeat", seconds);
}

int qless_queue_set_max_concurrency(qless_queue *queue, int64_t max)
{
	if (max < 0)
		return qless__err(QLESS_EINVAL, "qless_queue_set_max_concurrency: max is negative");
	return set_config(queue, "qless_queue_set_max_concurrency", "-max-concurrency", max);
}

static int timing(json_t *v, qless_timing_stats *t)
{
	json_t *h;
	size_t i;
	if (!json_is_object(v))
		return -1;
	h = json_object_get(v, "histogram");
	if (!json_is_array(h) && !(json_is_object(h) && json_object_size(h) == 0))
		return -1;
	t->count = qless__jint(json_object_get(v, "count"));
	t->mean = qless__jnum(json_object_get(v, "mean"));
	t->std = qless__jnum(json_object_get(v, "std"));
	for (i = 0; i < QLESS_STATS_BUCKETS; i++)
		t->histogram[i] = qless__jint(json_array_get(h, i));
	return 0;
}

int qless_queue_stats(qless_stats *out, qless_queue *queue, double date)
{
	static const char F[] = "qless_queue_stats";
	qless_args a;
	json_t *j;
	int rc;

	QLESS_CHECK_NULL(F, out);
	if (out->version != QLESS_STATS_VERSION)
		return qless__err(QLESS_EINVAL, "%s: out->version must be QLESS_STATS_VERSION", F);
	QLESS_CHECK_NULL(F, queue);
	if ((rc = qless__check_finite(F, "date", date)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_add(&a, queue->name);
	qless__args_num(&a, date);
	if ((rc = qless__call_json(queue->client, F, "stats", &a, &j)) != QLESS_OK)
		return rc;
	if (!json_is_object(j) || timing(json_object_get(j, "wait"), &out->wait) != 0 ||
	    timing(json_object_get(j, "run"), &out->run) != 0) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: unexpected stats reply", F);
	}
	out->retries = qless__jint(json_object_get(j, "retries"));
	out->failed = qless__jint(json_object_get(j, "failed"));
	out->failures = qless__jint(json_object_get(j, "failures"));
	json_decref(j);
	return QLESS_OK;
}
