/*
 * Shared declarations of the `qless` command-line program: the run context,
 * option parsing, error reporting, output helpers, tables and durations.
 */
#ifndef QLESS_CLI_H
#define QLESS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <qless/qless.h>

/* Exit statuses. */
#define EXIT_RUNTIME 1   /* the operation failed (server, unknown job, ...) */
#define EXIT_USAGE 2     /* bad flags, bad duration, bad JSON: nothing was sent */

/* The run context: global options and the (lazily made) client. */
typedef struct cli {
	const char *url;      /* --url, else NULL: $QLESS_URL or the embedded server */
	const char *worker;   /* --worker, else NULL: the client's default name */
	const char *ns;       /* --namespace, else NULL: the URL's namespace= or none */
	int json;             /* --json */
	const char *cmd;      /* subcommand name for messages ("tag add") */
	qless_client *client;
} cli;

/* A subcommand: argv[0] is its name. Returns the exit status. */
typedef int (*cli_fn)(cli *c, int argc, char **argv);

/* ---- option parsing (opts.c) ---- */

/* OPT_LIST is a repeatable option (--alias a --alias b). */
typedef enum { OPT_FLAG, OPT_STRING, OPT_LIST } opt_kind;

typedef struct cli_opt {
	const char *name;     /* without the leading "--" */
	opt_kind kind;
	const char **value;   /* OPT_STRING: receives the argument; OPT_LIST: an
	                         array with room for argc arguments, filled in order */
	int *flag;            /* OPT_FLAG: set to 1; OPT_LIST: the count, incremented */
} cli_opt;

/*
 * Parses argv[1..] of a subcommand: the given options (NULL-terminated by a
 * zero name) plus the global --json/--url/--worker, in any position, and
 * --help (prints usage, returns -1 with *status 0). Positionals go to pos
 * (at most maxpos; more is a usage error). Returns the number of
 * positionals, or -1 with *status set when the caller should return it.
 */
int cli_parse(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage,
              char **pos, int maxpos, int *status);

/* cli_parse with room for every argument as a positional: *pos owned
 * (free) when the result is >= 0. */
int cli_parse_all(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage,
                  char ***pos, int *status);

/* A global option (--json, --url X, --url=X, --worker X, --namespace X) at argv[i]:
 * returns the arguments consumed, 0 if not one, -1 if its value is missing. */
int cli_global_option(cli *c, int argc, char **argv, int i);

/* ---- subcommands (subcommands.c) ---- */

/* A subcommand: argv[0] is its name. */
typedef struct cli_sub {
	const char *name;
	cli_fn fn;
	const char *cmd;      /* the name in messages ("tree get") */
	const char *usage;    /* its lines of the group's --help; NULL when an
	                         earlier row's lines cover it */
} cli_sub;

/* Runs the subcommand named by the first word after the global options;
 * --help lists every usage. A word that names none runs fallback with the
 * word as its first argument, or is a usage error when fallback is NULL. */
int cli_subcommand(cli *c, int argc, char **argv, const cli_sub *subs, size_t nsubs, const cli_sub *fallback);

/* A subcommand's positionals, after its options: from min to max of them
 * (max < 0: no limit), none empty; synopsis ("JID DIR PORT VALUE...")
 * names them in the messages. Returns their number with *pos owned (free)
 * and *status 0, or -1 with *status to return (a usage error, or 0 after
 * --help). */
int cli_words(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage, const char *synopsis, int min,
              int max, char ***pos, int *status);

/* One library call on a subcommand's words (at least min of them, none
 * empty), which gives a count: printed by print_count, with the jid when
 * the synopsis starts with JID. */
typedef int (*cli_count_fn)(qless_client *client, char **words, int n, int64_t *out);
int cli_counted(cli *c, int argc, char **argv, const char *usage, const char *synopsis, int min, const char *key,
                cli_count_fn fn);

/* ---- errors (output.c) ---- */

/* "qless: <cmd>: <reason>" on stderr; return EXIT_USAGE / EXIT_RUNTIME. */
int cli_usage_error(cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_error(cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last libqless failure as the reason; returns EXIT_USAGE for an
 * invalid argument (QLESS_EINVAL), else EXIT_RUNTIME. */
int cli_lib_error(cli *c);

/* Connects (once) with the global options. Returns 0 or an exit status. */
int cli_connect(cli *c);

/* ---- arguments (args.c) ---- */

/* Parses an integer / number argument; on failure prints a usage error
 * naming what and returns non-zero (EXIT_USAGE). */
/* An integer from lo to hi (else a usage error naming the range). */
int arg_int(cli *c, const char *what, const char *s, int64_t lo, int64_t hi, int64_t *out);
int arg_number(cli *c, const char *what, const char *s, double *out);
/* 0 if none of the n words is empty, else a usage error naming WHAT and its position. */
int arg_words(cli *c, const char *what, char *const *words, int n);
/* A duration (30s, 5m, 2h, 1d, 1h30m or plain seconds). */
int arg_duration(cli *c, const char *what, const char *s, double *out);
/* "in" or "out" as a port direction, else a usage error. */
int arg_dir(cli *c, const char *s, qless_port_dir *out);
/* A channel name of job trees: "/" or "/a/b" (jobtrees.md §1). */
int arg_channel(cli *c, const char *what, const char *s);
/* JSON text that must parse. */
int arg_json(cli *c, const char *what, const char *s);
/* JSON text that must be an object. */
int arg_json_object(cli *c, const char *what, const char *s);
/* Splits "a,b,c" (empty items dropped) into a NULL-terminated array of
 * pointers into a copy; *n gets the count. Free with free_list(). */
char **split_list(const char *s, size_t *n);
void free_list(char **list);

/* ---- output (output.c) ---- */

/* Prints a JSON value (compact, one line) and releases it. */
void json_print(json_t *value);
/* Parses JSON text the library produced; NULL on (impossible) failure. */
json_t *json_parse(const char *text);
/* A strlist as a JSON array of strings / as an object string -> number. */
json_t *json_strlist(const qless_strlist *list);
json_t *json_strlist_counts(const qless_strlist *list);
/* A joblist as a JSON array of job objects. */
json_t *json_joblist(const qless_joblist *list);
/* Prints each value of a JSON array text on a line of its own, verbatim. */
void print_json_items(const char *array);
/* A command's count: the number alone, or with --json {"jid": jid, key: n}
 * ({key: n} when jid is NULL). Returns 0. */
int print_count(cli *c, const char *jid, const char *key, int64_t n);
/* A JSON object text as a two-column table: each key and its value as
 * compact JSON. */
void print_object_table(const char *object, const char *key_header, const char *value_header);
/* Prints "-" for an empty or NULL string. */
const char *or_dash(const char *s);

/* ---- tables (table.c) ---- */

typedef struct table table;

/* A table with the given column headers (NULL-terminated). */
table *table_new(const char *const *headers);
/* Adds a row of ncols cells (copied). */
void table_row(table *t, ...);
/* Prints aligned (numeric-looking columns right-aligned) and frees it. */
void table_print(table *t);
/* Frees it unprinted. */
void table_free(table *t);

/* ---- durations and times (duration.c) ---- */

/* 0 on success: s is 30s, 5m, 2h, 1d, combinations (1h30m) or plain seconds. */
int duration_parse(const char *s, double *out);
/* "2h15m", "45s", "3d4h" into buf. */
const char *duration_format(double seconds, char *buf, size_t size);
/* Relative to now: "3m ago", "in 20s", "now". */
const char *time_relative(double when, double now, char *buf, size_t size);
/* Local "YYYY-MM-DD HH:MM:SS". */
const char *time_absolute(double when, char *buf, size_t size);
/* Parses a date: YYYY-MM-DD (UTC) or seconds since the epoch. */
int date_parse(const char *s, double *out);

/* ---- due times (due_times.c) ---- */

/* The system clock (what a client without a time offset sends as now). */
double cli_now(void);
/* A cron expression, checked without a server (usage error naming the
 * field and token). */
int arg_cron(cli *c, const char *expr);
/* --from style times: epoch seconds or ISO 8601. */
int arg_time(cli *c, const char *what, const char *s, double *out);
/* Times "<ISO> (<epoch>)" one a line, or with --json [{"at","epoch"}]. */
int print_times(cli *c, const double *t, size_t n);
/* The --json form of times into *out (owned). Returns 0 or an exit status. */
int times_json(cli *c, const double *t, size_t n, json_t **out);
/* The first count fire times of expr from the server (cron.next), read at
 * *from (NULL: now); *t owned (qless_free). Returns 0 or an exit status. */
int fire_times(cli *c, const char *expr, int64_t count, const double *from, double **t, size_t *n);
/* qless cron next: pos[0] is "next". */
int cron_next(cli *c, char **pos, int n, const char *from);

/* ---- job helpers (jobs.c) ---- */

/* Fetches a job by jid; reports unknown jobs. Returns 0 or an exit status. */
int fetch_job(cli *c, const char *jid, qless_job **out);
/* Prints a table of jobs (JID CLASS QUEUE STATE PRIORITY WORKER TAGS). */
void print_job_table(cli *c, const qless_joblist *list);

/* ---- shell commands (shell.c) ---- */

#define SHELL_TAIL_SIZE 4096

/* The last SHELL_TAIL_SIZE bytes a command wrote to its stderr. */
typedef struct shell_tail {
	char text[SHELL_TAIL_SIZE];
	size_t len;
	int cut;              /* earlier bytes were dropped */
} shell_tail;

/* Runs /bin/sh -c cmd with input on its stdin and extra_env ("NAME=value",
 * NULL-terminated) added to the environment; its stdout is this program's.
 * *status: its wait status. Returns 0, or an errno when it could not run. */
int shell_run(const char *cmd, const char *input, char *const *extra_env, int *status, shell_tail *tail);
/* The tail as UTF-8 text (invalid bytes as '?') into out, which holds
 * SHELL_TAIL_SIZE + 1 bytes. */
void shell_tail_text(const shell_tail *t, char *out);

/* ---- subcommands ---- */

int cmd_web(cli *c, int argc, char **argv);
int cmd_metrics(cli *c, int argc, char **argv);
int cmd_put(cli *c, int argc, char **argv);
int cmd_get(cli *c, int argc, char **argv);
int cmd_peek(cli *c, int argc, char **argv);
int cmd_pop(cli *c, int argc, char **argv);
int cmd_complete(cli *c, int argc, char **argv);
int cmd_fail(cli *c, int argc, char **argv);
int cmd_retry(cli *c, int argc, char **argv);
int cmd_cancel(cli *c, int argc, char **argv);
int cmd_priority(cli *c, int argc, char **argv);
int cmd_tag(cli *c, int argc, char **argv);
int cmd_track(cli *c, int argc, char **argv);
int cmd_depends(cli *c, int argc, char **argv);
int cmd_queues(cli *c, int argc, char **argv);
int cmd_jobs(cli *c, int argc, char **argv);
int cmd_failed(cli *c, int argc, char **argv);
int cmd_unfail(cli *c, int argc, char **argv);
int cmd_stats(cli *c, int argc, char **argv);
int cmd_pause(cli *c, int argc, char **argv);
int cmd_unpause(cli *c, int argc, char **argv);
int cmd_workers(cli *c, int argc, char **argv);
int cmd_config(cli *c, int argc, char **argv);
int cmd_recur(cli *c, int argc, char **argv);
int cmd_watch(cli *c, int argc, char **argv);
int cmd_server(cli *c, int argc, char **argv);
int cmd_when(cli *c, int argc, char **argv);
int cmd_cron(cli *c, int argc, char **argv);
int cmd_schedule(cli *c, int argc, char **argv);
int cmd_tree(cli *c, int argc, char **argv);
int cmd_job(cli *c, int argc, char **argv);
int cmd_port(cli *c, int argc, char **argv);
int cmd_channel(cli *c, int argc, char **argv);
int cmd_state(cli *c, int argc, char **argv);
int cmd_alias(cli *c, int argc, char **argv);
int cmd_klass(cli *c, int argc, char **argv);

/* qless tree get (tree_draw.c), also what `qless tree JID` runs. */
int tree_get(cli *c, int argc, char **argv);
extern const char tree_get_usage[];

/* qless schedule's subcommands (argv[0] is the subcommand) and their usage. */
/* Parses a subcommand that takes one QUEUE: 1 with *queue set, or 0 when
 * the caller should return *status (a usage error, or 0 after --help). */
int schedule_one_queue(cli *c, int argc, char **argv, const cli_opt *opts, const char *usage, char **queue,
                       int *status);
int schedule_listen(cli *c, int argc, char **argv);
extern const char schedule_listen_usage[];
int schedule_add(cli *c, int argc, char **argv);
extern const char schedule_add_usage[];
int schedule_list(cli *c, int argc, char **argv);
extern const char schedule_list_usage[];
int schedule_remove(cli *c, int argc, char **argv);
extern const char schedule_remove_usage[];

#endif
