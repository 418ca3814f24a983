/* redis+cluster://[[user]:password@]host:port[,host:port...]/?namespace=NAME
 *   [&wait_replicas=N][&wait_timeout_ms=MS]
 * The seed nodes only start the conversation: the slot map read from any of
 * them names the nodes the calls go to. */
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "cluster.h"
#include "errors.h"
#include "url.h"
#include "util.h"

static const char SCHEME[] = "redis+cluster://";

int qless__cluster_url_is(const char *url)
{
	return url != NULL && strncmp(url, SCHEME, sizeof SCHEME - 1) == 0;
}

void qless__cluster_url_free(qless_cluster_url *u)
{
	size_t i;
	if (u == NULL)
		return;
	for (i = 0; i < u->nseeds; i++)
		free(u->hosts[i]);
	free(u->hosts);
	free(u->ports);
	free(u->user);
	free(u->password);
	free(u->ns);
	memset(u, 0, sizeof *u);
}

/* The error names the URL without its credentials: the scheme and what
 * follows the userinfo. */
static int bad(const char *url, const char *what)
{
	const char *rest = url + sizeof SCHEME - 1, *slash = strchr(rest, '/'), *at = NULL, *p;
	for (p = rest; *p && (slash == NULL || p < slash); p++)
		if (*p == '@')
			at = p;
	if (at != NULL)
		return qless__err(QLESS_EINVAL, "qless_client_new: malformed URL \"%s***%.*s\": %s", SCHEME,
		                  (int)(slash ? slash - at : (long)strlen(at)), at, what);
	return qless__err(QLESS_EINVAL, "qless_client_new: malformed URL \"%.*s\": %s",
	                  (int)(slash ? slash - url : (long)strlen(url)), url, what);
}

static int add_seed(qless_cluster_url *u, const char *url, const char *s, size_t n)
{
	const char *colon = NULL, *p;
	char **hosts;
	int *ports, port;
	for (p = s; p < s + n; p++)
		if (*p == ':')
			colon = p;
	if (n == 0)
		return bad(url, "empty node in the node list");
	if (colon == NULL || colon == s)
		return bad(url, "each node must be host:port");
	if (qless__url_parse_uint(colon + 1, (size_t)(s + n - colon - 1), 65535, &port) != 0 || port == 0)
		return bad(url, "bad port");
	hosts = realloc(u->hosts, (u->nseeds + 1) * sizeof *hosts);
	if (hosts == NULL)
		return qless__err_nomem("qless_client_new");
	u->hosts = hosts;
	ports = realloc(u->ports, (u->nseeds + 1) * sizeof *ports);
	if (ports == NULL)
		return qless__err_nomem("qless_client_new");
	u->ports = ports;
	if ((u->hosts[u->nseeds] = qless__strndup(s, (size_t)(colon - s))) == NULL)
		return qless__err_nomem("qless_client_new");
	u->ports[u->nseeds++] = port;
	return QLESS_OK;
}

static int userinfo(qless_cluster_url *u, const char *url, const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);
	int oops = 0;
	if (colon == NULL) { /* a bare userinfo is the password */
		u->password = qless__url_pct_decode(s, n, &oops);
	} else {
		if (colon > s && (u->user = qless__url_pct_decode(s, (size_t)(colon - s), &oops)) == NULL)
			return oops ? bad(url, "bad percent escape in the user") : qless__err_nomem("qless_client_new");
		u->password = qless__url_pct_decode(colon + 1, (size_t)(s + n - colon - 1), &oops);
	}
	if (u->password == NULL)
		return oops ? bad(url, "bad percent escape in the password") : qless__err_nomem("qless_client_new");
	if (u->password[0] == '\0') {
		free(u->password);
		u->password = NULL;
	}
	return QLESS_OK;
}

static int param(qless_cluster_url *u, const char *url, const char *k, size_t kn, const char *v, size_t vn)
{
	int oops = 0;
	if (kn == 9 && memcmp(k, "namespace", 9) == 0) {
		free(u->ns);
		if ((u->ns = qless__url_pct_decode(v, vn, &oops)) == NULL)
			return oops ? bad(url, "bad percent escape in the namespace") : qless__err_nomem("qless_client_new");
		if (u->ns[0] == '\0')
			return bad(url, "namespace is empty");
		return QLESS_OK;
	}
	if (kn == 13 && memcmp(k, "wait_replicas", 13) == 0)
		return qless__url_parse_uint(v, vn, 1000, &u->wait_replicas) == 0
		               ? QLESS_OK
		               : bad(url, "wait_replicas must be a non-negative integer (replicas to wait for)");
	if (kn == 15 && memcmp(k, "wait_timeout_ms", 15) == 0)
		return qless__url_parse_uint(v, vn, 100000000, &u->wait_timeout_ms) == 0 && u->wait_timeout_ms > 0
		               ? QLESS_OK
		               : bad(url, "wait_timeout_ms must be a positive integer (milliseconds)");
	return bad(url, "unknown query parameter (expected namespace, wait_replicas, wait_timeout_ms)");
}

static int parse(const char *url, qless_cluster_url *u)
{
	const char *p = url + sizeof SCHEME - 1, *end, *at = NULL, *q, *s;
	int rc;

	end = p + strcspn(p, "/?");
	for (q = p; q < end; q++)
		if (*q == '@')
			at = q;
	if (at != NULL) {
		if ((rc = userinfo(u, url, p, (size_t)(at - p))) != QLESS_OK)
			return rc;
		p = at + 1;
	}
	if (p == end)
		return bad(url, "no node: give host:port[,host:port...]");
	for (s = p; s <= end;) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *stop = comma ? comma : end;
		if ((rc = add_seed(u, url, s, (size_t)(stop - s))) != QLESS_OK)
			return rc;
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	if (*end == '/')
		end++;
	if (*end != '\0' && *end != '?')
		return bad(url, "a cluster has only database 0: no /db in the URL");
	for (s = *end == '?' ? end + 1 : end; *s;) {
		size_t len = strcspn(s, "&");
		const char *eq = memchr(s, '=', len);
		if (len > 0) {
			if (eq == NULL)
				return bad(url, "query parameters must be key=value");
			if ((rc = param(u, url, s, (size_t)(eq - s), eq + 1, len - (size_t)(eq - s) - 1)) != QLESS_OK)
				return rc;
		}
		s += len;
		if (*s == '&')
			s++;
	}
	return QLESS_OK;
}

int qless__cluster_url_parse(const char *url, qless_cluster_url *out)
{
	int rc;
	memset(out, 0, sizeof *out);
	rc = parse(url, out);
	if (rc != QLESS_OK)
		qless__cluster_url_free(out);
	return rc;
}
