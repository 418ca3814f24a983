/* qless_heartbeater: a background thread renewing a job's lock on a
 * connection of its own. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qless/qless.h"
#include "args.h"
#include "bgthread.h"
#include "call.h"
#include "client_state.h"
#include "errors.h"
#include "handles.h"
#include "job_snapshot.h"
#include "util.h"

struct qless_heartbeater {
	qless_client *client; /* private: used only by the thread */
	char *jid;
	double interval;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	int lost;
	int64_t beats;
};

static void *beat_loop(void *arg)
{
	qless_heartbeater *hb = arg;
	struct timespec deadline;

	pthread_mutex_lock(&hb->mu);
	while (!hb->stop) {
		qless_args a;
		int rc;
		long long ns;

		clock_gettime(CLOCK_MONOTONIC, &deadline);
		ns = (long long)(hb->interval * 1e9);
		deadline.tv_sec += (time_t)(ns / 1000000000LL);
		deadline.tv_nsec += (long)(ns % 1000000000LL);
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		rc = 0;
		while (!hb->stop && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&hb->cv, &hb->mu, &deadline);
		if (hb->stop)
			break;
		pthread_mutex_unlock(&hb->mu);

		qless__args_init(&a);
		qless__args_add(&a, hb->jid);
		qless__args_add(&a, hb->client->worker_name);
		rc = qless__call_int(hb->client, "qless_heartbeater", "heartbeat", &a, NULL);

		pthread_mutex_lock(&hb->mu);
		if (rc == QLESS_OK) {
			__atomic_add_fetch(&hb->beats, 1, __ATOMIC_RELAXED);
		} else if (rc == QLESS_ELOCK || rc == QLESS_ENOTFOUND) {
			__atomic_store_n(&hb->lost, 1, __ATOMIC_RELAXED);
			break;
		}
		/* other failures (I/O): try again at the next beat */
	}
	pthread_mutex_unlock(&hb->mu);
	return NULL;
}

static void hb_destroy(qless_heartbeater *hb)
{
	qless__client_unref(hb->client);
	free(hb->jid);
	free(hb);
	qless__handle_add(-1);
}

int qless_heartbeater_new(qless_heartbeater **out, qless_job *job, double interval)
{
	static const char F[] = "qless_heartbeater_new";
	qless_heartbeater *hb;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, job);
	if (!qless__finite(interval) || !(interval > 0))
		return qless__err(QLESS_EINVAL, "%s: interval must be > 0", F);
	hb = calloc(1, sizeof *hb);
	if (hb == NULL)
		return qless__err_nomem(F);
	qless__handle_add(1);
	hb->interval = interval;
	if ((hb->jid = qless__strdup(qless_job_jid(job))) == NULL) {
		hb_destroy(hb);
		return qless__err_nomem(F);
	}
	if ((rc = qless__client_clone(qless__job_client(job), &hb->client)) != QLESS_OK) {
		hb_destroy(hb);
		return rc;
	}
	rc = qless__bg_start(&hb->thread, &hb->mu, &hb->cv, beat_loop, hb);
	if (rc != 0) {
		hb_destroy(hb);
		return qless__err(QLESS_ENOMEM, "%s: cannot start the thread: %s", F, strerror(rc));
	}
	*out = hb;
	return QLESS_OK;
}

int qless_heartbeater_lost(const qless_heartbeater *heartbeater)
{
	return heartbeater ? __atomic_load_n(&heartbeater->lost, __ATOMIC_RELAXED) : 0;
}

int64_t qless_heartbeater_beats(const qless_heartbeater *heartbeater)
{
	return heartbeater ? __atomic_load_n(&heartbeater->beats, __ATOMIC_RELAXED) : 0;
}

void qless_heartbeater_free(qless_heartbeater *heartbeater)
{
	if (heartbeater == NULL)
		return;
	qless__bg_stop(heartbeater->thread, &heartbeater->mu, &heartbeater->cv, &heartbeater->stop);
	hb_destroy(heartbeater);
}
