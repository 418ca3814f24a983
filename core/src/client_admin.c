/* Client-wide administration: queues, workers and configuration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_admin.h"
#include "errors.h"
#include "strlist.h"
#include "util.h"

int qless__queues_reply(qless_client *client, const char *F, json_t **out)
{
	qless_args a;
	int rc;
	qless__args_init(&a);
	if ((rc = qless__call_json(client, F, "queues", &a, out)) != QLESS_OK)
		return rc;
	if (json_is_object(*out) && json_object_size(*out) == 0) {
		json_decref(*out);
		*out = json_array();
		if (*out == NULL)
			return qless__err_nomem(F);
	}
	if (!json_is_array(*out)) {
		json_decref(*out);
		*out = NULL;
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array reply", F);
	}
	return QLESS_OK;
}

int qless_client_queue_names(qless_strlist **out, qless_client *client)
{
	static const char F[] = "qless_client_queue_names";
	qless_strlist *l;
	json_t *j, *v;
	size_t i;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__queues_reply(client, F, &j)) != QLESS_OK)
		return rc;
	if ((l = qless__strlist_new(json_array_size(j))) == NULL) {
		json_decref(j);
		return qless__err_nomem(F);
	}
	json_array_foreach(j, i, v) {
		json_t *name = json_object_get(v, "name");
		if (!json_is_string(name)) {
			rc = qless__err(QLESS_EPROTOCOL, "%s: queue entry without a name", F);
			break;
		}
		if (qless__strlist_push(l, json_string_value(name), json_string_length(name), 0) != QLESS_OK) {
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

int qless_client_queues_json(char **out, qless_client *client)
{
	static const char F[] = "qless_client_queues_json";
	json_t *j;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__queues_reply(client, F, &j)) != QLESS_OK)
		return rc;
	*out = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return *out ? QLESS_OK : qless__err_nomem(F);
}

int qless_client_workers(qless_strlist **out, qless_client *client)
{
	static const char F[] = "qless_client_workers";
	qless_args a;
	qless_strlist *l;
	json_t *j, *v;
	size_t i;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	qless__args_init(&a);
	if ((rc = qless__call_json(client, F, "workers", &a, &j)) != QLESS_OK)
		return rc;
	if (!json_is_array(j) && !(json_is_object(j) && json_object_size(j) == 0)) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array reply", F);
	}
	if ((l = qless__strlist_new(json_is_array(j) ? json_array_size(j) : 0)) == NULL) {
		json_decref(j);
		return qless__err_nomem(F);
	}
	if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			json_t *name = json_object_get(v, "name");
			if (!json_is_string(name)) {
				rc = qless__err(QLESS_EPROTOCOL, "%s: worker entry without a name", F);
				break;
			}
			if (qless__strlist_push(l, json_string_value(name), json_string_length(name),
			                        qless__jint(json_object_get(v, "jobs"))) != QLESS_OK) {
				rc = qless__err_nomem(F);
				break;
			}
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

int qless_client_worker_jobs(qless_strlist **jobs, qless_strlist **stalled, qless_client *client, const char *worker)
{
	static const char F[] = "qless_client_worker_jobs";
	qless_args a;
	qless_strlist *jl = NULL, *sl = NULL;
	json_t *j;
	int rc;

	if (jobs != NULL)
		*jobs = NULL;
	if (stalled != NULL)
		*stalled = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, worker);
	qless__args_init(&a);
	qless__args_add(&a, worker);
	if ((rc = qless__call_json(client, F, "workers", &a, &j)) != QLESS_OK)
		return rc;
	if (!json_is_object(j) || json_object_get(j, "jobs") == NULL || json_object_get(j, "stalled") == NULL) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: expected {\"jobs\", \"stalled\"} in the reply", F);
	}
	rc = qless__strlist_from_json(json_object_get(j, "jobs"), &jl, F);
	if (rc == QLESS_OK)
		rc = qless__strlist_from_json(json_object_get(j, "stalled"), &sl, F);
	json_decref(j);
	if (rc != QLESS_OK) {
		qless_strlist_free(jl);
		return rc;
	}
	qless__strlist_give(jl, jobs);
	qless__strlist_give(sl, stalled);
	return QLESS_OK;
}

int qless_client_deregister_workers(qless_client *client, const char *const *workers, size_t n)
{
	static const char F[] = "qless_client_deregister_workers";
	qless_args a;
	int rc;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__check_strv(F, "workers", workers, n, 1)) != QLESS_OK)
		return rc;
	if (n == 0)
		return QLESS_OK;
	qless__args_init(&a);
	qless__args_addv(&a, workers, n);
	return qless__call_void(client, F, "worker.deregister", &a);
}

/* ---- configuration ---- */

int qless_client_config_get(char **out, qless_client *client, const char *key)
{
	static const char F[] = "qless_client_config_get";
	qless_args a;
	redisReply *r;
	char buf[32];
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, key);
	qless__args_init(&a);
	qless__args_add(&a, key);
	if ((rc = qless__call(client, F, "config.get", &a, &r)) != QLESS_OK)
		return rc;
	switch (r->type) {
	case REDIS_REPLY_NIL:
		break;
	case REDIS_REPLY_STRING:
		if ((*out = qless__strndup(r->str, r->len)) == NULL)
			rc = qless__err_nomem(F);
		break;
	case REDIS_REPLY_INTEGER:
		snprintf(buf, sizeof buf, "%lld", r->integer);
		if ((*out = qless__strdup(buf)) == NULL)
			rc = qless__err_nomem(F);
		break;
	default:
		rc = qless__err(QLESS_EPROTOCOL, "%s: unexpected reply type", F);
	}
	freeReplyObject(r);
	return rc;
}

int qless_client_config_all(char **out, qless_client *client)
{
	static const char F[] = "qless_client_config_all";
	qless_args a;
	json_t *j;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	qless__args_init(&a);
	if ((rc = qless__call_json(client, F, "config.get", &a, &j)) != QLESS_OK)
		return rc;
	if (!json_is_object(j)) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON object reply", F);
	}
	*out = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return *out ? QLESS_OK : qless__err_nomem(F);
}

int qless_client_config_set(qless_client *client, const char *key, const char *value)
{
	static const char F[] = "qless_client_config_set";
	qless_args a;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, key);
	QLESS_CHECK_NULL(F, value);
	qless__args_init(&a);
	qless__args_add(&a, key);
	qless__args_add(&a, value);
	return qless__call_void(client, F, "config.set", &a);
}

int qless_client_config_unset(qless_client *client, const char *key)
{
	static const char F[] = "qless_client_config_unset";
	qless_args a;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, key);
	qless__args_init(&a);
	qless__args_add(&a, key);
	return qless__call_void(client, F, "config.unset", &a);
}
