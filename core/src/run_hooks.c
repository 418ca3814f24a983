/* The caller's part of a worker run, copied once for qless_worker_main and
 * qless_schedule_listen_run. */
#include "qless/qless.h"
#include "run_hooks.h"

void qless__run_hooks_copy(qless_worker_run_options *dst, const qless_worker_run_options *src)
{
	dst->perform = src->perform;
	dst->ctx = src->ctx;
	dst->fork = src->fork;
	dst->log = src->log;
	dst->single_threaded = src->single_threaded;
	if (src->version >= 2)
		dst->resolves_classes = src->resolves_classes;
	if (src->version >= 4) {
		dst->tree_klasses = src->tree_klasses;
		dst->tree_configs = src->tree_configs;
		dst->ntree = src->ntree;
		dst->startup = src->startup;
		dst->shutdown = src->shutdown;
	}
}
