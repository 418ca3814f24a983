/* qless_recur: recurring job templates. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "cron.h"
#include "errors.h"
#include "handles.h"
#include "next_times.h"
#include "options.h"
#include "put.h"
#include "queue_handle.h"
#include "recurring.h"
#include "unique.h"
#include "util.h"

struct qless_recur {
	qless_client *client;
	char *jid, *klass, *queue, *data;
	char *cron;   /* NORM(expr) of a cron template; NULL for an interval one */
	double priority, interval;
	int64_t retries, backlog, count;
	json_t *tags; /* array of strings */
};

int qless_recur_options_init(qless_recur_options *opts, unsigned int version)
{
	static const qless_recur_options init = QLESS_RECUR_OPTIONS_INIT;
	return qless__options_init("qless_recur_options_init", opts, version, &init,
	                           offsetof(qless_recur_options, unique), sizeof init, QLESS_RECUR_OPTIONS_VERSION);
}

int qless__recur(qless_queue *queue, const char *F, char **out_jid, int *out_inserted, const char *klass,
                 const char *data, double interval, const char *expr, const qless_recur_options *o,
                 int send_opts, const char *unique)
{
	char jidbuf[QLESS_UNIQUE_JID_SIZE];
	const char *jid;
	qless_args a;
	redisReply *r;
	int rc;

	if ((rc = qless__check_finite(F, "priority", o->priority)) != QLESS_OK)
		return rc;
	if (o->retries < 0 || o->backlog < 0)
		return qless__err(QLESS_EINVAL, "%s: retries and backlog must not be negative", F);
	/* §3.1: the script's backlog walk for cron is proportional to it. */
	if (expr != NULL && o->backlog > 1000)
		return qless__err(QLESS_EINVAL, "%s: backlog must be between 0 and 1000 for cron schedules", F);
	if ((rc = qless__check_strv(F, "tags", o->tags, o->ntags, 1)) != QLESS_OK ||
	    (rc = qless__entry_jid(F, jidbuf, &jid, o->jid, unique != NULL, o->unique_key, qless_queue_name(queue),
	                          klass, data, expr, interval)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_add(&a, qless_queue_name(queue));
	qless__args_add(&a, jid);
	qless__args_add(&a, klass);
	qless__args_add(&a, data);
	if (expr != NULL) {
		qless__args_add(&a, "cron");
		qless__args_add(&a, expr);
	} else {
		qless__args_add(&a, "interval");
		qless__args_num(&a, interval);
		qless__args_num(&a, o->offset);
	}
	if (send_opts) {
		qless__args_add(&a, "priority");
		qless__args_num(&a, o->priority);
		qless__args_add(&a, "retries");
		qless__args_int(&a, o->retries);
		qless__args_add(&a, "backlog");
		qless__args_int(&a, o->backlog);
		if (o->ntags > 0) {
			qless__args_add(&a, "tags");
			qless__args_own(&a, qless__json_strv(o->tags, o->ntags));
		}
	}
	if (unique != NULL) {
		qless__args_add(&a, "unique");
		qless__args_add(&a, unique);
	}
	if ((rc = qless__call(qless__queue_client(queue), F, "recur", &a, &r)) != QLESS_OK)
		return rc;
	return qless__reply_put(F, r, unique, out_jid, out_inserted);
}

/* Checks what qless_queue_recur and qless_queue_recur_cron share and reads
 * opts into o. */
static int recur_args(const char *F, char **out_jid, qless_queue *queue, const char *klass, const char **data,
                      const qless_recur_options *opts, qless_recur_options *o)
{
	static const qless_recur_options init = QLESS_RECUR_OPTIONS_INIT;
	int rc;

	if (out_jid != NULL)
		*out_jid = NULL;
	QLESS_CHECK_NULL(F, queue);
	QLESS_CHECK_STR(F, klass);
	if (*data == NULL)
		*data = "{}";
	else if ((rc = qless__check_json(F, "data", *data)) != QLESS_OK)
		return rc;
	return qless__options_read(F, opts, o, &init, offsetof(qless_recur_options, unique), sizeof *o,
	                           QLESS_RECUR_OPTIONS_VERSION);
}

int qless_queue_recur(char **out_jid, qless_queue *queue, const char *klass, const char *data,
                      double interval, const qless_recur_options *opts)
{
	static const char F[] = "qless_queue_recur";
	qless_recur_options o;
	int rc;

	if ((rc = recur_args(F, out_jid, queue, klass, &data, opts, &o)) != QLESS_OK)
		return rc;
	if (!qless__finite(interval) || interval <= 0)
		return qless__err(QLESS_EINVAL, "%s: interval must be > 0", F);
	if ((rc = qless__check_finite(F, "offset", o.offset)) != QLESS_OK)
		return rc;
	return qless__recur(queue, F, out_jid, NULL, klass, data, interval, NULL, &o, opts != NULL,
	                    o.unique ? "1" : NULL);
}

int qless_queue_recur_cron(char **out_jid, qless_queue *queue, const char *klass, const char *data,
                           const char *expr, const qless_recur_options *opts)
{
	static const char F[] = "qless_queue_recur_cron";
	qless_recur_options o;
	int rc;

	if ((rc = recur_args(F, out_jid, queue, klass, &data, opts, &o)) != QLESS_OK ||
	    (rc = qless__cron_norm(F, expr, NULL)) != QLESS_OK)
		return rc;
	return qless__recur(queue, F, out_jid, NULL, klass, data, 0, expr, &o, opts != NULL,
	                    o.unique ? "1" : NULL);
}

void qless_recur_free(qless_recur *recur)
{
	if (recur == NULL)
		return;
	qless__handle_add(-1);
	qless__client_unref(recur->client);
	free(recur->jid);
	free(recur->klass);
	free(recur->queue);
	free(recur->data);
	free(recur->cron);
	json_decref(recur->tags);
	free(recur);
}

static int norm_tags(json_t **tags)
{
	if (*tags == NULL || (json_is_object(*tags) && json_object_size(*tags) == 0)) {
		json_decref(*tags);
		*tags = json_array();
		return *tags ? QLESS_OK : QLESS_ENOMEM;
	}
	return json_is_array(*tags) ? QLESS_OK : QLESS_EPROTOCOL;
}

static char *jdup(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? qless__strndup(json_string_value(v), json_string_length(v)) : NULL;
}

int qless_client_get_recur(qless_recur **out, qless_client *client, const char *jid)
{
	static const char F[] = "qless_client_get_recur";
	qless_recur *rec;
	qless_args a;
	json_t *j;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, jid);
	qless__args_init(&a);
	qless__args_add(&a, jid);
	if ((rc = qless__call_json_found(client, F, "recur.get", &a, &j, "recurring job", jid)) != QLESS_OK)
		return rc;
	if (!json_is_object(j) || !json_is_string(json_object_get(j, "jid")) ||
	    !json_is_string(json_object_get(j, "klass")) || !json_is_string(json_object_get(j, "queue")) ||
	    !json_is_string(json_object_get(j, "data"))) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: unexpected recurring job object", F);
	}
	rec = calloc(1, sizeof *rec);
	if (rec == NULL) {
		json_decref(j);
		return qless__err_nomem(F);
	}
	rec->client = client;
	qless__client_ref(client);
	qless__handle_add(1);
	rec->jid = jdup(j, "jid");
	rec->klass = jdup(j, "klass");
	rec->queue = jdup(j, "queue");
	rec->data = jdup(j, "data");
	rec->cron = jdup(j, "cron");
	rec->priority = qless__jnum(json_object_get(j, "priority"));
	rec->interval = qless__jnum(json_object_get(j, "interval"));
	rec->retries = qless__jint(json_object_get(j, "retries"));
	rec->backlog = qless__jint(json_object_get(j, "backlog"));
	rec->count = qless__jint(json_object_get(j, "count"));
	rec->tags = json_incref(json_object_get(j, "tags"));
	json_decref(j);
	if (rec->jid == NULL || rec->klass == NULL || rec->queue == NULL || rec->data == NULL) {
		qless_recur_free(rec);
		return qless__err_nomem(F);
	}
	rc = norm_tags(&rec->tags);
	if (rc != QLESS_OK) {
		qless_recur_free(rec);
		return rc == QLESS_ENOMEM ? qless__err_nomem(F)
		                          : qless__err(QLESS_EPROTOCOL, "%s: tags is not a list", F);
	}
	*out = rec;
	return QLESS_OK;
}

const char *qless_recur_jid(const qless_recur *recur) { return recur ? recur->jid : NULL; }
const char *qless_recur_klass(const qless_recur *recur) { return recur ? recur->klass : NULL; }
const char *qless_recur_queue(const qless_recur *recur) { return recur ? recur->queue : NULL; }
const char *qless_recur_data(const qless_recur *recur) { return recur ? recur->data : NULL; }
double qless_recur_priority(const qless_recur *recur) { return recur ? recur->priority : 0; }
double qless_recur_interval(const qless_recur *recur) { return recur ? recur->interval : 0; }
const char *qless_recur_cron(const qless_recur *recur) { return recur ? recur->cron : NULL; }
int64_t qless_recur_retries(const qless_recur *recur) { return recur ? recur->retries : 0; }
int64_t qless_recur_backlog(const qless_recur *recur) { return recur ? recur->backlog : 0; }
int64_t qless_recur_count(const qless_recur *recur) { return recur ? recur->count : 0; }
size_t qless_recur_tag_count(const qless_recur *recur) { return recur ? json_array_size(recur->tags) : 0; }
const char *qless_recur_tag(const qless_recur *recur, size_t index)
{
	return recur ? json_string_value(json_array_get(recur->tags, index)) : NULL;
}

static int update(qless_recur *recur, const char *F, const char *key, const char *value)
{
	qless_args a;
	qless__args_init(&a);
	qless__args_add(&a, recur->jid);
	qless__args_add(&a, key);
	qless__args_add(&a, value);
	return qless__call_void(recur->client, F, "recur.update", &a);
}

static int update_num(qless_recur *recur, const char *F, const char *key, double value)
{
	char buf[40];
	int rc;
	QLESS_CHECK_NULL(F, recur);
	if ((rc = qless__check_finite(F, key, value)) != QLESS_OK)
		return rc;
	qless__fmt_num(buf, sizeof buf, value);
	return update(recur, F, key, buf);
}

int qless_recur_set_priority(qless_recur *recur, double priority)
{
	int rc = update_num(recur, "qless_recur_set_priority", "priority", priority);
	if (rc == QLESS_OK)
		recur->priority = priority;
	return rc;
}

int qless_recur_set_retries(qless_recur *recur, int64_t retries)
{
	int rc;
	if (retries < 0)
		return qless__err(QLESS_EINVAL, "qless_recur_set_retries: retries is negative");
	rc = update_num(recur, "qless_recur_set_retries", "retries", (double)retries);
	if (rc == QLESS_OK)
		recur->retries = retries;
	return rc;
}

int qless_recur_set_interval(qless_recur *recur, double interval)
{
	int rc;
	if (!(interval > 0))
		return qless__err(QLESS_EINVAL, "qless_recur_set_interval: interval must be > 0");
	rc = update_num(recur, "qless_recur_set_interval", "interval", interval);
	if (rc != QLESS_OK)
		return rc;
	/* §3.4: a cron template given an interval becomes an interval one. */
	recur->interval = interval;
	free(recur->cron);
	recur->cron = NULL;
	return QLESS_OK;
}

int qless_recur_set_cron(qless_recur *recur, const char *expr)
{
	static const char F[] = "qless_recur_set_cron";
	char *norm = NULL;
	int rc;

	QLESS_CHECK_NULL(F, recur);
	if ((rc = qless__cron_norm(F, expr, &norm)) != QLESS_OK)
		return rc;
	if ((rc = update(recur, F, "cron", expr)) != QLESS_OK) {
		free(norm);
		return rc;
	}
	free(recur->cron);
	recur->cron = norm;
	recur->interval = 0;
	return QLESS_OK;
}

int qless_recur_next(double **out, size_t *n, qless_recur *recur, int64_t count)
{
	static const char F[] = "qless_recur_next";
	int rc = qless__times_out(F, out, n);
	if (rc != QLESS_OK)
		return rc;
	QLESS_CHECK_NULL(F, recur);
	return qless__next_times(recur->client, F, "recur.next", recur->jid, count, out, n);
}

int qless_recur_set_backlog(qless_recur *recur, int64_t backlog)
{
	int rc;
	if (backlog < 0)
		return qless__err(QLESS_EINVAL, "qless_recur_set_backlog: backlog is negative");
	rc = update_num(recur, "qless_recur_set_backlog", "backlog", (double)backlog);
	if (rc == QLESS_OK)
		recur->backlog = backlog;
	return rc;
}

static int update_str(qless_recur *recur, const char *F, const char *key, const char *value, char **field)
{
	char *copy;
	int rc;
	QLESS_CHECK_NULL(F, recur);
	QLESS_CHECK_STR(F, value);
	if ((copy = qless__strdup(value)) == NULL)
		return qless__err_nomem(F);
	rc = update(recur, F, key, value);
	if (rc != QLESS_OK) {
		free(copy);
		return rc;
	}
	free(*field);
	*field = copy;
	return QLESS_OK;
}

int qless_recur_set_data(qless_recur *recur, const char *data)
{
	static const char F[] = "qless_recur_set_data";
	int rc;
	QLESS_CHECK_NULL(F, recur);
	QLESS_CHECK_NULL(F, data);
	if ((rc = qless__check_json(F, "data", data)) != QLESS_OK)
		return rc;
	return update_str(recur, F, "data", data, &recur->data);
}

int qless_recur_set_klass(qless_recur *recur, const char *klass)
{
	static const char F[] = "qless_recur_set_klass";
	QLESS_CHECK_NULL(F, recur);
	return update_str(recur, F, "klass", klass, &recur->klass);
}

int qless_recur_set_queue(qless_recur *recur, const char *queue)
{
	static const char F[] = "qless_recur_set_queue";
	QLESS_CHECK_NULL(F, recur);
	return update_str(recur, F, "queue", queue, &recur->queue);
}

static int tag_op(qless_recur *recur, const char *F, const char *cmd, const char *const *tags, size_t ntags)
{
	qless_args a;
	json_t *j;
	int rc;
	QLESS_CHECK_NULL(F, recur);
	if ((rc = qless__check_strv(F, "tags", tags, ntags, 1)) != QLESS_OK)
		return rc;
	if (ntags == 0)
		return QLESS_OK;
	qless__args_init(&a);
	qless__args_add(&a, recur->jid);
	qless__args_addv(&a, tags, ntags);
	if ((rc = qless__call_json(recur->client, F, cmd, &a, &j)) != QLESS_OK)
		return rc;
	rc = norm_tags(&j);
	if (rc != QLESS_OK) {
		json_decref(j);
		return rc == QLESS_ENOMEM ? qless__err_nomem(F)
		                          : qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array of tags", F);
	}
	json_decref(recur->tags);
	recur->tags = j;
	return QLESS_OK;
}

int qless_recur_tag_add(qless_recur *recur, const char *const *tags, size_t ntags)
{
	return tag_op(recur, "qless_recur_tag_add", "recur.tag", tags, ntags);
}

int qless_recur_tag_remove(qless_recur *recur, const char *const *tags, size_t ntags)
{
	return tag_op(recur, "qless_recur_tag_remove", "recur.untag", tags, ntags);
}

int qless_recur_cancel(qless_recur *recur)
{
	static const char F[] = "qless_recur_cancel";
	qless_args a;
	QLESS_CHECK_NULL(F, recur);
	qless__args_init(&a);
	qless__args_add(&a, recur->jid);
	return qless__call_void(recur->client, F, "unrecur", &a);
}
