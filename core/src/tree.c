/* Trees: the tree record, parent/child links, waking, termination and
 * deletion of tree jobs (qless/tree.h). */
#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "errors.h"
#include "namespace.h"
#include "tree_args.h"
#include "util.h"

/* A call whose reply is a text the caller may not want: *out (may be NULL)
 * receives it, owned. */
static int call_text(qless_client *client, const char *F, const char *cmd, qless_args *a, char **out)
{
	char *text = NULL;
	int rc = qless__call_str(client, F, cmd, a, &text, NULL, NULL);
	if (rc != QLESS_OK)
		return rc;
	if (text == NULL)
		return qless__err(QLESS_EPROTOCOL, "%s: expected a text reply, not nil", F);
	if (out != NULL)
		*out = text;
	else
		qless_free(text);
	return QLESS_OK;
}

int qless_client_tree_get(char **out_json, qless_client *client, const char *jid)
{
	static const char F[] = "qless_client_tree_get";
	qless_args a;
	int rc;

	QLESS_CHECK_NULL(F, out_json);
	*out_json = NULL;
	if ((rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK)
		return rc;
	return qless__call_str(client, F, "tree.get", &a, out_json, "job", jid);
}

int qless_client_job_adopt(qless_client *client, const char *parent, const char *name, const char *child)
{
	static const char F[] = "qless_client_job_adopt";
	qless_args a;
	int rc;

	if ((rc = qless__check_text(F, "name", name)) != QLESS_OK ||
	    (rc = qless__check_text(F, "child", child)) != QLESS_OK ||
	    (client != NULL && (rc = qless__namespace_same(F, "child", client->ns, child)) != QLESS_OK) ||
	    (rc = qless__first_arg(F, client, "parent", parent, &a)) != QLESS_OK)
		return rc;
	qless__args_add(&a, name);
	qless__args_add(&a, child);
	return qless__call_void(client, F, "job.adopt", &a);
}

int qless_client_job_disown(char **out_child, qless_client *client, const char *parent, const char *name)
{
	static const char F[] = "qless_client_job_disown";
	qless_args a;
	int rc;

	if (out_child != NULL)
		*out_child = NULL;
	if ((rc = qless__check_text(F, "name", name)) != QLESS_OK ||
	    (rc = qless__first_arg(F, client, "parent", parent, &a)) != QLESS_OK)
		return rc;
	qless__args_add(&a, name);
	return call_text(client, F, "job.disown", &a, out_child);
}

int qless_client_job_run(char **out_state, qless_client *client, const char *jid, double delay)
{
	static const char F[] = "qless_client_job_run";
	qless_args a;
	int rc;

	if (out_state != NULL)
		*out_state = NULL;
	if ((rc = qless__check_finite(F, "delay", delay)) != QLESS_OK ||
	    (rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK)
		return rc;
	qless__args_num(&a, delay);
	return call_text(client, F, "job.run", &a, out_state);
}

int qless_client_job_terminate(int64_t *out_changed, qless_client *client, const char *jid, int recursive)
{
	static const char F[] = "qless_client_job_terminate";
	qless_args a;
	int rc;

	if (out_changed != NULL)
		*out_changed = 0;
	if ((rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK)
		return rc;
	if (recursive)
		qless__args_add(&a, "recursive");
	return qless__call_int(client, F, "job.terminate", &a, out_changed);
}

int qless_client_job_delete(int64_t *out_deleted, qless_client *client, const char *jid)
{
	static const char F[] = "qless_client_job_delete";
	qless_args a;
	int rc;

	if (out_deleted != NULL)
		*out_deleted = 0;
	if ((rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK)
		return rc;
	return qless__call_int(client, F, "job.delete", &a, out_deleted);
}
