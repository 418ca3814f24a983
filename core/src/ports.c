/* Ports of tree jobs: define, remove, write, read, peek, size, and their
 * channel links (qless/tree.h). */
#include <stdio.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "errors.h"
#include "tree_args.h"

/* The arguments every port call starts with: jid, dir and, for the calls
 * on one port (one_port set), the port. */
static int port_head(const char *F, qless_client *client, const char *jid, qless_port_dir dir, int one_port,
                     const char *port, qless_args *a)
{
	int rc;
	if ((rc = qless__check_dir(F, dir)) != QLESS_OK ||
	    (one_port && (rc = qless__check_text(F, "port", port)) != QLESS_OK) ||
	    (rc = qless__first_arg(F, client, "jid", jid, a)) != QLESS_OK)
		return rc;
	qless__args_add(a, qless__dir_name(dir));
	if (one_port)
		qless__args_add(a, port);
	return QLESS_OK;
}

int qless_port_define(qless_client *client, const char *jid, qless_port_dir dir, const char *ports_json)
{
	static const char F[] = "qless_port_define";
	qless_args a;
	int rc;

	if ((rc = qless__check_json_object(F, "ports_json", ports_json)) != QLESS_OK ||
	    (rc = port_head(F, client, jid, dir, 0, NULL, &a)) != QLESS_OK)
		return rc;
	qless__args_add(&a, ports_json);
	return qless__call_void(client, F, "port.define", &a);
}

int qless_port_remove(int64_t *out_removed, qless_client *client, const char *jid, qless_port_dir dir,
                      const char *const *ports, size_t n)
{
	static const char F[] = "qless_port_remove";
	qless_args a;
	int rc;

	if (out_removed != NULL)
		*out_removed = 0;
	if ((rc = qless__check_list(F, "ports", ports, n)) != QLESS_OK ||
	    (rc = port_head(F, client, jid, dir, 0, NULL, &a)) != QLESS_OK)
		return rc;
	qless__args_addv(&a, ports, n);
	return qless__call_int(client, F, "port.remove", &a, out_removed);
}

int qless_port_write(qless_client *client, const char *jid, qless_port_dir dir, const char *port,
                     const char *const *values, size_t n)
{
	static const char F[] = "qless_port_write";
	char arg[40];
	qless_args a;
	size_t i;
	int rc;

	if (n == 0)
		return qless__err_empty(F, "values");
	if (values == NULL)
		return qless__err_null(F, "values");
	for (i = 0; i < n; i++) {
		snprintf(arg, sizeof arg, "values[%zu]", i);
		if ((rc = qless__check_json_arg(F, arg, values[i])) != QLESS_OK)
			return rc;
	}
	if ((rc = port_head(F, client, jid, dir, 1, port, &a)) != QLESS_OK)
		return rc;
	qless__args_addv(&a, values, n);
	return qless__call_void(client, F, "port.write", &a);
}

static int read_peek(const char *F, const char *cmd, qless_client *client, const char *jid, qless_port_dir dir,
                     const char *port, int64_t count, char **out_json)
{
	qless_args a;
	int rc;

	QLESS_CHECK_NULL(F, out_json);
	*out_json = NULL;
	if (count < 1 || count > 1000)
		return qless__err(QLESS_EINVAL, "%s: count must be between 1 and 1000, not %lld", F, (long long)count);
	if ((rc = port_head(F, client, jid, dir, 1, port, &a)) != QLESS_OK)
		return rc;
	qless__args_int(&a, count);
	if ((rc = qless__call_str(client, F, cmd, &a, out_json, NULL, NULL)) == QLESS_OK && *out_json == NULL)
		rc = qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array reply, not nil", F);
	return rc;
}

int qless_port_read(char **out_json, qless_client *client, const char *jid, qless_port_dir dir, const char *port,
                    int64_t count)
{
	return read_peek("qless_port_read", "port.read", client, jid, dir, port, count, out_json);
}

int qless_port_peek(char **out_json, qless_client *client, const char *jid, qless_port_dir dir, const char *port,
                    int64_t count)
{
	return read_peek("qless_port_peek", "port.peek", client, jid, dir, port, count, out_json);
}

int qless_port_size(int64_t *out, qless_client *client, const char *jid, qless_port_dir dir, const char *port)
{
	static const char F[] = "qless_port_size";
	qless_args a;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = 0;
	if ((rc = port_head(F, client, jid, dir, 1, port, &a)) != QLESS_OK)
		return rc;
	return qless__call_int(client, F, "port.size", &a, out);
}

static int links(const char *F, const char *cmd, qless_client *client, const char *jid, qless_port_dir dir,
                 const char *port, const char *const *channels, size_t n, int64_t *out)
{
	qless_args a;
	int rc;

	if (out != NULL)
		*out = 0;
	if ((rc = qless__check_list(F, "channels", channels, n)) != QLESS_OK ||
	    (rc = port_head(F, client, jid, dir, 1, port, &a)) != QLESS_OK)
		return rc;
	qless__args_addv(&a, channels, n);
	return qless__call_int(client, F, cmd, &a, out);
}

int qless_port_connect(int64_t *out_added, qless_client *client, const char *jid, qless_port_dir dir,
                       const char *port, const char *const *channels, size_t n)
{
	return links("qless_port_connect", "port.connect", client, jid, dir, port, channels, n, out_added);
}

int qless_port_disconnect(int64_t *out_removed, qless_client *client, const char *jid, qless_port_dir dir,
                          const char *port, const char *const *channels, size_t n)
{
	return links("qless_port_disconnect", "port.disconnect", client, jid, dir, port, channels, n, out_removed);
}
