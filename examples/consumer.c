/*
 * consumer: works off the jobs in one or more qless queues.
 *
 *   consumer [-u URL] [-r] QUEUE...
 *
 * Reserves jobs with a qless_worker (queues tried in the given order, or
 * round-robin with -r) until every queue is empty. A "Square" job with data
 * {"n": <integer>} is completed with {"n": n, "square": n*n}; anything else
 * is failed into group "bad-input". Prints a summary line
 *   consumer: completed C, failed F, lost L
 * and exits non-zero if a library call failed.
 *
 * Build against an installed libqless:
 *   cc consumer.c $(pkg-config --cflags --libs libqless) -o consumer
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <qless/qless.h>

static void report(const char *what, int rc)
{
	fprintf(stderr, "consumer: %s: %s: %s\n", what, qless_error_name(rc), qless_error_last_message());
}

/* The "work": reads n from the job data (a tiny parser keeps the example
 * free of a JSON dependency). Returns 0 and sets *n, or -1 for bad input. */
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

int main(int argc, char **argv)
{
	const char *url = NULL;
	qless_worker_options wopts = QLESS_WORKER_OPTIONS_INIT;
	int opt;
	while ((opt = getopt(argc, argv, "u:r")) != -1) {
		switch (opt) {
		case 'u': url = optarg; break;
		case 'r': wopts.order = QLESS_RESERVE_ROUND_ROBIN; break;
		default: goto usage;
		}
	}
	if (optind >= argc)
		goto usage;

	qless_client *client = NULL;
	int rc = qless_client_new(&client, url, NULL);
	if (rc != QLESS_OK) {
		report("connect", rc);
		return 1;
	}
	qless_worker *worker = NULL;
	rc = qless_worker_new(&worker, client, (const char *const *)&argv[optind], (size_t)(argc - optind), &wopts);
	if (rc != QLESS_OK) {
		report("worker", rc);
		qless_client_free(client);
		return 1;
	}
	fprintf(stderr, "consumer: worker %s\n", qless_worker_name(worker));

	long completed = 0, failed = 0, lost = 0;
	int status = 0;
	for (;;) {
		qless_job *job = NULL; /* owned: qless_job_free */
		rc = qless_worker_reserve(worker, &job);
		if (rc != QLESS_OK) {
			report("reserve", rc);
			status = 1;
			break;
		}
		if (!job)
			break; /* every queue is empty (a daemon would sleep and retry) */

		long n = 0;
		if (strcmp(qless_job_klass(job), "Square") == 0 && parse_n(qless_job_data(job), &n) == 0) {
			char result[96];
			snprintf(result, sizeof result, "{\"n\": %ld, \"square\": %ld}", n, n * n);
			rc = qless_job_set_data(job, result);
			if (rc == QLESS_OK)
				rc = qless_job_complete(job, NULL);
			if (rc == QLESS_OK)
				completed++;
		} else {
			rc = qless_job_fail(job, "bad-input", "data has no integer \"n\"");
			if (rc == QLESS_OK)
				failed++;
		}
		if (rc == QLESS_ELOCK) {
			/* Someone else has the job now (our lock expired, or it was
			 * moved or canceled): not an error of this program. */
			fprintf(stderr, "consumer: lost %s\n", qless_job_jid(job));
			lost++;
		} else if (rc != QLESS_OK) {
			report(qless_job_jid(job), rc);
			status = 1;
		}
		qless_job_free(job);

		/* Locks lost while working are announced on the worker channel. */
		qless_strlist *gone = NULL;
		if (qless_worker_lost_locks(worker, 0, &gone) == QLESS_OK) {
			for (size_t i = 0; i < qless_strlist_size(gone); i++)
				fprintf(stderr, "consumer: lock lost on %s\n", qless_strlist_get(gone, i));
			qless_strlist_free(gone);
		}
		if (status)
			break;
	}
	printf("consumer: completed %ld, failed %ld, lost %ld\n", completed, failed, lost);
	qless_worker_free(worker);
	qless_client_free(client);
	return status;

usage:
	fprintf(stderr, "usage: %s [-u URL] [-r] QUEUE...\n", argv[0]);
	return 2;
}
