/* The allow-list of job classes a worker may run: exact names and prefix
 * patterns ending in '*'. */
#include <string.h>

#include "qless/qless.h"
#include "allowlist.h"
#include "errors.h"
#include "util.h"

const char *qless__allow_invalid(const char *pattern)
{
	const char *star = strchr(pattern, '*');
	if (*pattern == '\0')
		return "is empty";
	if (!qless__utf8_valid(pattern))
		return "is not valid UTF-8 text";
	if (star != NULL && star[1] != '\0')
		return "has a '*' before its end: '*' may only end a prefix pattern such as 'myapp.jobs.*'";
	return NULL;
}

int qless_allowlist_check(const char *const *patterns, size_t n)
{
	static const char F[] = "qless_allowlist_check";
	size_t i;
	if (n > 0 && patterns == NULL)
		return qless__err_null(F, "patterns");
	for (i = 0; i < n; i++) {
		const char *why;
		if (patterns[i] == NULL)
			return qless__err(QLESS_EINVAL, "%s: patterns[%zu] is NULL", F, i);
		if ((why = qless__allow_invalid(patterns[i])) == NULL)
			continue;
		/* Text that is not UTF-8 is named by its place, not printed. */
		if (*patterns[i] == '\0' || !qless__utf8_valid(patterns[i]))
			return qless__err(QLESS_EINVAL, "%s: patterns[%zu] %s", F, i, why);
		return qless__err(QLESS_EINVAL, "%s: pattern '%s' %s", F, patterns[i], why);
	}
	return QLESS_OK;
}

int qless_allowlist_match(const char *const *patterns, size_t n, const char *klass)
{
	size_t i;
	if (patterns == NULL || klass == NULL)
		return 0;
	for (i = 0; i < n; i++) {
		const char *p = patterns[i];
		size_t len = p ? strlen(p) : 0;
		if (len == 0)
			continue;
		if (p[len - 1] == '*' ? strncmp(p, klass, len - 1) == 0 : strcmp(p, klass) == 0)
			return 1;
	}
	return 0;
}
