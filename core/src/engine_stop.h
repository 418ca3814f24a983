/* Stops, waits and signals of a run (engine_stop.c). */
#ifndef QLESS_ENGINE_STOP_H
#define QLESS_ENGINE_STOP_H

#include <signal.h>
#include "engine.h"

int qless__stopping(const qless_worker *w);
/* Opens the worker's wake pipe (non-blocking) if needed and empties it;
 * -1 if no pipe can be made. */
int qless__wake_open(qless_worker *w);
double qless__mono(void); /* CLOCK_MONOTONIC seconds */
/* Waits up to `seconds`, less when a stop is asked. */
void qless__wait(qless_worker *w, double seconds);
void qless__signals_install(qless_worker *w);
void qless__signals_restore(void);
/* Blocks the signals the engine handles (old: the mask to restore). */
void qless__signals_block(sigset_t *old);

#endif
