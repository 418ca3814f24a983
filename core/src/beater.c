/* The worker engine's heartbeat thread: one per process (serial worker,
 * thread pool or pool child), on a connection of its own, renewing the lock
 * of every job its slots run and marking a job whose lock is gone. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qless/qless.h"
#include "args.h"
#include "beater.h"
#include "bgthread.h"
#include "call.h"
#include "client_state.h"
#include "engine.h"
#include "engine_stop.h"
#include "errors.h"
#include "job_snapshot.h"
#include "reconnect.h"
#include "util.h"

#define BEATER_MAX_SLOTS 256

struct qless_beater {
	qless_client *client;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	qless_slot *slots[BEATER_MAX_SLOTS];
	size_t nslots;
};

static void timespec_at(struct timespec *ts, double mono_at)
{
	struct timespec now;
	double delta = mono_at - qless__mono();
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (delta < 0)
		delta = 0;
	ts->tv_sec = now.tv_sec + (time_t)delta;
	ts->tv_nsec = now.tv_nsec + (long)((delta - (double)(time_t)delta) * 1e9);
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* Beats every slot whose time has come. Never calls a callback: only C and
 * its own connection, so no language runtime is entered from this thread. */
static void *beat_loop(void *arg)
{
	qless_beater *b = arg;
	pthread_mutex_lock(&b->mu);
	while (!b->stop) {
		double now = qless__mono(), earliest = now + 1.0;
		qless_slot *due = NULL;
		size_t i;
		for (i = 0; i < b->nslots; i++) {
			qless_slot *s = b->slots[i];
			if (s->job == NULL)
				continue;
			if (s->next_beat <= now && due == NULL)
				due = s;
			else if (s->next_beat < earliest)
				earliest = s->next_beat;
		}
		if (due == NULL) {
			struct timespec ts;
			timespec_at(&ts, earliest);
			pthread_cond_timedwait(&b->cv, &b->mu, &ts);
			continue;
		}
		{
			char *jid = qless__strdup(qless_job_jid(due->job));
			char *name = qless__strdup(due->client->worker_name);
			unsigned long seq = due->seq;
			qless_args a;
			int rc;
			due->next_beat = now + due->interval;
			pthread_mutex_unlock(&b->mu);
			rc = QLESS_ENOMEM;
			if (jid && name) {
				qless__args_init(&a);
				qless__args_add(&a, jid);
				qless__args_add(&a, name);
				rc = qless__call_int(b->client, "qless_worker heartbeat", "heartbeat", &a, NULL);
			}
			free(jid);
			free(name);
			pthread_mutex_lock(&b->mu);
			/* Lost for good: the script refused. Other failures (Redis
			 * away) are tried again at the next beat. */
			if ((rc == QLESS_ELOCK || rc == QLESS_ENOTFOUND) && due->job != NULL && due->seq == seq)
				qless__job_set_lock_lost(due->job);
		}
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

int qless__beater_start(qless_worker *w, qless_client *like)
{
	qless_beater *b = calloc(1, sizeof *b);
	int rc;
	if (b == NULL)
		return qless__err_nomem("qless_worker_run");
	if ((b->client = qless__connect_retry(w, like, NULL)) == NULL) {
		free(b);
		return qless__stopping(w) ? QLESS_OK : qless_error_last_code();
	}
	rc = qless__bg_start(&b->thread, &b->mu, &b->cv, beat_loop, b);
	if (rc != 0) {
		qless_client_free(b->client);
		free(b);
		return qless__err(QLESS_ENOMEM, "qless_worker_run: cannot start the heartbeat thread: %s", strerror(rc));
	}
	w->beater = b;
	return QLESS_OK;
}

void qless__beater_stop(qless_worker *w)
{
	qless_beater *b = w->beater;
	if (b == NULL)
		return;
	qless__bg_stop(b->thread, &b->mu, &b->cv, &b->stop);
	qless_client_free(b->client);
	free(b);
	w->beater = NULL;
}

void qless__beater_add(qless_worker *w, qless_slot *slot)
{
	qless_beater *b = w->beater;
	pthread_mutex_lock(&b->mu);
	if (b->nslots < BEATER_MAX_SLOTS)
		b->slots[b->nslots++] = slot;
	pthread_mutex_unlock(&b->mu);
}

void qless__beater_remove(qless_worker *w, qless_slot *slot)
{
	qless_beater *b = w->beater;
	size_t i;
	pthread_mutex_lock(&b->mu);
	for (i = 0; i < b->nslots; i++)
		if (b->slots[i] == slot)
			b->slots[i] = b->slots[--b->nslots];
	pthread_mutex_unlock(&b->mu);
}

void qless__slot_begin(qless_slot *s, qless_job *job)
{
	qless_beater *b = s->worker->beater;
	double ttl = qless_job_expires(job) - qless__now(s->client);
	pthread_mutex_lock(&b->mu);
	s->job = job;
	s->seq++;
	s->interval = s->worker->run.heartbeat > 0 ? s->worker->run.heartbeat : ttl / 3;
	if (!(s->interval >= 0.1))
		s->interval = 0.1;
	s->next_beat = qless__mono() + s->interval;
	pthread_cond_signal(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

void qless__slot_end(qless_slot *s)
{
	qless_beater *b = s->worker->beater;
	pthread_mutex_lock(&b->mu);
	s->job = NULL;
	pthread_mutex_unlock(&b->mu);
}

