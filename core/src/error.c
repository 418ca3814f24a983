/* Thread-local last error, error names, version. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "qless/qless.h"
#include "errors.h"

static _Thread_local int last_code;
static _Thread_local char last_msg[1024];
/* Set when the last error is an error reply of the protocol script (see
 * qless__err_from_script), cleared by every other error. */
static _Thread_local int last_from_script;

int qless__err(int code, const char *fmt, ...)
{
	va_list ap;
	last_code = code;
	last_from_script = 0;
	va_start(ap, fmt);
	vsnprintf(last_msg, sizeof last_msg, fmt, ap);
	va_end(ap);
	return code;
}

void qless__err_save(qless__err_saved *s)
{
	s->code = last_code;
	s->from_script = last_from_script;
	memcpy(s->msg, last_msg, sizeof s->msg);
}

void qless__err_restore(const qless__err_saved *s)
{
	last_code = s->code;
	last_from_script = s->from_script;
	memcpy(last_msg, s->msg, sizeof last_msg);
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

/* Whether msg starts with Redis's error code `token` (a whole word). */
static int redis_code(const char *msg, const char *token)
{
	size_t n = strlen(token);
	return strncmp(msg, token, n) == 0 && (msg[n] == ' ' || msg[n] == '\0');
}

/*
 * The code of an error reply, by its leading token only, never by its
 * wording: "[<Kind>] " (the protocol's Q.raise, Kind an exception class name
 * of QLESS_ERRORS; *text is then set past the token, so the message reads as
 * the script wrote it) or one of Redis's own error codes. An unknown kind or
 * code, and an error without either (a Lua runtime error), is a protocol
 * error with the text kept whole.
 */
int qless__script_error_code(const char *msg, const char **text)
{
	const char *close;
	size_t n;

	*text = msg;
	if (msg == NULL)
		return QLESS_EPROTOCOL;
	if (msg[0] == '[' && (close = strchr(msg, ']')) != NULL && close[1] == ' ') {
		n = (size_t)(close - msg - 1);
#define QLESS__KIND_CASE(symbol, value, klass, meaning) \
		if (n == sizeof #klass - 1 && memcmp(msg + 1, #klass, n) == 0) { \
			*text = close + 2; \
			return symbol; \
		}
		QLESS_ERRORS(QLESS__KIND_CASE)
#undef QLESS__KIND_CASE
		return QLESS_EPROTOCOL;
	}
	/* The server cannot run commands yet (loading after a restart, or busy
	 * with a long script): the command did not run; try again later. */
	if (redis_code(msg, "LOADING") || redis_code(msg, "BUSY"))
		return QLESS_EIO;
	return QLESS_EPROTOCOL;
}

void qless__err_from_script(void)
{
	last_from_script = 1;
}

int qless__err_is_from_script(void)
{
	return last_from_script;
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
	last_from_script = 0;
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
