/* ql:features ({NAME}:ql:features in a namespace; jobtrees.md K2): what the database holds that only scripts
 * implementing it may serve. Read at each connect; a feature this library
 * does not implement, recorded by a newer script, refuses the connection,
 * since this library's script would damage that data (as an older script
 * blanks, purges and cancels tree jobs). */
#include <stdio.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "client_state.h"
#include "conn.h"
#include "db_features.h"
#include "errors.h"

/* What this library's script records in ql:features. */
static const char *const implemented[] = { "cron", "tree" };

static int known(const char *name, size_t len)
{
	size_t i;
	for (i = 0; i < sizeof implemented / sizeof *implemented; i++)
		if (strlen(implemented[i]) == len && memcmp(implemented[i], name, len) == 0)
			return 1;
	return 0;
}

int qless__features_read(qless_client *c, const char *func)
{
	char key[128];
	const char *argv[2] = { "HGETALL", key };
	redisReply *r;
	snprintf(key, sizeof key, "%sfeatures", QLESS_KEY_PREFIX(c));
	argv[1] = key;
	r = qless__conn_command_argv(c->conn, 2, argv, NULL);
	json_t *obj;
	size_t i;
	int rc = QLESS_OK;

	if (r == NULL)
		return qless__io_error(c, func);
	if (r->type != REDIS_REPLY_ARRAY || r->elements % 2 != 0) {
		rc = qless__err(QLESS_EPROTOCOL, "%s: unexpected HGETALL ql:features reply%s%s", func,
		                r->type == REDIS_REPLY_ERROR ? ": " : "", r->type == REDIS_REPLY_ERROR ? r->str : "");
		freeReplyObject(r);
		return rc;
	}
	if ((obj = json_object()) == NULL) {
		freeReplyObject(r);
		return qless__err_nomem(func);
	}
	for (i = 0; i + 1 < r->elements && rc == QLESS_OK; i += 2) {
		const redisReply *k = r->element[i], *v = r->element[i + 1];
		if (k->type != REDIS_REPLY_STRING || v->type != REDIS_REPLY_STRING)
			rc = qless__err(QLESS_EPROTOCOL, "%s: unexpected HGETALL ql:features reply", func);
		else if (!known(k->str, k->len))
			rc = qless__err(QLESS_ESTATE,
			                "%s: the database holds data of feature \"%.*s\" (script version %.*s), which "
			                "libqless %s does not implement: upgrade libqless to use this database",
			                func, (int)k->len, k->str, (int)v->len, v->str, QLESS_VERSION);
		else if (json_object_setn_new(obj, k->str, k->len, json_stringn(v->str, v->len)) != 0)
			rc = qless__err(QLESS_EPROTOCOL, "%s: ql:features holds a version that is not UTF-8", func);
	}
	freeReplyObject(r);
	if (rc == QLESS_OK) {
		char *text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
		if (text == NULL) {
			rc = qless__err_nomem(func);
		} else {
			qless_free(c->features);
			c->features = text;
		}
	}
	json_decref(obj);
	return rc;
}
