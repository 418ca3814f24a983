/* Namespace names and prefixes. A name becomes part of every key, inside a
 * Redis Cluster hash tag `{NAME}`: a brace would end or nest the tag, and
 * '/' separates a namespace from a queue in worker queue lists, so neither
 * may appear; space and control bytes would make keys unreadable in
 * redis-cli and logs. The script refuses the same names (lua/api.lua). */
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "errors.h"
#include "namespace.h"
#include "util.h"

int qless__namespace_check(const char *func, const char *what, const char *name, size_t len)
{
	size_t i;
	if (len == 0)
		return qless__err(QLESS_EINVAL, "%s: %s: a namespace name must not be empty", func, what);
	if (len > QLESS_NAMESPACE_MAX)
		return qless__err(QLESS_EINVAL, "%s: %s: a namespace name is at most %d characters: \"%.*s...\"", func,
		                  what, QLESS_NAMESPACE_MAX, 20, name);
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)name[i];
		if (ch <= ' ' || ch > '~' || ch == '{' || ch == '}' || ch == '/') {
			int valid = qless__utf8_valid(name);
			return qless__err(QLESS_EINVAL,
			                  "%s: %s: namespace name \"%.*s\" may hold only printable ASCII characters other "
			                  "than space, '{', '}' and '/'",
			                  func, what, valid ? (int)len : 11, valid ? name : "(not UTF-8)");
		}
	}
	return QLESS_OK;
}

char *qless__namespace_prefix(const char *name)
{
	size_t n = strlen(name);
	char *p = malloc(n + 7);
	if (p == NULL)
		return NULL;
	p[0] = '{';
	memcpy(p + 1, name, n);
	memcpy(p + 1 + n, "}:ql:", 6);
	return p;
}

int qless__namespace_split(const char *func, const char *entry, char **ns, const char **queue)
{
	const char *slash = strchr(entry, '/');
	int rc;
	*ns = NULL;
	*queue = entry;
	if (slash == NULL)
		return QLESS_OK;
	if ((rc = qless__namespace_check(func, "queue \"NAMESPACE/queue\"", entry, (size_t)(slash - entry))) != QLESS_OK)
		return rc;
	if (slash[1] == '\0')
		return qless__err(QLESS_EINVAL, "%s: queue \"%s\" names a namespace but no queue", func, entry);
	if ((*ns = qless__strndup(entry, (size_t)(slash - entry))) == NULL)
		return qless__err_nomem(func);
	*queue = slash + 1;
	return QLESS_OK;
}

int qless__namespace_same(const char *func, const char *what, const char *ns, const char *jid)
{
	const char *slash = ns != NULL && jid != NULL ? strchr(jid, '/') : NULL;
	size_t n = slash != NULL ? (size_t)(slash - jid) : 0, i;
	if (slash == NULL || n == 0 || n > QLESS_NAMESPACE_MAX || (strlen(ns) == n && memcmp(ns, jid, n) == 0))
		return QLESS_OK;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)jid[i];
		if (ch <= ' ' || ch > '~' || ch == '{' || ch == '}')
			return QLESS_OK; /* not a namespace name: a jid with a '/' */
	}
	return qless__err(QLESS_EINVAL,
	                  "%s: %s \"%s\" names a job of namespace \"%.*s\", but this client works in namespace "
	                  "\"%s\": dependencies and job trees stay within one namespace",
	                  func, what, jid, (int)n, jid, ns);
}
