/* Calls that return times, and JSON list replies (next_times.c). */
#ifndef QLESS_NEXT_TIMES_H
#define QLESS_NEXT_TIMES_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "qless/common.h"

/* The out arguments of a call returning times (recur.next, cron.next):
 * checked and cleared. */
int qless__times_out(const char *func, double **out, size_t *n);
/* Runs `cmd <now> <first> <count>` (count checked first), whose reply is a
 * JSON array of times: *out owned (qless_free; NULL when *n is 0). */
int qless__next_times(qless_client *c, const char *func, const char *cmd, const char *first, int64_t count,
                      double **out, size_t *n);
/* A reply that is a JSON array, which cjson writes as {} when empty:
 * turns {} into [], anything else but an array into QLESS_EPROTOCOL
 * ("expected a JSON array of <what>"; *j then freed and NULL). */
int qless__json_list(const char *func, json_t **j, const char *what);

#endif
