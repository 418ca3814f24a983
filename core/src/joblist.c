/* qless_joblist: jobs returned by pop, peek, multiget, tracked. */
#include <stdlib.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "call.h"
#include "errors.h"
#include "handles.h"
#include "job_snapshot.h"
#include "joblist.h"

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

int qless__joblist_from_json(qless_client *c, json_t *arr, qless_joblist **out, const char *F)
{
	qless_joblist *l;
	size_t i, n;
	int rc;

	*out = NULL;
	if (json_is_object(arr) && json_object_size(arr) == 0)
		n = 0;
	else if (json_is_array(arr))
		n = json_array_size(arr);
	else
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array of jobs", F);
	l = qless__joblist_empty();
	if (l == NULL || (n > 0 && (l->jobs = calloc(n, sizeof *l->jobs)) == NULL)) {
		qless_joblist_free(l);
		return qless__err_nomem(F);
	}
	for (i = 0; i < n; i++) {
		json_t *e = json_array_get(arr, i);
		json_incref(e);
		rc = qless__job_from_json(c, e, &l->jobs[i], F);
		if (rc != QLESS_OK) {
			l->size = i;
			qless_joblist_free(l);
			return rc;
		}
	}
	l->size = n;
	*out = l;
	return QLESS_OK;
}

int qless__joblist_from_reply(qless_client *c, redisReply *r, qless_joblist **out, const char *F)
{
	json_t *arr;
	int rc = qless__reply_json(r, F, &arr);
	*out = NULL;
	if (rc != QLESS_OK)
		return rc;
	rc = qless__joblist_from_json(c, arr, out, F);
	json_decref(arr);
	return rc;
}
