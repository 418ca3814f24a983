/* Connection URL parsing:
 *   redis://[[user]:password@]host[:port][/db][?namespace=NAME]
 *   unix:///path/to/sock[?db=N&password=P&user=U&namespace=NAME]
 */
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "errors.h"
#include "url.h"
#include "util.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *qless__url_pct_decode(const char *s, size_t n, int *bad)
{
	char *d = malloc(n + 1);
	size_t i, j = 0;
	if (d == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (s[i] == '%') {
			int h, l;
			if (i + 2 >= n || (h = hexval(s[i + 1])) < 0 || (l = hexval(s[i + 2])) < 0) {
				free(d);
				*bad = 1;
				return NULL;
			}
			d[j++] = (char)(h * 16 + l);
			i += 2;
		} else {
			d[j++] = s[i];
		}
	}
	d[j] = '\0';
	if (strlen(d) != j) { /* embedded NUL */
		free(d);
		*bad = 1;
		return NULL;
	}
	return d;
}

int qless__url_parse_uint(const char *s, size_t n, long max, int *out)
{
	long v = 0;
	size_t i;
	if (n == 0 || n > 10)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = (int)v;
	return 0;
}

void qless__url_free(qless_url *u)
{
	if (u == NULL)
		return;
	free(u->host);
	free(u->path);
	free(u->user);
	free(u->password);
	free(u->tls_ca);
	free(u->tls_cert);
	free(u->tls_key);
	free(u->namespace_name);
	memset(u, 0, sizeof *u);
}

int qless__url_copy(qless_url *dst, const qless_url *src)
{
	int oom = 0;
	*dst = *src;
	dst->host = qless__strdup_or_null(src->host, &oom);
	dst->path = qless__strdup_or_null(src->path, &oom);
	dst->user = qless__strdup_or_null(src->user, &oom);
	dst->password = qless__strdup_or_null(src->password, &oom);
	dst->tls_ca = qless__strdup_or_null(src->tls_ca, &oom);
	dst->tls_cert = qless__strdup_or_null(src->tls_cert, &oom);
	dst->tls_key = qless__strdup_or_null(src->tls_key, &oom);
	dst->namespace_name = qless__strdup_or_null(src->namespace_name, &oom);
	if (oom) {
		qless__url_free(dst);
		return qless__err_nomem("qless_client_clone");
	}
	return QLESS_OK;
}

/* Query parameters whose values an error message may show; every other
 * value (password=, and anything misspelt) becomes "***". */
static int shown_param(const char *k, size_t n)
{
	static const char *const names[] = { "db", "ca", "cert", "key", "insecure", "namespace" };
	size_t i;
	for (i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i]) == n && strncmp(names[i], k, n) == 0)
			return 1;
	return 0;
}

/*
 * The URL as an error message may show it: credentials never appear. The
 * whole userinfo (everything before the last '@' of the part after the
 * scheme) and the value of every query parameter but
 * the harmless ones (shown_param) become "***"; a URL too malformed to
 * tell still loses all of it. Writes at most size bytes.
 */
static void redact(const char *url, char *out, size_t size)
{
	const char *rest = strstr(url, "://"), *at = NULL, *p, *q;
	size_t n = 0;
#define PUT(ch) do { if (n + 1 < size) out[n++] = (ch); } while (0)
	rest = rest ? rest + 3 : url;
	/* The last '@' anywhere: a password may hold a stray '?' (malformed),
	 * and hiding too much is the safe mistake. */
	at = strrchr(rest, '@');
	q = strchr(at != NULL ? at : rest, '?');
	for (p = url; p < rest; p++)
		PUT(*p);
	if (at != NULL) {
		const char *v;
		for (v = "***"; *v; v++)
			PUT(*v);
		p = at;
	}
	for (; *p; p++) {
		PUT(*p);
		if (q != NULL && p >= q && (*p == '?' || *p == '&')) {
			const char *k = p + 1, *eq = k;
			while (*eq && *eq != '=' && *eq != '&')
				eq++;
			if (*eq == '=' && !shown_param(k, (size_t)(eq - k))) {
				for (; k <= eq; k++)
					PUT(*k);
				PUT('*'); PUT('*'); PUT('*');
				p = eq;
				while (p[1] != '\0' && p[1] != '&')
					p++;
			}
		}
	}
#undef PUT
	out[n < size ? n : size - 1] = '\0';
}

#define BAD(msg) do { char shown_[256]; redact(url, shown_, sizeof shown_); \
	rc = qless__err(QLESS_EINVAL, "qless_client_new: malformed URL \"%s\": %s", shown_, msg); goto fail; } while (0)
#define OOM() do { rc = qless__err_nomem("qless_client_new"); goto fail; } while (0)

static int key_is(const char *k, size_t n, const char *name)
{
	return strlen(name) == n && strncmp(k, name, n) == 0;
}

/* Sets *dst to the decoded value; 1 on a bad escape, -1 out of memory. */
static int set_text(char **dst, const char *v, size_t n)
{
	int bad = 0;
	free(*dst);
	*dst = qless__url_pct_decode(v, n, &bad);
	return *dst != NULL ? 0 : bad ? 1 : -1;
}

/*
 * One query parameter k[=v] (has_v: there was an '='). The parameters a URL
 * may carry are the branches here; a new one (namespace=, wait_replicas=)
 * is one more branch, and its value one more qless_url field.
 */
static int apply_param(const char *url, const char *k, size_t kn, const char *v, size_t vn, int has_v,
                       qless_url *u)
{
	char msg[160];
	char **text = NULL;
	int rc, r;
	if (key_is(k, kn, "db")) {
		if (!has_v || qless__url_parse_uint(v, vn, 1000000, &u->db) != 0)
			BAD("db must be a non-negative integer");
		return QLESS_OK;
	}
	if (key_is(k, kn, "wait_replicas")) {
		if (!has_v || qless__url_parse_uint(v, vn, 1000, &u->wait_replicas) != 0)
			BAD("wait_replicas must be a non-negative integer (replicas to wait for)");
		return QLESS_OK;
	}
	if (key_is(k, kn, "wait_timeout_ms")) {
		if (!has_v || qless__url_parse_uint(v, vn, 100000000, &u->wait_timeout_ms) != 0 || u->wait_timeout_ms == 0)
			BAD("wait_timeout_ms must be a positive integer (milliseconds)");
		return QLESS_OK;
	}
	if (key_is(k, kn, "insecure")) {
		/* Only when spelled out: "insecure", "insecure=1", "insecure=true". */
		if (has_v && !(vn == 1 && v[0] == '1') && !(vn == 4 && strncmp(v, "true", 4) == 0))
			BAD("insecure takes no value (or 1 or true)");
		u->tls_insecure = 1;
		return QLESS_OK;
	}
	if (key_is(k, kn, "password"))
		text = &u->password;
	else if (key_is(k, kn, "user"))
		text = &u->user;
	else if (key_is(k, kn, "ca"))
		text = &u->tls_ca;
	else if (key_is(k, kn, "cert"))
		text = &u->tls_cert;
	else if (key_is(k, kn, "key"))
		text = &u->tls_key;
	else if (key_is(k, kn, "namespace"))
		text = &u->namespace_name;
	if (text == NULL) {
		snprintf(msg, sizeof msg, "unknown query parameter \"%.*s\"", (int)(kn > 40 ? 40 : kn), k);
		BAD(msg);
	}
	if (!has_v || vn == 0) {
		snprintf(msg, sizeof msg, "query parameter \"%.*s\" needs a value (%.*s=...)", (int)kn, k, (int)kn, k);
		BAD(msg);
	}
	r = set_text(text, v, vn);
	if (r > 0) {
		snprintf(msg, sizeof msg, "bad percent escape in query parameter \"%.*s\"", (int)kn, k);
		BAD(msg);
	}
	if (r < 0)
		OOM();
	return QLESS_OK;
fail:
	return rc;
}

/* The query string q (after '?'): key[=value] pairs joined by '&'. */
static int parse_query(const char *url, const char *q, qless_url *u)
{
	int rc;
	while (*q) {
		const char *amp = strchr(q, '&');
		size_t len = amp ? (size_t)(amp - q) : strlen(q);
		const char *eq = memchr(q, '=', len);
		size_t kn = eq ? (size_t)(eq - q) : len;
		if (len > 0) {
			if (kn == 0)
				BAD("query parameter without a name");
			rc = apply_param(url, q, kn, eq ? eq + 1 : q + len, eq ? len - kn - 1 : 0, eq != NULL, u);
			if (rc != QLESS_OK)
				return rc;
		}
		if (!amp)
			break;
		q = amp + 1;
	}
	if (!u->tls && (u->tls_ca || u->tls_cert || u->tls_key || u->tls_insecure))
		BAD("ca=, cert=, key= and insecure need a rediss:// URL");
	if (u->tls_key && !u->tls_cert)
		BAD("key= needs cert=");
	return QLESS_OK;
fail:
	return rc;
}

static int parse_unix(const char *url, const char *p, qless_url *u)
{
	int rc, bad = 0;
	const char *q = strchr(p, '?');
	size_t plen = q ? (size_t)(q - p) : strlen(p);
	if (plen == 0 || p[0] != '/')
		BAD("the socket path must be absolute");
	u->path = qless__url_pct_decode(p, plen, &bad);
	if (u->path == NULL) {
		if (bad)
			BAD("bad percent escape in the path");
		OOM();
	}
	return q != NULL ? parse_query(url, q + 1, u) : QLESS_OK;
fail:
	return rc;
}

int qless__url_parse(const char *url, qless_url *u)
{
	int rc, bad = 0;
	const char *p, *at, *slash, *hostend, *hs, *query, *end;
	size_t hostlen;

	memset(u, 0, sizeof *u);
	u->port = 6379;
	if (strncmp(url, "unix://", 7) == 0) {
		rc = parse_unix(url, url + 7, u);
		if (rc != QLESS_OK)
			qless__url_free(u);
		return rc;
	}
	if (strncmp(url, "redis://", 8) == 0) {
		p = url + 8;
	} else if (strncmp(url, "rediss://", 9) == 0) {
		p = url + 9;
		u->tls = 1;
	} else {
		BAD("expected redis://, rediss:// or unix://");
	}
	query = strchr(p, '?');
	end = query ? query : p + strlen(p);
	slash = memchr(p, '/', (size_t)(end - p));
	if (slash == NULL)
		slash = end;
	/* userinfo: the last '@' before the path */
	at = NULL;
	for (hs = p; hs < slash; hs++)
		if (*hs == '@')
			at = hs;
	/* ?query: after the userinfo (a password may hold a '?') */
	query = strchr(at != NULL ? at : p, '?');
	if (query != NULL && query < slash)
		slash = query;
	if (at != NULL) {
		const char *colon = memchr(p, ':', (size_t)(at - p));
		if (colon != NULL) {
			if (colon > p) {
				u->user = qless__url_pct_decode(p, (size_t)(colon - p), &bad);
				if (u->user == NULL) {
					if (bad)
						BAD("bad percent escape in the user");
					OOM();
				}
			}
			u->password = qless__url_pct_decode(colon + 1, (size_t)(at - colon - 1), &bad);
		} else {
			/* redis://secret@host: a bare userinfo is the password */
			u->password = qless__url_pct_decode(p, (size_t)(at - p), &bad);
		}
		if (u->password == NULL) {
			if (bad)
				BAD("bad percent escape in the password");
			OOM();
		}
		if (u->password[0] == '\0') {
			free(u->password);
			u->password = NULL;
		}
		p = at + 1;
	}
	/* host[:port] */
	if (*p == '[') {
		const char *rb = memchr(p, ']', (size_t)(slash - p));
		if (rb == NULL)
			BAD("unterminated [IPv6] host");
		hs = p + 1;
		hostlen = (size_t)(rb - hs);
		hostend = rb + 1;
		if (hostend < slash && *hostend != ':')
			BAD("garbage after the [IPv6] host");
	} else {
		const char *colon = memchr(p, ':', (size_t)(slash - p));
		hs = p;
		hostend = colon ? colon : slash;
		hostlen = (size_t)(hostend - hs);
	}
	if (hostlen == 0)
		BAD("missing host");
	u->host = qless__strndup(hs, hostlen);
	if (u->host == NULL)
		OOM();
	if (hostend < slash) { /* ':' port */
		if (qless__url_parse_uint(hostend + 1, (size_t)(slash - hostend - 1), 65535, &u->port) != 0 || u->port == 0)
			BAD("bad port");
	}
	if (*slash == '/') {
		const char *d = slash + 1;
		size_t dlen = (size_t)(end - d);
		if (dlen > 0 && qless__url_parse_uint(d, dlen, 1000000, &u->db) != 0)
			BAD("db must be a non-negative integer");
	}
	if (query != NULL && (rc = parse_query(url, query + 1, u)) != QLESS_OK)
		goto fail_quiet;
	return QLESS_OK;
fail_quiet:
	qless__url_free(u);
	return rc;
fail:
	qless__url_free(u);
	return rc;
}
