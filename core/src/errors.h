/* Recording errors (error.c): the code and message of the thread's last error. */
#ifndef QLESS_ERRORS_H
#define QLESS_ERRORS_H

#include "qless/common.h"

#if defined(__GNUC__)
#  define QLESS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#  define QLESS_PRINTF(a, b)
#endif

/* Records code + printf-style message as this thread's last error; returns code. */
int qless__err(int code, const char *fmt, ...) QLESS_PRINTF(2, 3);
int qless__err_nomem(const char *func);
/* Standard NULL / empty argument complaints. */
int qless__err_null(const char *func, const char *arg);
int qless__err_empty(const char *func, const char *arg);
/* Maps an error reply's text (Redis's "ERR " and Lua's position already
 * stripped) to a qless_error_code by its leading token only: "[Kind] " of the
 * protocol (lua/ Q.raise; Kind from QLESS_ERRORS) or a Redis error code.
 * *text is set to msg past a "[Kind] " token (borrowed from msg). */
int qless__script_error_code(const char *msg, const char **text);
/* Marks the last error (just recorded) as the protocol script's own reply;
 * qless__err and qless_error_clear unmark it. */
void qless__err_from_script(void);
int qless__err_is_from_script(void);
/* The thread's last error, put back after a probe whose failure is an
 * answer, not an error (is the embedded server up?). */
typedef struct qless__err_saved {
	int code;
	int from_script;
	char msg[1024];
} qless__err_saved;
void qless__err_save(qless__err_saved *s);
void qless__err_restore(const qless__err_saved *s);

/* Argument checks: return non-zero (after recording QLESS_EINVAL) when bad. */
#define QLESS_CHECK_NULL(func, x) \
	do { if ((x) == NULL) return qless__err_null(func, #x); } while (0)
#define QLESS_CHECK_STR(func, x) \
	do { if ((x) == NULL) return qless__err_null(func, #x); \
	     if (*(x) == '\0') return qless__err_empty(func, #x); } while (0)

#endif
