/*
 * Recurring jobs: recur add, get, update, next, remove.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char recur_usage[] =
	"usage: qless recur add QUEUE KLASS [DATA] --interval D | --cron EXPR [options]\n"
	"           put a job of KLASS with DATA (JSON) into QUEUE every D, or at the\n"
	"           fire times of a cron expression; prints its jid\n"
	"           --offset D (first one after D; not with --cron), --priority N,\n"
	"           --retries N (default 0), --backlog N (catch up at most N missed runs;\n"
	"           cron: up to 1000), --tags a,b, --jid JID, --unique (keep an identical\n"
	"           template that exists: the jid comes from the entry)\n"
	"       qless recur get JID\n"
	"           show a recurring job, with its next due time\n"
	"       qless recur next JID [N]\n"
	"           its next N (1-1000, default 5) due times, \"<ISO> (<epoch>)\" a line\n"
	"       qless recur update JID [--priority N] [--retries N] [--interval D | --cron EXPR]\n"
	"           [--backlog N] [--data JSON] [--klass K] [--queue Q] [--tag-add a,b]\n"
	"           [--tag-remove a,b]   change it (applies to jobs spawned afterwards)\n"
	"       qless recur remove JID\n"
	"           stop it (jobs already spawned are unaffected)\n"
	"Durations: 30s, 5m, 2h, 1d, 1h30m or seconds.\n";

/* 1 and *at when the template is due again (a finished cron one is not). */
static int next_due(const qless_recur *r, double *at)
{
	double *t = NULL;
	size_t n = 0;
	int found = qless_recur_next(&t, &n, (qless_recur *)r, 1) == QLESS_OK && n == 1;
	if (found)
		*at = t[0];
	qless_free(t);
	return found;
}

static json_t *recur_json(const qless_recur *r)
{
	json_t *tags = json_array();
	for (size_t i = 0; i < qless_recur_tag_count(r); i++)
		json_array_append_new(tags, json_string(qless_recur_tag(r, i)));
	const char *cron = qless_recur_cron(r);
	double next;
	return json_pack("{s:s,s:s,s:s,s:s,s:f,s:f,s:I,s:I,s:I,s:o,s:o,s:o}", "jid", qless_recur_jid(r), "klass",
	                 qless_recur_klass(r), "queue", qless_recur_queue(r), "data", qless_recur_data(r),
	                 "priority", qless_recur_priority(r), "interval", qless_recur_interval(r), "retries",
	                 (json_int_t)qless_recur_retries(r), "backlog", (json_int_t)qless_recur_backlog(r), "count",
	                 (json_int_t)qless_recur_count(r), "tags", tags, "cron", cron ? json_string(cron) : json_null(),
	                 "next", next_due(r, &next) ? json_real(next) : json_null());
}

static void print_recur(const qless_recur *r)
{
	char d[32], iso[QLESS_TIME_SIZE];
	double next;
	printf("%-10s %s\n", "jid", qless_recur_jid(r));
	printf("%-10s %s\n", "class", qless_recur_klass(r));
	printf("%-10s %s\n", "queue", qless_recur_queue(r));
	if (qless_recur_cron(r) != NULL)
		printf("%-10s %s\n", "cron", qless_recur_cron(r));
	else
		printf("%-10s every %s\n", "interval", duration_format(qless_recur_interval(r), d, sizeof d));
	if (next_due(r, &next) && qless_time_format(iso, next) == QLESS_OK)
		printf("%-10s %s (%.15g)\n", "next", iso, next);
	else
		printf("%-10s -\n", "next");
	printf("%-10s %g\n", "priority", qless_recur_priority(r));
	printf("%-10s %lld\n", "retries", (long long)qless_recur_retries(r));
	printf("%-10s %lld\n", "backlog", (long long)qless_recur_backlog(r));
	printf("%-10s %lld\n", "spawned", (long long)qless_recur_count(r));
	printf("%-10s ", "tags");
	if (qless_recur_tag_count(r) == 0)
		fputs("-", stdout);
	for (size_t i = 0; i < qless_recur_tag_count(r); i++)
		printf("%s%s", i ? ", " : "", qless_recur_tag(r, i));
	printf("\n%-10s %s\n", "data", qless_recur_data(r));
}

static int fetch_recur(cli *c, const char *jid, qless_recur **out)
{
	int status = cli_connect(c);
	if (status != 0)
		return status;
	if (qless_client_get_recur(out, c->client, jid) != QLESS_OK) {
		if (qless_error_last_code() == QLESS_ENOTFOUND)
			return cli_error(c, "no recurring job %s", jid);
		return cli_lib_error(c);
	}
	return 0;
}

struct recur_args {
	const char *interval, *offset, *priority, *retries, *backlog, *tags, *jid;
	const char *data, *klass, *queue, *tag_add, *tag_remove, *cron;
	int unique;
};

static int recur_add(cli *c, char **pos, int n, const struct recur_args *a)
{
	if (n < 3 || n > 4)
		return cli_usage_error(c, "needs QUEUE KLASS [DATA] (see qless recur --help)");
	if ((a->interval == NULL) == (a->cron == NULL))
		return cli_usage_error(c, a->cron ? "takes --interval or --cron, not both" : "needs --interval or --cron");
	if (a->cron && a->offset)
		return cli_usage_error(c, "--offset is for --interval (a cron expression gives the first time)");
	qless_recur_options ro = QLESS_RECUR_OPTIONS_INIT;
	double interval = 0;
	int64_t v;
	const char *data = n > 3 ? pos[3] : "{}";
	if (arg_json(c, "DATA", data) || (a->cron && arg_cron(c, a->cron)) ||
	    (a->interval && arg_duration(c, "--interval", a->interval, &interval)))
		return EXIT_USAGE;
	if (a->interval && interval <= 0)
		return cli_usage_error(c, "--interval must be positive");
	if (a->offset && arg_duration(c, "--offset", a->offset, &ro.offset))
		return EXIT_USAGE;
	if (a->priority && arg_number(c, "--priority", a->priority, &ro.priority))
		return EXIT_USAGE;
	if (a->retries) {
		if (arg_int(c, "--retries", a->retries, 0, INT32_MAX, &v))
			return EXIT_USAGE;
		ro.retries = (int)v;
	}
	if (a->backlog) {
		if (arg_int(c, "--backlog", a->backlog, 0, a->cron ? 1000 : INT32_MAX, &v))
			return EXIT_USAGE;
		ro.backlog = (int)v;
	}
	ro.jid = a->jid;
	ro.unique = a->unique;
	char **tags = NULL;
	if (a->tags) {
		tags = split_list(a->tags, &ro.ntags);
		ro.tags = (const char *const *)tags;
	}
	qless_queue *q = NULL;
	char *jid = NULL;
	int status = cli_connect(c);
	if (status == 0 && (qless_queue_new(&q, c->client, pos[1]) != QLESS_OK ||
	                    (a->cron ? qless_queue_recur_cron(&jid, q, pos[2], data, a->cron, &ro)
	                             : qless_queue_recur(&jid, q, pos[2], data, interval, &ro)) != QLESS_OK))
		status = cli_lib_error(c);
	if (status == 0) {
		if (c->json)
			json_print(json_pack("{s:s}", "jid", jid));
		else
			printf("%s\n", jid);
	}
	qless_free(jid);
	qless_queue_free(q);
	free_list(tags);
	return status;
}

static int recur_update(cli *c, const char *jid, const struct recur_args *a)
{
	double priority = 0, interval = 0;
	int64_t retries = 0, backlog = 0;
	if (a->offset || a->tags || a->jid || a->unique)
		return cli_usage_error(c, "update takes --priority, --retries, --interval, --cron, --backlog, --data, "
		                          "--klass, --queue, --tag-add, --tag-remove");
	if (a->interval && a->cron)
		return cli_usage_error(c, "takes --interval or --cron, not both");
	if (a->cron && arg_cron(c, a->cron))
		return EXIT_USAGE;
	if (a->priority && arg_number(c, "--priority", a->priority, &priority))
		return EXIT_USAGE;
	if (a->retries && arg_int(c, "--retries", a->retries, 0, INT32_MAX, &retries))
		return EXIT_USAGE;
	if (a->backlog && arg_int(c, "--backlog", a->backlog, 0, INT32_MAX, &backlog))
		return EXIT_USAGE;
	if (a->interval && arg_duration(c, "--interval", a->interval, &interval))
		return EXIT_USAGE;
	if (a->interval && interval <= 0)
		return cli_usage_error(c, "--interval must be positive");
	if (a->data && arg_json(c, "--data", a->data))
		return EXIT_USAGE;
	if ((a->klass && !*a->klass) || (a->queue && !*a->queue))
		return cli_usage_error(c, "%s is empty", a->klass && !*a->klass ? "--klass" : "--queue");
	qless_recur *r = NULL;
	int status = fetch_recur(c, jid, &r);
	if (status != 0)
		return status;
	/* One call per field: the data, which only the library checks fully
	 * (its nesting), goes first so that its refusal changes nothing. */
	int rc = QLESS_OK;
	if (a->data)
		rc = qless_recur_set_data(r, a->data);
	if (rc == QLESS_OK && a->priority)
		rc = qless_recur_set_priority(r, priority);
	if (rc == QLESS_OK && a->retries)
		rc = qless_recur_set_retries(r, retries);
	if (rc == QLESS_OK && a->backlog)
		rc = qless_recur_set_backlog(r, backlog);
	if (rc == QLESS_OK && a->interval)
		rc = qless_recur_set_interval(r, interval);
	if (rc == QLESS_OK && a->cron)
		rc = qless_recur_set_cron(r, a->cron);
	if (rc == QLESS_OK && a->klass)
		rc = qless_recur_set_klass(r, a->klass);
	if (rc == QLESS_OK && a->queue)
		rc = qless_recur_set_queue(r, a->queue);
	size_t nt;
	char **tags;
	if (rc == QLESS_OK && a->tag_add) {
		tags = split_list(a->tag_add, &nt);
		rc = qless_recur_tag_add(r, (const char *const *)tags, nt);
		free_list(tags);
	}
	if (rc == QLESS_OK && a->tag_remove) {
		tags = split_list(a->tag_remove, &nt);
		rc = qless_recur_tag_remove(r, (const char *const *)tags, nt);
		free_list(tags);
	}
	qless_recur_free(r);
	if (rc != QLESS_OK)
		return cli_lib_error(c);
	/* Show what is stored now. */
	if ((status = fetch_recur(c, jid, &r)) != 0)
		return status;
	if (c->json)
		json_print(recur_json(r));
	else
		print_recur(r);
	qless_recur_free(r);
	return 0;
}

static int recur_next(cli *c, char **pos, int n)
{
	int64_t count = 5;
	double *t = NULL;
	size_t nt = 0;
	qless_recur *r = NULL;
	int status;
	if (n == 3 && arg_int(c, "N", pos[2], 1, 1000, &count))
		return EXIT_USAGE;
	if ((status = fetch_recur(c, pos[1], &r)) != 0)
		return status;
	if (qless_recur_next(&t, &nt, r, count) != QLESS_OK)
		status = cli_lib_error(c);
	else
		status = print_times(c, t, nt);
	qless_free(t);
	qless_recur_free(r);
	return status;
}

int cmd_recur(cli *c, int argc, char **argv)
{
	struct recur_args a = { 0 };
	const cli_opt opts[] = {
		{ "interval", OPT_STRING, &a.interval, NULL }, { "offset", OPT_STRING, &a.offset, NULL },
		{ "priority", OPT_STRING, &a.priority, NULL }, { "retries", OPT_STRING, &a.retries, NULL },
		{ "backlog", OPT_STRING, &a.backlog, NULL }, { "tags", OPT_STRING, &a.tags, NULL },
		{ "jid", OPT_STRING, &a.jid, NULL }, { "data", OPT_STRING, &a.data, NULL },
		{ "klass", OPT_STRING, &a.klass, NULL }, { "queue", OPT_STRING, &a.queue, NULL },
		{ "tag-add", OPT_STRING, &a.tag_add, NULL }, { "tag-remove", OPT_STRING, &a.tag_remove, NULL },
		{ "cron", OPT_STRING, &a.cron, NULL }, { "unique", OPT_FLAG, NULL, &a.unique },
		{ 0 },
	};
	char *pos[5];
	int status, n = cli_parse(c, argc, argv, opts, recur_usage, pos, 5, &status);
	if (n < 0)
		return status;
	const char *sub = n > 0 ? pos[0] : "";
	if (strcmp(sub, "add") == 0) {
		c->cmd = "recur add";
		return recur_add(c, pos, n, &a);
	}
	if (strcmp(sub, "get") != 0 && strcmp(sub, "update") != 0 && strcmp(sub, "remove") != 0 &&
	    strcmp(sub, "next") != 0)
		return cli_usage_error(c, "needs add, get, update, next or remove (see qless recur --help)");
	c->cmd = sub[0] == 'g' ? "recur get" : sub[0] == 'u' ? "recur update" : sub[0] == 'n' ? "recur next"
	                                                                                    : "recur remove";
	if (n != 2 && !(sub[0] == 'n' && n == 3))
		return cli_usage_error(c, sub[0] == 'n' ? "needs JID [N]" : "needs one JID");
	int has_opts = a.interval || a.offset || a.priority || a.retries || a.backlog || a.tags || a.jid ||
	               a.data || a.klass || a.queue || a.tag_add || a.tag_remove || a.cron || a.unique;
	if (sub[0] == 'u')
		return recur_update(c, pos[1], &a);
	if (has_opts)
		return cli_usage_error(c, "takes no options");
	if (sub[0] == 'n')
		return recur_next(c, pos, n);
	qless_recur *r = NULL;
	if ((status = fetch_recur(c, pos[1], &r)) != 0)
		return status;
	if (sub[0] == 'g') {
		if (c->json)
			json_print(recur_json(r));
		else
			print_recur(r);
	} else if (qless_recur_cancel(r) != QLESS_OK) {
		status = cli_lib_error(c);
	} else if (c->json) {
		json_print(json_pack("{s:s}", "removed", pos[1]));
	} else {
		printf("removed %s\n", pos[1]);
	}
	qless_recur_free(r);
	return status;
}
