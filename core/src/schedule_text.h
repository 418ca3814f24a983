/* The text adds of a schedule (schedule_entries.c), shared with its one
 * add (qless_schedule_put in schedule_put.c), which also says how dates
 * are read. */
#ifndef QLESS_SCHEDULE_TEXT_H
#define QLESS_SCHEDULE_TEXT_H

#include "qless/schedule.h"
#include "qless/when.h"

/* The entry text means, read as `as` with qless_when flags (0 or
 * QLESS_WHEN_DAY_FIRST), added by add_at, add_every or add_cron; errors
 * name F and arg. qless_when_warning() afterwards is the text's. */
int qless__schedule_add_text(const char *F, const char *arg, qless_when_read_as as, unsigned int flags,
                             qless_schedule *s, char **out_jid, int *out_inserted, const char *text,
                             const char *klass, const char *data, const qless_schedule_options *opts);
/* Forgets the warning of the last parse on this thread (when.c): an add
 * that reads no text leaves none. */
void qless__when_warning_clear(void);

#endif
