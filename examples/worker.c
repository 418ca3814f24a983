/*
 * worker: a complete qless worker program in C, on libqless's worker engine.
 *
 *   worker --queue squares [--url URL] [--pool processes --size 4] ...
 *
 * The engine does everything a worker needs: the flags (see `worker --help`),
 * reserving jobs, heartbeats, retries with backoff, pools of threads or
 * processes, reconnecting when Redis goes away, and SIGTERM/SIGINT (finish
 * the running jobs, then exit 0) and SIGQUIT (exit at once). The program
 * only says what a job does.
 *
 * One job class here: "Square", data {"n": <integer>}, completed with the
 * data {"n": n, "square": n*n}. Anything else fails into group "bad-input".
 * examples/producer.c puts such jobs.
 *
 * Build against an installed libqless:
 *   cc worker.c $(pkg-config --cflags --libs libqless) -o worker
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qless/qless.h>

/* Reads n from the job data (a tiny parser keeps the example free of a
 * JSON dependency). Returns 0 and sets *n, or -1 for bad input. */
static int parse_n(const char *data, long *n)
{
	const char *p = data ? strstr(data, "\"n\"") : NULL;
	if (!p || !(p = strchr(p, ':')))
		return -1;
	char *end = NULL;
	*n = strtol(p + 1, &end, 10);
	if (end == p + 1)
		return -1;
	while (*end == ' ')
		end++;
	return (*end == '}' || *end == ',') ? 0 : -1;
}

/* Called for every job. The job is borrowed: do not free or keep it. The
 * job is completed when this returns, unless qless_result_fail (or
 * qless_result_retry) was called. */
static void perform(void *ctx, qless_job *job, qless_result *result)
{
	(void)ctx;
	long n = 0;
	if (strcmp(qless_job_klass(job), "Square") != 0 || parse_n(qless_job_data(job), &n) != 0) {
		qless_result_fail(result, "bad-input", "expected a Square job with an integer \"n\"");
		return;
	}
	char data[96];
	snprintf(data, sizeof data, "{\"n\": %ld, \"square\": %ld}", n, n * n);
	qless_job_set_data(job, data);   /* sent with the completion */
}

int main(int argc, char **argv)
{
	qless_worker_run_options run = QLESS_WORKER_RUN_OPTIONS_INIT;
	run.perform = perform;
	return qless_worker_main(argc, (const char *const *)argv, &run);
}
