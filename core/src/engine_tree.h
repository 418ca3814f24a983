/* The tree-job steps of jobtrees.md §9 (engine_tree.c). */
#ifndef QLESS_ENGINE_TREE_H
#define QLESS_ENGINE_TREE_H

#include "engine.h"
#include "result.h"

/* The version 4 fields of run options, checked as qless_worker_run does. */
int qless__tree_check(const char *func, const qless_worker_run_options *o);
/* worker.register of each configured tree class on each queue, retried
 * while Redis is away (QLESS_OK as well when a stop ends the wait). */
int qless__tree_register(qless_worker *w);
/* Before perform, for a running job: 1 to perform it, 0 when r already
 * says how it ends (startup failed, or DROP). */
int qless__tree_start(qless_slot *s, qless_job *job, qless_result *r);
/* The shutdown run of a terminating job; r says TERMINATED or DROP. */
void qless__tree_shutdown(qless_slot *s, qless_job *job, qless_result *r);

#endif
