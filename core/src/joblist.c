/* qless_joblist: jobs returned by pop, peek, multiget, tracked. */
#include <stdlib.h>

#include "internal.h"

qless_joblist *qless__joblist_empty(void)
{
	qless_joblist *l = calloc(1, sizeof(qless_joblist));
	if (l != NULL)
		qless__handle_add(1);
	return l;
}

size_t qless_joblist_size(const qless_joblist *list)
{
	return list ? list->size : 0;
}

qless_job *qless_joblist_get(const qless_joblist *list, size_t index)
{
	if (list == NULL || index >= list->size)
		return NULL;
	return list->jobs[index];
}

qless_job *qless_joblist_take(qless_joblist *list, size_t index)
{
	qless_job *job;
	if (list == NULL || index >= list->size)
		return NULL;
	job = list->jobs[index];
	list->jobs[index] = NULL;
	return job;
}

void qless_joblist_free(qless_joblist *list)
{
	size_t i;
	if (list == NULL)
		return;
	qless__handle_add(-1);
	for (i = 0; i < list->size; i++)
		qless_job_free(list->jobs[i]);
	free(list->jobs);
	free(list);
}

void qless__joblist_give(qless_joblist *l, qless_joblist **out)
{
	if (out != NULL)
		*out = l;
	else
		qless_joblist_free(l);
}
