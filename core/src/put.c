/* Putting jobs: qless_queue_put and qless_queue_put_unique, and the put
 * that requeue shares with them (qless__put). */
#include <stddef.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "errors.h"
#include "namespace.h"
#include "options.h"
#include "put.h"
#include "queue_handle.h"
#include "tree_args.h"
#include "unique.h"
#include "util.h"

/* Sizes of qless_put_options versions 1, 2 and 3. */
static const size_t put_sizes[QLESS_PUT_OPTIONS_VERSION] = {
	offsetof(qless_put_options, unique), offsetof(qless_put_options, tree), sizeof(qless_put_options)
};

int qless_put_options_init(qless_put_options *opts, unsigned int version)
{
	static const qless_put_options init = QLESS_PUT_OPTIONS_INIT;
	return qless__options_init_sizes("qless_put_options_init", opts, version, &init, put_sizes,
	                                 QLESS_PUT_OPTIONS_VERSION);
}

int qless__reply_report(const char *F, redisReply *r, char **out_jid, int *out_inserted)
{
	json_t *j, *jid, *inserted;
	int rc = qless__reply_json(r, F, &j);
	freeReplyObject(r);
	if (rc != QLESS_OK)
		return rc;
	jid = json_object_get(j, "jid");
	inserted = json_object_get(j, "inserted");
	if (!json_is_string(jid) || !json_is_boolean(inserted))
		rc = qless__err(QLESS_EPROTOCOL, "%s: expected {\"jid\", \"inserted\"} in the reply", F);
	else if (out_jid != NULL && (*out_jid = qless__strdup(json_string_value(jid))) == NULL)
		rc = qless__err_nomem(F);
	else if (out_inserted != NULL)
		*out_inserted = json_is_true(inserted);
	json_decref(j);
	return rc;
}

int qless__reply_put(const char *F, redisReply *r, const char *unique, char **out_jid, int *out_inserted)
{
	int rc = QLESS_OK;
	if (unique != NULL && strcmp(unique, "report") == 0)
		return qless__reply_report(F, r, out_jid, out_inserted);
	if (r->type != REDIS_REPLY_STRING) {
		freeReplyObject(r);
		return qless__err(QLESS_EPROTOCOL, "%s: expected the jid in the reply", F);
	}
	if (out_jid != NULL && (*out_jid = qless__strndup(r->str, r->len)) == NULL)
		rc = qless__err_nomem(F);
	freeReplyObject(r);
	return rc;
}

/* Dependencies and the parent are jobs of the client's own namespace. */
static int same_namespace(const char *F, const qless_client *c, const qless_put_options *o)
{
	int rc = qless__namespace_same(F, "parent", c->ns, o->parent);
	for (size_t i = 0; rc == QLESS_OK && i < o->ndepends; i++)
		rc = qless__namespace_same(F, "depends", c->ns, o->depends[i]);
	return rc;
}

int qless__put(qless_client *c, const char *F, const char *cmd, const char *queue, char **out_jid,
               int *out_inserted, const char *klass, const char *data, const qless_put_options *o,
               const char *unique)
{
	char jidbuf[QLESS_UNIQUE_JID_SIZE];
	const char *jid;
	qless_args a;
	redisReply *r;
	int rc;

	if (out_jid != NULL)
		*out_jid = NULL;
	QLESS_CHECK_STR(F, klass);
	if (data == NULL)
		data = "{}";
	else if ((rc = qless__check_json(F, "data", data)) != QLESS_OK)
		return rc;
	if ((rc = qless__check_finite(F, "delay", o->delay)) != QLESS_OK ||
	    (o->has_priority && (rc = qless__check_finite(F, "priority", o->priority)) != QLESS_OK) ||
	    (o->tags != NULL && (rc = qless__check_strv(F, "tags", o->tags, o->ntags, 1)) != QLESS_OK) ||
	    (rc = qless__check_strv(F, "depends", o->depends, o->ndepends, 1)) != QLESS_OK ||
	    (rc = qless__check_tree_put(F, o)) != QLESS_OK ||
	    (rc = same_namespace(F, c, o)) != QLESS_OK ||
	    (rc = qless__entry_jid(F, jidbuf, &jid, o->jid, unique != NULL, o->unique_key, queue, klass, data,
	                          NULL, 0)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_add(&a, c->worker_name);
	qless__args_add(&a, queue);
	qless__args_add(&a, jid);
	qless__args_add(&a, klass);
	qless__args_add(&a, data);
	qless__args_num(&a, o->delay);
	if (o->has_priority) {
		qless__args_add(&a, "priority");
		qless__args_num(&a, o->priority);
	}
	if (o->tags != NULL) {
		qless__args_add(&a, "tags");
		qless__args_own(&a, qless__json_strv(o->tags, o->ntags));
	}
	if (o->retries >= 0) {
		qless__args_add(&a, "retries");
		qless__args_int(&a, o->retries);
	}
	if (o->ndepends > 0) {
		qless__args_add(&a, "depends");
		qless__args_own(&a, qless__json_strv(o->depends, o->ndepends));
	}
	if (unique != NULL) {
		qless__args_add(&a, "unique");
		qless__args_add(&a, unique);
	}
	qless__tree_put_args(&a, o);
	if ((rc = qless__call(c, F, cmd, &a, &r)) != QLESS_OK)
		return rc;
	return qless__reply_put(F, r, unique, out_jid, out_inserted);
}

int qless__put_options(const char *F, const qless_put_options *opts, qless_put_options *o)
{
	static const qless_put_options init = QLESS_PUT_OPTIONS_INIT;
	return qless__options_read_sizes(F, opts, o, &init, put_sizes, QLESS_PUT_OPTIONS_VERSION);
}

int qless_queue_put(char **out_jid, qless_queue *queue, const char *klass, const char *data,
                    const qless_put_options *opts)
{
	static const char F[] = "qless_queue_put";
	qless_put_options o;
	int rc;
	if (out_jid != NULL)
		*out_jid = NULL;
	QLESS_CHECK_NULL(F, queue);
	if ((rc = qless__put_options(F, opts, &o)) != QLESS_OK)
		return rc;
	return qless__put(qless__queue_client(queue), F, "put", qless_queue_name(queue), out_jid, NULL, klass, data, &o,
	                  o.unique ? "1" : NULL);
}

int qless_queue_put_unique(char **out_jid, int *out_inserted, qless_queue *queue, const char *klass,
                           const char *data, const qless_put_options *opts)
{
	static const char F[] = "qless_queue_put_unique";
	qless_put_options o;
	int rc;
	if (out_jid != NULL)
		*out_jid = NULL;
	if (out_inserted != NULL)
		*out_inserted = 0;
	QLESS_CHECK_NULL(F, queue);
	if ((rc = qless__put_options(F, opts, &o)) != QLESS_OK)
		return rc;
	return qless__put(qless__queue_client(queue), F, "put", qless_queue_name(queue), out_jid, out_inserted, klass, data, &o, "report");
}
