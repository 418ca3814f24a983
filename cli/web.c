/*
 * `qless web` (the dashboard, web/) and `qless metrics` (the same text as
 * its /metrics).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "web.h"

static const char web_usage[] =
	"usage: qless web [--listen ADDR:PORT] [--read-only] [--auth-file FILE]\n"
	"       qless web hash-password < password\n"
	"       qless web reindex [--batch N]\n"
	"\n"
	"Serves the dashboard, its JSON API (/api/...) and /metrics until interrupted.\n"
	"  --listen ADDR:PORT  where to listen (default 127.0.0.1:5678; port 0: any free one).\n"
	"                      An address other than loopback needs --auth-file.\n"
	"  --read-only         refuse every change (403)\n"
	"  --auth-file FILE    users, one `user:role:hash` a line (role read or admin);\n"
	"                      make a hash with `qless web hash-password`\n"
	"reindex adds the jobs put before the search index existed to it (search by\n"
	"class and jid prefix), N jobs per protocol call (default 1000, up to 5000).\n"
	"See docs/web.md (the server, its API) and docs/web-pages.md (the pages).\n";

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

/* search.reindex from the start until its cursor comes back false, one
 * progress line per call (a long walk shows it is moving). */
static int reindex(cli *c, int argc, char **argv)
{
	const char *batch = "1000";
	int status = 0;
	cli_opt opts[] = { { "batch", OPT_STRING, &batch, NULL }, { NULL, 0, NULL, NULL } };
	char *pos[1];
	if (cli_parse(c, argc, argv, opts, web_usage, pos, 0, &status) < 0)
		return status;
	if ((status = cli_connect(c)) != 0)
		return status;
	char *cursor = strdup("");
	long long looked = 0, added = 0;
	for (;;) {
		const char *args[2] = { cursor, batch };
		char *text = NULL;
		if (qless_client_call(&text, c->client, "search.reindex", args, 2) != QLESS_OK) {
			free(cursor);
			return cli_lib_error(c);
		}
		json_t *rep = json_loads(text ? text : "", 0, NULL);
		qless_free(text);
		json_t *next = json_object_get(rep, "next");
		if (!json_is_object(rep) || !(json_is_string(next) || json_is_false(next))) {
			json_decref(rep);
			free(cursor);
			return cli_error(c, "search.reindex: unexpected reply");
		}
		looked += json_integer_value(json_object_get(rep, "looked"));
		added += json_integer_value(json_object_get(rep, "added"));
		free(cursor);
		cursor = json_is_string(next) ? strdup(json_string_value(next)) : NULL;
		if (cursor != NULL)
			printf("reindex: %lld jobs looked at, %lld added; at %s\n", looked, added,
			       json_string_value(json_object_get(rep, "at")) ? json_string_value(json_object_get(rep, "at")) : "?");
		json_decref(rep);
		fflush(stdout);
		if (cursor == NULL)
			break;
	}
	printf("reindex: done: %lld jobs looked at, %lld added to the search index\n", looked, added);
	return 0;
}

int cmd_web(cli *c, int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "hash-password") == 0) {
		c->cmd = "web hash-password";
		return hash_password(c);
	}
	if (argc >= 2 && strcmp(argv[1], "reindex") == 0) {
		c->cmd = "web reindex";
		return reindex(c, argc - 1, argv + 1);
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
