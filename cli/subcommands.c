/*
 * Commands made of subcommands (qless schedule add, qless tree get, ...):
 * the dispatch on the first word and the help that lists every subcommand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f, const char *group, const cli_sub *subs, size_t nsubs)
{
	fprintf(f, "usage: qless %s SUBCOMMAND ...\n", group);
	for (size_t i = 0; i < nsubs; i++)
		if (subs[i].usage != NULL)   /* NULL: told by an earlier row's lines */
			fputs(subs[i].usage, f);
}

int cli_subcommand(cli *c, int argc, char **argv, const cli_sub *subs, size_t nsubs, const cli_sub *fallback)
{
	const char *group = c->cmd;
	int i = 1;
	/* Global options may come before the subcommand as well. */
	while (i < argc && strncmp(argv[i], "--", 2) == 0) {
		if (strcmp(argv[i], "--help") == 0) {
			usage(stdout, group, subs, nsubs);
			return 0;
		}
		int n = cli_global_option(c, argc, argv, i);
		if (n < 0)
			return cli_usage_error(c, "%s needs a value", argv[i]);
		if (n == 0)
			return cli_usage_error(c, "unknown option %s (see qless %s --help)", argv[i], group);
		i += n;
	}
	if (i >= argc)
		return cli_usage_error(c, "needs a subcommand (see qless %s --help)", group);
	for (size_t k = 0; k < nsubs; k++)
		if (strcmp(argv[i], subs[k].name) == 0) {
			c->cmd = subs[k].cmd;
			return subs[k].fn(c, argc - i, argv + i);
		}
	if (fallback == NULL)
		return cli_usage_error(c, "unknown subcommand '%s' (see qless %s --help)", argv[i], group);
	/* The word is the fallback's first argument (qless tree JID). */
	c->cmd = fallback->cmd;
	return fallback->fn(c, argc - i + 1, argv + i - 1);
}

/* The name of the i-th word of a synopsis like "JID DIR PORT [VALUE...]":
 * words past the end are named by the last one. */
static void word_name(const char *synopsis, int i, char *out, size_t size)
{
	const char *p = synopsis, *start = p;
	size_t len = 0;
	for (int k = 0; *p != '\0' && k <= i; k++) {
		while (*p == ' ')
			p++;
		start = p;
		while (*p != '\0' && *p != ' ')
			p++;
		len = (size_t)(p - start);
	}
	while (len > 0 && (*start == '['))
		start++, len--;
	while (len > 0 && (start[len - 1] == ']' || start[len - 1] == '.'))
		len--;
	snprintf(out, size, "%.*s", (int)len, start);
}

int cli_words(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage, const char *synopsis, int min,
              int max, char ***pos, int *status)
{
	*status = 0;
	int n = cli_parse_all(c, argc, argv, opts, usage, pos, status);
	if (n < 0)
		return -1;
	if (n < min || (max >= 0 && n > max)) {
		*status = cli_usage_error(c, "needs %s (see qless %s --help)", synopsis, c->cmd);
		n = -1;
	}
	for (int i = 0; i < n; i++)
		if ((*pos)[i][0] == '\0') {
			char name[64];
			word_name(synopsis, i, name, sizeof name);
			*status = cli_usage_error(c, "%s is empty", name);
			n = -1;
		}
	if (n < 0) {
		free(*pos);
		*pos = NULL;
	}
	return n;
}

int cli_counted(cli *c, int argc, char **argv, const char *usage, const char *synopsis, int min, const char *key,
                cli_count_fn fn)
{
	char **pos;
	int64_t count = 0;
	int status, n = cli_words(c, argc, argv, NULL, usage, synopsis, min, -1, &pos, &status);
	if (n < 0)
		return status;
	if ((status = cli_connect(c)) == 0 && fn(c->client, pos, n, &count) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0)
		print_count(c, strncmp(synopsis, "JID ", 4) == 0 ? pos[0] : NULL, key, count);
	free(pos);
	return status;
}
