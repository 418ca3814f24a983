/* The worker's reservation order (worker.c). */
#ifndef QLESS_WORKER_RESERVE_H
#define QLESS_WORKER_RESERVE_H

#include "engine.h"

/* The queue names as a JSON list in the order to try them now. Owned. */
char *qless__reserve_order_json(qless_worker *w);
void qless__reserve_advance(qless_worker *w, const char *queue);

#endif
