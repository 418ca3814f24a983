/* qless_events: pub/sub subscription on a connection of its own. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "client_state.h"
#include "cluster.h"
#include "conn.h"
#include "errors.h"
#include "handles.h"
#include "util.h"

struct qless_events {
	qless_client *client;
	qless__conn *conn;
	char **channels; /* with the client's prefix, "ql:" or "{NAME}:ql:" */
	size_t n;
};

static int events_io_error(qless_events *ev, const char *F)
{
	int rc = qless__err(QLESS_EIO, "%s: connection error: %s", F,
	                    ev->conn && qless__conn_errstr(ev->conn)[0] ? qless__conn_errstr(ev->conn)
	                                                                : "connection lost");
	qless__conn_free(ev->conn);
	ev->conn = NULL;
	return rc;
}

static int subscribe_impl(qless_events *ev, const char *F);

static int subscribe(qless_events *ev, const char *F)
{
	qless_sigpipe_guard g;
	int rc;
	qless__sigpipe_block(&g);
	rc = subscribe_impl(ev, F);
	qless__sigpipe_restore(&g, rc != QLESS_OK);
	return rc;
}

static int subscribe_impl(qless_events *ev, const char *F)
{
	const char *stack[17];
	const char **argv;
	size_t i;
	int rc = QLESS_OK;

	ev->conn = ev->client->cluster != NULL ? qless__cluster_open_subscriber(ev->client, F)
	                                        : qless__connect(ev->client, 0);
	if (ev->conn == NULL)
		return qless_error_last_code();
	/* The confirmations are awaited like a command's reply. */
	qless__conn_bound(ev->conn, ev->client->command_timeout_ms, "command");
	argv = ev->n + 1 <= 17 ? stack : malloc((ev->n + 1) * sizeof *argv);
	if (argv == NULL) {
		qless__conn_free(ev->conn);
		ev->conn = NULL;
		return qless__err_nomem(F);
	}
	argv[0] = "SUBSCRIBE";
	for (i = 0; i < ev->n; i++)
		argv[i + 1] = ev->channels[i];
	if (qless__conn_append_argv(ev->conn, (int)(ev->n + 1), argv, NULL) != QLESS_OK) {
		qless__conn_free(ev->conn);
		ev->conn = NULL;
		rc = QLESS_ENOMEM;
	}
	if (argv != stack)
		free(argv);
	/* one confirmation per channel */
	for (i = 0; rc == QLESS_OK && i < ev->n; i++) {
		redisReply *r = qless__conn_get_reply(ev->conn);
		if (r == NULL) {
			rc = events_io_error(ev, F);
			break;
		}
		if (r->type != REDIS_REPLY_ARRAY || r->elements < 1 || r->element[0]->type != REDIS_REPLY_STRING ||
		    strcmp(r->element[0]->str, "subscribe") != 0) {
			rc = qless__err(QLESS_EPROTOCOL, "%s: unexpected reply to SUBSCRIBE%s%s", F,
			                r->type == REDIS_REPLY_ERROR ? ": " : "", r->type == REDIS_REPLY_ERROR ? r->str : "");
			qless__conn_free(ev->conn);
			ev->conn = NULL;
		}
		freeReplyObject(r);
	}
	return rc;
}

void qless_events_free(qless_events *events)
{
	size_t i;
	if (events == NULL)
		return;
	qless__conn_free(events->conn);
	for (i = 0; i < events->n; i++)
		free(events->channels[i]);
	free(events->channels);
	qless__handle_add(-1);
	qless__client_unref(events->client);
	free(events);
}

int qless_events_new(qless_events **out, qless_client *client, const char *const *channels, size_t nchannels)
{
	static const char F[] = "qless_events_new";
	qless_events *ev;
	size_t i;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, client);
	QLESS_CHECK_NULL(F, channels);
	if (nchannels == 0)
		return qless__err(QLESS_EINVAL, "%s: no channels", F);
	if ((rc = qless__check_strv(F, "channels", channels, nchannels, 1)) != QLESS_OK)
		return rc;
	ev = calloc(1, sizeof *ev);
	if (ev == NULL)
		return qless__err_nomem(F);
	ev->client = client;
	qless__client_ref(client);
	qless__handle_add(1);
	ev->channels = calloc(nchannels, sizeof *ev->channels);
	if (ev->channels == NULL) {
		qless_events_free(ev);
		return qless__err_nomem(F);
	}
	for (i = 0; i < nchannels; i++) {
		const char *prefix = QLESS_KEY_PREFIX(client);
		size_t len = strlen(channels[i]), plen = strlen(prefix);
		char *ch = malloc(plen + len + 1);
		if (ch == NULL) {
			qless_events_free(ev);
			return qless__err_nomem(F);
		}
		memcpy(ch, prefix, plen);
		memcpy(ch + plen, channels[i], len + 1);
		ev->channels[ev->n++] = ch;
	}
	rc = subscribe(ev, F);
	if (rc != QLESS_OK) {
		qless_events_free(ev);
		return rc;
	}
	*out = ev;
	return QLESS_OK;
}

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int qless_events_next(char **channel, char **message, qless_events *events, int timeout_ms)
{
	static const char F[] = "qless_events_next";
	long long deadline;
	int rc;

	QLESS_CHECK_NULL(F, channel);
	*channel = NULL;
	QLESS_CHECK_NULL(F, message);
	*message = NULL;
	QLESS_CHECK_NULL(F, events);
	if (events->conn == NULL && (rc = subscribe(events, F)) != QLESS_OK)
		return rc;
	deadline = timeout_ms > 0 ? mono_ms() + timeout_ms : 0;
	for (;;) {
		redisReply *r = NULL;
		struct pollfd pfd;
		int wait, pr;

		if (qless__conn_try_reply(events->conn, &r) != QLESS_OK)
			return events_io_error(events, F);
		if (r != NULL) {
			if (r->type == REDIS_REPLY_ARRAY && r->elements == 3 && r->element[0]->type == REDIS_REPLY_STRING &&
			    strcmp(r->element[0]->str, "message") == 0 && r->element[1]->type == REDIS_REPLY_STRING &&
			    r->element[2]->type == REDIS_REPLY_STRING) {
				const char *ch = r->element[1]->str, *prefix = QLESS_KEY_PREFIX(events->client);
				size_t chlen = r->element[1]->len, plen = strlen(prefix);
				if (chlen >= plen && strncmp(ch, prefix, plen) == 0) {
					ch += plen;
					chlen -= plen;
				}
				*channel = qless__strndup(ch, chlen);
				*message = qless__strndup(r->element[2]->str, r->element[2]->len);
				freeReplyObject(r);
				if (*channel == NULL || *message == NULL) {
					free(*channel);
					free(*message);
					*channel = *message = NULL;
					return qless__err_nomem(F);
				}
				return QLESS_OK;
			}
			freeReplyObject(r); /* (un)subscribe confirmations and the like */
			continue;
		}
		if (timeout_ms < 0) {
			wait = -1;
		} else if (timeout_ms == 0) {
			wait = 0;
		} else {
			long long left = deadline - mono_ms();
			wait = left > 0 ? (int)left : 0;
		}
		pfd.fd = qless__conn_fd(events->conn);
		pfd.events = POLLIN;
		pfd.revents = 0;
		pr = poll(&pfd, 1, wait);
		if (pr < 0) {
			if (errno == EINTR)
				continue;
			return events_io_error(events, F);
		}
		if (pr == 0)
			return QLESS_OK; /* timeout: both NULL */
	}
}
