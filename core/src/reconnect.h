/* Riding out an outage of Redis (reconnect.c). */
#ifndef QLESS_RECONNECT_H
#define QLESS_RECONNECT_H

#include "engine.h"

/* While Redis is away: waits, logging the first failure of a series
 * (`what` failed), and returns the next, doubled wait (0 the first time). */
double qless__io_backoff(qless_worker *w, double wait, const char *what);
/* Whether an outage that began at *since (0: it begins now) has outlasted
 * run.give_up: then the whole run is being stopped, to return QLESS_EIO. */
int qless__outage_over(qless_worker *w, double *since);
/* A clone of `like` (worker name `name` when not NULL), retried with the
 * reconnect backoff while Redis is away; NULL once a stop is asked. */
qless_client *qless__connect_retry(qless_worker *w, const qless_client *like, const char *name);

#endif
