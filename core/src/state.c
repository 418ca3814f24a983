/* Per-job state of tree jobs: JSON values under keys (qless/tree.h). */
#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "errors.h"
#include "tree_args.h"

int qless_state_get(char **out_json, qless_client *client, const char *jid, const char *key)
{
	static const char F[] = "qless_state_get";
	qless_args a;
	int rc;

	QLESS_CHECK_NULL(F, out_json);
	*out_json = NULL;
	if ((key != NULL && (rc = qless__check_text(F, "key", key)) != QLESS_OK) ||
	    (rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK)
		return rc;
	if (key != NULL)
		qless__args_add(&a, key);
	return qless__call_str(client, F, "state.get", &a, out_json, NULL, NULL);
}

int qless_state_set(qless_client *client, const char *jid, const char *key, const char *json)
{
	static const char F[] = "qless_state_set";
	qless_args a;
	int rc;

	if ((rc = qless__check_text(F, "key", key)) != QLESS_OK || (rc = qless__check_json_arg(F, "json", json)) != QLESS_OK ||
	    (rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK)
		return rc;
	qless__args_add(&a, key);
	qless__args_add(&a, json);
	return qless__call_void(client, F, "state.set", &a);
}

int qless_state_del(int64_t *out_removed, qless_client *client, const char *jid, const char *const *keys, size_t n)
{
	static const char F[] = "qless_state_del";
	qless_args a;
	int rc;

	if (out_removed != NULL)
		*out_removed = 0;
	if ((rc = qless__check_list(F, "keys", keys, n)) != QLESS_OK ||
	    (rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK)
		return rc;
	qless__args_addv(&a, keys, n);
	return qless__call_int(client, F, "state.del", &a, out_removed);
}
