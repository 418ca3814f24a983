/*
 * `qless web` (the dashboard, web/) and `qless metrics` (the same text as
 * its /metrics).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "web.h"

static const char web_usage[] =
	"usage: qless web [--listen ADDR:PORT] [--read-only] [--auth-file FILE]\n"
	"       qless web hash-password < password\n"
	"\n"
	"Serves the dashboard, its JSON API (/api/...) and /metrics until interrupted.\n"
	"  --listen ADDR:PORT  where to listen (default 127.0.0.1:5678; port 0: any free one).\n"
	"                      An address other than loopback needs --auth-file.\n"
	"  --read-only         refuse every change (403)\n"
	"  --auth-file FILE    users, one `user:role:hash` a line (role read or admin);\n"
	"                      make a hash with `qless web hash-password`\n"
	"See docs/web.md.\n";

static int hash_password(cli *c)
{
	char line[1024];
	if (isatty(STDIN_FILENO))
		fprintf(stderr, "password: ");
	if (fgets(line, sizeof line, stdin) == NULL)
		return cli_usage_error(c, "no password on standard input");
	line[strcspn(line, "\r\n")] = '\0';
	char *hash = NULL, err[256] = "";
	int rc = web_hash_password(&hash, line, err, sizeof err);
	explicit_bzero(line, sizeof line);
	if (rc != 0)
		return cli_usage_error(c, "%s", err);
	printf("%s\n", hash);
	free(hash);
	return 0;
}

int cmd_web(cli *c, int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "hash-password") == 0) {
		c->cmd = "web hash-password";
		return hash_password(c);
	}
	const char *listen_at = NULL, *auth_file = NULL;
	int read_only = 0, status = 0;
	cli_opt opts[] = {
		{ "listen", OPT_STRING, &listen_at, NULL },
		{ "auth-file", OPT_STRING, &auth_file, NULL },
		{ "read-only", OPT_FLAG, NULL, &read_only },
		{ NULL, 0, NULL, NULL },
	};
	char *pos[1];
	if (cli_parse(c, argc, argv, opts, web_usage, pos, 0, &status) < 0)
		return status;
	web_options o = { 0 };
	o.url = c->url;
	o.listen = listen_at;
	o.read_only = read_only;
	o.auth_file = auth_file;
	o.log = stdout;
	char err[512] = "";
	int rc = web_serve(&o, err, sizeof err);
	if (rc == 2)
		return cli_usage_error(c, "%s", err);
	if (rc != 0)
		return cli_error(c, "%s", err);
	return 0;
}

static const char metrics_usage[] =
	"usage: qless metrics\n"
	"\n"
	"Prints the Prometheus text of the dashboard's /metrics (see docs/web.md).\n";

int cmd_metrics(cli *c, int argc, char **argv)
{
	int status = 0;
	cli_opt opts[] = { { NULL, 0, NULL, NULL } };
	char *pos[1];
	if (cli_parse(c, argc, argv, opts, metrics_usage, pos, 0, &status) < 0)
		return status;
	if ((status = cli_connect(c)) != 0)
		return status;
	char *text = NULL;
	if (web_metrics_text(&text, NULL, c->client) != QLESS_OK)
		return cli_lib_error(c);
	fputs(text, stdout);
	free(text);
	return 0;
}
