/* Due times from the server: cron.next for an expression, and the reply
 * reader recur.next shares with it (schedules.md §3.5-3.6). */
#include <stdlib.h>

#include "internal.h"
#include "cron.h"

int qless__times_out(const char *F, double **out, size_t *n)
{
	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, n);
	*n = 0;
	return QLESS_OK;
}

int qless__check_count(const char *F, int64_t count)
{
	if (count < 1 || count > 1000)
		return qless__err(QLESS_EINVAL, "%s: count must be between 1 and 1000, not %lld", F, (long long)count);
	return QLESS_OK;
}

int qless__call_times(qless_client *c, const char *F, const char *cmd, qless_args *a, double **out, size_t *n)
{
	json_t *j, *v;
	double *times = NULL;
	size_t i;
	int rc;

	if ((rc = qless__call_json(c, F, cmd, a, &j)) != QLESS_OK)
		return rc;
	/* cjson writes an empty array as {} (P§0 R5). */
	if (json_is_object(j) && json_object_size(j) == 0) {
		json_decref(j);
		return QLESS_OK;
	}
	if (!json_is_array(j)) {
		json_decref(j);
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array of times", F);
	}
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

int qless_client_cron_next(qless_client *client, const char *expr, int64_t count, double **out, size_t *n)
{
	static const char F[] = "qless_client_cron_next";
	qless_args a;
	int rc;

	if ((rc = qless__times_out(F, out, n)) != QLESS_OK)
		return rc;
	QLESS_CHECK_NULL(F, client);
	if ((rc = qless__check_count(F, count)) != QLESS_OK || (rc = qless__cron_norm(F, expr, NULL)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_add(&a, expr);
	qless__args_int(&a, count);
	return qless__call_times(client, F, "cron.next", &a, out, n);
}
