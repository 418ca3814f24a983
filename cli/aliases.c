/*
 * qless alias: global names of tree jobs (set, get, del).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char set_usage[] =
	"       qless alias set JID ALIAS...\n"
	"           give the job these aliases (one alias names one job); prints how\n"
	"           many it did not have\n";
static const char get_usage[] =
	"       qless alias get ALIAS\n"
	"           the jid the alias names (exit 1 when none)\n";
static const char del_usage[] =
	"       qless alias del ALIAS...\n"
	"           remove aliases; prints how many existed\n";

static int set_call(qless_client *client, char **words, int n, int64_t *added)
{
	return qless_client_alias_set(added, client, words[0], (const char *const *)words + 1, (size_t)n - 1);
}

static int alias_set(cli *c, int argc, char **argv)
{
	return cli_counted(c, argc, argv, set_usage, "JID ALIAS...", 2, "added", set_call);
}

static int alias_get(cli *c, int argc, char **argv)
{
	char **pos, *jid = NULL;
	int status;
	if (cli_words(c, argc, argv, NULL, get_usage, "ALIAS", 1, 1, &pos, &status) < 0)
		return status;
	if ((status = cli_connect(c)) == 0 && qless_client_alias_get(&jid, c->client, pos[0]) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0 && jid == NULL)
		status = cli_error(c, "no alias %s", pos[0]);
	if (status == 0 && c->json)
		json_print(json_pack("{s:s,s:s}", "alias", pos[0], "jid", jid));
	else if (status == 0)
		printf("%s\n", jid);
	qless_free(jid);
	free(pos);
	return status;
}

static int del_call(qless_client *client, char **words, int n, int64_t *removed)
{
	return qless_client_alias_del(removed, client, (const char *const *)words, (size_t)n);
}

static int alias_del(cli *c, int argc, char **argv)
{
	return cli_counted(c, argc, argv, del_usage, "ALIAS...", 1, "removed", del_call);
}

static const cli_sub subs[] = {
	{ "set", alias_set, "alias set", set_usage },
	{ "get", alias_get, "alias get", get_usage },
	{ "del", alias_del, "alias del", del_usage },
};

int cmd_alias(cli *c, int argc, char **argv)
{
	return cli_subcommand(c, argc, argv, subs, sizeof subs / sizeof subs[0], NULL);
}
