/* The heartbeat thread of a process and the slots it beats (beater.c). */
#ifndef QLESS_BEATER_H
#define QLESS_BEATER_H

#include "engine.h"

int qless__beater_start(qless_worker *w, qless_client *like);
void qless__beater_stop(qless_worker *w);
void qless__beater_add(qless_worker *w, qless_slot *slot);
void qless__beater_remove(qless_worker *w, qless_slot *slot);
/* A job starts / ends running in the slot (beats begin / stop). */
void qless__slot_begin(qless_slot *slot, qless_job *job);
void qless__slot_end(qless_slot *slot);

#endif
