/* Thread-local last error, error names, version. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "qless/qless.h"
#include "errors.h"

static _Thread_local int last_code;
static _Thread_local char last_msg[1024];

int qless__err(int code, const char *fmt, ...)
{
	va_list ap;
	last_code = code;
	va_start(ap, fmt);
	vsnprintf(last_msg, sizeof last_msg, fmt, ap);
	va_end(ap);
	return code;
}

int qless__err_nomem(const char *func)
{
	return qless__err(QLESS_ENOMEM, "%s: out of memory", func);
}

int qless__err_null(const char *func, const char *arg)
{
	return qless__err(QLESS_EINVAL, "%s: %s is NULL", func, arg);
}

int qless__err_empty(const char *func, const char *arg)
{
	return qless__err(QLESS_EINVAL, "%s: %s is empty", func, arg);
}

static const char *const tree_conflicts[] = {
	"cannot go from", "is not a tree job", "is terminated", "is not terminating",
	"is not terminated", "already used", "already has parent", "cycle", "is a tree job",
};

int qless__script_error_code(const char *msg)
{
	size_t i;

	if (msg == NULL)
		return QLESS_EPROTOCOL;
	/* The server cannot run commands yet (loading after a restart, or busy
	 * with a long script): the command did not run; try again later. */
	if (strncmp(msg, "LOADING", 7) == 0 || strncmp(msg, "BUSY", 4) == 0)
		return QLESS_EIO;
	if (strstr(msg, "does not exist") || strstr(msg, "No recurring job"))
		return QLESS_ENOTFOUND;
	if (strstr(msg, "another worker") || strstr(msg, "not currently running") ||
	    strstr(msg, "given out to another"))
		return QLESS_ELOCK;
	if (strstr(msg, "depends state") || strstr(msg, "is a dependency") || strstr(msg, "not running"))
		return QLESS_ESTATE;
	if (strstr(msg, "Arg \"") || strstr(msg, "cannot be used without") ||
	    strstr(msg, "Unrecognized option") || strstr(msg, "Unknown command"))
		return QLESS_EINVAL;
	/* Tree-job state conflicts (jobtrees.md T5). Checked after the argument
	 * errors: those may quote a client's text holding one of these words. */
	for (i = 0; i < sizeof(tree_conflicts) / sizeof(tree_conflicts[0]); i++)
		if (strstr(msg, tree_conflicts[i]))
			return QLESS_ESTATE;
	return QLESS_EPROTOCOL;
}

qless_error_code qless_error_last_code(void)
{
	return last_code;
}

const char *qless_error_last_message(void)
{
	return last_msg;
}

void qless_error_clear(void)
{
	last_code = QLESS_OK;
	last_msg[0] = '\0';
}

const char *qless_error_name(int code)
{
#define QLESS__ERROR_CASE(symbol, value, klass, meaning) case symbol: return #symbol;
	switch (code) {
	case QLESS_OK: return "QLESS_OK";
	QLESS_ERRORS(QLESS__ERROR_CASE)
	default: return "QLESS_EUNKNOWN";
	}
#undef QLESS__ERROR_CASE
}

const char *qless_version(void)
{
	return QLESS_VERSION;
}

int qless_version_number(void)
{
	return QLESS_VERSION_NUMBER;
}
