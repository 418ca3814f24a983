/* Typed answers of port reads, channel subscribers and alias lookups
 * (qless/tree.h): the JSON replies taken apart once, here. */
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "errors.h"
#include "handles.h"
#include "next_times.h"
#include "strlist.h"
#include "util.h"

/* peek: qless_port_peek, else qless_port_read; called by name, not through
 * a pointer, so that a change of their argument order changes these calls. */
static int values_of(const char *F, int peek, qless_strlist **out, qless_client *client, const char *jid,
                     qless_port_dir dir, const char *port, int64_t count)
{
	qless_strlist *l;
	json_t *arr;
	char *text = NULL;
	size_t i;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	if (count < 1 || count > 1000)
		return qless__err(QLESS_EINVAL, "%s: count must be between 1 and 1000, not %lld", F, (long long)count);
	rc = peek ? qless_port_peek(&text, client, jid, dir, port, count)
	          : qless_port_read(&text, client, jid, dir, port, count);
	if (rc != QLESS_OK)
		return rc;
	arr = json_loads(text, JSON_DECODE_ANY, NULL);
	qless_free(text);
	if ((rc = qless__json_list(F, &arr, "values")) != QLESS_OK)
		return rc;
	if ((l = qless__strlist_new(json_array_size(arr))) == NULL) {
		json_decref(arr);
		return qless__err_nomem(F);
	}
	for (i = 0; i < json_array_size(arr); i++) {
		char *v = json_dumps(json_array_get(arr, i), JSON_COMPACT | JSON_ENCODE_ANY);
		rc = v ? qless__strlist_push(l, v, strlen(v), 0) : QLESS_ENOMEM;
		free(v);
		if (rc != QLESS_OK) {
			json_decref(arr);
			qless_strlist_free(l);
			return qless__err_nomem(F);
		}
	}
	json_decref(arr);
	*out = l;
	return QLESS_OK;
}

int qless_port_read_values(qless_strlist **out, qless_client *client, const char *jid, qless_port_dir dir,
                           const char *port, int64_t count)
{
	return values_of("qless_port_read_values", 0, out, client, jid, dir, port, count);
}

int qless_port_peek_values(qless_strlist **out, qless_client *client, const char *jid, qless_port_dir dir,
                           const char *port, int64_t count)
{
	return values_of("qless_port_peek_values", 1, out, client, jid, dir, port, count);
}

struct qless_subscribers {
	size_t n;
	char **jids, **ports;
};

void qless_subscribers_free(qless_subscribers *s)
{
	size_t i;
	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->jids[i]);
		free(s->ports[i]);
	}
	free(s->jids);
	free(s->ports);
	free(s);
	qless__handle_add(-1);
}

int qless_subscribers_get(qless_subscribers **out, qless_client *client, const char *channel)
{
	static const char F[] = "qless_subscribers_get";
	qless_subscribers *s;
	json_t *arr;
	char *text = NULL;
	size_t i, n;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	if ((rc = qless_channel_subscribers(&text, client, channel)) != QLESS_OK)
		return rc;
	arr = json_loads(text, 0, NULL);
	qless_free(text);
	if ((rc = qless__json_list(F, &arr, "subscribers")) != QLESS_OK)
		return rc;
	n = json_array_size(arr);
	if ((s = calloc(1, sizeof *s)) == NULL) {
		json_decref(arr);
		return qless__err_nomem(F);
	}
	qless__handle_add(1);
	s->jids = calloc(n + 1, sizeof *s->jids);
	s->ports = calloc(n + 1, sizeof *s->ports);
	rc = s->jids && s->ports ? QLESS_OK : qless__err_nomem(F);
	for (i = 0; i < n && rc == QLESS_OK; i++) {
		const json_t *pair = json_array_get(arr, i);
		const char *jid = json_string_value(json_array_get(pair, 0));
		const char *port = json_string_value(json_array_get(pair, 1));
		if (jid == NULL || port == NULL)
			rc = qless__err(QLESS_EPROTOCOL, "%s: expected [jid, port] pairs from channel.subscribers", F);
		else if ((s->jids[i] = qless__strdup(jid)) == NULL || (s->ports[i] = qless__strdup(port)) == NULL)
			rc = qless__err_nomem(F);
		s->n = i + 1;
	}
	json_decref(arr);
	if (rc != QLESS_OK) {
		qless_subscribers_free(s);
		return rc;
	}
	*out = s;
	return QLESS_OK;
}

size_t qless_subscribers_size(const qless_subscribers *s)
{
	return s ? s->n : 0;
}

const char *qless_subscribers_jid(const qless_subscribers *s, size_t index)
{
	return s && index < s->n ? s->jids[index] : NULL;
}

const char *qless_subscribers_port(const qless_subscribers *s, size_t index)
{
	return s && index < s->n ? s->ports[index] : NULL;
}

int qless_alias_resolve(char **out, qless_client *client, const char *alias)
{
	QLESS_CHECK_NULL("qless_alias_resolve", out);
	return qless_client_alias_get(out, client, alias);
}
