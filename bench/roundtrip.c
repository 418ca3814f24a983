/*
 * roundtrip: sequential put -> pop -> complete, one job at a time, through
 * libqless and through a bare hiredis loop sending the same three EVALSHA
 * calls (no reply parsing), against the same server in the same run.
 *
 *   roundtrip URL-OF-UNIX-SOCKET-OR-TCP SCRIPT N
 * Prints one line per loop: "<name> <jobs> jobs <seconds> s <jobs/s> jobs/s".
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hiredis/hiredis.h>
#include <qless/qless.h>

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void report(const char *name, long n, double secs)
{
	printf("%-8s %ld jobs %.3f s %.0f jobs/s\n", name, n, secs, (double)n / secs);
}

static int run_libqless(const char *url, long n)
{
	qless_client *c = NULL;
	qless_queue *q = NULL;
	if (qless_client_new(&c, url, NULL) || qless_queue_new(&q, c, "bench-c")) {
		fprintf(stderr, "roundtrip: %s\n", qless_error_last_message());
		return 1;
	}
	double t0 = mono();
	for (long i = 0; i < n; i++) {
		qless_joblist *jobs = NULL;
		if (qless_queue_put(NULL, q, "Bench", "{\"i\": 1}", NULL) || qless_queue_pop(&jobs, q, 1) ||
		    qless_joblist_size(jobs) != 1 || qless_job_complete(qless_joblist_get(jobs, 0), NULL)) {
			fprintf(stderr, "roundtrip: %s\n", qless_error_last_message());
			return 1;
		}
		qless_joblist_free(jobs);
	}
	report("c", n, mono() - t0);
	qless_queue_free(q);
	qless_client_free(c);
	return 0;
}

/* The same protocol calls with hiredis alone: the floor libqless is held to. */
static int run_hiredis(const char *sock, const char *script_path, long n)
{
	redisContext *r = redisConnectUnix(sock);
	FILE *f = fopen(script_path, "rb");
	if (!r || r->err || !f) {
		fprintf(stderr, "roundtrip: cannot connect or read the script\n");
		return 1;
	}
	static char script[1 << 20];
	size_t len = fread(script, 1, sizeof script - 1, f);
	fclose(f);
	script[len] = '\0';
	redisReply *rep = redisCommand(r, "SCRIPT LOAD %s", script);
	char sha[64];
	snprintf(sha, sizeof sha, "%s", rep && rep->type == REDIS_REPLY_STRING ? rep->str : "");
	freeReplyObject(rep);
	double t0 = mono();
	for (long i = 0; i < n; i++) {
		char jid[40], now[40];
		snprintf(jid, sizeof jid, "raw-%ld", i);
		snprintf(now, sizeof now, "%.6f", wall());
		freeReplyObject(redisCommand(r, "EVALSHA %s 0 put %s w bench-raw %s Bench %s 0", sha, now, jid, "{\"i\": 1}"));
		freeReplyObject(redisCommand(r, "EVALSHA %s 0 pop %s bench-raw w 1", sha, now));
		rep = redisCommand(r, "EVALSHA %s 0 complete %s %s w bench-raw {}", sha, now, jid);
		if (!rep || rep->type != REDIS_REPLY_STRING || strcmp(rep->str, "complete") != 0) {
			fprintf(stderr, "roundtrip: hiredis loop failed\n");
			return 1;
		}
		freeReplyObject(rep);
	}
	report("hiredis", n, mono() - t0);
	redisFree(r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: roundtrip SOCKET SCRIPT N\n");
		return 2;
	}
	char url[512];
	snprintf(url, sizeof url, "unix://%s", argv[1]);
	long n = strtol(argv[3], NULL, 10);
	return run_hiredis(argv[1], argv[2], n) || run_libqless(url, n);
}
