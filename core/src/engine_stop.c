/* Stopping a run: the stop flag, the wake pipe that cuts waits short, the
 * signals that ask for a stop, and the monotonic clock the waits and
 * outages are measured on. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "qless/qless.h"
#include "engine_stop.h"

double qless__mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int qless__wake_open(qless_worker *w)
{
	char drain[64];
	int i;
	if (w->wake[0] < 0) {
		if (pipe(w->wake) != 0) {
			w->wake[0] = w->wake[1] = -1;
			return -1;
		}
		/* Non-blocking: a stop from a signal handler never blocks on a full
		 * pipe, and draining below never waits. */
		for (i = 0; i < 2; i++)
			fcntl(w->wake[i], F_SETFL, fcntl(w->wake[i], F_GETFL) | O_NONBLOCK);
	}
	/* A stop of an earlier run left a byte: waits would not wait. */
	while (read(w->wake[0], drain, sizeof drain) > 0)
		;
	return 0;
}

int qless__stopping(const qless_worker *w)
{
	return __atomic_load_n(&w->stopping, __ATOMIC_RELAXED);
}

void qless__wait(qless_worker *w, double seconds)
{
	struct timespec ts;
	if (seconds <= 0)
		return;
	if (!qless__stopping(w) && w->wake[0] >= 0) {
		struct pollfd p = { w->wake[0], POLLIN, 0 };
		(void)poll(&p, 1, (int)(seconds * 1000 + 0.5));
		return;
	}
	/* Stopping: the pipe stays readable, so sleep instead of spinning. */
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static qless_worker *volatile signal_worker;
static struct sigaction saved[3];
static const int handled[3] = { SIGTERM, SIGINT, SIGQUIT };

void qless_worker_stop(qless_worker *worker, int immediate)
{
	size_t i;
	int saved_errno = errno;
	if (worker == NULL)
		return;
	if (immediate) {
		qless_worker *w;
		for (w = worker; w != NULL; w = w->peer)
			for (i = 0; i < w->nchildren; i++)
				if (w->children != NULL && w->children[i] > 0)
					kill(w->children[i], SIGKILL);
		_exit(1);
	}
	for (; worker != NULL; worker = worker->peer) {
		__atomic_store_n(&worker->stopping, 1, __ATOMIC_RELAXED);
		if (worker->wake[1] >= 0)
			(void)!write(worker->wake[1], "x", 1);
	}
	errno = saved_errno;
}

static void on_signal(int sig)
{
	if (signal_worker != NULL)
		qless_worker_stop(signal_worker, sig == SIGQUIT);
}

void qless__signals_install(qless_worker *w)
{
	struct sigaction sa;
	size_t i;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	signal_worker = w;
	for (i = 0; i < 3; i++)
		sigaction(handled[i], &sa, &saved[i]);
}

void qless__signals_block(sigset_t *old)
{
	sigset_t set;
	size_t i;
	sigemptyset(&set);
	for (i = 0; i < 3; i++)
		sigaddset(&set, handled[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void qless__signals_restore(void)
{
	size_t i;
	for (i = 0; i < 3; i++)
		sigaction(handled[i], &saved[i], NULL);
	signal_worker = NULL;
}
