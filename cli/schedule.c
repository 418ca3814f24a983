/*
 * qless schedule: the subcommands on a schedule (a queue seen as WorkKit's
 * schedule). Each subcommand is a row of the table below, in a file of its
 * own (schedule_entries.c, schedule_listen.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct subcommand {
	const char *name;
	cli_fn fn;
	const char *cmd;        /* the name in messages */
	const char *usage;
} subcommands[] = {
	{ "add", schedule_add, "schedule add", schedule_add_usage },
	{ "list", schedule_list, "schedule list", schedule_list_usage },
	{ "remove", schedule_remove, "schedule remove", schedule_remove_usage },
	{ "listen", schedule_listen, "schedule listen", schedule_listen_usage },
};
#define NSUB (sizeof subcommands / sizeof subcommands[0])

int schedule_one_queue(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage_text, char **queue,
                       int *status)
{
	char *pos[1];
	int n = cli_parse(c, argc, argv, opts, usage_text, pos, 1, status);
	if (n < 0)
		return 0;
	if (n != 1) {
		*status = cli_usage_error(c, "needs one QUEUE (see qless schedule --help)");
		return 0;
	}
	if (arg_words(c, "QUEUE", pos, 1)) {
		*status = EXIT_USAGE;
		return 0;
	}
	*queue = pos[0];   /* an argv string */
	return 1;
}

static void usage(FILE *f)
{
	fputs("usage: qless schedule SUBCOMMAND ...\n", f);
	for (size_t i = 0; i < NSUB; i++)
		fputs(subcommands[i].usage, f);
}

int cmd_schedule(cli *c, int argc, char **argv)
{
	int i = 1;
	/* Global options may come before the subcommand as well. */
	while (i < argc && strncmp(argv[i], "--", 2) == 0) {
		if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		}
		int n = cli_global_option(c, argc, argv, i);
		if (n < 0)
			return cli_usage_error(c, "%s needs a value", argv[i]);
		if (n == 0)
			return cli_usage_error(c, "unknown option %s (see qless schedule --help)", argv[i]);
		i += n;
	}
	if (i >= argc)
		return cli_usage_error(c, "needs a subcommand (see qless schedule --help)");
	for (size_t k = 0; k < NSUB; k++)
		if (strcmp(argv[i], subcommands[k].name) == 0) {
			c->cmd = subcommands[k].cmd;
			return subcommands[k].fn(c, argc - i, argv + i);
		}
	return cli_usage_error(c, "unknown subcommand '%s' (see qless schedule --help)", argv[i]);
}
