/*
 * qless port: a tree job's input and output ports (read, peek, write,
 * size) and their channel links (connect, disconnect).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char read_usage[] =
	"       qless port read|peek JID in|out PORT [--count N]\n"
	"           take (peek: look at) up to N (1-1000, default 1) values, oldest\n"
	"           first, one a line as stored; --json: the array\n";
static const char write_usage[] =
	"       qless port write JID in|out PORT VALUE...\n"
	"           write JSON values: an input port wakes a suspended or complete job,\n"
	"           an output port with channels publishes them; prints how many\n";
static const char size_usage[] =
	"       qless port size JID in|out PORT\n"
	"           the number of unread values\n";
static const char connect_usage[] =
	"       qless port connect|disconnect JID in|out PORT CHANNEL...\n"
	"           subscribe an input port to channels (it receives what is published\n"
	"           there and below), or have an output port publish to them; prints\n"
	"           how many links were added (removed)\n";

/* A port subcommand's words: JID DIR PORT, then the rest. */
typedef struct port_args {
	char **pos;           /* owned (free); the strings are argv's */
	int n;
	qless_port_dir dir;
} port_args;

static int port_words(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage, const char *synopsis,
                      int min, int max, port_args *a)
{
	int status;
	if ((a->n = cli_words(c, argc, argv, opts, usage, synopsis, min, max, &a->pos, &status)) < 0)
		return status;
	if ((status = arg_dir(c, a->pos[1], &a->dir)) != 0) {
		free(a->pos);
		return status;
	}
	return 0;
}

static int port_read_or_peek(cli *c, int argc, char **argv, int peek)
{
	const char *count = NULL;
	const cli_opt opts[] = { { "count", OPT_STRING, &count, NULL }, { 0 } };
	port_args a;
	int64_t n = 1;
	char *values = NULL;
	int status = port_words(c, argc, argv, opts, read_usage, "JID in|out PORT", 3, 3, &a);
	if (status != 0)
		return status;
	if ((count == NULL || (status = arg_int(c, "--count", count, 1, 1000, &n)) == 0) &&
	    (status = cli_connect(c)) == 0 &&
	    (peek ? qless_port_peek(&values, c->client, a.pos[0], a.dir, a.pos[2], n)
	          : qless_port_read(&values, c->client, a.pos[0], a.dir, a.pos[2], n)) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0 && c->json)
		puts(values);
	else if (status == 0)
		print_json_items(values);
	qless_free(values);
	free(a.pos);
	return status;
}

static int port_read(cli *c, int argc, char **argv)
{
	return port_read_or_peek(c, argc, argv, 0);
}

static int port_peek(cli *c, int argc, char **argv)
{
	return port_read_or_peek(c, argc, argv, 1);
}

static int port_write(cli *c, int argc, char **argv)
{
	port_args a;
	int status = port_words(c, argc, argv, NULL, write_usage, "JID in|out PORT VALUE...", 4, -1, &a);
	if (status != 0)
		return status;
	/* Every value is checked before the one call that writes them all. */
	for (int i = 3; status == 0 && i < a.n; i++) {
		char what[32];
		snprintf(what, sizeof what, "VALUE %d", i - 2);
		status = arg_json(c, what, a.pos[i]);
	}
	if (status == 0 && (status = cli_connect(c)) == 0 &&
	    qless_port_write(c->client, a.pos[0], a.dir, a.pos[2], (const char *const *)a.pos + 3, (size_t)a.n - 3) !=
	            QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0)
		print_count(c, a.pos[0], "written", a.n - 3);
	free(a.pos);
	return status;
}

static int port_size(cli *c, int argc, char **argv)
{
	port_args a;
	int64_t size = 0;
	int status = port_words(c, argc, argv, NULL, size_usage, "JID in|out PORT", 3, 3, &a);
	if (status != 0)
		return status;
	if ((status = cli_connect(c)) == 0 && qless_port_size(&size, c->client, a.pos[0], a.dir, a.pos[2]) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0)
		print_count(c, a.pos[0], "size", size);
	free(a.pos);
	return status;
}

static int port_link(cli *c, int argc, char **argv, int connect)
{
	port_args a;
	int64_t changed = 0;
	int status = port_words(c, argc, argv, NULL, connect_usage, "JID in|out PORT CHANNEL...", 4, -1, &a);
	if (status != 0)
		return status;
	for (int i = 3; status == 0 && i < a.n; i++)
		status = arg_channel(c, "CHANNEL", a.pos[i]);
	const char *const *channels = (const char *const *)a.pos + 3;
	size_t n = (size_t)a.n - 3;
	if (status == 0 && (status = cli_connect(c)) == 0 &&
	    (connect ? qless_port_connect(&changed, c->client, a.pos[0], a.dir, a.pos[2], channels, n)
	             : qless_port_disconnect(&changed, c->client, a.pos[0], a.dir, a.pos[2], channels, n)) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0)
		print_count(c, a.pos[0], connect ? "added" : "removed", changed);
	free(a.pos);
	return status;
}

static int port_connect(cli *c, int argc, char **argv)
{
	return port_link(c, argc, argv, 1);
}

static int port_disconnect(cli *c, int argc, char **argv)
{
	return port_link(c, argc, argv, 0);
}

static const cli_sub subs[] = {
	{ "read", port_read, "port read", read_usage },
	{ "peek", port_peek, "port peek", NULL },
	{ "write", port_write, "port write", write_usage },
	{ "size", port_size, "port size", size_usage },
	{ "connect", port_connect, "port connect", connect_usage },
	{ "disconnect", port_disconnect, "port disconnect", NULL },
};

int cmd_port(cli *c, int argc, char **argv)
{
	return cli_subcommand(c, argc, argv, subs, sizeof subs / sizeof subs[0], NULL);
}
