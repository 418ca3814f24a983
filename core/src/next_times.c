/* Due times from the server: cron.next for an expression, and the call and
 * reply reading recur.next shares with it (schedules.md §3.5-3.6). */
#include <stdlib.h>

#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "cron.h"
#include "errors.h"
#include "next_times.h"

int qless__times_out(const char *F, double **out, size_t *n)
{
	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, n);
	*n = 0;
	return QLESS_OK;
}

/* A count of due times: 1-1000 (schedules.md §3.5). */
static int check_count(const char *F, int64_t count)
{
	if (count < 1 || count > 1000)
		return qless__err(QLESS_EINVAL, "%s: count must be between 1 and 1000, not %lld", F, (long long)count);
	return QLESS_OK;
}

int qless__json_list(const char *F, json_t **j, const char *what)
{
	/* cjson writes an empty array as {} (P§0 R5). */
	if (json_is_object(*j) && json_object_size(*j) == 0) {
		json_decref(*j);
		if ((*j = json_array()) == NULL)
			return qless__err_nomem(F);
	}
	if (!json_is_array(*j)) {
		json_decref(*j);
		*j = NULL;
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array of %s", F, what);
	}
	return QLESS_OK;
}

/* cmd <now> <first> <count>, whose reply is a JSON array of times. */
int qless__next_times(qless_client *c, const char *F, const char *cmd, const char *first, int64_t count,
                      double **out, size_t *n)
{
	qless_args a;
	json_t *j, *v;
	double *times = NULL;
	size_t i;
	int rc;

	if ((rc = check_count(F, count)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_add(&a, first);
	qless__args_int(&a, count);
	if ((rc = qless__call_json(c, F, cmd, &a, &j)) != QLESS_OK ||
	    (rc = qless__json_list(F, &j, "times")) != QLESS_OK)
		return rc;
	if (json_array_size(j) > 0 && (times = malloc(json_array_size(j) * sizeof *times)) == NULL) {
		json_decref(j);
		return qless__err_nomem(F);
	}
	json_array_foreach(j, i, v) {
		if (!json_is_number(v)) {
			free(times);
			json_decref(j);
			return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array of times", F);
		}
		times[i] = json_number_value(v);
	}
	*n = json_array_size(j);
	*out = times;
	json_decref(j);
	return QLESS_OK;
}

int qless_client_cron_next(double **out, size_t *n, qless_client *client, const char *expr, int64_t count)
{
	static const char F[] = "qless_client_cron_next";
	int rc;

	if ((rc = qless__times_out(F, out, n)) != QLESS_OK)
		return rc;
	QLESS_CHECK_NULL(F, client);
	/* The count first: a message about it beats one about the expression. */
	if ((rc = check_count(F, count)) != QLESS_OK || (rc = qless__cron_norm(F, expr, NULL)) != QLESS_OK)
		return rc;
	return qless__next_times(client, F, "cron.next", expr, count, out, n);
}
