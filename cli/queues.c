/*
 * Queue subcommands: queues, jobs, failed, unfail, stats, pause, unpause.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- queues ---- */

static const char queues_usage[] =
	"usage: qless queues\n"
	"A table of the known queues: waiting, running, stalled, scheduled, depends,\n"
	"recurring jobs and whether the queue is paused.\n";

int cmd_queues(cli *c, int argc, char **argv)
{
	int status, n = cli_parse(c, argc, argv, NULL, queues_usage, NULL, 0, &status);
	if (n < 0)
		return status;
	if ((status = cli_connect(c)) != 0)
		return status;
	qless_queue_countlist *list = NULL;
	if (qless_client_queue_counts(&list, c->client) != QLESS_OK)
		return cli_lib_error(c);
	static const char *const headers[] = { "QUEUE", "WAITING", "RUNNING", "STALLED", "SCHEDULED",
	                                       "DEPENDS", "RECURRING", "PAUSED", NULL };
	json_t *rows = c->json ? json_array() : NULL;
	table *t = c->json ? NULL : table_new(headers);
	for (size_t i = 0; i < qless_queue_countlist_size(list); i++) {
		qless_queue_counts qc = QLESS_QUEUE_COUNTS_INIT;
		const char *name = qless_queue_countlist_name(list, i);
		if (qless_queue_countlist_get(&qc, list, i) != QLESS_OK) {
			status = cli_lib_error(c);
			break;
		}
		if (c->json) {
			json_array_append_new(rows, json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:b}", "name", name,
			                                      "waiting", (json_int_t)qc.waiting, "running",
			                                      (json_int_t)qc.running, "stalled", (json_int_t)qc.stalled,
			                                      "scheduled", (json_int_t)qc.scheduled, "depends",
			                                      (json_int_t)qc.depends, "recurring",
			                                      (json_int_t)qc.recurring, "paused", qc.paused));
			continue;
		}
		const int64_t nums[6] = { qc.waiting, qc.running, qc.stalled, qc.scheduled, qc.depends, qc.recurring };
		char num[6][24];
		for (size_t k = 0; k < 6; k++)
			snprintf(num[k], sizeof num[k], "%lld", (long long)nums[k]);
		table_row(t, name, num[0], num[1], num[2], num[3], num[4], num[5], qc.paused ? "yes" : "no");
	}
	qless_queue_countlist_free(list);
	if (status != 0) {
		json_decref(rows);
		if (t != NULL)
			table_free(t);
	} else if (c->json) {
		json_print(rows);
	} else {
		table_print(t);
	}
	return status;
}

/* ---- jobs ---- */

static const char jobs_usage[] =
	"usage: qless jobs STATE [QUEUE] [--offset N] [--count N]\n"
	"Jids by state, one a line: complete (no QUEUE; most recent first), or running,\n"
	"stalled, scheduled, depends, recurring of QUEUE. --count defaults to 25.\n";

int cmd_jobs(cli *c, int argc, char **argv)
{
	const char *offset = NULL, *count = NULL;
	const cli_opt opts[] = { { "offset", OPT_STRING, &offset, NULL }, { "count", OPT_STRING, &count, NULL }, { 0 } };
	char *pos[2];
	int status, n = cli_parse(c, argc, argv, opts, jobs_usage, pos, 2, &status);
	if (n < 0)
		return status;
	if (n < 1)
		return cli_usage_error(c, "needs a STATE (see qless jobs --help)");
	static const char *const states[] = { "complete", "running", "stalled", "scheduled", "depends", "recurring" };
	int known = 0;
	for (size_t i = 0; i < 6; i++)
		known |= strcmp(pos[0], states[i]) == 0;
	if (!known)
		return cli_usage_error(c, "unknown state '%s' (complete, running, stalled, scheduled, depends, recurring)",
		                       pos[0]);
	int complete = strcmp(pos[0], "complete") == 0;
	if (complete && n > 1)
		return cli_usage_error(c, "state complete takes no QUEUE");
	if (!complete && n < 2)
		return cli_usage_error(c, "state %s needs a QUEUE", pos[0]);
	int64_t off = 0, cnt = 0;
	if (offset && arg_int(c, "--offset", offset, 0, INT64_MAX, &off))
		return EXIT_USAGE;
	if (count && arg_int(c, "--count", count, 1, INT32_MAX, &cnt))
		return EXIT_USAGE;
	if ((status = cli_connect(c)) != 0)
		return status;
	qless_strlist *list = NULL;
	if (qless_client_jobs(&list, c->client, pos[0], complete ? NULL : pos[1], off, cnt) != QLESS_OK)
		return cli_lib_error(c);
	if (c->json)
		json_print(json_strlist(list));
	else
		for (size_t i = 0; i < qless_strlist_size(list); i++)
			printf("%s\n", qless_strlist_get(list, i));
	qless_strlist_free(list);
	return 0;
}

/* ---- failed ---- */

static const char failed_usage[] =
	"usage: qless failed                 failure groups and their job counts\n"
	"       qless failed GROUP [--offset N] [--count N]\n"
	"                                    the jobs failed in GROUP, newest first\n";

int cmd_failed(cli *c, int argc, char **argv)
{
	const char *offset = NULL, *count = NULL;
	const cli_opt opts[] = { { "offset", OPT_STRING, &offset, NULL }, { "count", OPT_STRING, &count, NULL }, { 0 } };
	char *pos[1];
	int status, n = cli_parse(c, argc, argv, opts, failed_usage, pos, 1, &status);
	if (n < 0)
		return status;
	int64_t off = 0, cnt = 0, total = 0;
	if (offset && arg_int(c, "--offset", offset, 0, INT64_MAX, &off))
		return EXIT_USAGE;
	if (count && arg_int(c, "--count", count, 1, INT32_MAX, &cnt))
		return EXIT_USAGE;
	if ((status = cli_connect(c)) != 0)
		return status;
	qless_strlist *list = NULL;
	if (n == 0) {
		if (qless_client_failed_groups(&list, c->client) != QLESS_OK)
			return cli_lib_error(c);
		if (c->json) {
			json_print(json_strlist_counts(list));
		} else {
			static const char *const headers[] = { "GROUP", "JOBS", NULL };
			table *t = table_new(headers);
			for (size_t i = 0; i < qless_strlist_size(list); i++) {
				char num[24];
				snprintf(num, sizeof num, "%lld", (long long)qless_strlist_number(list, i));
				table_row(t, qless_strlist_get(list, i), num);
			}
			table_print(t);
		}
		qless_strlist_free(list);
		return 0;
	}
	if (qless_client_failed(&list, &total, c->client, pos[0], off, cnt) != QLESS_OK)
		return cli_lib_error(c);
	if (c->json) {
		json_print(json_pack("{s:I,s:o}", "total", (json_int_t)total, "jobs", json_strlist(list)));
		qless_strlist_free(list);
		return 0;
	}
	qless_joblist *jobs = NULL;
	size_t njids = qless_strlist_size(list);
	const char **jids = calloc(njids + 1, sizeof *jids);
	if (jids == NULL)
		abort();
	for (size_t i = 0; i < njids; i++)
		jids[i] = qless_strlist_get(list, i);
	if (njids > 0 && qless_client_get_jobs(&jobs, c->client, jids, njids) != QLESS_OK) {
		status = cli_lib_error(c);
	} else {
		static const char *const headers[] = { "JID", "CLASS", "WORKER", "FAILED", "MESSAGE", NULL };
		table *t = table_new(headers);
		double now = qless_client_now(c->client);
		for (size_t i = 0; jobs != NULL && i < qless_joblist_size(jobs); i++) {
			const qless_job *job = qless_joblist_get(jobs, i);
			char when[48];
			time_relative(qless_job_failure_when(job), now, when, sizeof when);
			table_row(t, qless_job_jid(job), qless_job_klass(job), or_dash(qless_job_failure_worker(job)),
			          when, or_dash(qless_job_failure_message(job)));
		}
		table_print(t);
		printf("%lld job(s) failed in %s\n", (long long)total, pos[0]);
	}
	qless_joblist_free(jobs);
	free(jids);
	qless_strlist_free(list);
	return status;
}

/* ---- unfail ---- */

static const char unfail_usage[] =
	"usage: qless unfail QUEUE GROUP [COUNT]\n"
	"Moves the COUNT (default 25) oldest jobs failed in GROUP back into QUEUE;\n"
	"prints how many moved.\n";

int cmd_unfail(cli *c, int argc, char **argv)
{
	char *pos[3];
	int status, n = cli_parse(c, argc, argv, NULL, unfail_usage, pos, 3, &status);
	if (n < 0)
		return status;
	if (n < 2)
		return cli_usage_error(c, "needs QUEUE and GROUP (see qless unfail --help)");
	int64_t count = 25, moved = 0;
	if (n > 2 && arg_int(c, "COUNT", pos[2], 1, INT32_MAX, &count))
		return EXIT_USAGE;
	if ((status = cli_connect(c)) != 0)
		return status;
	qless_queue *q = NULL;
	if (qless_queue_new(&q, c->client, pos[0]) != QLESS_OK ||
	    qless_queue_unfail(&moved, q, pos[1], count) != QLESS_OK)
		status = cli_lib_error(c);
	else if (c->json)
		json_print(json_pack("{s:I}", "moved", (json_int_t)moved));
	else
		printf("%lld\n", (long long)moved);
	qless_queue_free(q);
	return status;
}

/* ---- stats ---- */

static const char stats_usage[] =
	"usage: qless stats QUEUE [--date YYYY-MM-DD|SECONDS]\n"
	"The queue's statistics for a UTC day (default today): retries, failures, and\n"
	"for wait (put to pop) and run (pop to completion) times the count, mean,\n"
	"standard deviation and a histogram of the non-empty buckets.\n";

static void bucket_name(size_t i, char *buf, size_t size)
{
	if (i < 60)
		snprintf(buf, size, "%zus", i);
	else if (i < 119)
		snprintf(buf, size, "%zum", i - 59);
	else if (i < 142)
		snprintf(buf, size, "%zuh", i - 118);
	else
		snprintf(buf, size, "%zud", i - 141);
}

static json_t *timing_json(const qless_timing_stats *s)
{
	json_t *h = json_array();
	for (size_t i = 0; i < QLESS_STATS_BUCKETS; i++)
		json_array_append_new(h, json_integer(s->histogram[i]));
	return json_pack("{s:I,s:f,s:f,s:o}", "count", (json_int_t)s->count, "mean", s->mean, "std", s->std,
	                 "histogram", h);
}

static void print_timing(const char *what, const qless_timing_stats *s)
{
	char mean[32], std[32];
	printf("%s: %lld job(s)", what, (long long)s->count);
	if (s->count > 0)
		printf(", mean %s, std %s", duration_format(s->mean, mean, sizeof mean),
		       duration_format(s->std, std, sizeof std));
	fputc('\n', stdout);
	int64_t max = 0;
	for (size_t i = 0; i < QLESS_STATS_BUCKETS; i++)
		if (s->histogram[i] > max)
			max = s->histogram[i];
	for (size_t i = 0; i < QLESS_STATS_BUCKETS; i++) {
		if (s->histogram[i] == 0)
			continue;
		char name[16];
		bucket_name(i, name, sizeof name);
		int bar = (int)((s->histogram[i] * 40 + max - 1) / max);
		printf("  %5s %6lld ", name, (long long)s->histogram[i]);
		for (int k = 0; k < bar; k++)
			fputc('#', stdout);
		fputc('\n', stdout);
	}
}

int cmd_stats(cli *c, int argc, char **argv)
{
	const char *date = NULL;
	const cli_opt opts[] = { { "date", OPT_STRING, &date, NULL }, { 0 } };
	char *pos[1];
	int status, n = cli_parse(c, argc, argv, opts, stats_usage, pos, 1, &status);
	if (n < 0)
		return status;
	if (n < 1)
		return cli_usage_error(c, "needs a QUEUE (see qless stats --help)");
	double when = 0;
	if (date && date_parse(date, &when) != 0)
		return cli_usage_error(c, "bad --date '%s' (use YYYY-MM-DD or seconds since the epoch)", date);
	if ((status = cli_connect(c)) != 0)
		return status;
	if (date == NULL)
		when = qless_client_now(c->client);
	qless_queue *q = NULL;
	qless_stats st = { .version = QLESS_STATS_VERSION };
	if (qless_queue_new(&q, c->client, pos[0]) != QLESS_OK || qless_queue_stats(&st, q, when) != QLESS_OK) {
		qless_queue_free(q);
		return cli_lib_error(c);
	}
	qless_queue_free(q);
	if (c->json) {
		json_print(json_pack("{s:I,s:I,s:I,s:o,s:o}", "retries", (json_int_t)st.retries, "failed",
		                     (json_int_t)st.failed, "failures", (json_int_t)st.failures, "wait",
		                     timing_json(&st.wait), "run", timing_json(&st.run)));
		return 0;
	}
	printf("queue %s\n", pos[0]);
	printf("retries %lld, failed %lld, failures %lld\n", (long long)st.retries, (long long)st.failed,
	       (long long)st.failures);
	print_timing("wait", &st.wait);
	print_timing("run", &st.run);
	return 0;
}

/* ---- pause, unpause ---- */

static const char pause_usage[] =
	"usage: qless pause QUEUE...\n"
	"Pauses the queues: pop hands out nothing until unpaused; put, peek and\n"
	"complete work as usual.\n";
static const char unpause_usage[] =
	"usage: qless unpause QUEUE...\n"
	"Unpauses the queues.\n";

static int pause_or_unpause(cli *c, int argc, char **argv, int pause)
{
	char **pos = calloc((size_t)argc + 1, sizeof *pos);
	if (pos == NULL)
		abort();
	int status, n = cli_parse(c, argc, argv, NULL, pause ? pause_usage : unpause_usage, pos, argc, &status);
	if (n == 0)
		status = cli_usage_error(c, "needs at least one QUEUE (see qless %s --help)", c->cmd);
	if (n > 0)
		status = cli_connect(c);
	/* Every name is checked (by making its handle) before the first queue
	 * changes: a bad name refuses the command, not the rest of it. */
	qless_queue **qs = calloc((size_t)argc + 1, sizeof *qs);
	if (qs == NULL)
		abort();
	for (int i = 0; n > 0 && status == 0 && i < n; i++)
		if (qless_queue_new(&qs[i], c->client, pos[i]) != QLESS_OK)
			status = cli_lib_error(c);
	for (int i = 0; n > 0 && status == 0 && i < n; i++) {
		if ((pause ? qless_queue_pause(qs[i]) : qless_queue_unpause(qs[i])) != QLESS_OK)
			status = cli_lib_error(c);
		else if (!c->json)
			printf("%s %s\n", pause ? "paused" : "unpaused", pos[i]);
	}
	for (int i = 0; i < n; i++)
		qless_queue_free(qs[i]);
	free(qs);
	if (n > 0 && status == 0 && c->json) {
		json_t *a = json_array();
		for (int i = 0; i < n; i++)
			json_array_append_new(a, json_string(pos[i]));
		json_print(json_pack("{s:o}", pause ? "paused" : "unpaused", a));
	}
	free(pos);
	return status;
}

int cmd_pause(cli *c, int argc, char **argv)
{
	return pause_or_unpause(c, argc, argv, 1);
}

int cmd_unpause(cli *c, int argc, char **argv)
{
	return pause_or_unpause(c, argc, argv, 0);
}
