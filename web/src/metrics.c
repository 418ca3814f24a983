/*
 * /metrics and `qless metrics`: Prometheus text format. Calls: one for the
 * queues' counts, one per queue for today's stats, one for the workers,
 * one for the failure groups, one for schedule lag and tree counts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "server.h"

typedef struct buf {
	char *s;
	size_t len, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = (b->cap + (size_t)n + 1) * 2;
		char *s = realloc(b->s, cap);
		if (s == NULL)
			return;
		b->s = s;
		b->cap = cap;
	}
}

/* A label value with \, " and newline escaped (owned). */
static char *label(const char *v)
{
	size_t n = strlen(v);
	char *out = malloc(2 * n + 1), *w = out;
	if (out == NULL)
		return NULL;
	for (const char *p = v; *p; p++) {
		if (*p == '\\' || *p == '"') {
			*w++ = '\\';
			*w++ = *p;
		} else if (*p == '\n') {
			*w++ = '\\';
			*w++ = 'n';
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	return out;
}

static int call_json(json_t **out, int *calls, qless_client *client, const char *cmd, const char *const *argv, size_t argc)
{
	char *text = NULL;
	(*calls)++;
	int rc = qless_client_call(&text, client, cmd, argv, argc);
	if (rc != QLESS_OK)
		return rc;
	*out = text ? json_loads(text, JSON_DECODE_ANY, NULL) : json_null();
	qless_free(text);
	if (*out == NULL)
		*out = json_null();
	return QLESS_OK;
}

/* The upper bound in seconds of qless's histogram slot i (60 seconds,
 * 59 minutes, 23 hours, then days). */
static double slot_upper(size_t i)
{
	if (i < 60)
		return (double)(i + 1);
	if (i < 119)
		return (double)(i - 58) * 60;
	if (i < 142)
		return (double)(i - 117) * 3600;
	return (double)(i - 140) * 86400;
}

static const double LE[] = { 1, 5, 10, 30, 60, 300, 900, 1800, 3600, 21600, 86400 };

static void histogram(buf *b, const char *name, const char *q, json_t *h)
{
	json_t *hist = json_object_get(h, "histogram");
	double count = json_number_value(json_object_get(h, "count"));
	double mean = json_number_value(json_object_get(h, "mean"));
	for (size_t k = 0; k < sizeof LE / sizeof LE[0]; k++) {
		double n = 0;
		size_t i;
		json_t *v;
		json_array_foreach(hist, i, v) if (slot_upper(i) <= LE[k]) n += json_number_value(v);
		put(b, "%s_bucket{queue=\"%s\",le=\"%g\"} %.0f\n", name, q, LE[k], n);
	}
	put(b, "%s_bucket{queue=\"%s\",le=\"+Inf\"} %.0f\n", name, q, count);
	put(b, "%s_sum{queue=\"%s\"} %.6f\n", name, q, mean * count);
	put(b, "%s_count{queue=\"%s\"} %.0f\n", name, q, count);
}

int web_metrics_text(char **out, int *calls_out, qless_client *client)
{
	int calls = 0, rc;
	json_t *queues = NULL, *workers = NULL, *extra = NULL;
	if ((rc = call_json(&queues, &calls, client, "queues", NULL, 0)) != QLESS_OK)
		goto done;
	if ((rc = call_json(&workers, &calls, client, "workers", NULL, 0)) != QLESS_OK)
		goto done;
	if ((rc = call_json(&extra, &calls, client, "metrics.extra", NULL, 0)) != QLESS_OK)
		goto done;
	if (!json_is_array(queues)) {
		json_decref(queues);
		queues = json_array();
	}
	char date[32];   /* stats takes a time within the day */
	snprintf(date, sizeof date, "%.0f", qless_client_now(client));

	buf b = { 0 };
	static const char *const states[] = { "waiting", "running", "scheduled", "stalled", "depends", "recurring" };
	put(&b, "# HELP qless_jobs Jobs per queue and state.\n# TYPE qless_jobs gauge\n");
	size_t i;
	json_t *q;
	json_array_foreach(queues, i, q) {
		char *name = label(json_string_value(json_object_get(q, "name")) ? json_string_value(json_object_get(q, "name")) : "");
		for (size_t s = 0; s < sizeof states / sizeof states[0]; s++)
			put(&b, "qless_jobs{queue=\"%s\",state=\"%s\"} %lld\n", name, states[s],
			    (long long)json_integer_value(json_object_get(q, states[s])));
		free(name);
	}
	put(&b, "# HELP qless_queue_paused Whether the queue is paused.\n# TYPE qless_queue_paused gauge\n");
	json_array_foreach(queues, i, q) {
		char *name = label(json_string_value(json_object_get(q, "name")) ? json_string_value(json_object_get(q, "name")) : "");
		put(&b, "qless_queue_paused{queue=\"%s\"} %d\n", name, json_is_true(json_object_get(q, "paused")));
		free(name);
	}
	/* Today's stats (qless keeps them per UTC day: the counters restart at midnight). */
	json_t *stats = json_array();
	json_array_foreach(queues, i, q) {
		const char *argv[] = { json_string_value(json_object_get(q, "name")), date };
		json_t *s = NULL;
		if (argv[0] == NULL || (rc = call_json(&s, &calls, client, "stats", argv, 2)) != QLESS_OK) {
			json_decref(stats);
			free(b.s);
			goto done;
		}
		json_array_append_new(stats, s);
	}
	put(&b, "# HELP qless_jobs_completed_total Jobs completed today (UTC) per queue.\n# TYPE qless_jobs_completed_total counter\n");
	json_array_foreach(queues, i, q) {
		char *name = label(json_string_value(json_object_get(q, "name")));
		put(&b, "qless_jobs_completed_total{queue=\"%s\"} %.0f\n", name,
		    json_number_value(json_object_get(json_object_get(json_array_get(stats, i), "run"), "count")));
		free(name);
	}
	put(&b, "# HELP qless_jobs_failed_total Jobs failed today (UTC) per queue.\n# TYPE qless_jobs_failed_total counter\n");
	json_array_foreach(queues, i, q) {
		char *name = label(json_string_value(json_object_get(q, "name")));
		put(&b, "qless_jobs_failed_total{queue=\"%s\"} %.0f\n", name,
		    json_number_value(json_object_get(json_array_get(stats, i), "failures")));
		free(name);
	}
	put(&b, "# HELP qless_wait_seconds Time jobs waited before a worker popped them (today, UTC).\n# TYPE qless_wait_seconds histogram\n");
	json_array_foreach(queues, i, q) {
		char *name = label(json_string_value(json_object_get(q, "name")));
		histogram(&b, "qless_wait_seconds", name, json_object_get(json_array_get(stats, i), "wait"));
		free(name);
	}
	put(&b, "# HELP qless_run_seconds Time jobs ran (today, UTC).\n# TYPE qless_run_seconds histogram\n");
	json_array_foreach(queues, i, q) {
		char *name = label(json_string_value(json_object_get(q, "name")));
		histogram(&b, "qless_run_seconds", name, json_object_get(json_array_get(stats, i), "run"));
		free(name);
	}
	json_decref(stats);
	put(&b, "# HELP qless_workers Workers seen recently.\n# TYPE qless_workers gauge\nqless_workers %zu\n",
	    json_is_array(workers) ? json_array_size(workers) : 0);
	put(&b, "# HELP qless_failed_jobs Failed jobs (all groups).\n# TYPE qless_failed_jobs gauge\nqless_failed_jobs %lld\n",
	    (long long)json_integer_value(json_object_get(extra, "failed")));
	put(&b, "# HELP qless_schedule_lag_entries Scheduled entries due but not yet moved to waiting.\n"
	        "# TYPE qless_schedule_lag_entries gauge\n");
	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(extra, "lag"), key, v) {
		char *name = label(key);
		put(&b, "qless_schedule_lag_entries{schedule=\"%s\"} %lld\n", name, (long long)json_integer_value(v));
		free(name);
	}
	put(&b, "# HELP qless_job_trees Tree jobs by status.\n# TYPE qless_job_trees gauge\n");
	json_object_foreach(json_object_get(extra, "trees"), key, v) {
		char *name = label(key);
		put(&b, "qless_job_trees{status=\"%s\"} %lld\n", name, (long long)json_integer_value(v));
		free(name);
	}
	*out = b.s ? b.s : strdup("");
	rc = QLESS_OK;
done:
	json_decref(queues);
	json_decref(workers);
	json_decref(extra);
	if (calls_out != NULL)
		*calls_out += calls;
	return rc;
}
