/* The queue handle (queue.c). */
#ifndef QLESS_QUEUE_HANDLE_H
#define QLESS_QUEUE_HANDLE_H

#include "qless/common.h"

/* The client the queue was made from (borrowed). */
qless_client *qless__queue_client(const qless_queue *queue);

#endif
