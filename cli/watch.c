/*
 * watch: a live tail of qless events until interrupted (or --count N).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char watch_usage[] =
	"usage: qless watch [CHANNEL...] [--count N]\n"
	"Prints events as they happen (time, channel, message) until interrupted, or\n"
	"after N messages. Channels (default: log): log, put, popped, completed,\n"
	"failed, stalled, canceled, track, untrack, w:<worker>, and ch:<channel> for a\n"
	"job-tree channel and the channels below it (ch:/qless/log: tree events such\n"
	"as status changes). The job channels carry only tracked jobs. --json: one\n"
	"JSON object a line.\n";

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

int cmd_watch(cli *c, int argc, char **argv)
{
	const char *count = NULL;
	const cli_opt opts[] = { { "count", OPT_STRING, &count, NULL }, { 0 } };
	char **pos = calloc((size_t)argc + 1, sizeof *pos);
	if (pos == NULL)
		abort();
	int status, n = cli_parse(c, argc, argv, opts, watch_usage, pos, argc, &status);
	int64_t max = 0;
	if (n >= 0 && count && (status = arg_int(c, "--count", count, 1, INT64_MAX, &max)) != 0)
		n = -1;
	if (n > 0 && (status = arg_words(c, "CHANNEL", pos, n)) != 0)
		n = -1;
	for (int i = 0; n > 0 && i < n; i++)
		if (strncmp(pos[i], "ch:", 3) == 0 && (status = arg_channel(c, "CHANNEL", pos[i] + 3)) != 0)
			n = -1;
	if (n < 0) {
		free(pos);
		return status;
	}
	if (n == 0)
		pos[n++] = "log";
	/* Handlers first: a signal that arrives once the subscription is visible
	 * (which is what a supervisor may wait for) must stop the watch cleanly. */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	qless_events *ev = NULL;
	if ((status = cli_connect(c)) == 0 &&
	    qless_events_new(&ev, c->client, (const char *const *)pos, (size_t)n) != QLESS_OK)
		status = cli_lib_error(c);
	free(pos);
	if (status != 0)
		return status;

	int64_t seen = 0;
	while (!interrupted && (max == 0 || seen < max)) {
		char *channel = NULL, *message = NULL;
		if (qless_events_next(&channel, &message, ev, 250) != QLESS_OK) {
			if (!interrupted)
				status = cli_lib_error(c);
			break;
		}
		if (channel == NULL)
			continue;
		double now = qless_client_now(c->client);
		if (c->json) {
			json_print(json_pack("{s:f,s:s,s:o}", "time", now, "channel", channel, "message",
			                     json_parse(message)));
		} else {
			char when[16];
			time_t t = (time_t)now;
			struct tm tm;
			localtime_r(&t, &tm);
			strftime(when, sizeof when, "%H:%M:%S", &tm);
			printf("%s  %-10s %s\n", when, channel, message);
		}
		fflush(stdout);
		qless_free(channel);
		qless_free(message);
		seen++;
	}
	qless_events_free(ev);
	return status;
}
