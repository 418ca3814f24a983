/* Retry backoff policies of a worker: per class, per queue or the default,
 * the delay they give a retry, and their text form (qless_backoff_parse). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qless/qless.h"
#include "backoff.h"
#include "engine.h"
#include "errors.h"
#include "util.h"

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

int qless_backoff_parse(qless_backoff *out, const char *spec)
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
