/*
 * Due times on the command line: `qless cron next`, the printing it shares
 * with `qless recur next`, and the checks of expressions and --from times
 * made before anything is sent.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli.h"

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int arg_cron(cli *c, const char *expr)
{
	/* The library's message names the field and token. */
	return qless_cron_check(NULL, expr) == QLESS_OK ? 0 : cli_lib_error(c);
}

int arg_time(cli *c, const char *what, const char *s, double *out)
{
	if (qless_time_parse(out, s) != QLESS_OK)
		return cli_usage_error(c, "%s needs epoch seconds or an ISO 8601 time, not '%.64s'", what, s);
	return 0;
}

int times_json(cli *c, const double *t, size_t n, json_t **out)
{
	char iso[QLESS_TIME_SIZE];
	*out = json_array();
	for (size_t i = 0; i < n; i++) {
		if (qless_time_format(iso, t[i]) != QLESS_OK) {
			json_decref(*out);
			*out = NULL;
			return cli_lib_error(c);
		}
		json_array_append_new(*out, json_pack("{s:s,s:f}", "at", iso, "epoch", t[i]));
	}
	return 0;
}

int print_times(cli *c, const double *t, size_t n)
{
	char iso[QLESS_TIME_SIZE];
	json_t *all;
	int status;
	if (c->json) {
		if ((status = times_json(c, t, n, &all)) != 0)
			return status;
		json_print(all);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (qless_time_format(iso, t[i]) != QLESS_OK)
			return cli_lib_error(c);
		printf("%s (%.15g)\n", iso, t[i]);
	}
	return 0;
}

/* Sets the client's clock so that cron.next reads `from`: fire times are
 * whole seconds, so any now in (ceil(from) - 1, ceil(from)] gives the same
 * answer, and aiming at the middle leaves half a second for the call to
 * start. */
static int clock_from(cli *c, double from)
{
	double target = ceil(from) - 0.5;
	if (qless_client_set_time_offset(c->client, 0) != QLESS_OK ||
	    qless_client_set_time_offset(c->client, target - qless_client_now(c->client)) != QLESS_OK)
		return cli_lib_error(c);
	return 0;
}

int fire_times(cli *c, const char *expr, int64_t count, const double *from, double **t, size_t *n)
{
	int status;
	*t = NULL;
	*n = 0;
	if ((status = cli_connect(c)) != 0 || (from != NULL && (status = clock_from(c, *from)) != 0))
		return status;
	if (qless_client_cron_next(t, n, c->client, expr, count) != QLESS_OK)
		return cli_lib_error(c);
	return 0;
}

int cron_next(cli *c, char **pos, int n, const char *from)
{
	int64_t count = 5;
	double at = 0, *t = NULL;
	size_t nt = 0;
	int status;

	c->cmd = "cron next";
	if (n < 2 || n > 3)
		return cli_usage_error(c, "needs EXPR [N] (quote the expression; see qless cron --help)");
	if (arg_cron(c, pos[1]) || (n == 3 && arg_int(c, "N", pos[2], 1, 1000, &count)) ||
	    (from != NULL && arg_time(c, "--from", from, &at)))
		return EXIT_USAGE;
	if ((status = fire_times(c, pos[1], count, from != NULL ? &at : NULL, &t, &nt)) == 0)
		status = print_times(c, t, nt);
	qless_free(t);
	return status;
}
