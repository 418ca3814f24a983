/*
 * qless state: a tree job's private JSON state (get, set, del), readable
 * and repairable from outside the worker that runs the job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char get_usage[] =
	"       qless state get JID [KEY]\n"
	"           the value of KEY as stored (exit 1 when unset), or every key:\n"
	"           KEY VALUE a line (--json: the object)\n";
static const char set_usage[] =
	"       qless state set JID KEY JSON [KEY JSON]...\n"
	"           set keys to JSON values; prints how many were set\n";
static const char del_usage[] =
	"       qless state del JID KEY...\n"
	"           remove keys; prints how many were removed\n";

static int state_get(cli *c, int argc, char **argv)
{
	char **pos, *text = NULL;
	int status, n = cli_words(c, argc, argv, NULL, get_usage, "JID [KEY]", 1, 2, &pos, &status);
	if (n < 0)
		return status;
	const char *key = n > 1 ? pos[1] : NULL;
	if ((status = cli_connect(c)) == 0 && qless_state_get(&text, c->client, pos[0], key) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0 && text == NULL)
		status = cli_error(c, "job %s has no state %s", pos[0], key);
	if (status == 0 && (key != NULL || c->json))
		puts(text);
	else if (status == 0)
		print_object_table(text, "KEY", "VALUE");
	qless_free(text);
	free(pos);
	return status;
}

static int state_set(cli *c, int argc, char **argv)
{
	char **pos;
	int status, n = cli_words(c, argc, argv, NULL, set_usage, "JID KEY JSON [KEY JSON...]", 3, -1, &pos, &status);
	if (n < 0)
		return status;
	if (n % 2 == 0)
		status = cli_usage_error(c, "KEY '%.64s' has no value", pos[n - 1]);
	/* One call per pair: every key and value is checked first, so that no
	 * refusal can come after a pair was written. */
	for (int i = 1; status == 0 && i < n; i += 2) {
		char what[96];
		snprintf(what, sizeof what, "the value of '%.64s'", pos[i]);
		if (strlen(pos[i]) > 200)
			status = cli_usage_error(c, "KEY '%.64s...' is longer than 200 bytes", pos[i]);
		else
			status = arg_json(c, what, pos[i + 1]);
	}
	if (status == 0)
		status = cli_connect(c);
	for (int i = 1; status == 0 && i < n; i += 2)
		if (qless_state_set(c->client, pos[0], pos[i], pos[i + 1]) != QLESS_OK)
			status = cli_lib_error(c);
	if (status == 0)
		print_count(c, pos[0], "set", (n - 1) / 2);
	free(pos);
	return status;
}

static int del_call(qless_client *client, char **words, int n, int64_t *removed)
{
	return qless_state_del(removed, client, words[0], (const char *const *)words + 1, (size_t)n - 1);
}

static int state_del(cli *c, int argc, char **argv)
{
	return cli_counted(c, argc, argv, del_usage, "JID KEY...", 2, "removed", del_call);
}

static const cli_sub subs[] = {
	{ "get", state_get, "state get", get_usage },
	{ "set", state_set, "state set", set_usage },
	{ "del", state_del, "state del", del_usage },
};

int cmd_state(cli *c, int argc, char **argv)
{
	return cli_subcommand(c, argc, argv, subs, sizeof subs / sizeof subs[0], NULL);
}
