/*
 * qless schedule add, list and remove: a schedule's entries through the
 * libqless facade (qless_schedule_add_*, _list, _remove).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char schedule_add_usage[] =
	"       qless schedule add QUEUE KLASS [DATA] --at TEXT | --in D | --cron EXPR |\n"
	"           --every TEXT | --now   add an entry; prints its jid\n"
	"           --at \"7pm tomorrow\" (more than a minute in the past is refused:\n"
	"           --now runs at once),\n"
	"           --in 5m or --in \"5 minutes\", --cron \"0 9 * * 1-5\",\n"
	"           --every \"monday 9am\" or --every 15m (read as \"every ...\")\n"
	"           --unique (default: an identical pending entry is not added again)\n"
	"           or --no-unique, --key KEY (the entry's identity), --jid JID,\n"
	"           --priority N, --retries N, --tags a,b, --backlog N (templates),\n"
	"           --day-first (27/5/1979 is day/month/year in --at, --in, --every)\n"
	"           --json {\"jid\",\"inserted\",\"kind\",\"next\"}; when an identical entry\n"
	"           was pending nothing is added: its jid is printed, \"already scheduled\n"
	"           for <ISO>\" on stderr, \"inserted\":false and its \"next\" with --json;\n"
	"           a text read in a way it may not mean (a weekday that is not the\n"
	"           date's: the date is used) is added, with \"qless: schedule add:\n"
	"           warning: <why>\" on stderr (--json: \"warning\")\n";
const char schedule_list_usage[] =
	"       qless schedule list QUEUE\n"
	"           its pending entries: templates, then scheduled jobs, with the next\n"
	"           run and a description (--json: the entries as the library gives them)\n";
const char schedule_remove_usage[] =
	"       qless schedule remove QUEUE JID...\n"
	"           remove templates or scheduled jobs; exit 1 naming the first JID\n"
	"           that was not an entry (the others are removed all the same)\n";

/* What an add asks for, checked before anything is sent. */
typedef struct entry {
	const char *kind;           /* "at", "interval" or "cron" */
	qless_when when;            /* at (AT), interval and first (INTERVAL) or cron (CRON) */
	int now;                    /* --now */
	char warning[QLESS_WHEN_WARNING_SIZE]; /* the text's (qless_when_warning), "" */
} entry;

/* text read for flag as the library reads it (qless_when_read): "in " or
 * "every " go before text unless it starts with them, and --at and --in
 * refuse recurring text, --every one-off text; columns count in text. */
static int read_when(cli *c, const char *flag, const char *text, qless_when_read_as as, double now, entry *e)
{
	static const char READ[] = "qless_when_read: ";
	if (qless_when_read(&e->when, text, as, now) != QLESS_OK) {
		const char *m = qless_error_last_message();
		return cli_usage_error(c, "%s: %s%s", flag, strncmp(m, READ, sizeof READ - 1) == 0 ? m + sizeof READ - 1 : m,
		                       as == QLESS_WHEN_READ_EVERY ? "" : e->when.kind > QLESS_WHEN_AT ? "; use --every or --cron" : "");
	}
	e->kind = e->when.kind == QLESS_WHEN_AT ? "at" : e->when.kind == QLESS_WHEN_CRON ? "cron" : "interval";
	snprintf(e->warning, sizeof e->warning, "%s", qless_when_warning());
	return 0;
}

/* The one of --at, --in, --cron, --every, --now that was given. */
static int read_entry(cli *c, const char *at, const char *in, const char *cron, const char *every, int now_flag,
                      entry *e)
{
	double now = cli_now(), seconds;
	int given = (at != NULL) + (in != NULL) + (cron != NULL) + (every != NULL) + (now_flag != 0);

	if (given != 1)
		return cli_usage_error(c, given ? "takes one of --at, --in, --cron, --every, --now"
		                                : "needs --at, --in, --cron, --every or --now");
	e->when.kind = QLESS_WHEN_AT;
	e->when.at = now;
	e->kind = "at";
	e->now = now_flag;
	if (at != NULL) {
		/* a past time is the library's to refuse (qless_schedule_add_at) */
		return read_when(c, "--at", at, QLESS_WHEN_READ_AT, now, e);
	}
	if (in != NULL && duration_parse(in, &seconds) == 0) {
		e->when.at = now + seconds;
		return 0;
	}
	if (in != NULL)
		return read_when(c, "--in", in, QLESS_WHEN_READ_IN, now, e);
	if (cron != NULL) {
		e->kind = "cron";
		e->when.kind = QLESS_WHEN_CRON;
		return arg_cron(c, cron);
	}
	if (every != NULL) {
		if (duration_parse(every, &seconds) == 0 && seconds > 0) {
			e->kind = "interval";
			e->when.kind = QLESS_WHEN_INTERVAL;
			e->when.interval = seconds;
			e->when.at = 0;
			return 0;
		}
		return read_when(c, "--every", every, QLESS_WHEN_READ_EVERY, now, e);
	}
	return 0;
}

static int add_entry(qless_schedule *s, const entry *e, const char *cron, char **jid, int *inserted,
                     const char *klass, const char *data, const qless_schedule_options *o)
{
	if (e->now)
		return qless_schedule_add_now(jid, inserted, s, klass, data, o);
	if (cron != NULL)
		return qless_schedule_add_cron(jid, inserted, s, cron, klass, data, o);
	if (e->when.kind == QLESS_WHEN_CRON)
		return qless_schedule_add_cron(jid, inserted, s, e->when.cron, klass, data, o);
	if (e->when.kind == QLESS_WHEN_INTERVAL)
		return qless_schedule_add_every(jid, inserted, s, e->when.interval, e->when.at, klass, data, o);
	return qless_schedule_add_at(jid, inserted, s, e->when.at, klass, data, o);
}

/* The run time of job jid as the schedule lists it; null when it is not
 * listed (no longer waits for a time). */
static json_t *listed_next(qless_schedule *s, const char *jid)
{
	char *text = NULL;
	json_t *list, *e, *v = NULL;
	size_t i;
	if (qless_schedule_list(&text, s) != QLESS_OK)
		return json_null();
	list = json_parse(text);
	qless_free(text);
	json_array_foreach(list, i, e) {
		const char *id = json_string_value(json_object_get(e, "jid"));
		if (id != NULL && strcmp(id, jid) == 0 && json_is_number(json_object_get(e, "next")))
			v = json_incref(json_object_get(e, "next"));
	}
	json_decref(list);
	return v != NULL ? v : json_null();
}

/* The entry's next run: a template's from the server; a job's as asked when
 * it was added, else the time the identical entry already had (the add
 * changed nothing). */
static json_t *next_json(cli *c, qless_schedule *s, const entry *e, const char *jid, int inserted)
{
	qless_recur *r = NULL;
	double *t = NULL;
	size_t n = 0;
	json_t *v;
	if (strcmp(e->kind, "at") == 0)
		return inserted ? json_real(e->when.at) : listed_next(s, jid);
	if (qless_client_get_recur(&r, c->client, jid) != QLESS_OK || qless_recur_next(&t, &n, r, 1) != QLESS_OK)
		n = 0;
	v = n == 1 ? json_real(t[0]) : json_null();
	qless_free(t);
	qless_recur_free(r);
	return v;
}

/* Says on stderr that an identical entry was pending, so the add did
 * nothing, and when it runs (stdout keeps only the jid, for scripts). */
static void not_added(cli *c, qless_schedule *s, const entry *e, const char *jid)
{
	json_t *next = next_json(c, s, e, jid, 0);
	char iso[QLESS_TIME_SIZE];
	qless_job *job = NULL;
	if (json_is_number(next) && qless_time_format(iso, json_number_value(next)) == QLESS_OK) {
		fprintf(stderr, "qless: schedule add: already scheduled for %s (%.15g): nothing added\n", iso,
		        json_number_value(next));
	} else if (strcmp(e->kind, "at") == 0 && qless_client_get_job(&job, c->client, jid) == QLESS_OK) {
		fprintf(stderr, "qless: schedule add: already %s: nothing added\n", qless_job_state(job));
	} else {
		fprintf(stderr, "qless: schedule add: already scheduled: nothing added\n");
	}
	qless_job_free(job);
	json_decref(next);
}

int schedule_add(cli *c, int argc, char **argv)
{
	const char *at = NULL, *in = NULL, *cron = NULL, *every = NULL, *key = NULL, *jid_opt = NULL;
	const char *priority = NULL, *retries = NULL, *tags = NULL, *backlog = NULL;
	int now_flag = 0, unique = 0, no_unique = 0, inserted = 0, day_first = 0;
	const cli_opt opts[] = {
		{ "at", OPT_STRING, &at, NULL }, { "in", OPT_STRING, &in, NULL }, { "cron", OPT_STRING, &cron, NULL },
		{ "every", OPT_STRING, &every, NULL }, { "now", OPT_FLAG, NULL, &now_flag },
		{ "unique", OPT_FLAG, NULL, &unique }, { "no-unique", OPT_FLAG, NULL, &no_unique },
		{ "key", OPT_STRING, &key, NULL }, { "jid", OPT_STRING, &jid_opt, NULL },
		{ "priority", OPT_STRING, &priority, NULL }, { "retries", OPT_STRING, &retries, NULL },
		{ "tags", OPT_STRING, &tags, NULL }, { "backlog", OPT_STRING, &backlog, NULL },
		{ "day-first", OPT_FLAG, NULL, &day_first }, { 0 },
	};
	char *pos[3];
	int status, n = cli_parse(c, argc, argv, opts, schedule_add_usage, pos, 3, &status);
	if (n < 0)
		return status;
	if (n < 2)
		return cli_usage_error(c, "needs QUEUE KLASS [DATA] (see qless schedule --help)");
	qless_schedule_options o = QLESS_SCHEDULE_OPTIONS_INIT;
	const char *data = n > 2 ? pos[2] : "{}";
	entry e = { NULL, QLESS_WHEN_INIT, 0, "" };
	int64_t v;
	if (arg_words(c, "QUEUE and KLASS", pos, 2) || arg_json(c, "DATA", data))
		return EXIT_USAGE;
	e.when.flags = day_first ? QLESS_WHEN_DAY_FIRST : 0;
	if ((status = read_entry(c, at, in, cron, every, now_flag, &e)) != 0)
		return status;
	if (unique && no_unique)
		return cli_usage_error(c, "takes --unique or --no-unique, not both");
	if (key && (no_unique || !*key))
		return cli_usage_error(c, no_unique ? "--key needs --unique" : "--key is empty");
	if (jid_opt && arg_words(c, "--jid", (char *const *)&jid_opt, 1))
		return EXIT_USAGE;
	if (backlog && strcmp(e.kind, "at") == 0)
		return cli_usage_error(c, "--backlog is for --cron and --every");
	if (priority && arg_number(c, "--priority", priority, &o.priority))
		return EXIT_USAGE;
	o.has_priority = priority != NULL;
	if (retries) {
		if (arg_int(c, "--retries", retries, 0, INT32_MAX, &v))
			return EXIT_USAGE;
		o.retries = (int)v;
	}
	if (backlog) {
		if (arg_int(c, "--backlog", backlog, 0, strcmp(e.kind, "cron") == 0 ? 1000 : INT32_MAX, &v))
			return EXIT_USAGE;
		o.backlog = (int)v;
	}
	o.unique = !no_unique;
	o.key = key;
	o.jid = jid_opt;
	char **tag_list = tags ? split_list(tags, &o.ntags) : NULL;
	o.tags = (const char *const *)tag_list;
	qless_schedule *s = NULL;
	char *jid = NULL;
	if ((status = cli_connect(c)) == 0 &&
	    (qless_schedule_new(&s, c->client, pos[0]) != QLESS_OK ||
	     add_entry(s, &e, cron, &jid, &inserted, pos[1], data, &o) != QLESS_OK))
		status = cli_lib_error(c);
	if (status == 0 && c->json) {
		json_t *out = json_pack("{s:s,s:b,s:s,s:o}", "jid", jid, "inserted", inserted, "kind", e.kind, "next",
		                        next_json(c, s, &e, jid, inserted));
		if (out != NULL && e.warning[0] != '\0')
			json_object_set_new(out, "warning", json_string(e.warning));
		json_print(out);
	} else if (status == 0) {
		if (e.warning[0] != '\0')
			fprintf(stderr, "qless: schedule add: warning: %s\n", e.warning);
		printf("%s\n", jid);
		if (!inserted)
			not_added(c, s, &e, jid);
	}
	qless_free(jid);
	qless_schedule_free(s);
	free_list(tag_list);
	return status;
}

/* The table's schedule, next and description cells of one entry. */
static void entry_cells(const json_t *e, char *sched, size_t size, char *next, char **description)
{
	const char *kind = json_string_value(json_object_get(e, "kind"));
	const char *cron = json_string_value(json_object_get(e, "cron"));
	double at = json_number_value(json_object_get(e, "next"));
	char d[32];
	*description = NULL;
	if (qless_time_format(next, at) != QLESS_OK)
		snprintf(next, QLESS_TIME_SIZE, "%.15g", at);
	if (kind && strcmp(kind, "cron") == 0 && cron) {
		snprintf(sched, size, "cron %s", cron);
		if (qless_cron_describe(description, cron) != QLESS_OK)
			*description = NULL;
	} else if (kind && strcmp(kind, "interval") == 0) {
		duration_format(json_number_value(json_object_get(e, "interval")), d, sizeof d);
		snprintf(sched, size, "every %s", d);
		*description = malloc(strlen(d) + 7);
		if (*description)
			sprintf(*description, "every %s", d);
	} else {
		snprintf(sched, size, "at %s", next);
		*description = malloc(5);
		if (*description)
			strcpy(*description, "once");
	}
}

int schedule_list(cli *c, int argc, char **argv)
{
	static const char *const headers[] = { "JID", "KLASS", "SCHEDULE", "NEXT", "DESCRIPTION", NULL };
	char *queue = NULL, *text = NULL;
	int status;
	if (!schedule_one_queue(c, argc, argv, NULL, schedule_list_usage, &queue, &status))
		return status;
	qless_schedule *s = NULL;
	if ((status = cli_connect(c)) == 0 &&
	    (qless_schedule_new(&s, c->client, queue) != QLESS_OK || qless_schedule_list(&text, s) != QLESS_OK))
		status = cli_lib_error(c);
	qless_schedule_free(s);
	if (status != 0)
		return status;
	json_t *list = json_parse(text), *e;
	size_t i;
	qless_free(text);
	if (c->json) {
		json_print(list);
		return 0;
	}
	table *t = table_new(headers);
	json_array_foreach(list, i, e) {
		char sched[320], next[QLESS_TIME_SIZE], *description;
		entry_cells(e, sched, sizeof sched, next, &description);
		table_row(t, json_string_value(json_object_get(e, "jid")), json_string_value(json_object_get(e, "klass")),
		          sched, next, or_dash(description));
		free(description);
	}
	table_print(t);
	json_decref(list);
	return 0;
}

int schedule_remove(cli *c, int argc, char **argv)
{
	char **pos;
	int status, n = cli_parse_all(c, argc, argv, NULL, schedule_remove_usage, &pos, &status);
	if (n < 0)
		return status;
	if (n < 2 || arg_words(c, "QUEUE and JID", pos, n)) {
		free(pos);
		return n < 2 ? cli_usage_error(c, "needs QUEUE JID... (see qless schedule --help)") : EXIT_USAGE;
	}
	qless_schedule *s = NULL;
	json_t *removed = json_array(), *missing = json_array();
	if ((status = cli_connect(c)) == 0 && qless_schedule_new(&s, c->client, pos[0]) != QLESS_OK)
		status = cli_lib_error(c);
	for (int i = 1; status == 0 && i < n; i++) {
		int gone = 0;
		if (qless_schedule_remove(&gone, s, pos[i]) != QLESS_OK)
			status = cli_lib_error(c);
		else
			json_array_append_new(gone ? removed : missing, json_string(pos[i]));
	}
	/* An error prints nothing on stdout: its line says what was removed. */
	if (status == 0 && json_array_size(missing) > 0) {
		status = cli_error(c, "not an entry of %s: %s%s (removed %zu of %d)", pos[0],
		                   json_string_value(json_array_get(missing, 0)),
		                   json_array_size(missing) > 1 ? " and others" : "", json_array_size(removed), n - 1);
	} else if (status == 0 && c->json) {
		json_print(json_pack("{s:O}", "removed", removed));
	} else if (status == 0) {
		size_t i;
		json_t *v;
		json_array_foreach(removed, i, v)
			printf("removed %s\n", json_string_value(v));
	}
	json_decref(removed);
	json_decref(missing);
	qless_schedule_free(s);
	free(pos);
	return status;
}
