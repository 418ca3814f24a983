/* Channels: reliable publication to subscribed input ports, and who is
 * subscribed (qless/tree.h). */
#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "errors.h"
#include "next_times.h"
#include "tree_args.h"

int qless_channel_publish(int64_t *out_delivered, qless_client *client, const char *channel, const char *json,
                          const char *from_jid)
{
	static const char F[] = "qless_channel_publish";
	qless_args a;
	int rc;

	if (out_delivered != NULL)
		*out_delivered = 0;
	if ((rc = qless__check_json_arg(F, "json", json)) != QLESS_OK ||
	    (from_jid != NULL && (rc = qless__check_text(F, "from_jid", from_jid)) != QLESS_OK) ||
	    (rc = qless__first_arg(F, client, "channel", channel, &a)) != QLESS_OK)
		return rc;
	qless__args_add(&a, json);
	if (from_jid != NULL)
		qless__args_add(&a, from_jid);
	return qless__call_int(client, F, "channel.publish", &a, out_delivered);
}

int qless_channel_subscribers(char **out_json, qless_client *client, const char *channel)
{
	static const char F[] = "qless_channel_subscribers";
	qless_args a;
	json_t *j;
	int rc;

	QLESS_CHECK_NULL(F, out_json);
	*out_json = NULL;
	if ((rc = qless__first_arg(F, client, "channel", channel, &a)) != QLESS_OK ||
	    (rc = qless__call_json(client, F, "channel.subscribers", &a, &j)) != QLESS_OK ||
	    (rc = qless__json_list(F, &j, "subscribers")) != QLESS_OK)
		return rc;
	*out_json = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return *out_json ? QLESS_OK : qless__err_nomem(F);
}
