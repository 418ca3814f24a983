/* Raw protocol calls: qless_client_call and its pipelined batch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "errors.h"
#include "util.h"

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

int qless_client_call(char **out, qless_client *client, const char *command, const char *const *argv, size_t argc)
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
