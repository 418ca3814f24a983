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

/* Percent-decodes s[0..n) into a new string; NULL on a bad escape (sets
 * *bad) or OOM. */
static char *pct_decode(const char *s, size_t n, int *bad)
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

static int parse_uint(const char *s, size_t n, long max, int *out)
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
	free(u->namespace_name);
	memset(u, 0, sizeof *u);
}

/*
 * The URL as an error message may show it: credentials never appear. The
 * whole userinfo (everything before the last '@' of the part after the
 * scheme) and the value of every password= parameter become "***"; a URL
 * too malformed to tell still loses all of it. Writes at most size bytes.
 */
static void redact(const char *url, char *out, size_t size)
{
	const char *rest = strstr(url, "://"), *at, *p;
	size_t n = 0;
#define PUT(ch) do { if (n + 1 < size) out[n++] = (ch); } while (0)
	rest = rest ? rest + 3 : url;
	at = strrchr(rest, '@');
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
		if ((*p == '?' || *p == '&') && strncmp(p + 1, "password=", 9) == 0) {
			const char *v;
			for (v = "password=***"; *v; v++)
				PUT(*v);
			p += 9;
			while (p[1] != '\0' && p[1] != '&')
				p++;
		}
	}
#undef PUT
	out[n < size ? n : size - 1] = '\0';
}

#define BAD(msg) do { char shown_[256]; redact(url, shown_, sizeof shown_); \
	rc = qless__err(QLESS_EINVAL, "qless_client_new: malformed URL \"%s\": %s", shown_, msg); goto fail; } while (0)
#define OOM() do { rc = qless__err_nomem("qless_client_new"); goto fail; } while (0)

/* The query parameters s (past the '?') into u. */
static int parse_query(const char *url, const char *s, qless_url *u)
{
	int rc, bad = 0;
	while (*s) {
		const char *amp = strchr(s, '&');
		size_t len = amp ? (size_t)(amp - s) : strlen(s);
		const char *eq = memchr(s, '=', len);
		size_t klen, vlen;
		const char *v;
		if (len == 0) {
			s += amp ? 1 : 0;
			if (!amp)
				break;
			continue;
		}
		if (eq == NULL)
			BAD("query parameters must be key=value");
		klen = (size_t)(eq - s);
		v = eq + 1;
		vlen = len - klen - 1;
		if (klen == 2 && strncmp(s, "db", 2) == 0) {
			if (parse_uint(v, vlen, 1000000, &u->db) != 0)
				BAD("db must be a non-negative integer");
		} else if ((klen == 8 && strncmp(s, "password", 8) == 0) ||
		           (klen == 4 && strncmp(s, "user", 4) == 0) ||
		           (klen == 9 && strncmp(s, "namespace", 9) == 0)) {
			char **dst = klen == 4 ? &u->user : klen == 8 ? &u->password : &u->namespace_name;
			free(*dst);
			*dst = pct_decode(v, vlen, &bad);
			if (*dst == NULL) {
				if (bad)
					BAD("bad percent escape");
				OOM();
			}
		} else {
			BAD("unknown query parameter");
		}
		if (!amp)
			break;
		s = amp + 1;
	}
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
	u->path = pct_decode(p, plen, &bad);
	if (u->path == NULL) {
		if (bad)
			BAD("bad percent escape in the path");
		OOM();
	}
	if (q != NULL && (rc = parse_query(url, q + 1, u)) != QLESS_OK)
		return rc;
	return QLESS_OK;
fail:
	return rc;
}

int qless__url_parse(const char *url, qless_url *u)
{
	int rc, bad = 0;
	const char *p, *at, *slash, *hostend, *hs, *query;
	size_t hostlen;

	memset(u, 0, sizeof *u);
	u->port = 6379;
	if (strncmp(url, "unix://", 7) == 0) {
		rc = parse_unix(url, url + 7, u);
		if (rc != QLESS_OK)
			qless__url_free(u);
		return rc;
	}
	if (strncmp(url, "redis://", 8) != 0)
		BAD("expected redis:// or unix://");
	p = url + 8;
	slash = strchr(p, '/');
	if (slash == NULL)
		slash = p + strlen(p);
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
				u->user = pct_decode(p, (size_t)(colon - p), &bad);
				if (u->user == NULL) {
					if (bad)
						BAD("bad percent escape in the user");
					OOM();
				}
			}
			u->password = pct_decode(colon + 1, (size_t)(at - colon - 1), &bad);
		} else {
			/* redis://secret@host: a bare userinfo is the password */
			u->password = pct_decode(p, (size_t)(at - p), &bad);
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
		if (parse_uint(hostend + 1, (size_t)(slash - hostend - 1), 65535, &u->port) != 0 || u->port == 0)
			BAD("bad port");
	}
	if (*slash == '/') {
		const char *d = slash + 1;
		size_t dlen = query != NULL ? (size_t)(query - d) : strlen(d);
		if (dlen > 0 && parse_uint(d, dlen, 1000000, &u->db) != 0)
			BAD("db must be a non-negative integer");
	}
	if (query != NULL && (rc = parse_query(url, query + 1, u)) != QLESS_OK)
		goto fail;
	return QLESS_OK;
fail:
	qless__url_free(u);
	return rc;
}
