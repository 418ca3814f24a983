/* Retry backoff policies (backoff.c). */
#ifndef QLESS_BACKOFF_H
#define QLESS_BACKOFF_H

#include "engine.h"

/* The delay before the job's next try by the worker's policy for its class
 * and queue. */
double qless__retry_delay(const qless_worker *w, const qless_job *job);

#endif
