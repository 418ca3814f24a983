/* Thread and process pools of the worker engine (pool.c). */
#ifndef QLESS_POOL_H
#define QLESS_POOL_H

#include "engine.h"

int qless__pool_threads(qless_worker *w);
int qless__pool_processes(qless_worker *w);
/* A thread pool whose threads share one name: one dispatcher settles and
 * reserves for all of them in one call (pool_batch.c). */
int qless__pool_batched(qless_worker *w);

#endif
