/* Typed queue counts (queue_counts.c). */
#ifndef QLESS_QUEUE_COUNTS_H
#define QLESS_QUEUE_COUNTS_H

#include <jansson.h>

#include "qless/qless.h"

/* One queue's entry of `queues` into out (every field or none) and *name
 * (borrowed from obj); EPROTOCOL naming F on a bad shape. */
int qless__queue_counts_parse(const json_t *obj, qless_queue_counts *out, const char **name, const char *F);

#endif
