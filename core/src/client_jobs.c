/* Client-wide job commands: get, cancel, timeout, listings by state,
 * tag, tracking and failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "conn.h"
#include "errors.h"
#include "job_snapshot.h"
#include "joblist.h"
#include "strlist.h"
#include "util.h"

int qless_client_get_job(qless_job **out, qless_client *client, const char *jid)
{
	static const char F[] = "qless_client_get_job";
	qless_args a;
	json_t *obj;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, jid);
	qless__args_init(&a);
	qless__args_add(&a, jid);
	if ((rc = qless__call_json_found(client, F, "get", &a, &obj, "job", jid)) != QLESS_OK)
		return rc;
	return qless__job_from_json(client, obj, out, F);
}

int qless_client_get_jobs(qless_joblist **out, qless_client *client, const char *const *jids, size_t njids)
{
	static const char F[] = "qless_client_get_jobs";
	qless_args a;
	redisReply *r;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__check_strv(F, "jids", jids, njids, 1)) != QLESS_OK)
		return rc;
	if (njids == 0) {
		if ((*out = qless__joblist_empty()) == NULL)
			return qless__err_nomem(F);
		return QLESS_OK;
	}
	qless__args_init(&a);
	qless__args_addv(&a, jids, njids);
	if ((rc = qless__call(client, F, "multiget", &a, &r)) != QLESS_OK)
		return rc;
	rc = qless__joblist_from_reply(client, r, out, F);
	freeReplyObject(r);
	return rc;
}

static int jids_command(qless_client *client, const char *F, const char *cmd, const char *const *jids, size_t njids)
{
	qless_args a;
	int rc;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__check_strv(F, "jids", jids, njids, 1)) != QLESS_OK)
		return rc;
	if (njids == 0)
		return QLESS_OK;
	qless__args_init(&a);
	qless__args_addv(&a, jids, njids);
	return qless__call_void(client, F, cmd, &a);
}

int qless_client_cancel(qless_client *client, const char *const *jids, size_t njids)
{
	return jids_command(client, "qless_client_cancel", "cancel", jids, njids);
}

int qless_client_timeout(qless_client *client, const char *const *jids, size_t njids)
{
	return jids_command(client, "qless_client_timeout", "timeout", jids, njids);
}

int qless_client_jobs(qless_strlist **out, qless_client *client, const char *state, const char *queue,
                      int64_t offset, int64_t count)
{
	static const char F[] = "qless_client_jobs";
	qless_args a;
	redisReply *r;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, state);
	if (strcmp(state, "complete") != 0) {
		static const char *const queued[] = { "running", "stalled", "scheduled", "depends", "recurring",
			                              "suspended", "terminating", "terminated" };
		size_t i = 0;
		while (i < sizeof queued / sizeof *queued && strcmp(state, queued[i]) != 0)
			i++;
		if (i == sizeof queued / sizeof *queued)
			return qless__err(QLESS_EINVAL, "%s: unknown state \"%s\"", F, state);
		QLESS_CHECK_STR(F, queue);
	}
	if (offset < 0 || count < 0)
		return qless__err(QLESS_EINVAL, "%s: offset and count must not be negative", F);
	qless__args_init(&a);
	qless__args_add(&a, state);
	if (strcmp(state, "complete") != 0)
		qless__args_add(&a, queue);
	qless__args_int(&a, offset);
	qless__args_int(&a, count ? count : 25);
	if ((rc = qless__call(client, F, "jobs", &a, &r)) != QLESS_OK)
		return rc;
	rc = qless__strlist_from_reply(r, out, F);
	freeReplyObject(r);
	return rc;
}

/* Runs tag get / failed <group>, whose reply is {"total": n, "jobs": [...]}. */
static int call_total_jobs(qless_client *client, const char *F, const char *cmd, qless_args *a,
                           qless_strlist **out, int64_t *total)
{
	json_t *j, *t, *jobs;
	int rc = qless__call_json(client, F, cmd, a, &j);
	if (rc != QLESS_OK)
		return rc;
	t = json_object_get(j, "total");
	jobs = json_object_get(j, "jobs");
	if (!json_is_object(j) || !json_is_number(t) || jobs == NULL)
		rc = qless__err(QLESS_EPROTOCOL, "%s: expected {\"total\", \"jobs\"} in the reply", F);
	else
		rc = qless__strlist_from_json(jobs, out, F);
	if (rc == QLESS_OK && total != NULL)
		*total = qless__jint(t);
	json_decref(j);
	return rc;
}

int qless_client_tagged(qless_strlist **out, int64_t *total, qless_client *client, const char *tag,
                        int64_t offset, int64_t count)
{
	static const char F[] = "qless_client_tagged";
	qless_args a;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	if (total != NULL)
		*total = 0;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, tag);
	if (offset < 0 || count < 0)
		return qless__err(QLESS_EINVAL, "%s: offset and count must not be negative", F);
	qless__args_init(&a);
	qless__args_add(&a, "get");
	qless__args_add(&a, tag);
	qless__args_int(&a, offset);
	qless__args_int(&a, count ? count : 25);
	return call_total_jobs(client, F, "tag", &a, out, total);
}

int qless_client_top_tags(qless_strlist **out, qless_client *client, int64_t offset, int64_t count)
{
	static const char F[] = "qless_client_top_tags";
	qless_args a;
	qless_strlist *l;
	redisReply *r;
	json_t *j;
	size_t i;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	if (offset < 0 || count < 0)
		return qless__err(QLESS_EINVAL, "%s: offset and count must not be negative", F);
	qless__args_init(&a);
	qless__args_add(&a, "top");
	qless__args_int(&a, offset);
	qless__args_int(&a, count ? count : 25);
	if ((rc = qless__call_json(client, F, "tag", &a, &j)) != QLESS_OK)
		return rc;
	rc = qless__strlist_from_json(j, &l, F);
	json_decref(j);
	if (rc != QLESS_OK)
		return rc;
	if (l->size > 0) {
		/* The protocol reply has names only; the counts are the ql:tags scores. */
		char key[96];
		const char *stack[34];
		const char **argv = l->size + 2 <= 34 ? stack : malloc((l->size + 2) * sizeof *argv);
		if (argv == NULL) {
			qless_strlist_free(l);
			return qless__err_nomem(F);
		}
		argv[0] = "ZMSCORE";
		snprintf(key, sizeof key, "%stags", QLESS_KEY_PREFIX(client));
		argv[1] = key;
		for (i = 0; i < l->size; i++)
			argv[i + 2] = l->items[i];
		{
			qless_sigpipe_guard g;
			qless__sigpipe_block(&g);
			r = client->conn ? qless__conn_command_argv(client->conn, (int)(l->size + 2), argv, NULL) : NULL;
			qless__sigpipe_restore(&g, r == NULL);
		}
		if (argv != stack)
			free(argv);
		if (r == NULL) {
			qless_strlist_free(l);
			return qless__io_error(client, F);
		}
		if (r->type != REDIS_REPLY_ARRAY || r->elements != l->size) {
			rc = qless__err(QLESS_EPROTOCOL, "%s: unexpected ZMSCORE reply%s%s", F,
			                r->type == REDIS_REPLY_ERROR ? ": " : "", r->type == REDIS_REPLY_ERROR ? r->str : "");
			freeReplyObject(r);
			qless_strlist_free(l);
			return rc;
		}
		for (i = 0; i < l->size; i++) {
			const redisReply *e = r->element[i];
			l->numbers[i] = e->type == REDIS_REPLY_STRING ? (int64_t)strtod(e->str, NULL) : 0;
		}
		freeReplyObject(r);
	}
	*out = l;
	return QLESS_OK;
}

int qless_client_tracked(qless_joblist **jobs, qless_strlist **expired, qless_client *client)
{
	static const char F[] = "qless_client_tracked";
	qless_args a;
	json_t *j, *jj, *je;
	qless_joblist *jl = NULL;
	qless_strlist *el = NULL;
	int rc;

	if (jobs != NULL)
		*jobs = NULL;
	if (expired != NULL)
		*expired = NULL;
	QLESS_CHECK_NULL(F, client);
	qless__args_init(&a);
	if ((rc = qless__call_json(client, F, "track", &a, &j)) != QLESS_OK)
		return rc;
	jj = json_object_get(j, "jobs");
	je = json_object_get(j, "expired");
	if (!json_is_object(j) || jj == NULL || je == NULL) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: expected {\"jobs\", \"expired\"} in the reply", F);
	}
	rc = qless__strlist_from_json(je, &el, F);
	if (rc == QLESS_OK)
		rc = qless__joblist_from_json(client, jj, &jl, F);
	json_decref(j);
	if (rc != QLESS_OK) {
		qless_strlist_free(el);
		return rc;
	}
	qless__joblist_give(jl, jobs);
	qless__strlist_give(el, expired);
	return QLESS_OK;
}

int qless_client_failed_groups(qless_strlist **out, qless_client *client)
{
	static const char F[] = "qless_client_failed_groups";
	qless_args a;
	qless_strlist *l;
	json_t *j, *v;
	const char *k;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	qless__args_init(&a);
	if ((rc = qless__call_json(client, F, "failed", &a, &j)) != QLESS_OK)
		return rc;
	if (!json_is_object(j)) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON object reply", F);
	}
	if ((l = qless__strlist_new(json_object_size(j))) == NULL) {
		json_decref(j);
		return qless__err_nomem(F);
	}
	json_object_foreach(j, k, v) {
		if (!json_is_number(v)) {
			rc = qless__err(QLESS_EPROTOCOL, "%s: expected numbers in the reply", F);
			break;
		}
		if (qless__strlist_push(l, k, strlen(k), qless__jint(v)) != QLESS_OK) {
			rc = qless__err_nomem(F);
			break;
		}
	}
	json_decref(j);
	if (rc != QLESS_OK) {
		qless_strlist_free(l);
		return rc;
	}
	*out = l;
	return QLESS_OK;
}

int qless_client_failed(qless_strlist **out, int64_t *total, qless_client *client, const char *group,
                        int64_t start, int64_t limit)
{
	static const char F[] = "qless_client_failed";
	qless_args a;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	if (total != NULL)
		*total = 0;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, group);
	if (start < 0 || limit < 0)
		return qless__err(QLESS_EINVAL, "%s: start and limit must not be negative", F);
	qless__args_init(&a);
	qless__args_add(&a, group);
	qless__args_int(&a, start);
	qless__args_int(&a, limit ? limit : 25);
	return call_total_jobs(client, F, "failed", &a, out, total);
}
