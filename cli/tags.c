/*
 * Marking jobs: tag, track, depends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void print_strings(cli *c, const char *key, size_t n, const char *(*item)(const qless_job *, size_t),
                          const qless_job *job)
{
	if (c->json) {
		json_t *a = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, json_string(item(job, i)));
		json_print(json_pack("{s:s,s:o}", "jid", qless_job_jid(job), key, a));
		return;
	}
	for (size_t i = 0; i < n; i++)
		printf("%s\n", item(job, i));
}

/* ---- tag ---- */

static const char tag_usage[] =
	"usage: qless tag add JID TAG...      add tags to a job\n"
	"       qless tag remove JID TAG...   remove tags from a job\n"
	"       qless tag get TAG [--offset N] [--count N]   jids carrying TAG\n"
	"       qless tag top [--count N]     tags used by at least two jobs, most used first\n";

static int tag_get_or_top(cli *c, char **pos, int n, const char *offset, const char *count)
{
	int64_t off = 0, cnt = 0, total = 0;
	if (offset && arg_int(c, "--offset", offset, 0, INT64_MAX, &off))
		return EXIT_USAGE;
	if (count && arg_int(c, "--count", count, 1, INT32_MAX, &cnt))
		return EXIT_USAGE;
	int top = strcmp(pos[0], "top") == 0;
	if (!top && n != 2)
		return cli_usage_error(c, "tag get needs one TAG");
	if (top && n != 1)
		return cli_usage_error(c, "tag top takes no arguments");
	int status = cli_connect(c);
	if (status != 0)
		return status;
	qless_strlist *list = NULL;
	if ((top ? qless_client_top_tags(&list, c->client, off, cnt)
	         : qless_client_tagged(&list, &total, c->client, pos[1], off, cnt)) != QLESS_OK)
		return cli_lib_error(c);
	if (top && c->json) {
		json_print(json_strlist_counts(list));
	} else if (top) {
		static const char *const headers[] = { "TAG", "JOBS", NULL };
		table *t = table_new(headers);
		for (size_t i = 0; i < qless_strlist_size(list); i++) {
			char num[32];
			snprintf(num, sizeof num, "%lld", (long long)qless_strlist_number(list, i));
			table_row(t, qless_strlist_get(list, i), num);
		}
		table_print(t);
	} else if (c->json) {
		json_print(json_pack("{s:I,s:o}", "total", (json_int_t)total, "jobs", json_strlist(list)));
	} else {
		for (size_t i = 0; i < qless_strlist_size(list); i++)
			printf("%s\n", qless_strlist_get(list, i));
	}
	qless_strlist_free(list);
	return 0;
}

int cmd_tag(cli *c, int argc, char **argv)
{
	const char *offset = NULL, *count = NULL;
	const cli_opt opts[] = { { "offset", OPT_STRING, &offset, NULL }, { "count", OPT_STRING, &count, NULL }, { 0 } };
	char **pos;
	int status, n = cli_parse_all(c, argc, argv, opts, tag_usage, &pos, &status);
	if (n < 0)
		return status;
	if (n >= 1 && (strcmp(pos[0], "get") == 0 || strcmp(pos[0], "top") == 0)) {
		c->cmd = strcmp(pos[0], "get") == 0 ? "tag get" : "tag top";
		status = tag_get_or_top(c, pos, n, offset, count);
		free(pos);
		return status;
	}
	int add = n >= 1 && strcmp(pos[0], "add") == 0;
	if (n < 1 || (!add && strcmp(pos[0], "remove") != 0)) {
		free(pos);
		return cli_usage_error(c, "needs add, remove, get or top (see qless tag --help)");
	}
	c->cmd = add ? "tag add" : "tag remove";
	if (n < 3) {
		free(pos);
		return cli_usage_error(c, "needs JID and at least one TAG");
	}
	if ((status = arg_words(c, "TAG", pos + 2, n - 2)) != 0) {
		free(pos);
		return status;
	}
	qless_job *job = NULL;
	status = fetch_job(c, pos[1], &job);
	const char *const *tags = (const char *const *)pos + 2;
	if (status == 0 && (add ? qless_job_tag_add(job, tags, (size_t)n - 2)
	                        : qless_job_tag_remove(job, tags, (size_t)n - 2)) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0)
		print_strings(c, "tags", qless_job_tag_count(job), qless_job_tag, job);
	qless_job_free(job);
	free(pos);
	return status;
}

/* ---- track ---- */

static const char track_usage[] =
	"usage: qless track               list the tracked jobs\n"
	"       qless track add JID       track a job (its events go to the put, popped, ... channels)\n"
	"       qless track remove JID    stop tracking it\n";

int cmd_track(cli *c, int argc, char **argv)
{
	char *pos[2];
	int status, n = cli_parse(c, argc, argv, NULL, track_usage, pos, 2, &status);
	if (n < 0)
		return status;
	if (n == 0) {
		if ((status = cli_connect(c)) != 0)
			return status;
		qless_joblist *jobs = NULL;
		qless_strlist *expired = NULL;
		if (qless_client_tracked(&jobs, &expired, c->client) != QLESS_OK)
			return cli_lib_error(c);
		if (c->json) {
			json_print(json_pack("{s:o,s:o}", "jobs", json_joblist(jobs), "expired", json_strlist(expired)));
		} else {
			print_job_table(c, jobs);
			for (size_t i = 0; i < qless_strlist_size(expired); i++)
				printf("expired: %s\n", qless_strlist_get(expired, i));
		}
		qless_joblist_free(jobs);
		qless_strlist_free(expired);
		return 0;
	}
	int add = strcmp(pos[0], "add") == 0;
	if (!add && strcmp(pos[0], "remove") != 0)
		return cli_usage_error(c, "needs add or remove (see qless track --help)");
	c->cmd = add ? "track add" : "track remove";
	if (n != 2)
		return cli_usage_error(c, "needs one JID");
	qless_job *job = NULL;
	status = fetch_job(c, pos[1], &job);
	if (status == 0 && (add ? qless_job_track(job) : qless_job_untrack(job)) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0) {
		if (c->json)
			json_print(json_pack("{s:s,s:b}", "jid", pos[1], "tracked", add));
		else
			printf("%s %s\n", add ? "tracking" : "not tracking", pos[1]);
	}
	qless_job_free(job);
	return status;
}

/* ---- depends ---- */

static const char depends_usage[] =
	"usage: qless depends add JID DEP...      make JID also wait for DEP...\n"
	"       qless depends remove JID DEP...   stop waiting for DEP...\n"
	"       qless depends clear JID           stop waiting for anything\n"
	"Only jobs in state 'depends' accept changes. Prints the remaining dependencies.\n";

int cmd_depends(cli *c, int argc, char **argv)
{
	char **pos;
	int status, n = cli_parse_all(c, argc, argv, NULL, depends_usage, &pos, &status);
	if (n < 0)
		return status;
	status = 0;
	const char *sub = n > 0 ? pos[0] : "";
	int add = strcmp(sub, "add") == 0, rm = strcmp(sub, "remove") == 0, clear = strcmp(sub, "clear") == 0;
	if (!add && !rm && !clear)
		status = cli_usage_error(c, "needs add, remove or clear (see qless depends --help)");
	else if (clear && n != 2)
		status = cli_usage_error(c, "depends clear needs one JID");
	else if (!clear && n < 3)
		status = cli_usage_error(c, "depends %s needs JID and at least one DEP", sub);
	else if (!clear)
		status = arg_words(c, "DEP", pos + 2, n - 2);
	if (status != 0 || (!add && !rm && !clear)) {
		free(pos);
		return status;
	}
	c->cmd = add ? "depends add" : rm ? "depends remove" : "depends clear";
	qless_job *job = NULL;
	status = fetch_job(c, pos[1], &job);
	const char *const *deps = (const char *const *)pos + 2;
	if (status == 0) {
		int rc = add ? qless_job_depends_add(job, deps, (size_t)n - 2)
		       : rm ? qless_job_depends_remove(job, deps, (size_t)n - 2)
		            : qless_job_depends_clear(job);
		if (rc != QLESS_OK || qless_job_refresh(job) != QLESS_OK)
			status = cli_lib_error(c);
	}
	if (status == 0)
		print_strings(c, "dependencies", qless_job_dependency_count(job), qless_job_dependency, job);
	qless_job_free(job);
	free(pos);
	return status;
}
