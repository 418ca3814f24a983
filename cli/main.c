/*
 * qless: the command line of libqless. Global options, the table of
 * subcommands and the dispatch to them.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct command {
	const char *name;
	cli_fn fn;
	const char *summary;
} commands[] = {
	{ "put", cmd_put, "put a job into a queue, print its jid" },
	{ "get", cmd_get, "show a job" },
	{ "peek", cmd_peek, "show the next jobs of a queue without popping them" },
	{ "pop", cmd_pop, "pop jobs from a queue as the worker" },
	{ "complete", cmd_complete, "complete (or advance) a job the worker holds" },
	{ "fail", cmd_fail, "fail a job the worker holds" },
	{ "retry", cmd_retry, "give a job the worker holds back to its queue" },
	{ "cancel", cmd_cancel, "cancel jobs" },
	{ "priority", cmd_priority, "set a job's priority" },
	{ "tag", cmd_tag, "add/remove a job's tags, list jobs by tag, top tags" },
	{ "track", cmd_track, "list tracked jobs, track or untrack a job" },
	{ "depends", cmd_depends, "change the dependencies of a waiting job" },
	{ "queues", cmd_queues, "table of the queues and their job counts" },
	{ "jobs", cmd_jobs, "jids by state (complete, running, stalled, ...)" },
	{ "failed", cmd_failed, "failure groups, or the jobs failed in a group" },
	{ "unfail", cmd_unfail, "move failed jobs of a group back into a queue" },
	{ "stats", cmd_stats, "a queue's daily statistics with histograms" },
	{ "workers", cmd_workers, "workers and the jobs they hold" },
	{ "config", cmd_config, "show, get, set or unset configuration" },
	{ "recur", cmd_recur, "recurring jobs: add, get, update, remove" },
	{ "pause", cmd_pause, "pause queues (pop returns nothing)" },
	{ "unpause", cmd_unpause, "unpause queues" },
	{ "watch", cmd_watch, "tail events live (default channel: log)" },
	{ "server", cmd_server, "the embedded server: start, stop, status" },
	{ "when", cmd_when, "read English time text: a time, an interval or a cron expression" },
	{ "cron", cmd_cron, "check a cron expression and describe it, or list its next fire times" },
	{ "schedule", cmd_schedule, "schedules: add, list and remove entries; listen (run each job with a shell command)" },
	{ "tree", cmd_tree, "draw a job tree; terminate, delete or run a tree job" },
	{ "job", cmd_job, "a tree job: suspend, run, terminate, delete" },
	{ "port", cmd_port, "a tree job's ports: read, peek, write, size, connect, disconnect" },
	{ "channel", cmd_channel, "job-tree channels: publish, subscribers" },
	{ "state", cmd_state, "a tree job's state: get, set, del" },
	{ "alias", cmd_alias, "global names of tree jobs: set, get, del" },
	{ "klass", cmd_klass, "a queue's registered job classes (their ports): register, list, unregister" },
	{ "web", cmd_web, "serve the dashboard, its JSON API and /metrics (see docs/web.md)" },
	{ "metrics", cmd_metrics, "print the Prometheus metrics of /metrics" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: qless [--url URL] [--namespace NAME] [--json] [--worker NAME] COMMAND [ARGS...]\n"
	        "\n"
	        "Operate a qless job queue. Without --url (and without $QLESS_URL) qless uses\n"
	        "the embedded server, started on demand (see `qless server`).\n"
	        "\n"
	        "Global options (also accepted after the command):\n"
	        "  --url URL       redis://[[user]:pass@]host[:port][/db] or unix:///path.sock[?db=N];\n"
	        "                  rediss://... for TLS (?ca=FILE&cert=FILE&key=FILE, see docs/tls.md)\n"
	        "                  (a password in --url shows in the process list: set QLESS_URL instead)\n"
	        "  --namespace NAME  work in namespace NAME (keys {NAME}:ql:..., docs/cluster.md;\n"
	        "                  also the URL's ?namespace=NAME)\n"
	        "  --json          machine-readable output (one JSON value)\n"
	        "  --worker NAME   act as this worker (pop, complete, fail, retry)\n"
	        "  --help          this help; `qless COMMAND --help` for a command\n"
	        "  --version       print the version\n"
	        "\n"
	        "Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
	        "\n"
	        "Durations: 30s, 5m, 2h, 1d, 1h30m or plain seconds.\n"
	        "Exit status: 0 success, 1 runtime error, 2 usage error (nothing changed).\n");
}

/* "--name=value" or "--name value" for a global option; returns the number
 * of arguments consumed (0: not a global option, -1: missing value). */
int cli_global_option(cli *c, int argc, char **argv, int i)
{
	const char *a = argv[i];
	if (strcmp(a, "--json") == 0) {
		c->json = 1;
		return 1;
	}
	const char **dst = NULL;
	size_t len = 0;
	if (strncmp(a, "--url", 5) == 0 && (a[5] == '\0' || a[5] == '=')) {
		dst = &c->url;
		len = 5;
	} else if (strncmp(a, "--worker", 8) == 0 && (a[8] == '\0' || a[8] == '=')) {
		dst = &c->worker;
		len = 8;
	} else if (strncmp(a, "--namespace", 11) == 0 && (a[11] == '\0' || a[11] == '=')) {
		dst = &c->ns;
		len = 11;
	} else {
		return 0;
	}
	if (a[len] == '=') {
		*dst = a + len + 1;
		return 1;
	}
	if (i + 1 >= argc)
		return -1;
	*dst = argv[i + 1];
	return 2;
}

/* The protocol's text is UTF-8 (the library refuses anything else): all
 * arguments are checked here, before a subcommand makes its first call,
 * so a bad one late on a command line cannot follow calls already made.
 * jansson's string check is the validator. */
static int check_utf8(cli *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		json_t *s = json_string(argv[i]);
		if (s != NULL) {
			json_decref(s);
			continue;
		}
		if (i > 1 && strncmp(argv[i - 1], "--", 2) == 0 && strchr(argv[i - 1], '=') == NULL)
			return cli_usage_error(c, "the value of %s is not valid UTF-8 text", argv[i - 1]);
		return cli_usage_error(c, "argument %d is not valid UTF-8 text", i);
	}
	return 0;
}

int main(int argc, char **argv)
{
	cli c = { 0 };
	c.cmd = "qless";
	int i = 1;
	while (i < argc && strncmp(argv[i], "-", 1) == 0) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		}
		if (strcmp(a, "--version") == 0) {
			printf("qless %s (libqless %s)\n", QLESS_VERSION, qless_version());
			return 0;
		}
		int n = cli_global_option(&c, argc, argv, i);
		if (n < 0) {
			fprintf(stderr, "qless: %s needs a value\n", a);
			return EXIT_USAGE;
		}
		if (n == 0) {
			fprintf(stderr, "qless: unknown option %s (see qless --help)\n", a);
			return EXIT_USAGE;
		}
		i += n;
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[i], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (size_t k = 0; k < NCOMMANDS; k++) {
		if (strcmp(argv[i], commands[k].name) != 0)
			continue;
		c.cmd = commands[k].name;
		int status = check_utf8(&c, argc, argv);
		if (status == 0)
			status = commands[k].fn(&c, argc - i, argv + i);
		if (c.client != NULL)
			qless_client_free(c.client);
		return status;
	}
	fprintf(stderr, "qless: unknown command '%s' (see qless --help)\n", argv[i]);
	return EXIT_USAGE;
}
