/* The `queues` reply (client_admin.c), shared with the typed queue counts. */
#ifndef QLESS_CLIENT_ADMIN_H
#define QLESS_CLIENT_ADMIN_H

#include <jansson.h>

#include "qless/common.h"

/* The `queues` reply for every queue as a JSON array (an empty one for the
 * protocol's "{}"); EPROTOCOL naming F on another shape. */
int qless__queues_reply(qless_client *client, const char *F, json_t **out);

#endif
