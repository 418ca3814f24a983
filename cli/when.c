/*
 * Schedule text without a server: `qless when` (English time text) and
 * `qless cron check` (cron syntax and its description), both over
 * libqless' qless/when.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char when_usage[] =
	"usage: qless when TEXT... [--from TIME] [--offline] [--day-first]\n"
	"  Reads English time text (\"7pm tomorrow\", \"in 5 minutes\", \"every monday 9am\")\n"
	"  and prints one of\n"
	"    at <ISO> (<epoch>)\n"
	"    every <seconds>s from <ISO>\n"
	"    cron <EXPR>\n"
	"  and after a cron result its next 3 fire times from --from on, \"<ISO>\n"
	"  (<epoch>)\" a line, from the server's cron.next (--url or QLESS_URL).\n"
	"  --from TIME   the time the text is read at: epoch seconds or ISO 8601\n"
	"                (default: now); times are UTC unless the text has an offset\n"
	"  --offline     no server: print no fire times\n"
	"  --day-first   read a/b/c dates as day/month/year (27/5/1979); without it\n"
	"                month/day/year (5/27/1979)\n"
	"  --json        {\"kind\",\"at\",\"interval\",\"cron\"}, for a cron result\n"
	"                with \"next\": [{\"at\",\"epoch\"}, ...] unless --offline\n"
	"  When the text was read in a way it may not mean (a weekday that is not\n"
	"  the date's: the date is used), a line \"qless: when: warning: <why>\" goes\n"
	"  to stderr, and --json has \"warning\": \"<why>\".\n";

static const char cron_usage[] =
	"usage: qless cron check EXPR...\n"
	"  Checks a cron expression (5 fields, 7 fields year first, or a macro such\n"
	"  as @daily) and prints it normalised, then its description; an invalid one\n"
	"  is a usage error naming the field and token.\n"
	"  --json        {\"cron\",\"description\"}\n"
	"       qless cron next EXPR [N] [--from TIME]\n"
	"  The next N (1-1000, default 5) fire times of EXPR (one argument: quote it)\n"
	"  from the server, \"<ISO> (<epoch>)\" a line; --from TIME (epoch seconds or\n"
	"  ISO 8601) instead of now.\n"
	"  --json        [{\"at\",\"epoch\"}, ...]\n";

/* The positionals pos[from..n) joined by single spaces (owned). */
static char *join(char **pos, int from, int n)
{
	size_t len = 1;
	for (int i = from; i < n; i++)
		len += strlen(pos[i]) + 1;
	char *s = malloc(len);
	if (s == NULL)
		abort();
	s[0] = '\0';
	for (int i = from; i < n; i++) {
		if (i > from)
			strcat(s, " ");
		strcat(s, pos[i]);
	}
	return s;
}

/* Seconds as short as they read: 1772737200, 0.5. */
static const char *seconds_text(double v, char *buf, size_t size)
{
	snprintf(buf, size, "%.6f", v);
	char *end = buf + strlen(buf);
	while (end[-1] == '0')
		*--end = '\0';
	if (end[-1] == '.')
		end[-1] = '\0';
	return buf;
}

static json_t *json_seconds(double v)
{
	if (v == (double)(json_int_t)v)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/* times: print a cron result's fire times t[0..nt) (0: --offline). */
static int print_when(cli *c, const qless_when *w, const char *warning, int times, const double *t, size_t nt)
{
	static const char *const kinds[] = { "", "at", "interval", "cron" };
	char iso[QLESS_TIME_SIZE] = "", num[64];
	int status;
	if (w->kind != QLESS_WHEN_CRON && qless_time_format(iso, w->at) != QLESS_OK)
		return cli_lib_error(c);
	if (warning[0] != '\0' && !c->json)
		fprintf(stderr, "qless: when: warning: %s\n", warning);
	if (c->json) {
		json_t *out = json_pack("{s:s,s:o,s:o,s:s}", "kind", kinds[w->kind], "at", json_seconds(w->at),
		                        "interval", json_seconds(w->interval), "cron", w->cron), *next;
		if (times) {
			if ((status = times_json(c, t, nt, &next)) != 0) {
				json_decref(out);
				return status;
			}
			json_object_set_new(out, "next", next);
		}
		if (warning[0] != '\0')
			json_object_set_new(out, "warning", json_string(warning));
		json_print(out);
	} else if (w->kind == QLESS_WHEN_AT) {
		printf("at %s (%s)\n", iso, seconds_text(w->at, num, sizeof num));
	} else if (w->kind == QLESS_WHEN_INTERVAL) {
		printf("every %ss from %s\n", seconds_text(w->interval, num, sizeof num), iso);
	} else {
		printf("cron %s\n", w->cron);
		if (times)
			return print_times(c, t, nt);
	}
	return 0;
}

int cmd_when(cli *c, int argc, char **argv)
{
	const char *from = NULL;
	int offline = 0, day_first = 0;
	const cli_opt opts[] = {
		{ "from", OPT_STRING, &from, NULL },
		{ "offline", OPT_FLAG, NULL, &offline },
		{ "day-first", OPT_FLAG, NULL, &day_first },
		{ NULL, OPT_FLAG, NULL, NULL },
	};
	char **pos;
	int status, n = cli_parse_all(c, argc, argv, opts, when_usage, &pos, &status);
	if (n < 0)
		return status;
	double now = cli_now(), *t = NULL;
	size_t nt = 0;
	qless_when w = QLESS_WHEN_INIT;
	char *text = join(pos, 0, n), warning[QLESS_WHEN_WARNING_SIZE] = "";
	w.flags = day_first ? QLESS_WHEN_DAY_FIRST : 0;
	free(pos);
	if (from != NULL && arg_time(c, "--from", from, &now))
		status = EXIT_USAGE;
	else if (n == 0)
		status = cli_usage_error(c, "needs TEXT (see qless when --help)");
	else if (qless_when_parse(&w, text, now) != QLESS_OK)
		status = cli_lib_error(c);
	else if (snprintf(warning, sizeof warning, "%s", qless_when_warning()) < 0)
		abort();
	else if (w.kind == QLESS_WHEN_CRON && !offline && (status = fire_times(c, w.cron, 3, &now, &t, &nt)) != 0)
		; /* reported */
	else
		status = print_when(c, &w, warning, w.kind == QLESS_WHEN_CRON && !offline, t, nt);
	qless_free(t);
	free(text);
	return status;
}

int cmd_cron(cli *c, int argc, char **argv)
{
	char **pos, *expr = NULL, *norm = NULL, *description = NULL;
	const char *from = NULL;
	const cli_opt opts[] = {
		{ "from", OPT_STRING, &from, NULL },
		{ NULL, OPT_FLAG, NULL, NULL },
	};
	int status, n = cli_parse_all(c, argc, argv, opts, cron_usage, &pos, &status);
	if (n < 0)
		return status;
	if (n > 0 && strcmp(pos[0], "next") == 0) {
		status = cron_next(c, pos, n, from);
		free(pos);
		return status;
	}
	if (n == 0 || strcmp(pos[0], "check") != 0) {
		free(pos);
		return cli_usage_error(c, "needs check or next (see qless cron --help)");
	}
	c->cmd = "cron check";
	if (from != NULL) {
		free(pos);
		return cli_usage_error(c, "takes no --from");
	}
	expr = join(pos, 1, n);
	free(pos);
	status = 0;
	if (n == 1)
		status = cli_usage_error(c, "needs EXPR (see qless cron --help)");
	else if (qless_cron_check(&norm, expr) != QLESS_OK || qless_cron_describe(&description, expr) != QLESS_OK)
		status = cli_lib_error(c);
	else if (c->json)
		json_print(json_pack("{s:s,s:s}", "cron", norm, "description", description));
	else
		printf("%s\n%s\n", norm, description);
	qless_free(norm);
	qless_free(description);
	free(expr);
	return status;
}
