/* While Redis is away: the reconnect backoff, the give_up limit on an
 * outage, and new connections retried until Redis is back. */
#include <stdlib.h>

#include "qless/qless.h"
#include "client_state.h"
#include "engine_log.h"
#include "engine_stop.h"
#include "reconnect.h"
#include "util.h"

double qless__io_backoff(qless_worker *w, double wait, const char *what)
{
	if (wait == 0)
		qless__log(w, "%s: %s; retrying until Redis is back", what, qless_error_last_message());
	qless__wait(w, wait == 0 ? 0.1 : wait);
	wait = wait == 0 ? 0.2 : wait * 2;
	return wait > w->run.reconnect_max ? w->run.reconnect_max : wait;
}

int qless__outage_over(qless_worker *w, double *since)
{
	double now = qless__mono();
	if (*since == 0)
		*since = now;
	if (w->run.give_up <= 0 || now - *since < w->run.give_up)
		return 0;
	if (!__atomic_exchange_n(&w->gave_up, 1, __ATOMIC_ACQ_REL))
		qless__log(w, "Redis unreachable for %.3gs: giving up", now - *since);
	qless_worker_stop(w, 0);
	return 1;
}

qless_client *qless__connect_retry(qless_worker *w, const qless_client *like, const char *name)
{
	double wait = 0, since = 0;
	for (;;) {
		qless_client *c = NULL;
		int rc = qless__client_clone(like, &c);
		if (rc == QLESS_OK && name != NULL) {
			char *copy = qless__strdup(name);
			if (copy == NULL) {
				qless_client_free(c);
				return NULL;
			}
			free(c->worker_name);
			c->worker_name = copy;
		}
		if (rc == QLESS_OK) {
			if (wait > 0)
				qless__log(w, "connected again");
			return c;
		}
		if (rc != QLESS_EIO || qless__stopping(w) || qless__outage_over(w, &since))
			return NULL;
		wait = qless__io_backoff(w, wait, "connect");
	}
}
