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
/* Maps a script error text to a qless_error_code. */
int qless__script_error_code(const char *msg);

/* Argument checks: return non-zero (after recording QLESS_EINVAL) when bad. */
#define QLESS_CHECK_NULL(func, x) \
	do { if ((x) == NULL) return qless__err_null(func, #x); } while (0)
#define QLESS_CHECK_STR(func, x) \
	do { if ((x) == NULL) return qless__err_null(func, #x); \
	     if (*(x) == '\0') return qless__err_empty(func, #x); } while (0)

#endif
