/*
 * qless tree and qless job: a tree job's life from outside (terminate,
 * delete, run, suspend). Both commands name the same subcommands, so
 * `qless tree terminate` and `qless job terminate` are one function.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char terminate_usage[] =
	"       qless tree|job terminate JID [--recursive]\n"
	"           terminate the job (a started one waits for its shutdown run), with\n"
	"           --recursive its descendants too; prints how many jobs changed\n";
static const char delete_usage[] =
	"       qless tree|job delete JID\n"
	"           delete a terminated job and its descendants (all must be\n"
	"           terminated); prints how many were deleted\n";
static const char run_usage[] =
	"       qless tree|job run JID [--delay D]\n"
	"           run a suspended, complete, failed or terminated job again (a running\n"
	"           one runs once more after this run); prints the resulting state\n";
static const char suspend_usage[] =
	"       qless [--worker NAME] job suspend JID\n"
	"           suspend a job the worker holds until input arrives (or job run);\n"
	"           prints suspended, or waiting when input came during its run\n";

/* The one JID of a subcommand: 1 with *jid (an argv string), or 0 and
 * *status to return. Connects only after every check of the caller. */
static int one_jid(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage, char **jid, int *status)
{
	char **pos;
	if (cli_words(c, argc, argv, opts, usage, "JID", 1, 1, &pos, status) < 0)
		return 0;
	*jid = pos[0];
	free(pos);
	return 1;
}

static int print_job_state(cli *c, const char *jid, const char *state)
{
	if (c->json)
		json_print(json_pack("{s:s,s:s}", "jid", jid, "state", state));
	else
		printf("%s\n", state);
	return 0;
}

static int tree_terminate(cli *c, int argc, char **argv)
{
	int recursive = 0, status;
	const cli_opt opts[] = { { "recursive", OPT_FLAG, NULL, &recursive }, { 0 } };
	char *jid;
	int64_t changed = 0;
	if (!one_jid(c, argc, argv, opts, terminate_usage, &jid, &status) || (status = cli_connect(c)) != 0)
		return status;
	if (qless_client_job_terminate(&changed, c->client, jid, recursive) != QLESS_OK)
		return cli_lib_error(c);
	return print_count(c, jid, "changed", changed);
}

static int tree_delete(cli *c, int argc, char **argv)
{
	char *jid;
	int status;
	int64_t deleted = 0;
	if (!one_jid(c, argc, argv, NULL, delete_usage, &jid, &status) || (status = cli_connect(c)) != 0)
		return status;
	if (qless_client_job_delete(&deleted, c->client, jid) != QLESS_OK)
		return cli_lib_error(c);
	return print_count(c, jid, "deleted", deleted);
}

static int tree_run(cli *c, int argc, char **argv)
{
	const char *delay = NULL;
	const cli_opt opts[] = { { "delay", OPT_STRING, &delay, NULL }, { 0 } };
	char *jid, *state = NULL;
	int status;
	double d = 0;
	if (!one_jid(c, argc, argv, opts, run_usage, &jid, &status))
		return status;
	if (delay && arg_duration(c, "--delay", delay, &d))
		return EXIT_USAGE;
	if ((status = cli_connect(c)) != 0)
		return status;
	if (qless_client_job_run(&state, c->client, jid, d) != QLESS_OK)
		return cli_lib_error(c);
	status = print_job_state(c, jid, state);
	qless_free(state);
	return status;
}

static int job_suspend(cli *c, int argc, char **argv)
{
	char *jid;
	int status, requeued = 0;
	qless_job *job = NULL;
	if (!one_jid(c, argc, argv, NULL, suspend_usage, &jid, &status))
		return status;
	if ((status = fetch_job(c, jid, &job)) != 0)
		return status;
	if (qless_job_suspend(&requeued, job) != QLESS_OK)
		status = cli_lib_error(c);
	else
		status = print_job_state(c, jid, requeued ? "waiting" : "suspended");
	qless_job_free(job);
	return status;
}

static const cli_sub tree_subs[] = {
	{ "get", tree_get, "tree get", tree_get_usage },
	{ "terminate", tree_terminate, "tree terminate", terminate_usage },
	{ "delete", tree_delete, "tree delete", delete_usage },
	{ "run", tree_run, "tree run", run_usage },
};
static const cli_sub job_subs[] = {
	{ "suspend", job_suspend, "job suspend", suspend_usage },
	{ "run", tree_run, "job run", run_usage },
	{ "terminate", tree_terminate, "job terminate", terminate_usage },
	{ "delete", tree_delete, "job delete", delete_usage },
};

int cmd_tree(cli *c, int argc, char **argv)
{
	return cli_subcommand(c, argc, argv, tree_subs, sizeof tree_subs / sizeof tree_subs[0], &tree_subs[0]);
}

int cmd_job(cli *c, int argc, char **argv)
{
	return cli_subcommand(c, argc, argv, job_subs, sizeof job_subs / sizeof job_subs[0], NULL);
}
