/* The batched thread pool of the worker engine: N performer threads and one
 * dispatcher (the calling thread) that settles the jobs they finished and
 * reserves for every idle one in one `settle ... batch` call, so N jobs cost
 * fewer than N round trips. Used for a thread pool whose threads share the
 * worker's name (thread_names 0): they hold each other's locks alike. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qless/qless.h"
#include "beater.h"
#include "client_state.h"
#include "engine.h"
#include "engine_log.h"
#include "engine_stop.h"
#include "errors.h"
#include "job_loop.h"
#include "job_settle.h"
#include "job_snapshot.h"
#include "joblist.h"
#include "pool.h"
#include "reconnect.h"
#include "worker_reserve.h"

/* A finished job waits this long for others to finish, so their settles
 * share a call; never longer than it takes every busy slot to finish. */
#define BATCH_LINGER 0.005
/* The dispatcher looks at the stop flag at least this often. */
#define BATCH_TICK 0.05

enum { SLOT_IDLE, SLOT_ASSIGNED, SLOT_DONE };

typedef struct batch_slot {
	qless_slot slot;       /* the performer's connection and heartbeats */
	pthread_t thread;
	int started;           /* its thread runs */
	int dead;              /* it ended early (no connection): gets no job */
	int state;             /* SLOT_*, guarded by the pool's mu */
	qless_job *job;        /* assigned or done */
	qless_result r;
	double took;
	int settle;            /* done: to be settled by r */
} batch_slot;

typedef struct batch_pool {
	qless_worker *w;
	qless_client *client;  /* the dispatcher's connection */
	pthread_mutex_t mu;
	pthread_cond_t work;   /* performers wait for a job */
	pthread_cond_t done;   /* the dispatcher waits for a finished one */
	int quit;
	int rc;                /* QLESS_ENOMEM from a performer */
	batch_slot *slots;
	int n;
	double first_done;     /* mono time the oldest unsettled job finished (0: none) */
} batch_pool;

typedef struct performer_arg {
	batch_pool *p;
	batch_slot *b;
} performer_arg;

/* A job reserved on one connection and run on another: its own methods
 * (heartbeat, log, complete ...) go through the connection of the thread
 * running it, never one shared between threads. */
static void job_rebind(qless_job *job, qless_client *c)
{
	qless_client *old = qless__job_client(job);
	if (old == c)
		return;
	qless__client_ref(c);
	qless__job_set_client(job, c);
	qless__client_unref(old);
}

static void *performer_main(void *arg)
{
	batch_pool *p = ((performer_arg *)arg)->p;
	batch_slot *b = ((performer_arg *)arg)->b;
	qless_worker *w = p->w;

	free(arg);
	b->slot.client = qless__connect_retry(w, w->client, NULL);
	pthread_mutex_lock(&p->mu);
	if (b->slot.client == NULL) {
		/* Stopping, or no connection: the slot takes no more jobs; one
		 * handed to it meanwhile goes back unsettled (settle 0). */
		b->dead = 1;
		if (!qless__stopping(w) && p->rc == QLESS_OK) {
			/* Not an outage past give_up (that stops the run anyway): the
			 * pool cannot work as asked, so the run ends with the cause. */
			p->rc = qless_error_last_code();
			qless__log(w, "pool thread: %s", qless_error_last_message());
		}
		if (b->state == SLOT_ASSIGNED)
			b->state = SLOT_DONE;
		pthread_cond_signal(&p->done);
		pthread_mutex_unlock(&p->mu);
		return NULL;
	}
	qless__beater_add(w, &b->slot);
	for (;;) {
		qless_job *job;
		int rc;
		while (!p->quit && b->state != SLOT_ASSIGNED)
			pthread_cond_wait(&p->work, &p->mu);
		if (b->state != SLOT_ASSIGNED)
			break;
		job = b->job;
		pthread_mutex_unlock(&p->mu);
		job_rebind(job, b->slot.client);
		rc = qless__slot_run(&b->slot, job, &b->r, &b->took, &b->settle);
		pthread_mutex_lock(&p->mu);
		if (rc != QLESS_OK)
			p->rc = rc;
		b->state = SLOT_DONE;
		if (p->first_done == 0)
			p->first_done = qless__mono();
		pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	qless__beater_remove(w, &b->slot);
	qless_client_free(b->slot.client);
	b->slot.client = NULL;
	return NULL;
}

static void timespec_in(struct timespec *ts, double seconds)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += (time_t)seconds;
	ts->tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* Under mu: the slots whose jobs finished (into from; they stay DONE until
 * the call settling them is over), how many slots can take a job after
 * that call (idle ones and those in from with a live thread) and how many
 * are busy. */
static size_t collect(batch_pool *p, batch_slot **from, int *free_after, int *busy)
{
	size_t n = 0;
	int i;
	*free_after = *busy = 0;
	for (i = 0; i < p->n; i++) {
		batch_slot *b = &p->slots[i];
		if (!b->started)
			continue;
		if (b->state == SLOT_DONE && b->job != NULL)
			from[n++] = b;
		else if (b->state == SLOT_ASSIGNED)
			(*busy)++;
		if (!b->dead && b->state != SLOT_ASSIGNED)
			(*free_after)++;
	}
	return n;
}

/* The items of the finished jobs that need the engine's settle; jobs that do
 * not (dropped, settled by their code) are freed and their slots freed. */
static size_t make_items(batch_pool *p, batch_slot **from, size_t n, qless_settle_item *items, batch_slot **of)
{
	size_t i, k = 0;
	for (i = 0; i < n; i++) {
		batch_slot *b = from[i];
		job_rebind(b->job, p->client);
		if (b->dead)
			qless__log(p->w, "%s %s not run (its thread has no connection): its lock will expire",
			           qless_job_jid(b->job), qless_job_klass(b->job));
		if (!b->settle) {
			qless__result_free(&b->r);
			qless_job_free(b->job);
			b->job = NULL;
			continue;
		}
		memset(&items[k], 0, sizeof items[k]);
		items[k].job = b->job;
		items[k].how = qless__outcome_how(p->w, b->job, &b->r, &items[k].delay);
		items[k].group = b->r.group;
		items[k].message = b->r.message;
		of[k++] = b;
	}
	return k;
}

/* Logs each item's outcome and frees its job (after a call that went
 * through); wait > 0: the call was retried after an outage, so a refusal
 * may be the first try's success whose reply was lost. */
static void finish_items(batch_pool *p, qless_settle_item *items, batch_slot **of, size_t k, double wait)
{
	size_t i;
	for (i = 0; i < k; i++) {
		batch_slot *b = of[i];
		qless_job *job = items[i].job;
		if (items[i].rc == QLESS_OK)
			qless__log_settled(&b->slot, job, &b->r, b->took, items[i].delay, items[i].state);
		else if (items[i].error != NULL && wait > 0 && qless__settled_before(job, &b->r))
			qless__log(p->w, "%s %s settled before the connection broke (its reply was lost): now %s",
			           qless_job_jid(job), qless_job_klass(job), qless_job_state(job));
		else
			qless__log(p->w, "%s %s dropped: %s", qless_job_jid(job), qless_job_klass(job),
			           items[i].error ? items[i].error : qless_error_last_message());
		free(items[i].error);
		items[i].error = NULL;
		qless__result_free(&b->r);
		qless_job_free(job);
		b->job = NULL;
	}
}

/* One call: settles items[0..k) and reserves up to `want` jobs (those
 * max_jobs still allows), retried across an outage; the jobs popped in *out
 * (NULL when none was asked for or the call failed). QLESS_EIO once the
 * outage lasted past give_up; a reservation alone gives up at a stop. */
static int settle_round(batch_pool *p, qless_settle_item *items, size_t k, int want, qless_joblist **out,
                        double *wait)
{
	qless_worker *w = p->w;
	double since = 0;
	size_t got;
	int count = 0, rc = QLESS_OK;
	*out = NULL;
	while (count < want && qless__claim(w))
		count++;
	while (k > 0 || count > 0) {
		char *order = qless__reserve_order_json(w);
		if (order == NULL) {
			rc = qless__err_nomem("qless_worker_run");
			break;
		}
		rc = qless__settle_batch(p->client, "qless_worker_run", order, count, items, k, out);
		free(order);
		if (rc != QLESS_EIO)
			break;
		qless_joblist_free(*out);
		*out = NULL;
		if (qless__outage_over(w, &since))
			break;
		*wait = qless__io_backoff(w, *wait, k > 0 ? "settle" : "reserve");
		if (k == 0 && qless__stopping(w)) {
			rc = QLESS_OK;
			break;
		}
	}
	if (rc == QLESS_OK && *wait > 0)
		qless__log(w, "Redis is back");
	if (rc != QLESS_OK) {
		qless_joblist_free(*out);
		*out = NULL;
	}
	for (got = *out ? (*out)->size : 0; (size_t)count > got; count--)
		qless__unclaim(w);
	return rc;
}

/* Hands the popped jobs to idle slots (under mu); returns how many. */
static size_t assign(batch_pool *p, qless_joblist *l)
{
	size_t next = 0;
	int i;
	if (l == NULL)
		return 0;
	for (i = 0; i < p->n && next < l->size; i++) {
		batch_slot *b = &p->slots[i];
		if (b->started && !b->dead && b->state == SLOT_IDLE) {
			b->job = qless_joblist_take(l, next++);
			b->settle = 0;
			b->state = SLOT_ASSIGNED;
			if (next == 1)
				qless__reserve_advance(p->w, qless_job_queue(b->job));
		}
	}
	if (next > 0)
		pthread_cond_broadcast(&p->work);
	/* Only when a thread ended during the call (it could not connect). */
	for (i = (int)next; (size_t)i < l->size; i++)
		qless__log(p->w, "%s %s not run (no thread left for it): its lock will expire",
		           qless_job_jid(qless_joblist_get(l, (size_t)i)), qless_job_klass(qless_joblist_get(l, (size_t)i)));
	return next;
}

/* Frees the jobs of a call that failed: their locks expire. */
static void drop_items(batch_pool *p, qless_settle_item *items, batch_slot **of, size_t k)
{
	size_t i;
	for (i = 0; i < k; i++) {
		qless__log(p->w, "%s %s not settled (%s): its lock will expire", qless_job_jid(items[i].job),
		           qless_job_klass(items[i].job), qless_error_last_message());
		qless__result_free(&of[i]->r);
		qless_job_free(items[i].job);
		of[i]->job = NULL;
	}
}

/* Whether to call now: finished jobs waited long enough (or nothing else
 * runs), or idle slots may reserve and nothing finished. Else *until is
 * how long to wait at most. */
static int call_due(const batch_pool *p, size_t n, int busy, int want, double next_reserve, double *until)
{
	double now = qless__mono();
	*until = BATCH_TICK;
	if (n > 0) {
		double linger_end = p->first_done + BATCH_LINGER;
		if (busy == 0 || now >= linger_end)
			return 1;
		if (linger_end - now < *until)
			*until = linger_end - now;
		return 0;
	}
	if (want > 0 && now >= next_reserve)
		return 1;
	if (want > 0 && next_reserve - now < *until)
		*until = next_reserve - now;
	return 0;
}

/* The dispatcher: settles and reserves until a stop (or max_jobs, or a
 * performer out of memory, or an outage past give_up) and every job ended. */
static int dispatch(batch_pool *p, qless_settle_item *items, batch_slot **from, batch_slot **of)
{
	qless_worker *w = p->w;
	double next_reserve = 0;
	int rc;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		int free_after, busy, want, ending;
		size_t n, k, i;
		qless_joblist *l = NULL;
		double until, wait = 0;
		n = collect(p, from, &free_after, &busy);
		ending = qless__stopping(w) || p->rc != QLESS_OK || qless__max_jobs_claimed(w);
		want = ending ? 0 : free_after;
		if (n == 0 && busy == 0 && ending)
			break;
		if (!call_due(p, n, busy, want, next_reserve, &until)) {
			struct timespec ts;
			timespec_in(&ts, until > 0.0005 ? until : 0.0005);
			pthread_cond_timedwait(&p->done, &p->mu, &ts);
			continue;
		}
		p->first_done = 0;
		pthread_mutex_unlock(&p->mu);
		k = make_items(p, from, n, items, of);
		rc = settle_round(p, items, k, want, &l, &wait);
		if (rc == QLESS_OK)
			finish_items(p, items, of, k, wait);
		else
			drop_items(p, items, of, k);
		pthread_mutex_lock(&p->mu);
		for (i = 0; i < n; i++)
			from[i]->state = SLOT_IDLE;
		if (rc == QLESS_EIO || rc == QLESS_ENOMEM) {
			p->rc = rc;
		} else if (rc != QLESS_OK) {
			/* A reservation the script refused: say why, then idle. */
			qless__log(w, "reserve failed: %s", qless_error_last_message());
			next_reserve = qless__mono() + w->run.interval;
		} else if (assign(p, l) == 0 && want > 0) {
			next_reserve = qless__mono() + w->run.interval;
		}
		qless_joblist_free(l);
	}
	rc = p->rc;
	p->quit = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	/* An outage past give_up: qless_worker_run reports it (gave_up). */
	return rc == QLESS_EIO ? QLESS_OK : rc;
}

int qless__pool_batched(qless_worker *w)
{
	batch_pool p;
	qless_settle_item *items;
	batch_slot **from, **of;
	sigset_t all, old;
	int i, rc = QLESS_OK;

	memset(&p, 0, sizeof p);
	p.w = w;
	p.n = w->run.size;
	p.slots = calloc((size_t)p.n, sizeof *p.slots);
	items = calloc((size_t)p.n, sizeof *items);
	from = calloc((size_t)p.n, sizeof *from);
	of = calloc((size_t)p.n, sizeof *of);
	if (p.slots == NULL || items == NULL || from == NULL || of == NULL) {
		rc = qless__err_nomem("qless_worker_run");
		goto out;
	}
	if ((p.client = qless__connect_retry(w, w->client, NULL)) == NULL) {
		rc = qless__stopping(w) ? QLESS_OK : qless_error_last_code();
		goto out;
	}
	if ((rc = qless__beater_start(w, w->client)) != QLESS_OK || w->beater == NULL)
		goto out;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.work, NULL);
	pthread_cond_init(&p.done, NULL);
	/* Signals stay on the calling thread, whose handler stops the pool. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < p.n; i++) {
		performer_arg *a = malloc(sizeof *a);
		p.slots[i].slot.worker = w;
		if (a == NULL) {
			qless__log(w, "cannot start pool thread %d: out of memory", i);
			continue;
		}
		a->p = &p;
		a->b = &p.slots[i];
		p.slots[i].started = 1;
		if (pthread_create(&p.slots[i].thread, NULL, performer_main, a) != 0) {
			p.slots[i].started = 0;
			free(a);
			qless__log(w, "cannot start pool thread %d", i);
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	rc = dispatch(&p, items, from, of);
	for (i = 0; i < p.n; i++)
		if (p.slots[i].started)
			pthread_join(p.slots[i].thread, NULL);
	qless__beater_stop(w);
	pthread_cond_destroy(&p.work);
	pthread_cond_destroy(&p.done);
	pthread_mutex_destroy(&p.mu);
out:
	qless_client_free(p.client);
	free(p.slots);
	free(items);
	free(from);
	free(of);
	return rc;
}
