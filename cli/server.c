/*
 * server: the embedded redis-server libqless starts on demand (server.h);
 * start, stop and status of the one of $QLESS_HOME (or the default state
 * directory).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char server_usage[] =
	"usage: qless server start|stop|status\n"
	"The embedded server that qless uses when given no --url and no $QLESS_URL:\n"
	"a private redis-server on a unix socket in $QLESS_HOME (default\n"
	"$XDG_STATE_HOME/qless or ~/.local/state/qless), with its data kept on disk.\n"
	"  start    start it unless it runs; prints its URL\n"
	"  stop     stop it (its data is saved first)\n"
	"  status   running or not, pid and URL; exit 0 if running, 3 if not\n";

#define EXIT_NOT_RUNNING 3

static int print_status(cli *c)
{
	int running = 0;
	int64_t pid = 0;
	char *url = NULL;
	if (qless_server_status(&running, &pid, &url, NULL) != QLESS_OK)
		return cli_lib_error(c);
	if (c->json)
		json_print(json_pack("{s:b,s:I,s:s}", "running", running, "pid", (json_int_t)pid, "url", url ? url : ""));
	else if (running)
		printf("running  pid %lld  %s\n", (long long)pid, url ? url : "");
	else
		printf("not running  %s\n", url ? url : "");
	qless_free(url);
	return running ? 0 : EXIT_NOT_RUNNING;
}

int cmd_server(cli *c, int argc, char **argv)
{
	char *pos[1];
	int status, n = cli_parse(c, argc, argv, NULL, server_usage, pos, 1, &status);
	if (n < 0)
		return status;
	if (n != 1)
		return cli_usage_error(c, "needs start, stop or status (see qless server --help)");
	if (c->url != NULL)
		return cli_usage_error(c, "manages the embedded server only; --url does not apply");
	if (strcmp(pos[0], "status") == 0) {
		c->cmd = "server status";
		return print_status(c);
	}
	if (strcmp(pos[0], "start") == 0) {
		c->cmd = "server start";
		if (qless_server_start(NULL, NULL) != QLESS_OK)
			return cli_lib_error(c);
		status = print_status(c);
		return status == EXIT_NOT_RUNNING ? cli_error(c, "the server exited right after starting") : status;
	}
	if (strcmp(pos[0], "stop") == 0) {
		c->cmd = "server stop";
		if (qless_server_stop(NULL) != QLESS_OK)
			return cli_lib_error(c);
		status = print_status(c);
		return status == EXIT_NOT_RUNNING ? 0 : status == 0 ? cli_error(c, "the server still runs") : status;
	}
	return cli_usage_error(c, "unknown action '%s' (start, stop or status)", pos[0]);
}
