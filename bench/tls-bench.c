/*
 * TLS against plain TCP on the same server, in one run: the sequential
 * life cycle (put -> pop -> complete) through libqless over each URL, in
 * rounds that alternate the two (the other one first every other round).
 * Prints jobs/s, client CPU per job (getrusage of this process) and Redis
 * CPU per job for each, and the TLS / TCP ratios.
 *   tls-bench PLAIN_URL TLS_URL REDIS_SOCKET [JOBS_PER_ROUND [ROUNDS]]
 * The queue is emptied by the loop itself; the server needs no other data.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <hiredis/hiredis.h>
#include <qless/qless.h>

typedef struct side {
	const char *name, *url;
	qless_client *c;
	qless_queue *q;
	long jobs;
	double wall, cpu, redis;
} side;

static void check(int rc, const char *what)
{
	if (rc != QLESS_OK) {
		fprintf(stderr, "tls-bench: %s: %s\n", what, qless_error_last_message());
		exit(1);
	}
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double self_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

static double redis_cpu(redisContext *adm)
{
	redisReply *r = redisCommand(adm, "INFO cpu");
	double sys = 0, user = 0;
	const char *p;
	if (r == NULL || r->type != REDIS_REPLY_STRING) {
		fprintf(stderr, "tls-bench: INFO cpu failed\n");
		exit(1);
	}
	if ((p = strstr(r->str, "used_cpu_sys:")) != NULL)
		sys = strtod(p + 13, NULL);
	if ((p = strstr(r->str, "used_cpu_user:")) != NULL)
		user = strtod(p + 14, NULL);
	freeReplyObject(r);
	return sys + user;
}

static void lifecycles(side *s, redisContext *adm, long n)
{
	double w0 = mono(), c0 = self_cpu(), r0 = redis_cpu(adm);
	for (long i = 0; i < n; i++) {
		qless_joblist *jobs = NULL;
		check(qless_queue_put(NULL, s->q, "Bench", "{\"i\": 1}", NULL), "put");
		check(qless_queue_pop(&jobs, s->q, 1), "pop");
		if (qless_joblist_size(jobs) != 1) {
			fprintf(stderr, "tls-bench: nothing popped\n");
			exit(1);
		}
		check(qless_job_complete(qless_joblist_get(jobs, 0), NULL), "complete");
		qless_joblist_free(jobs);
	}
	s->wall += mono() - w0;
	s->cpu += self_cpu() - c0;
	s->redis += redis_cpu(adm) - r0;
	s->jobs += n;
}

int main(int argc, char **argv)
{
	side sides[2] = { { "plain TCP", NULL, NULL, NULL, 0, 0, 0, 0 }, { "TLS", NULL, NULL, NULL, 0, 0, 0, 0 } };
	long n = argc > 4 ? atol(argv[4]) : 2000;
	int rounds = argc > 5 ? atoi(argv[5]) : 10, i, k;
	redisContext *adm;

	if (argc < 4 || n <= 0 || rounds <= 0) {
		fprintf(stderr, "usage: tls-bench PLAIN_URL TLS_URL REDIS_SOCKET [JOBS_PER_ROUND [ROUNDS]]\n");
		return 2;
	}
	adm = redisConnectUnix(argv[3]);
	if (adm == NULL || adm->err) {
		fprintf(stderr, "tls-bench: cannot connect to %s\n", argv[3]);
		return 1;
	}
	sides[0].url = argv[1];
	sides[1].url = argv[2];
	for (k = 0; k < 2; k++) {
		check(qless_client_new(&sides[k].c, sides[k].url, NULL), sides[k].name);
		check(qless_queue_new(&sides[k].q, sides[k].c, k ? "bench-tls" : "bench-tcp"), "queue");
		lifecycles(&sides[k], adm, n / 10 + 1); /* warm up: loaded, connected, caches */
		sides[k].jobs = 0;
		sides[k].wall = sides[k].cpu = sides[k].redis = 0;
	}
	for (i = 0; i < rounds; i++)
		for (k = 0; k < 2; k++)
			lifecycles(&sides[(k + i) % 2], adm, n);
	printf("%-10s %8s %10s %14s %14s\n", "transport", "jobs", "jobs/s", "client us/job", "Redis us/job");
	for (k = 0; k < 2; k++)
		printf("%-10s %8ld %10.0f %14.1f %14.1f\n", sides[k].name, sides[k].jobs, sides[k].jobs / sides[k].wall,
		       1e6 * sides[k].cpu / sides[k].jobs, 1e6 * sides[k].redis / sides[k].jobs);
	printf("TLS / plain TCP: jobs/s x%.3f, client CPU per job x%.3f, Redis CPU per job x%.3f "
	       "(put -> pop -> complete, %d alternating rounds)\n",
	       (sides[1].jobs / sides[1].wall) / (sides[0].jobs / sides[0].wall),
	       (sides[1].cpu / sides[1].jobs) / (sides[0].cpu / sides[0].jobs),
	       (sides[1].redis / sides[1].jobs) / (sides[0].redis / sides[0].jobs), rounds);
	for (k = 0; k < 2; k++) {
		qless_queue_free(sides[k].q);
		qless_client_free(sides[k].c);
	}
	redisFree(adm);
	return 0;
}
