/* Thread and process pools of the worker engine (pool.c). */
#ifndef QLESS_POOL_H
#define QLESS_POOL_H

#include "engine.h"

int qless__pool_threads(qless_worker *w);
int qless__pool_processes(qless_worker *w);

#endif
