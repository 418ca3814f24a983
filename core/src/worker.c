/* qless_worker: construction, reservation order, backoff policies, and the
 * reserve / lost-lock calls for programs that drive their own loop. */
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
#include "options.h"
#include "strlist.h"
#include "util.h"
#include "worker_config.h"

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
	for (i = 0; i < nqueues; i++, w->n++)
		if ((w->names[i] = qless__strdup(queues[i])) == NULL) {
			qless_worker_free(w);
			return qless__err_nomem(F);
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

int qless_worker_reserve(qless_worker *worker, qless_job **out)
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

/* ---- backoff ---- */

static int check_backoff(const char *F, const qless_backoff *b)
{
	if (b->version != QLESS_BACKOFF_VERSION)
		return qless__err(QLESS_EINVAL, "%s: unsupported backoff version %u", F, b->version);
	if (b->kind != QLESS_BACKOFF_FIXED && b->kind != QLESS_BACKOFF_EXPONENTIAL)
		return qless__err(QLESS_EINVAL, "%s: unknown backoff kind %d", F, (int)b->kind);
	if (!qless__finite(b->base) || b->base < 0 || b->base > 1e9)
		return qless__err(QLESS_EINVAL, "%s: backoff base must be from 0 to 1e9 seconds", F);
	if (!qless__finite(b->max) || b->max < 0 || b->max > 1e9)
		return qless__err(QLESS_EINVAL, "%s: backoff max must be from 0 to 1e9 seconds", F);
	if (!qless__finite(b->jitter) || b->jitter < 0 || b->jitter > 1)
		return qless__err(QLESS_EINVAL, "%s: backoff jitter must be from 0 to 1", F);
	return QLESS_OK;
}

int qless_worker_set_backoff(qless_worker *worker, const char *klass, const char *queue, const qless_backoff *backoff)
{
	static const char F[] = "qless_worker_set_backoff";
	qless_policy *p = NULL, *grown;
	size_t i;
	int rc;

	QLESS_CHECK_NULL(F, worker);
	QLESS_CHECK_NULL(F, backoff);
	if (klass != NULL && queue != NULL)
		return qless__err(QLESS_EINVAL, "%s: give klass or queue, not both", F);
	if ((klass && !*klass) || (queue && !*queue))
		return qless__err_empty(F, klass ? "klass" : "queue");
	if ((rc = check_backoff(F, backoff)) != QLESS_OK)
		return rc;
	for (i = 0; i < worker->npolicies; i++) {
		qless_policy *q = &worker->policies[i];
		if ((q->klass == NULL) == (klass == NULL) && (q->queue == NULL) == (queue == NULL) &&
		    (klass == NULL || strcmp(q->klass, klass) == 0) && (queue == NULL || strcmp(q->queue, queue) == 0))
			p = q;
	}
	if (p == NULL) {
		grown = realloc(worker->policies, (worker->npolicies + 1) * sizeof *grown);
		if (grown == NULL)
			return qless__err_nomem(F);
		worker->policies = grown;
		p = &grown[worker->npolicies];
		memset(p, 0, sizeof *p);
		if ((klass && (p->klass = qless__strdup(klass)) == NULL) ||
		    (queue && (p->queue = qless__strdup(queue)) == NULL)) {
			free(p->klass);
			return qless__err_nomem(F);
		}
		worker->npolicies++;
	}
	p->backoff = *backoff;
	return QLESS_OK;
}

static const qless_backoff *policy_for(const qless_worker *w, const char *klass, const char *queue)
{
	const qless_backoff *by_queue = NULL, *fallback = NULL;
	size_t i;
	for (i = 0; i < w->npolicies; i++) {
		const qless_policy *p = &w->policies[i];
		if (p->klass != NULL) {
			if (klass != NULL && strcmp(p->klass, klass) == 0)
				return &p->backoff;
		} else if (p->queue != NULL) {
			if (queue != NULL && strcmp(p->queue, queue) == 0)
				by_queue = &p->backoff;
		} else {
			fallback = &p->backoff;
		}
	}
	return by_queue ? by_queue : fallback;
}

double qless_worker_backoff_delay(const qless_worker *worker, const char *klass, const char *queue, int64_t retry)
{
	const qless_backoff *b;
	double d;
	if (worker == NULL || (b = policy_for(worker, klass, queue)) == NULL)
		return 0;
	d = b->base;
	if (b->kind == QLESS_BACKOFF_EXPONENTIAL)
		for (; retry > 0 && d < 1e9; retry--)
			d *= 2;
	if (b->max > 0 && d > b->max)
		d = b->max;
	if (!qless__finite(d))
		d = 1e9;
	if (b->jitter > 0) {
		static __thread unsigned int seed;
		if (seed == 0)
			seed = (unsigned int)getpid() ^ (unsigned int)(uintptr_t)&seed;
		d *= 1.0 - b->jitter * ((double)rand_r(&seed) / ((double)RAND_MAX + 1.0));
	}
	return d;
}

double qless__retry_delay(const qless_worker *w, const qless_job *job)
{
	int64_t retry = qless_job_retries(job) - qless_job_remaining(job);
	return qless_worker_backoff_delay(w, qless_job_klass(job), qless_job_queue(job), retry);
}

int qless_backoff_parse(const char *spec, qless_backoff *out)
{
	static const char F[] = "qless_backoff_parse";
	qless_backoff b = QLESS_BACKOFF_INIT;
	double v[3] = { 0, 0, 0 };
	const char *p;
	char *end;
	int i, n, rc;

	QLESS_CHECK_NULL(F, out);
	QLESS_CHECK_STR(F, spec);
	if (strncmp(spec, "fixed:", 6) == 0) {
		b.kind = QLESS_BACKOFF_FIXED;
		p = spec + 6;
		n = 1;
	} else if (strncmp(spec, "exponential:", 12) == 0) {
		b.kind = QLESS_BACKOFF_EXPONENTIAL;
		p = spec + 12;
		n = 3;
	} else {
		return qless__err(QLESS_EINVAL, "%s: '%s' is not fixed:BASE or exponential:BASE[:MAX[:JITTER]]", F, spec);
	}
	for (i = 0; i < n; i++) {
		v[i] = strtod(p, &end);
		if (end == p || (*end != '\0' && *end != ':') || !qless__finite(v[i]))
			return qless__err(QLESS_EINVAL, "%s: '%s': bad number at '%s'", F, spec, p);
		p = end;
		if (*p == '\0')
			break;
		p++;
	}
	if (*p != '\0')
		return qless__err(QLESS_EINVAL, "%s: '%s': too many fields", F, spec);
	b.base = v[0];
	b.max = v[1];
	b.jitter = v[2];
	{
		/* The checks' messages then read "qless_backoff_parse: 'SPEC': ...". */
		char where[256];
		snprintf(where, sizeof where, "%s: '%s'", F, spec);
		if ((rc = check_backoff(where, &b)) != QLESS_OK)
			return rc;
	}
	*out = b;
	return QLESS_OK;
}

/* ---- allow-list of job classes ---- */

const char *qless__allow_invalid(const char *pattern)
{
	const char *star = strchr(pattern, '*');
	if (*pattern == '\0')
		return "is empty";
	if (!qless__utf8_valid(pattern))
		return "is not valid UTF-8 text";
	if (star != NULL && star[1] != '\0')
		return "has a '*' before its end: '*' may only end a prefix pattern such as 'myapp.jobs.*'";
	return NULL;
}

int qless_allowlist_check(const char *const *patterns, size_t n)
{
	static const char F[] = "qless_allowlist_check";
	size_t i;
	if (n > 0 && patterns == NULL)
		return qless__err_null(F, "patterns");
	for (i = 0; i < n; i++) {
		const char *why;
		if (patterns[i] == NULL)
			return qless__err(QLESS_EINVAL, "%s: patterns[%zu] is NULL", F, i);
		if ((why = qless__allow_invalid(patterns[i])) == NULL)
			continue;
		/* Text that is not UTF-8 is named by its place, not printed. */
		if (*patterns[i] == '\0' || !qless__utf8_valid(patterns[i]))
			return qless__err(QLESS_EINVAL, "%s: patterns[%zu] %s", F, i, why);
		return qless__err(QLESS_EINVAL, "%s: pattern '%s' %s", F, patterns[i], why);
	}
	return QLESS_OK;
}

int qless_allowlist_match(const char *const *patterns, size_t n, const char *klass)
{
	size_t i;
	if (patterns == NULL || klass == NULL)
		return 0;
	for (i = 0; i < n; i++) {
		const char *p = patterns[i];
		size_t len = p ? strlen(p) : 0;
		if (len == 0)
			continue;
		if (p[len - 1] == '*' ? strncmp(p, klass, len - 1) == 0 : strcmp(p, klass) == 0)
			return 1;
	}
	return 0;
}
