/* The worker engine's log (engine_log.c). */
#ifndef QLESS_ENGINE_LOG_H
#define QLESS_ENGINE_LOG_H

#include "engine.h"
#include "errors.h"

/* One line, prefixed with the worker's name, to run.log or stderr. */
void qless__log(qless_worker *w, const char *fmt, ...) QLESS_PRINTF(2, 3);

#endif
