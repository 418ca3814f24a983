/* The worker engine's log lines: to the run's log callback, else stderr. */
#include <stdarg.h>
#include <stdio.h>

#include "qless/qless.h"
#include "client_state.h"
#include "engine_log.h"

void qless__log(qless_worker *w, const char *fmt, ...)
{
	char line[1024];
	int n = snprintf(line, sizeof line, "qless-worker %s: ", w->client->worker_name);
	va_list ap;
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof line)
		vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	if (w->run.log != NULL) {
		w->run.log(w->run.ctx, line);
	} else {
		fprintf(stderr, "%s\n", line);
		fflush(stderr);
	}
}
