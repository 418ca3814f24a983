/* qless_joblist (joblist.c): the jobs pop, peek, multiget and tracked return. */
#ifndef QLESS_JOBLIST_H
#define QLESS_JOBLIST_H

#include <stddef.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"

struct qless_joblist {
	size_t size;
	qless_job **jobs;
};
qless_joblist *qless__joblist_empty(void);
/* For optional out-parameters: hands l to *out when out is not NULL, else frees it. */
void qless__joblist_give(qless_joblist *l, qless_joblist **out);
/* Jobs from a JSON array reply text (or "{}"). */
int qless__joblist_from_reply(qless_client *c, redisReply *r, qless_joblist **out, const char *func);
int qless__joblist_from_json(qless_client *c, json_t *arr, qless_joblist **out, const char *func);

#endif
