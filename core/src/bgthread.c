/* The heartbeat threads' shared start and stop (the worker's beater and the
 * public qless_heartbeater): a thread that sleeps on a CLOCK_MONOTONIC
 * condition variable, so a wall-clock jump neither stalls nor hurries its
 * beats, until a stop flag set under its mutex wakes it. */
#include <pthread.h>
#include <signal.h>

#include "qless/qless.h"
#include "bgthread.h"

int qless__bg_start(pthread_t *thread, pthread_mutex_t *mu, pthread_cond_t *cv, void *(*fn)(void *), void *arg)
{
	pthread_condattr_t attr;
	sigset_t all, old;
	int rc;

	pthread_mutex_init(mu, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(cv, &attr);
	pthread_condattr_destroy(&attr);
	/* Every signal blocked in the thread: the program's handlers (worker
	 * shutdown, SIGQUIT) always run on its own threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		pthread_cond_destroy(cv);
		pthread_mutex_destroy(mu);
	}
	return rc;
}

void qless__bg_stop(pthread_t thread, pthread_mutex_t *mu, pthread_cond_t *cv, int *stop)
{
	pthread_mutex_lock(mu);
	*stop = 1;
	pthread_cond_signal(cv);
	pthread_mutex_unlock(mu);
	pthread_join(thread, NULL);
	pthread_cond_destroy(cv);
	pthread_mutex_destroy(mu);
}
