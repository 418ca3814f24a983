/* Bound handles of a port and of a channel (qless/tree.h): names kept with
 * a reference to their client, so an object can outlive the caller's hold
 * on the client (the bindings' Port and Channel classes). */
#include <stdlib.h>

#include "qless/qless.h"
#include "client_state.h"
#include "errors.h"
#include "handles.h"
#include "tree_args.h"
#include "util.h"

struct qless_port {
	qless_client *client;
	char *jid, *name;
	qless_port_dir dir;
};

struct qless_channel {
	qless_client *client;
	char *name;
};

int qless_port_open(qless_port **out, qless_client *client, const char *jid, qless_port_dir dir, const char *port)
{
	static const char F[] = "qless_port_open";
	qless_port *p;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__check_text(F, "jid", jid)) != QLESS_OK || (rc = qless__check_text(F, "port", port)) != QLESS_OK ||
	    (rc = qless__check_dir(F, dir)) != QLESS_OK)
		return rc;
	if ((p = calloc(1, sizeof *p)) == NULL || (p->jid = qless__strdup(jid)) == NULL ||
	    (p->name = qless__strdup(port)) == NULL) {
		if (p)
			free(p->jid);
		free(p);
		return qless__err_nomem(F);
	}
	p->dir = dir;
	p->client = client;
	qless__client_ref(client);
	qless__handle_add(1);
	*out = p;
	return QLESS_OK;
}

void qless_port_free(qless_port *p)
{
	if (p == NULL)
		return;
	qless__client_unref(p->client);
	free(p->jid);
	free(p->name);
	free(p);
	qless__handle_add(-1);
}

qless_client *qless_port_client(const qless_port *p)
{
	return p ? p->client : NULL;
}

const char *qless_port_jid(const qless_port *p)
{
	return p ? p->jid : NULL;
}

const char *qless_port_name(const qless_port *p)
{
	return p ? p->name : NULL;
}

qless_port_dir qless_port_direction(const qless_port *p)
{
	return p ? p->dir : QLESS_PORT_IN;
}

int qless_channel_open(qless_channel **out, qless_client *client, const char *name)
{
	static const char F[] = "qless_channel_open";
	qless_channel *ch;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__check_text(F, "name", name)) != QLESS_OK)
		return rc;
	if ((ch = calloc(1, sizeof *ch)) == NULL || (ch->name = qless__strdup(name)) == NULL) {
		free(ch);
		return qless__err_nomem(F);
	}
	ch->client = client;
	qless__client_ref(client);
	qless__handle_add(1);
	*out = ch;
	return QLESS_OK;
}

void qless_channel_free(qless_channel *ch)
{
	if (ch == NULL)
		return;
	qless__client_unref(ch->client);
	free(ch->name);
	free(ch);
	qless__handle_add(-1);
}

qless_client *qless_channel_client(const qless_channel *ch)
{
	return ch ? ch->client : NULL;
}

const char *qless_channel_name(const qless_channel *ch)
{
	return ch ? ch->name : NULL;
}
