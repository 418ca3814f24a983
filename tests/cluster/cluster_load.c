/*
 * cluster-load: the cluster tests' and bench's producer and census, through
 * the public API (so through the cluster routing under test).
 *   cluster-load put URL QUEUE N [DATA]  puts N Noop jobs (DATA: their JSON
 *                                        data), prints one jid a line; a put
 *                                        that fails is retried (reported)
 *   cluster-load states URL < JIDS       prints "jid state" for each jid read
 *                                        ("missing" when the job is gone)
 *   cluster-load config URL KEY VALUE    sets a protocol setting (heartbeat...)
 *   cluster-load cycle URL QUEUE N       N jobs' life cycles, one call a round
 *                                        trip: put, pop, complete (the bench)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qless/qless.h>

static void pause_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static int put(const char *url, const char *queue, long n, const char *data)
{
	qless_client *c = NULL;
	qless_queue *q = NULL;
	long i;
	if (qless_client_new(&c, url, NULL) != QLESS_OK || qless_queue_new(&q, c, queue) != QLESS_OK) {
		fprintf(stderr, "cluster-load: %s\n", qless_error_last_message());
		return 1;
	}
	for (i = 0; i < n; i++) {
		char *jid = NULL;
		int tries;
		for (tries = 0; tries < 50; tries++) {
			if (qless_queue_put(&jid, q, "Noop", data, NULL) == QLESS_OK)
				break;
			fprintf(stderr, "cluster-load: put: %s (retrying)\n", qless_error_last_message());
			pause_ms(200);
		}
		if (jid == NULL)
			return 1;
		printf("%s\n", jid);
		qless_free(jid);
	}
	qless_queue_free(q);
	qless_client_free(c);
	return 0;
}

static int states(const char *url)
{
	qless_client *c = NULL;
	char line[128];
	if (qless_client_new(&c, url, NULL) != QLESS_OK) {
		fprintf(stderr, "cluster-load: %s\n", qless_error_last_message());
		return 1;
	}
	while (fgets(line, sizeof line, stdin) != NULL) {
		qless_job *job = NULL;
		int rc;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\0')
			continue;
		rc = qless_client_get_job(&job, c, line);
		if (rc == QLESS_OK && job != NULL)
			printf("%s %s\n", line, qless_job_state(job));
		else if (rc == QLESS_OK || rc == QLESS_ENOTFOUND)
			printf("%s missing\n", line);
		else {
			fprintf(stderr, "cluster-load: get %s: %s\n", line, qless_error_last_message());
			return 1;
		}
		qless_job_free(job);
	}
	qless_client_free(c);
	return 0;
}

static int config(const char *url, const char *key, const char *value)
{
	qless_client *c = NULL;
	int rc = qless_client_new(&c, url, NULL);
	if (rc == QLESS_OK)
		rc = qless_client_config_set(c, key, value);
	if (rc != QLESS_OK)
		fprintf(stderr, "cluster-load: config %s: %s\n", key, qless_error_last_message());
	qless_client_free(c);
	return rc == QLESS_OK ? 0 : 1;
}

static int cycle(const char *url, const char *queue, long n)
{
	qless_client *c = NULL;
	qless_queue *q = NULL;
	long i;
	if (qless_client_new(&c, url, NULL) != QLESS_OK || qless_queue_new(&q, c, queue) != QLESS_OK)
		goto fail;
	for (i = 0; i < n; i++) {
		qless_joblist *l = NULL;
		if (qless_queue_put(NULL, q, "Noop", "{}", NULL) != QLESS_OK || qless_queue_pop(&l, q, 1) != QLESS_OK)
			goto fail;
		if (qless_joblist_size(l) != 1 || qless_job_complete(qless_joblist_get(l, 0), NULL) != QLESS_OK) {
			qless_joblist_free(l);
			goto fail;
		}
		qless_joblist_free(l);
	}
	qless_queue_free(q);
	qless_client_free(c);
	return 0;
fail:
	fprintf(stderr, "cluster-load: cycle: %s\n", qless_error_last_message());
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "cycle") == 0)
		return cycle(argv[2], argv[3], atol(argv[4]));
	if (argc == 5 && strcmp(argv[1], "config") == 0)
		return config(argv[2], argv[3], argv[4]);
	if (argc >= 5 && strcmp(argv[1], "put") == 0)
		return put(argv[2], argv[3], atol(argv[4]), argc > 5 ? argv[5] : "{}");
	if (argc == 3 && strcmp(argv[1], "states") == 0)
		return states(argv[2]);
	fprintf(stderr, "usage: cluster-load put URL QUEUE N [DATA] | states URL < JIDS | config URL KEY VALUE | cycle URL QUEUE N\n");
	return 2;
}
