/* The job loop (job_loop.c). */
#ifndef QLESS_JOB_LOOP_H
#define QLESS_JOB_LOOP_H

#include "engine.h"

/* Reserves, performs and settles jobs in slot until a stop, max_jobs or
 * an outage past give_up; QLESS_ENOMEM when it could not go on. */
int qless__slot_loop(qless_slot *slot);

#endif
