/*
 * Job subcommands: put, get, peek, pop, complete, fail, retry, cancel,
 * priority.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int fetch_job(cli *c, const char *jid, qless_job **out)
{
	int rc = cli_connect(c);
	if (rc != 0)
		return rc;
	if (qless_client_get_job(out, c->client, jid) != QLESS_OK) {
		if (qless_error_last_code() == QLESS_ENOTFOUND)
			return cli_error(c, "no job %s", jid);
		return cli_lib_error(c);
	}
	return 0;
}

static char *join_tags(const qless_job *job)
{
	size_t n = qless_job_tag_count(job), len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(qless_job_tag(job, i)) + 1;
	char *s = calloc(1, len);
	if (s == NULL)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, qless_job_tag(job, i));
	}
	return s;
}

void print_job_table(cli *c, const qless_joblist *list)
{
	if (c->json) {
		json_print(json_joblist(list));
		return;
	}
	static const char *const headers[] = { "JID", "CLASS", "QUEUE", "STATE", "PRIORITY", "WORKER", "TAGS", NULL };
	table *t = table_new(headers);
	for (size_t i = 0; i < qless_joblist_size(list); i++) {
		const qless_job *job = qless_joblist_get(list, i);
		char pri[32], *tags = join_tags(job);
		snprintf(pri, sizeof pri, "%g", qless_job_priority(job));
		table_row(t, qless_job_jid(job), qless_job_klass(job), or_dash(qless_job_queue(job)),
		          qless_job_state(job), pri, or_dash(qless_job_worker(job)), or_dash(tags));
		free(tags);
	}
	table_print(t);
}

/* ---- put ---- */

static const char put_usage[] =
	"usage: qless put QUEUE KLASS [DATA] [options]\n"
	"Puts a job of class KLASS with DATA (JSON, default {}) into QUEUE; prints its jid.\n"
	"  --priority N      higher pops first (default 0)\n"
	"  --tags a,b        tags\n"
	"  --delay D         do not run before D (30s, 5m, 2h, 1d)\n"
	"  --retries N       retries before the job fails (default 5)\n"
	"  --depends j1,j2   wait for these jobs to complete first\n"
	"  --jid JID         use this jid (moves an existing job)\n"
	"  --unique          put nothing while the job is pending (not complete); without\n"
	"                    --jid the jid comes from queue, klass and data (or --key)\n"
	"  --key KEY         with --unique: the job's identity is KEY\n"
	"  --tree            make it a tree job (implied by the options below but --by)\n"
	"  --parent P --name N   a child of tree job P, named N among P's children\n"
	"  --inports JSON    input ports, e.g. {\"in\":{},\"limit\":{\"default\":10}}\n"
	"  --outports JSON   output ports\n"
	"  --alias A         a global name of the job (repeatable)\n"
	"  --by WHO          who created it (default: the worker name)\n"
	"  --json            {\"jid\"}, with --unique {\"jid\",\"inserted\",\"state\"}\n";

/* The --json reply of a unique put: the job's state as it is now. */
/* The job-tree options of put (jobtrees.md §5.2), checked before anything
 * is sent: --parent and --name go together, ports are JSON objects. */
static int put_tree_options(cli *c, qless_put_options *po, int tree, const char *parent, const char *name,
                            const char *inports, const char *outports, const char **aliases, int naliases,
                            const char *by)
{
	if ((parent == NULL) != (name == NULL))
		return cli_usage_error(c, "--parent and --name go together");
	if ((parent && !*parent) || (name && !*name) || (by && !*by))
		return cli_usage_error(c, "%s is empty", parent && !*parent ? "--parent" : name && !*name ? "--name" : "--by");
	for (int i = 0; i < naliases; i++)
		if (!*aliases[i])
			return cli_usage_error(c, "--alias is empty");
	if ((inports && arg_json_object(c, "--inports", inports)) || (outports && arg_json_object(c, "--outports", outports)))
		return EXIT_USAGE;
	po->tree = tree;
	po->parent = parent;
	po->name = name;
	po->inports = inports;
	po->outports = outports;
	po->aliases = naliases > 0 ? aliases : NULL;
	po->naliases = (size_t)naliases;
	po->by = by;
	return 0;
}

static int print_unique_put(cli *c, const char *jid, int inserted)
{
	qless_job *job = NULL;
	int status = fetch_job(c, jid, &job);
	if (status == 0)
		json_print(json_pack("{s:s,s:b,s:s}", "jid", jid, "inserted", inserted, "state", qless_job_state(job)));
	qless_job_free(job);
	return status;
}

static int put_job(cli *c, int argc, char **argv, const char **aliases)
{
	const char *priority = NULL, *tags = NULL, *delay = NULL, *retries = NULL, *depends = NULL, *jid = NULL;
	const char *key = NULL, *parent = NULL, *name = NULL, *inports = NULL, *outports = NULL, *by = NULL;
	int unique = 0, inserted = 0, tree = 0, naliases = 0;
	const cli_opt opts[] = {
		{ "priority", OPT_STRING, &priority, NULL }, { "tags", OPT_STRING, &tags, NULL },
		{ "delay", OPT_STRING, &delay, NULL }, { "retries", OPT_STRING, &retries, NULL },
		{ "depends", OPT_STRING, &depends, NULL }, { "jid", OPT_STRING, &jid, NULL },
		{ "unique", OPT_FLAG, NULL, &unique }, { "key", OPT_STRING, &key, NULL },
		{ "tree", OPT_FLAG, NULL, &tree }, { "parent", OPT_STRING, &parent, NULL },
		{ "name", OPT_STRING, &name, NULL }, { "inports", OPT_STRING, &inports, NULL },
		{ "outports", OPT_STRING, &outports, NULL }, { "alias", OPT_LIST, aliases, &naliases },
		{ "by", OPT_STRING, &by, NULL }, { 0 },
	};
	char *pos[3];
	int status, n = cli_parse(c, argc, argv, opts, put_usage, pos, 3, &status);
	if (n >= 0 && n < 2)
		status = cli_usage_error(c, "needs QUEUE and KLASS (see qless put --help)");
	qless_put_options po = QLESS_PUT_OPTIONS_INIT;
	if (n >= 2)
		status = put_tree_options(c, &po, tree, parent, name, inports, outports, aliases, naliases, by);
	if (n < 2 || status != 0)
		return status;
	const char *data = n > 2 ? pos[2] : "{}";
	int64_t r;
	if (arg_json(c, "DATA", data))
		return EXIT_USAGE;
	if (priority && arg_number(c, "--priority", priority, &po.priority))
		return EXIT_USAGE;
	po.has_priority = priority != NULL;
	if (delay && arg_duration(c, "--delay", delay, &po.delay))
		return EXIT_USAGE;
	if (retries) {
		if (arg_int(c, "--retries", retries, 0, INT32_MAX, &r))
			return EXIT_USAGE;
		po.retries = (int)r;
	}
	if (key && !unique)
		return cli_usage_error(c, "--key needs --unique");
	if (key && !*key)
		return cli_usage_error(c, "--key is empty");
	po.jid = jid;
	po.unique = unique;
	po.unique_key = key;
	char **tag_list = NULL, **dep_list = NULL;
	if (tags) {
		tag_list = split_list(tags, &po.ntags);
		po.tags = (const char *const *)tag_list;
	}
	if (depends) {
		dep_list = split_list(depends, &po.ndepends);
		po.depends = (const char *const *)dep_list;
	}
	qless_queue *q = NULL;
	char *out = NULL;
	status = cli_connect(c);
	if (status == 0 && qless_queue_new(&q, c->client, pos[0]) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0 && (unique ? qless_queue_put_unique(&out, &inserted, q, pos[1], data, &po)
	                           : qless_queue_put(&out, q, pos[1], data, &po)) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0) {
		if (c->json && unique)
			status = print_unique_put(c, out, inserted);
		else if (c->json)
			json_print(json_pack("{s:s}", "jid", out));
		else
			printf("%s\n", out);
	}
	qless_free(out);
	qless_queue_free(q);
	free_list(tag_list);
	free_list(dep_list);
	return status;
}

int cmd_put(cli *c, int argc, char **argv)
{
	/* Room for every argument as an --alias value. */
	const char **aliases = calloc((size_t)argc, sizeof *aliases);
	if (aliases == NULL)
		abort();
	int status = put_job(c, argc, argv, aliases);
	free(aliases);
	return status;
}

/* ---- get ---- */

static const char get_usage[] =
	"usage: qless get JID\n"
	"Shows a job: class, queue, state, worker, priority, retries, tags,\n"
	"dependencies, data, last failure and history. --json: the job object.\n";

static void print_list_line(const char *label, size_t n, const char *(*item)(const qless_job *, size_t),
                            const qless_job *job)
{
	printf("%-12s ", label);
	if (n == 0)
		fputs("-", stdout);
	for (size_t i = 0; i < n; i++)
		printf("%s%s", i ? ", " : "", item(job, i));
	fputc('\n', stdout);
}

static void print_job(cli *c, const qless_job *job)
{
	char a[64], r[64];
	double now = qless_client_now(c->client);
	printf("%-12s %s\n", "jid", qless_job_jid(job));
	printf("%-12s %s\n", "class", qless_job_klass(job));
	printf("%-12s %s\n", "queue", or_dash(qless_job_queue(job)));
	printf("%-12s %s\n", "state", qless_job_state(job));
	printf("%-12s %s\n", "worker", or_dash(qless_job_worker(job)));
	printf("%-12s %g\n", "priority", qless_job_priority(job));
	if (qless_job_expires(job) > 0)
		printf("%-12s %s (%s)\n", "expires", time_absolute(qless_job_expires(job), a, sizeof a),
		       time_relative(qless_job_expires(job), now, r, sizeof r));
	printf("%-12s %lld of %lld left\n", "retries", (long long)qless_job_remaining(job),
	       (long long)qless_job_retries(job));
	print_list_line("tags", qless_job_tag_count(job), qless_job_tag, job);
	printf("%-12s %s\n", "tracked", qless_job_tracked(job) ? "yes" : "no");
	print_list_line("depends on", qless_job_dependency_count(job), qless_job_dependency, job);
	print_list_line("dependents", qless_job_dependent_count(job), qless_job_dependent, job);
	if (qless_job_spawned_from_jid(job) != NULL)
		printf("%-12s %s\n", "recurring", qless_job_spawned_from_jid(job));
	printf("%-12s %s\n", "data", qless_job_data(job));
	if (qless_job_failure_group(job) != NULL)
		printf("%-12s %s: %s (worker %s, %s)\n", "failure", qless_job_failure_group(job),
		       qless_job_failure_message(job), or_dash(qless_job_failure_worker(job)),
		       time_relative(qless_job_failure_when(job), now, r, sizeof r));
	printf("history\n");
	for (size_t i = 0; i < qless_job_history_count(job); i++) {
		double when = qless_job_history_when(job, i);
		json_t *entry = json_parse(qless_job_history_json(job, i));
		printf("  %s  %-10s %-8s", time_absolute(when, a, sizeof a), time_relative(when, now, r, sizeof r),
		       qless_job_history_what(job, i));
		const char *key;
		json_t *value;
		json_object_foreach(entry, key, value) {
			if (strcmp(key, "what") == 0 || strcmp(key, "when") == 0)
				continue;
			if (json_is_string(value)) {
				printf(" %s=%s", key, json_string_value(value));
			} else {
				char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
				printf(" %s=%s", key, text ? text : "?");
				free(text);
			}
		}
		json_decref(entry);
		fputc('\n', stdout);
	}
}

int cmd_get(cli *c, int argc, char **argv)
{
	char *pos[1];
	int status, n = cli_parse(c, argc, argv, NULL, get_usage, pos, 1, &status);
	if (n < 0)
		return status;
	if (n < 1)
		return cli_usage_error(c, "needs a JID (see qless get --help)");
	qless_job *job;
	if ((status = fetch_job(c, pos[0], &job)) != 0)
		return status;
	if (c->json)
		json_print(json_parse(qless_job_json(job)));
	else
		print_job(c, job);
	qless_job_free(job);
	return 0;
}

/* ---- peek, pop ---- */

static const char peek_usage[] =
	"usage: qless peek QUEUE [COUNT]\n"
	"Shows the next COUNT (default 1) jobs QUEUE would hand out, without popping them.\n";
static const char pop_usage[] =
	"usage: qless [--worker NAME] pop QUEUE [COUNT]\n"
	"Pops up to COUNT (default 1) jobs from QUEUE for the worker (--worker, else\n"
	"<hostname>-<pid>), locking them; shows them as a table (or --json array).\n"
	"Nothing ready (or a paused queue) prints an empty table.\n";

static int peek_or_pop(cli *c, int argc, char **argv, int pop)
{
	char *pos[2];
	int status, n = cli_parse(c, argc, argv, NULL, pop ? pop_usage : peek_usage, pos, 2, &status);
	if (n < 0)
		return status;
	if (n < 1)
		return cli_usage_error(c, "needs a QUEUE (see qless %s --help)", c->cmd);
	int64_t count = 1;
	if (n > 1 && arg_int(c, "COUNT", pos[1], 1, INT32_MAX, &count))
		return EXIT_USAGE;
	if ((status = cli_connect(c)) != 0)
		return status;
	qless_queue *q = NULL;
	qless_joblist *list = NULL;
	if (qless_queue_new(&q, c->client, pos[0]) != QLESS_OK ||
	    (pop ? qless_queue_pop(&list, q, count) : qless_queue_peek(&list, q, count)) != QLESS_OK)
		status = cli_lib_error(c);
	else
		print_job_table(c, list);
	qless_joblist_free(list);
	qless_queue_free(q);
	return status;
}

int cmd_peek(cli *c, int argc, char **argv)
{
	return peek_or_pop(c, argc, argv, 0);
}

int cmd_pop(cli *c, int argc, char **argv)
{
	return peek_or_pop(c, argc, argv, 1);
}

/* ---- complete, fail, retry: by the worker holding the job ---- */

static const char complete_usage[] =
	"usage: qless [--worker NAME] complete JID [options]\n"
	"Completes the job, which must be running for the worker (--worker NAME, the\n"
	"name it was popped with). Prints the job's new state.\n"
	"  --next QUEUE      advance it to QUEUE instead of finishing it\n"
	"  --delay D         with --next: not before D (30s, 5m, 2h, 1d)\n"
	"  --depends j1,j2   with --next: wait for these jobs\n"
	"  --data JSON       replace the job's data\n";

static void print_state(cli *c, qless_job *job)
{
	if (c->json)
		json_print(json_pack("{s:s,s:s}", "jid", qless_job_jid(job), "state", qless_job_state(job)));
	else
		printf("%s\n", qless_job_state(job));
}

int cmd_complete(cli *c, int argc, char **argv)
{
	const char *next = NULL, *delay = NULL, *depends = NULL, *data = NULL;
	const cli_opt opts[] = {
		{ "next", OPT_STRING, &next, NULL }, { "delay", OPT_STRING, &delay, NULL },
		{ "depends", OPT_STRING, &depends, NULL }, { "data", OPT_STRING, &data, NULL }, { 0 },
	};
	char *pos[1];
	int status, n = cli_parse(c, argc, argv, opts, complete_usage, pos, 1, &status);
	if (n < 0)
		return status;
	if (n < 1)
		return cli_usage_error(c, "needs a JID (see qless complete --help)");
	qless_complete_options co = QLESS_COMPLETE_OPTIONS_INIT;
	if ((delay || depends) && next == NULL)
		return cli_usage_error(c, "--delay and --depends need --next");
	if (delay && arg_duration(c, "--delay", delay, &co.delay))
		return EXIT_USAGE;
	if (data && arg_json(c, "--data", data))
		return EXIT_USAGE;
	co.next = next;
	char **deps = NULL;
	if (depends) {
		deps = split_list(depends, &co.ndepends);
		co.depends = (const char *const *)deps;
	}
	qless_job *job = NULL;
	status = fetch_job(c, pos[0], &job);
	if (status == 0 && data && qless_job_set_data(job, data) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0 && qless_job_complete(job, &co) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0)
		print_state(c, job);
	qless_job_free(job);
	free_list(deps);
	return status;
}

static const char fail_usage[] =
	"usage: qless [--worker NAME] fail JID GROUP MESSAGE [--data JSON]\n"
	"Fails the job into failure GROUP with MESSAGE. The job must be running for\n"
	"the worker (--worker NAME, the name it was popped with).\n";

int cmd_fail(cli *c, int argc, char **argv)
{
	const char *data = NULL;
	const cli_opt opts[] = { { "data", OPT_STRING, &data, NULL }, { 0 } };
	char *pos[3];
	int status, n = cli_parse(c, argc, argv, opts, fail_usage, pos, 3, &status);
	if (n < 0)
		return status;
	if (n < 3)
		return cli_usage_error(c, "needs JID GROUP MESSAGE (see qless fail --help)");
	if (data && arg_json(c, "--data", data))
		return EXIT_USAGE;
	qless_job *job = NULL;
	status = fetch_job(c, pos[0], &job);
	if (status == 0 && data && qless_job_set_data(job, data) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0 && qless_job_fail(job, pos[1], pos[2]) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0)
		print_state(c, job);
	qless_job_free(job);
	return status;
}

static const char retry_usage[] =
	"usage: qless [--worker NAME] retry JID [--delay D] [--group G --message M]\n"
	"Gives the job back to its queue, using up one retry; prints the retries left\n"
	"(-1: that was the last one and the job failed). The job must be running for\n"
	"the worker (--worker NAME). --group/--message record them as the failure.\n";

int cmd_retry(cli *c, int argc, char **argv)
{
	const char *delay = NULL, *group = NULL, *message = NULL;
	const cli_opt opts[] = {
		{ "delay", OPT_STRING, &delay, NULL }, { "group", OPT_STRING, &group, NULL },
		{ "message", OPT_STRING, &message, NULL }, { 0 },
	};
	char *pos[1];
	int status, n = cli_parse(c, argc, argv, opts, retry_usage, pos, 1, &status);
	if (n < 0)
		return status;
	if (n < 1)
		return cli_usage_error(c, "needs a JID (see qless retry --help)");
	double d = 0;
	if (delay && arg_duration(c, "--delay", delay, &d))
		return EXIT_USAGE;
	if ((group == NULL) != (message == NULL))
		return cli_usage_error(c, "--group and --message go together");
	qless_job *job = NULL;
	int64_t remaining = 0;
	status = fetch_job(c, pos[0], &job);
	if (status == 0 && qless_job_retry(&remaining, job, d, group, message) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0) {
		if (c->json)
			json_print(json_pack("{s:s,s:I}", "jid", pos[0], "remaining", (json_int_t)remaining));
		else
			printf("%lld\n", (long long)remaining);
	}
	qless_job_free(job);
	return status;
}

/* ---- cancel, priority ---- */

static const char cancel_usage[] =
	"usage: qless cancel JID...\n"
	"Cancels the jobs (all of them or none: an unknown jid cancels nothing; a job\n"
	"others depend on can only be canceled together with its dependents).\n";

int cmd_cancel(cli *c, int argc, char **argv)
{
	char **pos = calloc((size_t)argc, sizeof *pos);
	if (pos == NULL)
		abort();
	int status, n = cli_parse(c, argc, argv, NULL, cancel_usage, pos, argc, &status);
	if (n == 0)
		status = cli_usage_error(c, "needs at least one JID (see qless cancel --help)");
	else if (n > 0 && (status = arg_words(c, "JID", pos, n)) != 0)
		n = -1;
	if (n <= 0) {
		free(pos);
		return status;
	}
	qless_joblist *found = NULL;
	status = cli_connect(c);
	if (status == 0 &&
	    qless_client_get_jobs(&found, c->client, (const char *const *)pos, (size_t)n) != QLESS_OK)
		status = cli_lib_error(c);
	/* Report the first unknown jid before touching anything. */
	for (int i = 0; status == 0 && i < n; i++) {
		int seen = 0;
		for (size_t k = 0; k < qless_joblist_size(found) && !seen; k++)
			seen = strcmp(qless_job_jid(qless_joblist_get(found, k)), pos[i]) == 0;
		if (!seen)
			status = cli_error(c, "no job %s", pos[i]);
	}
	if (status == 0 && qless_client_cancel(c->client, (const char *const *)pos, (size_t)n) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0) {
		if (c->json) {
			json_t *a = json_array();
			for (int i = 0; i < n; i++)
				json_array_append_new(a, json_string(pos[i]));
			json_print(json_pack("{s:o}", "canceled", a));
		} else {
			for (int i = 0; i < n; i++)
				printf("canceled %s\n", pos[i]);
		}
	}
	qless_joblist_free(found);
	free(pos);
	return status;
}

static const char priority_usage[] =
	"usage: qless priority JID N\n"
	"Sets the job's priority (higher pops first; may be negative).\n";

int cmd_priority(cli *c, int argc, char **argv)
{
	char *pos[2];
	int status, n = cli_parse(c, argc, argv, NULL, priority_usage, pos, 2, &status);
	if (n < 0)
		return status;
	if (n < 2)
		return cli_usage_error(c, "needs JID and N (see qless priority --help)");
	double p;
	if (arg_number(c, "N", pos[1], &p))
		return EXIT_USAGE;
	qless_job *job = NULL;
	status = fetch_job(c, pos[0], &job);
	if (status == 0 && qless_job_set_priority(job, p) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0) {
		if (c->json)
			json_print(json_pack("{s:s,s:f}", "jid", pos[0], "priority", qless_job_priority(job)));
		else
			printf("%g\n", qless_job_priority(job));
	}
	qless_job_free(job);
	return status;
}
