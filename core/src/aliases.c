/* Aliases: global names of tree jobs (qless/tree.h). */
#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "errors.h"
#include "tree_args.h"

int qless_client_alias_set(int64_t *out_added, qless_client *client, const char *jid, const char *const *aliases,
                           size_t n)
{
	static const char F[] = "qless_client_alias_set";
	qless_args a;
	int rc;

	if (out_added != NULL)
		*out_added = 0;
	if ((rc = qless__check_list(F, "aliases", aliases, n)) != QLESS_OK ||
	    (rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK)
		return rc;
	qless__args_addv(&a, aliases, n);
	return qless__call_int(client, F, "alias.set", &a, out_added);
}

int qless_client_alias_get(char **out_jid, qless_client *client, const char *alias)
{
	static const char F[] = "qless_client_alias_get";
	qless_args a;
	int rc;

	QLESS_CHECK_NULL(F, out_jid);
	*out_jid = NULL;
	if ((rc = qless__first_arg(F, client, "alias", alias, &a)) != QLESS_OK)
		return rc;
	return qless__call_str(client, F, "alias.get", &a, out_jid, NULL, NULL);
}

int qless_client_alias_del(int64_t *out_removed, qless_client *client, const char *const *aliases, size_t n)
{
	static const char F[] = "qless_client_alias_del";
	qless_args a;
	int rc;

	if (out_removed != NULL)
		*out_removed = 0;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__check_list(F, "aliases", aliases, n)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_addv(&a, aliases, n);
	return qless__call_int(client, F, "alias.del", &a, out_removed);
}
