/*
 * qless channel: publishing to a job-tree channel (every input port
 * subscribed to it or to a channel above it gets the value) and listing a
 * channel's subscribers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char publish_usage[] =
	"       qless channel publish CHANNEL JSON [--from JID]\n"
	"           deliver the value to every input port subscribed to CHANNEL or a\n"
	"           channel above it (/a/b: /a/b, /a, /), in one call; --from names\n"
	"           the publisher in the log; prints how many ports got it\n";
static const char subscribers_usage[] =
	"       qless channel subscribers CHANNEL\n"
	"           the input ports subscribed to exactly CHANNEL: JID PORT a line\n";

static int channel_publish(cli *c, int argc, char **argv)
{
	const char *from = NULL;
	const cli_opt opts[] = { { "from", OPT_STRING, &from, NULL }, { 0 } };
	char **pos;
	int status;
	int64_t delivered = 0;
	if (cli_words(c, argc, argv, opts, publish_usage, "CHANNEL JSON", 2, 2, &pos, &status) < 0)
		return status;
	if ((status = arg_channel(c, "CHANNEL", pos[0])) == 0 && (status = arg_json(c, "JSON", pos[1])) == 0 &&
	    from != NULL && *from == '\0')
		status = cli_usage_error(c, "--from is empty");
	if (status == 0 && (status = cli_connect(c)) == 0 &&
	    qless_channel_publish(&delivered, c->client, pos[0], pos[1], from) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0)
		print_count(c, NULL, "delivered", delivered);
	free(pos);
	return status;
}

static int channel_subscribers(cli *c, int argc, char **argv)
{
	char **pos, *text = NULL;
	int status;
	if (cli_words(c, argc, argv, NULL, subscribers_usage, "CHANNEL", 1, 1, &pos, &status) < 0)
		return status;
	if ((status = arg_channel(c, "CHANNEL", pos[0])) == 0 && (status = cli_connect(c)) == 0 &&
	    qless_channel_subscribers(&text, c->client, pos[0]) != QLESS_OK)
		status = cli_lib_error(c);
	free(pos);
	if (status != 0)
		return status;
	json_t *list = json_parse(text), *pair;
	qless_free(text);
	if (c->json) {
		json_print(list);
		return 0;
	}
	static const char *const headers[] = { "JID", "PORT", NULL };
	table *t = table_new(headers);
	size_t i;
	json_array_foreach(list, i, pair)
		table_row(t, json_string_value(json_array_get(pair, 0)), json_string_value(json_array_get(pair, 1)));
	table_print(t);
	json_decref(list);
	return 0;
}

static const cli_sub subs[] = {
	{ "publish", channel_publish, "channel publish", publish_usage },
	{ "subscribers", channel_subscribers, "channel subscribers", subscribers_usage },
};

int cmd_channel(cli *c, int argc, char **argv)
{
	return cli_subcommand(c, argc, argv, subs, sizeof subs / sizeof subs[0], NULL);
}
