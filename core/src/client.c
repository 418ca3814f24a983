/* qless_client: connection, reference counting and client-wide commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"


int qless_client_options_init(qless_client_options *opts, unsigned int version)
{
	QLESS_CHECK_NULL("qless_client_options_init", opts);
	if (version != QLESS_CLIENT_OPTIONS_VERSION)
		return qless__err(QLESS_EINVAL, "qless_client_options_init: unsupported version %u", version);
	memset(opts, 0, sizeof *opts);
	opts->version = version;
	return QLESS_OK;
}

static void client_destroy(qless_client *c)
{
	qless__handle_add(-1);
	if (c->ctx != NULL)
		redisFree(c->ctx);
	qless__url_free(&c->url);
	free(c->worker_name);
	free(c);
}

void qless__client_ref(qless_client *c)
{
	c->refs++;
}

void qless__client_unref(qless_client *c)
{
	if (c != NULL && --c->refs == 0)
		client_destroy(c);
}

int qless_client_new(qless_client **out, const char *url, const qless_client_options *opts)
{
	static const char F[] = "qless_client_new";
	char *embedded = NULL;
	qless_client *c;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	if (opts != NULL && opts->version != QLESS_CLIENT_OPTIONS_VERSION)
		return qless__err(QLESS_EINVAL, "%s: unsupported options version %u", F, opts->version);
	if (opts != NULL && opts->worker_name != NULL && opts->worker_name[0] == '\0')
		return qless__err_empty(F, "opts->worker_name");
	if (url == NULL) {
		url = getenv("QLESS_URL");
		if (url == NULL || url[0] == '\0') {
			/* No URL anywhere: the embedded server, started on demand. */
			if ((rc = qless_server_start(NULL, &embedded)) != QLESS_OK)
				return rc;
			url = embedded;
		}
	}
	c = calloc(1, sizeof *c);
	if (c == NULL) {
		qless_free(embedded);
		return qless__err_nomem(F);
	}
	c->refs = 1;
	qless__handle_add(1);
	rc = qless__url_parse(url, &c->url);
	qless_free(embedded);
	if (rc != QLESS_OK) {
		client_destroy(c);
		return rc;
	}
	c->connect_timeout_ms = 5000;
	c->command_timeout_ms = 30000;
	if (opts != NULL) {
		if (opts->connect_timeout_ms != 0)
			c->connect_timeout_ms = opts->connect_timeout_ms < 0 ? -1 : opts->connect_timeout_ms;
		if (opts->command_timeout_ms != 0)
			c->command_timeout_ms = opts->command_timeout_ms < 0 ? -1 : opts->command_timeout_ms;
	}
	c->worker_name = (opts != NULL && opts->worker_name != NULL) ? qless__strdup(opts->worker_name)
	                                                             : qless__default_worker_name();
	if (c->worker_name == NULL) {
		client_destroy(c);
		return qless__err_nomem(F);
	}
	snprintf(c->sha, sizeof c->sha, "%s", qless_script_lua_sha1);
	c->evalsha_only = qless__evalsha_env();
	rc = qless__ensure(c);
	if (rc != QLESS_OK) {
		client_destroy(c);
		return rc;
	}
	*out = c;
	return QLESS_OK;
}

static char *dup_or_null(const char *s, int *oom)
{
	char *d;
	if (s == NULL)
		return NULL;
	if ((d = qless__strdup(s)) == NULL)
		*oom = 1;
	return d;
}

int qless__client_clone(const qless_client *src, qless_client **out)
{
	static const char F[] = "qless_client_clone";
	qless_client *c;
	int oom = 0, rc;

	*out = NULL;
	c = calloc(1, sizeof *c);
	if (c == NULL)
		return qless__err_nomem(F);
	c->refs = 1;
	qless__handle_add(1);
	c->url.host = dup_or_null(src->url.host, &oom);
	c->url.path = dup_or_null(src->url.path, &oom);
	c->url.user = dup_or_null(src->url.user, &oom);
	c->url.password = dup_or_null(src->url.password, &oom);
	c->url.port = src->url.port;
	c->url.db = src->url.db;
	c->worker_name = dup_or_null(src->worker_name, &oom);
	c->connect_timeout_ms = src->connect_timeout_ms;
	c->command_timeout_ms = src->command_timeout_ms;
	c->offset = src->offset;
	memcpy(c->sha, src->sha, sizeof c->sha);
	c->evalsha_only = src->evalsha_only;
	if (oom) {
		client_destroy(c);
		return qless__err_nomem(F);
	}
	if ((rc = qless__ensure(c)) != QLESS_OK) {
		client_destroy(c);
		return rc;
	}
	*out = c;
	return QLESS_OK;
}

void qless_client_free(qless_client *client)
{
	qless__client_unref(client);
}

const char *qless_client_worker_name(const qless_client *client)
{
	return client ? client->worker_name : NULL;
}

int qless_client_set_time_offset(qless_client *client, double seconds)
{
	QLESS_CHECK_NULL("qless_client_set_time_offset", client);
	if (!qless__finite(seconds))
		return qless__err(QLESS_EINVAL, "qless_client_set_time_offset: seconds is not finite");
	client->offset = seconds;
	return QLESS_OK;
}

double qless_client_now(const qless_client *client)
{
	return client ? qless__now(client) : 0;
}

/* ---- raw call ---- */

static json_t *reply_to_json(const redisReply *r)
{
	char buf[32];
	size_t i;
	json_t *arr;
	switch (r->type) {
	case REDIS_REPLY_STRING:
	case REDIS_REPLY_STATUS:
		return json_stringn(r->str, r->len);
	case REDIS_REPLY_INTEGER:
		snprintf(buf, sizeof buf, "%lld", r->integer);
		return json_string(buf);
	case REDIS_REPLY_ARRAY:
		arr = json_array();
		if (arr == NULL)
			return NULL;
		for (i = 0; i < r->elements; i++) {
			if (json_array_append_new(arr, reply_to_json(r->element[i])) != 0) {
				json_decref(arr);
				return NULL;
			}
		}
		return arr;
	default:
		return json_null();
	}
}

/* The text qless_client_call gives for a (non-error) reply. */
static int render_reply(const char *F, const redisReply *r, char **out)
{
	char buf[32];
	json_t *j;
	int rc = QLESS_OK;

	*out = NULL;
	switch (r->type) {
	case REDIS_REPLY_NIL:
		break;
	case REDIS_REPLY_STRING:
	case REDIS_REPLY_STATUS:
		if ((*out = qless__strndup(r->str, r->len)) == NULL)
			rc = qless__err_nomem(F);
		break;
	case REDIS_REPLY_INTEGER:
		snprintf(buf, sizeof buf, "%lld", r->integer);
		if ((*out = qless__strdup(buf)) == NULL)
			rc = qless__err_nomem(F);
		break;
	case REDIS_REPLY_ARRAY:
		j = reply_to_json(r);
		if (j == NULL || (*out = json_dumps(j, JSON_COMPACT)) == NULL)
			rc = qless__err_nomem(F);
		json_decref(j);
		break;
	default:
		rc = qless__err(QLESS_EPROTOCOL, "%s: unexpected reply type %d", F, r->type);
	}
	return rc;
}

int qless_client_call(qless_client *client, char **out, const char *command, const char *const *argv, size_t argc)
{
	static const char F[] = "qless_client_call";
	qless_args a;
	redisReply *r;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_STR(F, command);
	if ((rc = qless__check_strv(F, "argv", argv, argc, 0)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_addv(&a, argv, argc);
	if ((rc = qless__call(client, F, command, &a, &r)) != QLESS_OK)
		return rc;
	rc = render_reply(F, r, out);
	freeReplyObject(r);
	return rc;
}

int qless_client_call_batch(qless_client *client, qless_call *calls, size_t ncalls)
{
	static const char F[] = "qless_client_call_batch";
	qless_args *as;
	redisReply **replies;
	const char **cmds;
	int *rcs;
	size_t i;
	int rc, first = QLESS_OK;

	QLESS_CHECK_NULL(F, client);
	if (ncalls == 0)
		return QLESS_OK;
	QLESS_CHECK_NULL(F, calls);
	for (i = 0; i < ncalls; i++) {
		calls[i].out = NULL;
		calls[i].rc = QLESS_OK;
	}
	for (i = 0; i < ncalls; i++) {
		if (calls[i].command == NULL || calls[i].command[0] == '\0')
			return qless__err(QLESS_EINVAL, "%s: calls[%zu].command is NULL or empty", F, i);
		if ((rc = qless__check_strv(F, "argv", calls[i].argv, calls[i].argc, 0)) != QLESS_OK)
			return rc;
	}
	as = malloc(ncalls * sizeof *as);
	replies = malloc(ncalls * sizeof *replies);
	cmds = malloc(ncalls * sizeof *cmds);
	rcs = malloc(ncalls * sizeof *rcs);
	if (as == NULL || replies == NULL || cmds == NULL || rcs == NULL) {
		free(as);
		free(replies);
		free(cmds);
		free(rcs);
		return qless__err_nomem(F);
	}
	for (i = 0; i < ncalls; i++) {
		qless__args_init(&as[i]);
		qless__args_addv(&as[i], calls[i].argv, calls[i].argc);
		cmds[i] = calls[i].command;
	}
	rc = qless__call_many(client, F, ncalls, cmds, as, replies, rcs);
	for (i = 0; i < ncalls; i++) {
		calls[i].rc = rcs[i];
		if (replies[i] == NULL)
			continue;
		if (rcs[i] == QLESS_OK && (calls[i].rc = render_reply(F, replies[i], &calls[i].out)) != QLESS_OK &&
		    first == QLESS_OK)
			first = calls[i].rc;
		freeReplyObject(replies[i]);
	}
	free(as);
	free(replies);
	free(cmds);
	free(rcs);
	return rc != QLESS_OK ? rc : first;
}

/* ---- jobs by id ---- */

int qless_client_get_job(qless_client *client, qless_job **out, const char *jid)
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

int qless_client_get_jobs(qless_client *client, qless_joblist **out, const char *const *jids, size_t njids)
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

int qless_client_jobs(qless_client *client, qless_strlist **out, const char *state, const char *queue,
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
		if (strcmp(state, "running") != 0 && strcmp(state, "stalled") != 0 && strcmp(state, "scheduled") != 0 &&
		    strcmp(state, "depends") != 0 && strcmp(state, "recurring") != 0)
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

/* {"total": n, "jobs": [...]} replies of tag get and failed <group>. */
static int total_jobs(json_t *j, const char *F, qless_strlist **out, int64_t *total)
{
	json_t *t = json_object_get(j, "total");
	json_t *jobs = json_object_get(j, "jobs");
	int rc;
	if (!json_is_object(j) || !json_is_number(t) || jobs == NULL)
		return qless__err(QLESS_EPROTOCOL, "%s: expected {\"total\", \"jobs\"} in the reply", F);
	rc = qless__strlist_from_json(jobs, out, F);
	if (rc == QLESS_OK && total != NULL)
		*total = qless__jint(t);
	return rc;
}

int qless_client_tagged(qless_client *client, qless_strlist **out, int64_t *total, const char *tag,
                        int64_t offset, int64_t count)
{
	static const char F[] = "qless_client_tagged";
	qless_args a;
	json_t *j;
	int rc;

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
	if ((rc = qless__call_json(client, F, "tag", &a, &j)) != QLESS_OK)
		return rc;
	rc = total_jobs(j, F, out, total);
	json_decref(j);
	return rc;
}

int qless_client_top_tags(qless_client *client, qless_strlist **out, int64_t offset, int64_t count)
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
		const char *stack[34];
		const char **argv = l->size + 2 <= 34 ? stack : malloc((l->size + 2) * sizeof *argv);
		if (argv == NULL) {
			qless_strlist_free(l);
			return qless__err_nomem(F);
		}
		argv[0] = "ZMSCORE";
		argv[1] = "ql:tags";
		for (i = 0; i < l->size; i++)
			argv[i + 2] = l->items[i];
		{
			qless_sigpipe_guard g;
			qless__sigpipe_block(&g);
			r = client->ctx ? redisCommandArgv(client->ctx, (int)(l->size + 2), argv, NULL) : NULL;
			qless__sigpipe_restore(&g);
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

int qless_client_tracked(qless_client *client, qless_joblist **jobs, qless_strlist **expired)
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
	if (jobs != NULL)
		*jobs = jl;
	else
		qless_joblist_free(jl);
	if (expired != NULL)
		*expired = el;
	else
		qless_strlist_free(el);
	return QLESS_OK;
}

int qless_client_failed_groups(qless_client *client, qless_strlist **out)
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

int qless_client_failed(qless_client *client, qless_strlist **out, int64_t *total, const char *group,
                        int64_t start, int64_t limit)
{
	static const char F[] = "qless_client_failed";
	qless_args a;
	json_t *j;
	int rc;

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
	if ((rc = qless__call_json(client, F, "failed", &a, &j)) != QLESS_OK)
		return rc;
	rc = total_jobs(j, F, out, total);
	json_decref(j);
	return rc;
}

/* ---- queues and workers ---- */

static int queues_reply(qless_client *client, const char *F, json_t **out)
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

int qless_client_queue_names(qless_client *client, qless_strlist **out)
{
	static const char F[] = "qless_client_queue_names";
	qless_strlist *l;
	json_t *j, *v;
	size_t i;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	if ((rc = queues_reply(client, F, &j)) != QLESS_OK)
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

int qless_client_queues_json(qless_client *client, char **out)
{
	static const char F[] = "qless_client_queues_json";
	json_t *j;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	if ((rc = queues_reply(client, F, &j)) != QLESS_OK)
		return rc;
	*out = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return *out ? QLESS_OK : qless__err_nomem(F);
}

int qless_client_workers(qless_client *client, qless_strlist **out)
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

int qless_client_worker_jobs(qless_client *client, const char *worker, qless_strlist **jobs, qless_strlist **stalled)
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
	if (jobs != NULL)
		*jobs = jl;
	else
		qless_strlist_free(jl);
	if (stalled != NULL)
		*stalled = sl;
	else
		qless_strlist_free(sl);
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

int qless_client_config_get(qless_client *client, char **out, const char *key)
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

int qless_client_config_all(qless_client *client, char **out)
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
