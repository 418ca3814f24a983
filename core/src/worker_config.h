/* What the engine reads from the worker's configuration (worker.c): the
 * reservation order, the retry backoff and the allow patterns. */
#ifndef QLESS_WORKER_CONFIG_H
#define QLESS_WORKER_CONFIG_H

#include "engine.h"

/* The queue names as a JSON list in the order to try them now. Owned. */
char *qless__reserve_order_json(qless_worker *w);
void qless__reserve_advance(qless_worker *w, const char *queue);
double qless__retry_delay(const qless_worker *w, const qless_job *job);
/* Why an allow pattern is invalid (static text), or NULL if it is valid. */
const char *qless__allow_invalid(const char *pattern);

#endif
