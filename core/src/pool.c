/* Pools of the worker engine: N threads, each on a connection of its own,
 * or N forked children supervised by the calling process. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

#include "qless/qless.h"
#include "args.h"
#include "beater.h"
#include "client_state.h"
#include "engine.h"
#include "engine_log.h"
#include "engine_stop.h"
#include "errors.h"
#include "job_loop.h"
#include "job_settle.h"
#include "pool.h"
#include "reconnect.h"

/* ---- threads ---- */

typedef struct pool_thread {
	qless_slot slot;
	pthread_t thread;
	int started, rc;
	int index;     /* 1..size */
} pool_thread;

static void *thread_main(void *arg)
{
	pool_thread *t = arg;
	qless_worker *w = t->slot.worker;
	char *name = NULL;
	/* The slot's client carries the name: reservations, heartbeats and
	 * settles of this thread all go out under it. */
	if (w->run.thread_names) {
		size_t len = strlen(w->client->worker_name) + 16;
		if ((name = malloc(len)) == NULL) {
			t->rc = qless__err_nomem("qless_worker_run");
			return NULL;
		}
		snprintf(name, len, "%s-%d", w->client->worker_name, t->index);
	}
	t->slot.client = qless__connect_retry(w, w->client, name);
	free(name);
	if (t->slot.client == NULL) {
		t->rc = qless__stopping(w) ? QLESS_OK : qless_error_last_code();
		if (t->rc != QLESS_OK)
			qless__log(w, "pool thread: %s", qless_error_last_message());
		return NULL;
	}
	t->rc = qless__slot_loop(&t->slot);
	qless_client_free(t->slot.client);
	return NULL;
}

int qless__pool_threads(qless_worker *w)
{
	pool_thread *threads = calloc((size_t)w->run.size, sizeof *threads);
	sigset_t all, old;
	int i, rc = QLESS_OK;

	if (threads == NULL)
		return qless__err_nomem("qless_worker_run");
	if ((rc = qless__beater_start(w, w->client)) != QLESS_OK || w->beater == NULL) {
		free(threads);
		return rc;
	}
	/* Signals stay on the calling thread, whose handler stops the pool. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < w->run.size; i++) {
		threads[i].slot.worker = w;
		threads[i].index = i + 1;
		if (pthread_create(&threads[i].thread, NULL, thread_main, &threads[i]) == 0)
			threads[i].started = 1;
		else
			qless__log(w, "cannot start pool thread %d", i);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (i = 0; i < w->run.size; i++)
		if (threads[i].started) {
			pthread_join(threads[i].thread, NULL);
			if (threads[i].rc != QLESS_OK)
				rc = threads[i].rc;
		}
	qless__beater_stop(w);
	free(threads);
	return rc;
}

/* ---- processes ---- */

static void child_name(char *buf, size_t size, const qless_worker *w, pid_t pid)
{
	snprintf(buf, size, "%s-%ld", w->client->worker_name, (long)pid);
}

/* A parent killed outright (SIGKILL) can no longer recover, replace or stop
 * its children: each one then stops as on SIGTERM (finishes its job and
 * exits) instead of working on, orphaned, beside the program started in the
 * parent's place. Called once the child's signal handlers are in place. */
static void child_watch_parent(qless_worker *w, pid_t parent)
{
#ifdef __linux__
	(void)prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
	if (getppid() != parent) /* it died before prctl */
		qless_worker_stop(w, 0);
}

/* In a new child: its own pipe, connection, heartbeat thread and name; the
 * parent's connection is left alone. Never returns. */
static void child_main(qless_worker *w, pid_t parent, const sigset_t *mask)
{
	char name[512];
	qless_slot slot;
	int code = 0;

	w->children = NULL;
	w->nchildren = 0;
	if (w->wake[0] >= 0)
		close(w->wake[0]);
	if (w->wake[1] >= 0)
		close(w->wake[1]);
	w->wake[0] = w->wake[1] = -1;
	(void)qless__wake_open(w); /* the parent's is shared: a pipe of its own */
	__atomic_store_n(&w->stopping, 0, __ATOMIC_RELAXED);
	w->done = 0;
	w->claimed = 0;
	w->run.give_up = 0; /* a child that gave up would only be replaced */
	qless__signals_install(w);
	/* A stop forwarded by the parent while the child was being made waited,
	 * blocked, for the child's own state and handlers: it lands now. */
	pthread_sigmask(SIG_SETMASK, mask, NULL);
	child_watch_parent(w, parent);
	child_name(name, sizeof name, w, getpid());
	memset(&slot, 0, sizeof slot);
	slot.worker = w;
	slot.client = qless__connect_retry(w, w->client, name);
	/* From here on the child logs under its own name; the parent's client is
	 * left as it is (its connection belongs to the parent). */
	if (slot.client != NULL)
		w->client = slot.client;
	if (slot.client == NULL) {
		code = qless__stopping(w) ? 0 : 1;
	} else if (qless__beater_start(w, slot.client) != QLESS_OK || w->beater == NULL) {
		code = qless__stopping(w) ? 0 : 1;
	} else {
		code = qless__slot_loop(&slot) == QLESS_OK ? 0 : 1;
		qless__beater_stop(w);
	}
	fflush(NULL);
	_exit(code);
}

/* Retries (or, with no retry left, fails) each job the dead child held. */
static void recover(qless_worker *w, pid_t pid, int status)
{
	char name[512], why[160];
	qless_strlist *jobs = NULL, *stalled = NULL;
	double wait, waited;
	size_t i;
	int rc;

	child_name(name, sizeof name, w, pid);
	if (WIFSIGNALED(status))
		snprintf(why, sizeof why, "worker child %ld was killed by signal %d while running the job", (long)pid,
		         WTERMSIG(status));
	else
		snprintf(why, sizeof why, "worker child %ld exited with status %d while running the job", (long)pid,
		         WEXITSTATUS(status));
	/* Redis may be away too (both killed at once): wait for it up to 30 s
	 * (half the default lock time); past that the jobs' locks expire and
	 * they are handed out again. */
	for (waited = 0, wait = 0.1; (rc = qless_client_worker_jobs(&jobs, &stalled, w->client, name)) == QLESS_EIO &&
	                              waited < 30 && !qless__stopping(w);
	     waited += wait, wait = wait * 2 > w->run.reconnect_max ? w->run.reconnect_max : wait * 2)
		qless__wait(w, wait);
	if (rc != QLESS_OK) {
		qless__log(w, "cannot list the jobs of %s: %s (their locks will expire)", name, qless_error_last_message());
		return;
	}
	for (i = 0; i < qless_strlist_size(jobs) + qless_strlist_size(stalled); i++) {
		size_t nj = qless_strlist_size(jobs);
		const char *jid = i < nj ? qless_strlist_get(jobs, i) : qless_strlist_get(stalled, i - nj);
		qless_job *job = NULL;
		qless_args a;
		if (qless_client_get_job(&job, w->client, jid) != QLESS_OK) {
			qless__log(w, "%s of %s: %s", jid, name, qless_error_last_message());
			continue;
		}
		qless__settle_args(&a, name, "[]", 0);
		qless__settle_job_args(&a, job, "retry", 0, "qless.ChildDied", why);
		if (qless__settle(w->client, "qless_worker_run", &a, job, 0, NULL, NULL) == QLESS_OK)
			qless__log(w, "%s %s %s after its child %ld died", jid, qless_job_klass(job),
			           strcmp(qless_job_state(job), "failed") == 0 ? "failed (retries used up)" : "retried",
			           (long)pid);
		else
			qless__log(w, "%s: cannot retry it: %s", jid, qless_error_last_message());
		qless_job_free(job);
	}
	qless_strlist_free(jobs);
	qless_strlist_free(stalled);
}

static pid_t spawn(qless_worker *w)
{
	pid_t parent = getpid(), pid;
	sigset_t old;
	fflush(NULL);
	/* Blocked across the fork: a SIGTERM reaching the new child before it
	 * has reset the parent's stop state would be lost, and the child would
	 * work on while the parent waits for it. */
	qless__signals_block(&old);
	pid = w->run.fork ? (pid_t)w->run.fork(w->run.ctx) : fork();
	if (pid == 0)
		child_main(w, parent, &old);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return pid;
}

int qless__pool_processes(qless_worker *w)
{
	size_t n = (size_t)w->run.size, i, live = 0;
	double backoff = 0;
	time_t *started;
	int forwarded = 0;

	if ((w->children = calloc(n, sizeof *w->children)) == NULL ||
	    (started = calloc(n, sizeof *started)) == NULL) {
		free(w->children);
		w->children = NULL;
		return qless__err_nomem("qless_worker_run");
	}
	w->nchildren = n;
	for (;;) {
		int status;
		pid_t pid;
		int stopping = qless__stopping(w);
		if (!stopping)
			for (i = 0; i < n; i++)
				if (w->children[i] == 0) {
					pid = spawn(w);
					if (pid < 0) {
						qless__log(w, "cannot fork a child: %s", strerror(errno));
						break;
					}
					w->children[i] = pid;
					started[i] = time(NULL);
					live++;
				}
		if (stopping && !forwarded) {
			for (i = 0; i < n; i++)
				if (w->children[i] > 0)
					kill(w->children[i], SIGTERM);
			forwarded = 1;
		}
		if (live == 0)
			break;
		pid = waitpid(-1, &status, WNOHANG);
		if (pid <= 0) {
			qless__wait(w, stopping ? 0.05 : 0.2);
			continue;
		}
		for (i = 0; i < n && w->children[i] != pid; i++)
			;
		if (i == n)
			continue;
		w->children[i] = 0; /* reaped: its pid may be reused, never signal it again */
		live--;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			/* A child that finished its max_jobs or stopped: not replaced. */
			if (w->run.max_jobs > 0 || qless__stopping(w)) {
				w->children[i] = -1;
				continue;
			}
		} else {
			recover(w, pid, status);
		}
		if (!qless__stopping(w)) {
			/* A child that dies at once is replaced ever more slowly. */
			backoff = time(NULL) - started[i] < 2 ? (backoff == 0 ? 0.1 : backoff * 2) : 0;
			if (backoff > w->run.reconnect_max)
				backoff = w->run.reconnect_max;
			qless__log(w, "child %ld ended (%s %d); starting another", (long)pid,
			           WIFSIGNALED(status) ? "signal" : "status",
			           WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
			qless__wait(w, backoff);
		}
	}
	free(started);
	free(w->children);
	w->children = NULL;
	w->nchildren = 0;
	return QLESS_OK;
}
