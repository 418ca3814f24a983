/* The caller's part of a worker run (run_hooks.c): what every entry that
 * starts the engine for someone else takes from the caller's run options. */
#ifndef QLESS_RUN_HOOKS_H
#define QLESS_RUN_HOOKS_H

#include "qless/worker.h"

/* Copies src's perform, context, fork, log, threading and class-resolution
 * fields and its tree-job classes and hooks into dst, as far as src's
 * version has them; dst's other fields (queues, pools, allow-list, signals)
 * are the entry's own. */
void qless__run_hooks_copy(qless_worker_run_options *dst, const qless_worker_run_options *src);

#endif
