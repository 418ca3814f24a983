/*
 * Option parsing of subcommands: their own --options and the global ones,
 * anywhere among the positionals; "--" ends the options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_opt *find(const cli_opt *opts, const char *name, size_t len)
{
	for (; opts != NULL && opts->name != NULL; opts++)
		if (strlen(opts->name) == len && strncmp(opts->name, name, len) == 0)
			return opts;
	return NULL;
}

int cli_parse(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage,
              char **pos, int maxpos, int *status)
{
	int npos = 0, only_pos = 0;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (!only_pos && strcmp(a, "--") == 0) {
			only_pos = 1;
			continue;
		}
		if (!only_pos && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
			fputs(usage, stdout);
			*status = 0;
			return -1;
		}
		if (!only_pos && strncmp(a, "--", 2) == 0) {
			int n = cli_global_option(c, argc, argv, i);
			if (n < 0) {
				*status = cli_usage_error(c, "%s needs a value", a);
				return -1;
			}
			if (n > 0) {
				i += n - 1;
				continue;
			}
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			const cli_opt *o = find(opts, name, len);
			if (o == NULL) {
				*status = cli_usage_error(c, "unknown option --%.*s (see qless %s --help)",
				                          (int)len, name, c->cmd);
				return -1;
			}
			if (o->kind == OPT_FLAG) {
				if (eq != NULL) {
					*status = cli_usage_error(c, "--%s takes no value", o->name);
					return -1;
				}
				*o->flag = 1;
				continue;
			}
			const char *val = eq != NULL ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
			if (val == NULL) {
				*status = cli_usage_error(c, "--%s needs a value", o->name);
				return -1;
			}
			/* A list has room for argc values, so it cannot overflow. */
			if (o->kind == OPT_LIST)
				o->value[(*o->flag)++] = val;
			else
				*o->value = val;
			continue;
		}
		if (npos >= maxpos) {
			*status = cli_usage_error(c, "unexpected argument '%s' (see qless %s --help)", a, c->cmd);
			return -1;
		}
		pos[npos++] = a;
	}
	return npos;
}

int cli_parse_all(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage,
                  char ***pos, int *status)
{
	*pos = calloc((size_t)argc + 1, sizeof **pos);
	if (*pos == NULL)
		abort();
	int n = cli_parse(c, argc, argv, opts, usage, *pos, argc, status);
	if (n < 0)
		free(*pos);
	return n;
}
