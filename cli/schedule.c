/*
 * qless schedule: the subcommands on a schedule (a queue seen as WorkKit's
 * schedule). Each subcommand is a row of the table below, in a file of its
 * own (schedule_entries.c, schedule_listen.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const cli_sub subcommands[] = {
	{ "add", schedule_add, "schedule add", schedule_add_usage },
	{ "list", schedule_list, "schedule list", schedule_list_usage },
	{ "remove", schedule_remove, "schedule remove", schedule_remove_usage },
	{ "listen", schedule_listen, "schedule listen", schedule_listen_usage },
};

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

int cmd_schedule(cli *c, int argc, char **argv)
{
	return cli_subcommand(c, argc, argv, subcommands, sizeof subcommands / sizeof subcommands[0], NULL);
}
