/* qless_client: making, cloning and freeing clients; the clock; the features
 * its database holds. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "client_state.h"
#include "cluster.h"
#include "conn.h"
#include "embedded_script.h"
#include "errors.h"
#include "options.h"
#include "handles.h"
#include "ids.h"
#include "namespace.h"
#include "protocol.h"
#include "url.h"
#include "util.h"


/* The prefix of a client without a namespace (never freed). */
static char qless__no_prefix[] = "ql:";

int qless_client_options_init(qless_client_options *opts, unsigned int version)
{
	static const qless_client_options init = QLESS_CLIENT_OPTIONS_INIT;
	return qless__options_init("qless_client_options_init", opts, version, &init,
	                           offsetof(qless_client_options, namespace_name), sizeof init,
	                           QLESS_CLIENT_OPTIONS_VERSION);
}

/* c->ns and c->prefix from the option (name, may be NULL) or the URL's
 * namespace= parameter; both given must agree. ns NULL: c->prefix "ql:". */
static int set_namespace(qless_client *c, const char *F, const char *name)
{
	const char *url_name = c->url.namespace_name;
	int rc;
	if (name != NULL && url_name != NULL && strcmp(name, url_name) != 0)
		return qless__err(QLESS_EINVAL, "%s: the namespace option (\"%s\") and the URL's namespace= (\"%s\") differ",
		                  F, name, url_name);
	if (name == NULL)
		name = url_name;
	c->prefix = qless__no_prefix;
	if (name == NULL)
		return QLESS_OK;
	if ((rc = qless__namespace_check(F, name == url_name ? "URL namespace=" : "namespace option", name,
	                                 strlen(name))) != QLESS_OK)
		return rc;
	if ((c->ns = qless__strdup(name)) == NULL || (c->prefix = qless__namespace_prefix(name)) == NULL)
		return qless__err_nomem(F);
	return QLESS_OK;
}

/* wait_replicas and its timeout: the option's when set, else the URL's. */
static int set_wait(qless_client *c, const char *F, const qless_client_options *o)
{
	if (o->wait_replicas < 0)
		return qless__err(QLESS_EINVAL, "%s: wait_replicas must not be negative (got %d)", F, o->wait_replicas);
	if (o->wait_timeout_ms < 0)
		return qless__err(QLESS_EINVAL, "%s: wait_timeout_ms must not be negative (got %d)", F, o->wait_timeout_ms);
	if (o->wait_replicas > 0)
		c->wait_replicas = o->wait_replicas;
	else if (c->url.wait_replicas > 0)
		c->wait_replicas = c->url.wait_replicas;
	if (o->wait_timeout_ms > 0)
		c->wait_timeout_ms = o->wait_timeout_ms;
	else if (c->url.wait_timeout_ms > 0)
		c->wait_timeout_ms = c->url.wait_timeout_ms;
	return QLESS_OK;
}

static void client_destroy(qless_client *c)
{
	qless__handle_add(-1);
	if (c->cluster != NULL) {
		/* c->conn is a node's, lent: the cluster frees it. */
		qless__cluster_sync(c);
		c->conn = NULL;
		qless__cluster_free(c->cluster);
	}
	qless__conn_free(c->conn);
	qless__url_free(&c->url);
	free(c->worker_name);
	free(c->features);
	free(c->ns);
	if (c->ns != NULL || c->prefix != qless__no_prefix)
		free(c->prefix);
	free(c);
}

/* Atomic: handles of one client may be freed on different threads at once
 * (a language's garbage collector, a job kept from a pool thread's perform).
 * The release that drops the last reference sees every write the others made
 * before theirs, so destroying the client then is safe. */
void qless__client_ref(qless_client *c)
{
	__atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
}

void qless__client_unref(qless_client *c)
{
	if (c != NULL && __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0)
		client_destroy(c);
}

/* A redis+cluster:// URL, parsed into u: c->url holds what a node
 * connection takes from it (user, password; host and port are the
 * node's) and its namespace= for set_namespace. */
static int cluster_url(qless_client *c, const char *url, qless_cluster_url *u)
{
	int rc = qless__cluster_url_parse(url, u);
	if (rc != QLESS_OK)
		return rc;
	c->url.wait_replicas = u->wait_replicas;
	c->url.wait_timeout_ms = u->wait_timeout_ms;
	c->url.port = u->ports[0];
	if ((c->url.host = qless__strdup(u->hosts[0])) == NULL ||
	    (u->user != NULL && (c->url.user = qless__strdup(u->user)) == NULL) ||
	    (u->password != NULL && (c->url.password = qless__strdup(u->password)) == NULL) ||
	    (u->ns != NULL && (c->url.namespace_name = qless__strdup(u->ns)) == NULL))
		return qless__err_nomem("qless_client_new");
	return QLESS_OK;
}

/* The cluster state, once the namespace is known (required on a cluster:
 * ql:... keys would lie in every slot, where no script reaches them all). */
static int cluster_start(qless_client *c, const char *F, qless_cluster_url *u)
{
	if (c->ns == NULL)
		return qless__err(QLESS_EINVAL, "%s: a redis+cluster:// client needs a namespace (namespace=NAME in the "
		                  "URL, or the namespace option): every key of a namespace lives in one hash slot", F);
	return qless__cluster_new(&c->cluster, u, c->prefix);
}

int qless_client_new(qless_client **out, const char *url, const qless_client_options *opts)
{
	static const char F[] = "qless_client_new";
	static const qless_client_options init = QLESS_CLIENT_OPTIONS_INIT;
	qless_client_options o;
	char *embedded = NULL;
	qless_client *c;
	qless_cluster_url cu;
	int rc, is_cluster;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	if ((rc = qless__options_read(F, opts, &o, &init, offsetof(qless_client_options, namespace_name), sizeof o,
	                              QLESS_CLIENT_OPTIONS_VERSION)) != QLESS_OK)
		return rc;
	opts = &o;
	if (opts->worker_name != NULL && opts->worker_name[0] == '\0')
		return qless__err_empty(F, "worker name");
	/* Sent with every pop, settle and heartbeat: refused here, once, rather
	 * than by the protocol at each of them. */
	if (opts != NULL && opts->worker_name != NULL && !qless__utf8_valid(opts->worker_name))
		return qless__err(QLESS_EINVAL, "%s: worker name is not valid UTF-8 text", F);
	if (url == NULL) {
		url = getenv("QLESS_URL");
		if (url == NULL || url[0] == '\0') {
			/* No URL anywhere: the embedded server, started on demand. */
			if ((rc = qless_server_start(&embedded, NULL)) != QLESS_OK)
				return rc;
			url = embedded;
		}
	}
	c = calloc(1, sizeof *c);
	if (c == NULL) {
		qless_free(embedded);
		return qless__err_nomem(F);
	}
	c->refs = 1;
	qless__handle_add(1);
	memset(&cu, 0, sizeof cu);
	is_cluster = qless__cluster_url_is(url);
	rc = is_cluster ? cluster_url(c, url, &cu) : qless__url_parse(url, &c->url);
	qless_free(embedded);
	if (rc == QLESS_OK)
		rc = set_namespace(c, F, opts->namespace_name);
	if (rc == QLESS_OK)
		rc = set_wait(c, F, opts);
	if (rc == QLESS_OK && is_cluster)
		rc = cluster_start(c, F, &cu);
	qless__cluster_url_free(&cu);
	if (rc != QLESS_OK) {
		client_destroy(c);
		return rc;
	}
	c->connect_timeout_ms = 5000;
	c->command_timeout_ms = 30000;
	if (opts != NULL) {
		if (opts->connect_timeout_ms != 0)
			c->connect_timeout_ms = opts->connect_timeout_ms < 0 ? -1 : opts->connect_timeout_ms;
		if (opts->command_timeout_ms != 0)
			c->command_timeout_ms = opts->command_timeout_ms < 0 ? -1 : opts->command_timeout_ms;
	}
	c->worker_name = (opts != NULL && opts->worker_name != NULL) ? qless__strdup(opts->worker_name)
	                                                             : qless__default_worker_name();
	if (c->worker_name == NULL) {
		client_destroy(c);
		return qless__err_nomem(F);
	}
	snprintf(c->sha, sizeof c->sha, "%s", qless_script_lua_sha1);
	c->evalsha_only = qless__evalsha_env();
	rc = qless__ensure(c);
	if (rc != QLESS_OK) {
		client_destroy(c);
		return rc;
	}
	*out = c;
	return QLESS_OK;
}

int qless__client_clone(const qless_client *src, qless_client **out)
{
	static const char F[] = "qless_client_clone";
	qless_client *c;
	int oom = 0, rc;

	*out = NULL;
	c = calloc(1, sizeof *c);
	if (c == NULL)
		return qless__err_nomem(F);
	c->refs = 1;
	qless__handle_add(1);
	if (qless__url_copy(&c->url, &src->url) != QLESS_OK)
		oom = 1;
	c->worker_name = qless__strdup_or_null(src->worker_name, &oom);
	c->ns = qless__strdup_or_null(src->ns, &oom);
	c->prefix = src->ns != NULL ? qless__strdup_or_null(src->prefix, &oom) : qless__no_prefix;
	c->connect_timeout_ms = src->connect_timeout_ms;
	c->command_timeout_ms = src->command_timeout_ms;
	c->offset = src->offset;
	memcpy(c->sha, src->sha, sizeof c->sha);
	c->evalsha_only = src->evalsha_only;
	c->wait_replicas = src->wait_replicas;
	c->wait_timeout_ms = src->wait_timeout_ms;
	if (!oom && src->cluster != NULL && qless__cluster_clone(src->cluster, &c->cluster) != QLESS_OK) {
		client_destroy(c);
		return qless_error_last_code();
	}
	if (oom) {
		client_destroy(c);
		return qless__err_nomem(F);
	}
	if ((rc = qless__ensure(c)) != QLESS_OK) {
		client_destroy(c);
		return rc;
	}
	*out = c;
	return QLESS_OK;
}

void qless_client_free(qless_client *client)
{
	qless__client_unref(client);
}

const char *qless_client_worker_name(const qless_client *client)
{
	return client ? client->worker_name : NULL;
}

const char *qless_client_namespace(const qless_client *client)
{
	return client ? client->ns : NULL;
}

double qless__now(const qless_client *c)
{
	struct timespec ts;
	if (c->pinned_now != 0)
		return c->pinned_now;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + c->offset;
}

double qless__pin_now(qless_client *c)
{
	double t;
	c->pinned_now = 0;
	t = qless__now(c);
	/* As qless__fmt_now rounds it (without libm). */
	c->pinned_now = (double)(long long)(t * 1e6 + (t >= 0 ? 0.5 : -0.5)) / 1e6;
	return c->pinned_now;
}

void qless__unpin_now(qless_client *c)
{
	c->pinned_now = 0;
}

int qless_client_set_time_offset(qless_client *client, double seconds)
{
	int rc;
	QLESS_CHECK_NULL("qless_client_set_time_offset", client);
	if ((rc = qless__check_finite("qless_client_set_time_offset", "seconds", seconds)) != QLESS_OK)
		return rc;
	client->offset = seconds;
	return QLESS_OK;
}

double qless_client_now(const qless_client *client)
{
	return client ? qless__now(client) : 0;
}

int qless_client_features(char **out_json, qless_client *client)
{
	static const char F[] = "qless_client_features";
	int rc;

	QLESS_CHECK_NULL(F, out_json);
	*out_json = NULL;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__ensure(client)) != QLESS_OK)
		return rc;
	if ((*out_json = qless__strdup(client->features)) == NULL)
		return qless__err_nomem(F);
	return QLESS_OK;
}
