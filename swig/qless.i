/*
 * swig/qless.i — the language-neutral part of the libqless SWIG interface.
 *
 * Each language's entry file (python.i, ruby.i, lua.i) declares %module,
 * defines the typemaps named below for its language, then includes this
 * file. This file decides WHICH C parameters use which typemap, which
 * functions are hidden, and how handles are destroyed, once for everyone.
 *
 * The object model (objects.i, included last): each opaque handle is a
 * class named once for all languages (Client, Queue, Job, Recur, Worker,
 * Events, StrList, JobList, QueueCountList, Heartbeater) whose methods are
 * its C functions with the prefix dropped (job.complete(opts) is
 * qless_job_complete) and whose read-only attributes are its getters
 * (job.jid); factories hang off their parent (client.queue(name),
 * client.worker(queues, opts), client.events(channels),
 * job.heartbeater(interval)); qless_client_new(url, opts) makes a client.
 * The same typemaps apply, so out-parameters are results and statuses raise.
 * The flat qless_* functions stay wrapped too. A language adds its sugar
 * (properties, iterators, JSON, keyword arguments) in swig/<lang>.i or its
 * layer, never new C entry points here.
 *
 * Typemaps are chosen by C type only, never by parameter name (the roles of
 * the types are stated in qless/common.h; tests/check-typemaps.py enforces
 * this). Typemaps a language file must provide:
 *   int QLESS_STATUS_OUT              return of a status code: negative -> raise
 *                                     the class of row qless_swig_error_index(code)
 *                                     with the code and message; else no value
 *   int QLESS_PLAIN_OUT               copy of the language's default (out) int
 *   SWIGTYPE **QLESS_OUT_HANDLE       (in, numinputs=0 + argout) owned handle
 *                                     out-parameter -> proxy owning it (NULL -> nil)
 *   char **QLESS_OUT_STRING           owned string out-parameter (freed with
 *                                     qless_free) -> string (NULL -> nil)
 *   int64_t *QLESS_OUT_INT, double *QLESS_OUT_DOUBLE   numeric out-parameters
 *   int *QLESS_OUT_FLAG               (in, numinputs=0 + argout) a yes/no
 *                                     out-parameter (*out_inserted) -> boolean
 *   char QLESS_OUT_BUF[ANY]           (in, numinputs=0 + argout) a caller's
 *                                     fixed-size text buffer (a unique jid,
 *                                     a formatted time) -> string
 *   (const char *const *QLESS_STRV, size_t QLESS_STRC) list of strings in
 *                                     (nil -> NULL, 0); QLESS_STRV(list, n) in
 *                                     the headers gives SWIG these names
 *   int64_t / size_t results          as native integers
 *   const SWIGTYPE *QLESS_OPTIONS     an options struct from the language's
 *                                     map of option name -> value (nil map
 *                                     or value: not given), through
 *                                     QLESS_SWIG_OPTSPEC and
 *                                     qless_swig_field_set (below); unknown
 *                                     name -> InvalidArgument, value of the
 *                                     wrong type -> the language's TypeError
 * and, at module init, one exception class per row of qless_swig_errors
 * (below): row 0 the base class, the others its subclasses.
 */

/* In the runtime section, which precedes every language file's own
 * %{ ... %} code, so its raise helpers can use the table. */
%runtime %{
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <qless/qless.h>

/* The exception classes of every binding, generated from QLESS_ERRORS:
 * row 0 is the base class (also raised for a code the table lacks), then
 * one row per failure code. A language names its classes klass, under its
 * own module or namespace. */
struct qless_swig_error {
	int code;
	const char *klass;
	const char *meaning;
};

#define QLESS_SWIG_ERROR_ROW(symbol, value, klass, meaning) { value, #klass, meaning },
static const struct qless_swig_error qless_swig_errors[] = {
	{ 0, "Error", "a libqless failure" },
	QLESS_ERRORS(QLESS_SWIG_ERROR_ROW)
};
#undef QLESS_SWIG_ERROR_ROW
#define QLESS_SWIG_NERRORS ((int)(sizeof qless_swig_errors / sizeof *qless_swig_errors))

/* ---- option structs from a language's native map ----
 * Each versioned options struct is described once, as a table of fields;
 * a language's QLESS_OPTIONS typemap walks its own map (dict, Hash, table,
 * array), converts each value to the field's kind and stores it with
 * qless_swig_field_set. A nil/None/null value means "not given". */
enum qless_swig_kind { QLESS_SWIG_STR, QLESS_SWIG_STRV, QLESS_SWIG_DOUBLE, QLESS_SWIG_INT };

struct qless_swig_field {
	const char *name;
	enum qless_swig_kind kind;
	size_t offset;   /* of the value; STRV: of the array */
	size_t aux;      /* STRV: offset of its size_t count; else of an int "has_"
	                  * flag set when given; 0 (the version's offset): none */
	size_t width;    /* INT: sizeof the stored integer, sizeof(int64_t) or 0
	                  * for an int (languages convert both alike) */
};

struct qless_swig_optspec {
	const char *what;          /* names the struct in messages */
	const void *defaults;      /* its INIT value */
	size_t size;
	const struct qless_swig_field *fields;
	size_t nfields;
};

/* A converted value; the field's kind says which member is meant. */
struct qless_swig_value {
	const char *s;
	const char *const *v;
	size_t n;
	double d;
	long long i;
};

static const qless_put_options qless_swig_put_defaults = QLESS_PUT_OPTIONS_INIT;
static const struct qless_swig_field qless_swig_put_fields[] = {
	{ "jid", QLESS_SWIG_STR, offsetof(qless_put_options, jid), 0 },
	{ "delay", QLESS_SWIG_DOUBLE, offsetof(qless_put_options, delay), 0 },
	{ "priority", QLESS_SWIG_DOUBLE, offsetof(qless_put_options, priority),
	  offsetof(qless_put_options, has_priority) },
	{ "retries", QLESS_SWIG_INT, offsetof(qless_put_options, retries), 0 },
	{ "tags", QLESS_SWIG_STRV, offsetof(qless_put_options, tags), offsetof(qless_put_options, ntags) },
	{ "depends", QLESS_SWIG_STRV, offsetof(qless_put_options, depends), offsetof(qless_put_options, ndepends) },
	{ "unique", QLESS_SWIG_INT, offsetof(qless_put_options, unique), 0 },
	{ "unique_key", QLESS_SWIG_STR, offsetof(qless_put_options, unique_key), 0 },
	{ "tree", QLESS_SWIG_INT, offsetof(qless_put_options, tree), 0 },
	{ "parent", QLESS_SWIG_STR, offsetof(qless_put_options, parent), 0 },
	{ "name", QLESS_SWIG_STR, offsetof(qless_put_options, name), 0 },
	{ "inports", QLESS_SWIG_STR, offsetof(qless_put_options, inports), 0 },
	{ "outports", QLESS_SWIG_STR, offsetof(qless_put_options, outports), 0 },
	{ "aliases", QLESS_SWIG_STRV, offsetof(qless_put_options, aliases), offsetof(qless_put_options, naliases) },
	{ "by", QLESS_SWIG_STR, offsetof(qless_put_options, by), 0 },
};
static const qless_recur_options qless_swig_recur_defaults = QLESS_RECUR_OPTIONS_INIT;
static const struct qless_swig_field qless_swig_recur_fields[] = {
	{ "jid", QLESS_SWIG_STR, offsetof(qless_recur_options, jid), 0 },
	{ "offset", QLESS_SWIG_DOUBLE, offsetof(qless_recur_options, offset), 0 },
	{ "priority", QLESS_SWIG_DOUBLE, offsetof(qless_recur_options, priority), 0 },
	{ "retries", QLESS_SWIG_INT, offsetof(qless_recur_options, retries), 0 },
	{ "backlog", QLESS_SWIG_INT, offsetof(qless_recur_options, backlog), 0 },
	{ "tags", QLESS_SWIG_STRV, offsetof(qless_recur_options, tags), offsetof(qless_recur_options, ntags) },
	{ "unique", QLESS_SWIG_INT, offsetof(qless_recur_options, unique), 0 },
	{ "unique_key", QLESS_SWIG_STR, offsetof(qless_recur_options, unique_key), 0 },
};
static const qless_client_options qless_swig_client_defaults = QLESS_CLIENT_OPTIONS_INIT;
static const struct qless_swig_field qless_swig_client_fields[] = {
	{ "connect_timeout_ms", QLESS_SWIG_INT, offsetof(qless_client_options, connect_timeout_ms), 0 },
	{ "command_timeout_ms", QLESS_SWIG_INT, offsetof(qless_client_options, command_timeout_ms), 0 },
	{ "worker_name", QLESS_SWIG_STR, offsetof(qless_client_options, worker_name), 0 },
	{ "namespace", QLESS_SWIG_STR, offsetof(qless_client_options, namespace_name), 0 },
};
/* order is an enum stored as an INT field: it must be an int's size. */
typedef char qless_swig_order_is_int[sizeof(qless_reserve_order) == sizeof(int) ? 1 : -1];
static const qless_worker_options qless_swig_worker_defaults = QLESS_WORKER_OPTIONS_INIT;
static const struct qless_swig_field qless_swig_worker_fields[] = {
	{ "order", QLESS_SWIG_INT, offsetof(qless_worker_options, order), 0 },
	{ "watch_locks", QLESS_SWIG_INT, offsetof(qless_worker_options, watch_locks), 0 },
};
static const qless_complete_options qless_swig_complete_defaults = QLESS_COMPLETE_OPTIONS_INIT;
static const struct qless_swig_field qless_swig_complete_fields[] = {
	{ "next", QLESS_SWIG_STR, offsetof(qless_complete_options, next), 0 },
	{ "delay", QLESS_SWIG_DOUBLE, offsetof(qless_complete_options, delay), 0 },
	{ "depends", QLESS_SWIG_STRV, offsetof(qless_complete_options, depends),
	  offsetof(qless_complete_options, ndepends) },
};
static const qless_schedule_options qless_swig_schedule_defaults = QLESS_SCHEDULE_OPTIONS_INIT;
static const struct qless_swig_field qless_swig_schedule_fields[] = {
	{ "unique", QLESS_SWIG_INT, offsetof(qless_schedule_options, unique), 0 },
	{ "key", QLESS_SWIG_STR, offsetof(qless_schedule_options, key), 0 },
	{ "jid", QLESS_SWIG_STR, offsetof(qless_schedule_options, jid), 0 },
	{ "priority", QLESS_SWIG_DOUBLE, offsetof(qless_schedule_options, priority),
	  offsetof(qless_schedule_options, has_priority) },
	{ "retries", QLESS_SWIG_INT, offsetof(qless_schedule_options, retries), 0 },
	{ "backlog", QLESS_SWIG_INT, offsetof(qless_schedule_options, backlog), 0 },
	{ "tags", QLESS_SWIG_STRV, offsetof(qless_schedule_options, tags), offsetof(qless_schedule_options, ntags) },
};
/* The one add of schedules: when (exactly one of the time fields) and the
 * entry's options, in one map. */
static const qless_schedule_add_options qless_swig_schedule_add_defaults = QLESS_SCHEDULE_ADD_OPTIONS_INIT;
static const struct qless_swig_field qless_swig_schedule_add_fields[] = {
	{ "at", QLESS_SWIG_DOUBLE, offsetof(qless_schedule_add_options, at), offsetof(qless_schedule_add_options, has_at) },
	{ "at_text", QLESS_SWIG_STR, offsetof(qless_schedule_add_options, at_text), 0 },
	{ "in", QLESS_SWIG_DOUBLE, offsetof(qless_schedule_add_options, in_seconds), offsetof(qless_schedule_add_options, has_in) },
	{ "in_text", QLESS_SWIG_STR, offsetof(qless_schedule_add_options, in_text), 0 },
	{ "every", QLESS_SWIG_DOUBLE, offsetof(qless_schedule_add_options, every),
	  offsetof(qless_schedule_add_options, has_every) },
	{ "first", QLESS_SWIG_DOUBLE, offsetof(qless_schedule_add_options, first), 0 },
	{ "every_text", QLESS_SWIG_STR, offsetof(qless_schedule_add_options, every_text), 0 },
	{ "cron", QLESS_SWIG_STR, offsetof(qless_schedule_add_options, cron), 0 },
	{ "unique", QLESS_SWIG_INT, offsetof(qless_schedule_add_options, unique), 0 },
	{ "key", QLESS_SWIG_STR, offsetof(qless_schedule_add_options, key), 0 },
	{ "jid", QLESS_SWIG_STR, offsetof(qless_schedule_add_options, jid), 0 },
	{ "priority", QLESS_SWIG_DOUBLE, offsetof(qless_schedule_add_options, priority),
	  offsetof(qless_schedule_add_options, has_priority) },
	{ "retries", QLESS_SWIG_INT, offsetof(qless_schedule_add_options, retries), 0 },
	{ "backlog", QLESS_SWIG_INT, offsetof(qless_schedule_add_options, backlog), 0 },
	{ "tags", QLESS_SWIG_STRV, offsetof(qless_schedule_add_options, tags),
	  offsetof(qless_schedule_add_options, ntags) },
	{ "day_first", QLESS_SWIG_INT, offsetof(qless_schedule_add_options, day_first), 0 },
};
/* A schedule's listen (the bindings' Schedule.listen, through the worker
 * trampoline): "size" is the field threads, the size of either pool;
 * "pool" a QLESS_POOL_* constant. */
typedef char qless_swig_pool_is_int[sizeof(qless_pool_kind) == sizeof(int) ? 1 : -1];
static const qless_listen_options qless_swig_listen_defaults = QLESS_LISTEN_OPTIONS_INIT;
static const struct qless_swig_field qless_swig_listen_fields[] = {
	{ "size", QLESS_SWIG_INT, offsetof(qless_listen_options, threads), 0, 0 },
	{ "pool", QLESS_SWIG_INT, offsetof(qless_listen_options, pool), 0, 0 },
	{ "interval", QLESS_SWIG_DOUBLE, offsetof(qless_listen_options, interval), 0, 0 },
	{ "max_jobs", QLESS_SWIG_INT, offsetof(qless_listen_options, max_jobs), 0, sizeof(int64_t) },
	{ "allow", QLESS_SWIG_STRV, offsetof(qless_listen_options, allow), offsetof(qless_listen_options, nallow), 0 },
	{ "signals", QLESS_SWIG_INT, offsetof(qless_listen_options, signals), 0, 0 },
};
#define QLESS_SWIG_OPTSPEC_ROW(what, type, fields) \
	{ what, &qless_swig_##fields##_defaults, sizeof(type), qless_swig_##fields##_fields, \
	  sizeof qless_swig_##fields##_fields / sizeof *qless_swig_##fields##_fields }
static const struct qless_swig_optspec qless_swig_put_spec = QLESS_SWIG_OPTSPEC_ROW("put options", qless_put_options, put);
static const struct qless_swig_optspec qless_swig_complete_spec =
	QLESS_SWIG_OPTSPEC_ROW("complete options", qless_complete_options, complete);
static const struct qless_swig_optspec qless_swig_recur_spec =
	QLESS_SWIG_OPTSPEC_ROW("recur options", qless_recur_options, recur);
static const struct qless_swig_optspec qless_swig_client_spec =
	QLESS_SWIG_OPTSPEC_ROW("client options", qless_client_options, client);
static const struct qless_swig_optspec qless_swig_worker_spec =
	QLESS_SWIG_OPTSPEC_ROW("worker options", qless_worker_options, worker);
static const struct qless_swig_optspec qless_swig_schedule_spec =
	QLESS_SWIG_OPTSPEC_ROW("schedule options", qless_schedule_options, schedule);
static const struct qless_swig_optspec qless_swig_schedule_add_spec =
	QLESS_SWIG_OPTSPEC_ROW("schedule add options", qless_schedule_add_options, schedule_add);
static const struct qless_swig_optspec qless_swig_listen_spec =
	QLESS_SWIG_OPTSPEC_ROW("listen options", qless_listen_options, listen);

/* The table of the options struct opts points to, chosen by its C type so
 * that one typemap per language serves every options struct. */
#define QLESS_SWIG_OPTSPEC(opts) _Generic((opts), \
	qless_put_options *: &qless_swig_put_spec, \
	qless_complete_options *: &qless_swig_complete_spec, \
	qless_recur_options *: &qless_swig_recur_spec, \
	qless_client_options *: &qless_swig_client_spec, \
	qless_worker_options *: &qless_swig_worker_spec, \
	qless_schedule_options *: &qless_swig_schedule_spec, \
	qless_schedule_add_options *: &qless_swig_schedule_add_spec, \
	qless_listen_options *: &qless_swig_listen_spec)

/* C arrays a typemap allocated for the list fields of one call. */
#define QLESS_SWIG_MAXLISTS 4
struct qless_swig_lists {
	const char **v[QLESS_SWIG_MAXLISTS];
	int n;
};

static const char **qless_swig_lists_alloc(struct qless_swig_lists *lists, size_t n)
{
	const char **v;
	if (lists->n == QLESS_SWIG_MAXLISTS || !(v = (const char **)calloc(n ? n : 1, sizeof *v)))
		return NULL;
	return lists->v[lists->n++] = v;
}

static void qless_swig_lists_free(struct qless_swig_lists *lists)
{
	while (lists->n > 0)
		free((void *)lists->v[--lists->n]);
}

static const struct qless_swig_field *qless_swig_field_find(const struct qless_swig_optspec *spec, const char *name)
{
	size_t i;
	for (i = 0; i < spec->nfields; i++)
		if (!strcmp(spec->fields[i].name, name))
			return &spec->fields[i];
	return NULL;
}

/* The message for a key the struct lacks, listing the ones it has. */
static void qless_swig_unknown_message(char *buf, size_t size, const struct qless_swig_optspec *spec, const char *name)
{
	size_t i, len;
	snprintf(buf, size, "%s: unknown option '%s'; known:", spec->what, name);
	for (i = 0; i < spec->nfields && (len = strlen(buf)) < size; i++)
		snprintf(buf + len, size - len, "%s %s", i ? "," : "", spec->fields[i].name);
}

/* The message for a value of the wrong type. */
static void qless_swig_type_message(char *buf, size_t size, const struct qless_swig_optspec *spec,
                                    const struct qless_swig_field *f)
{
	static const char *const expected[] = { "a string", "a list of strings", "a number", "an integer" };
	snprintf(buf, size, "%s: option '%s' must be %s", spec->what, f->name, expected[f->kind]);
}

/* Stores v into field f of opts. QLESS_EINVAL with a message in buf when
 * the value does not fit the field. */
static int qless_swig_field_set(const struct qless_swig_optspec *spec, void *opts, const struct qless_swig_field *f,
                                const struct qless_swig_value *v, char *buf, size_t size)
{
	char *base = (char *)opts;
	switch (f->kind) {
	case QLESS_SWIG_STR:
		memcpy(base + f->offset, &v->s, sizeof v->s);
		break;
	case QLESS_SWIG_STRV:
		memcpy(base + f->offset, &v->v, sizeof v->v);
		memcpy(base + f->aux, &v->n, sizeof v->n);
		return 0;
	case QLESS_SWIG_DOUBLE:
		memcpy(base + f->offset, &v->d, sizeof v->d);
		break;
	case QLESS_SWIG_INT: {
		int i = (int)v->i;
		if (f->width == sizeof(int64_t)) {
			int64_t wide = (int64_t)v->i;
			memcpy(base + f->offset, &wide, sizeof wide);
			break;
		}
		if (v->i < INT_MIN || v->i > INT_MAX) {
			snprintf(buf, size, "%s: option '%s' is out of range", spec->what, f->name);
			return QLESS_EINVAL;
		}
		memcpy(base + f->offset, &i, sizeof i);
		break;
	}
	}
	if (f->aux) {
		int given = 1;
		memcpy(base + f->aux, &given, sizeof given);
	}
	return 0;
}

/* The row of code in qless_swig_errors; 0 (the base class) when none. */
static int qless_swig_error_index(int code)
{
	int i;
	for (i = 1; i < QLESS_SWIG_NERRORS; i++)
		if (qless_swig_errors[i].code == code)
			return i;
	return 0;
}
%}

%include <stdint.i>

/* Destructors own freeing; a borrowed job pointer would dangle after its
 * list is collected, so bindings use qless_joblist_take instead. */
%ignore qless_free;
%ignore qless_client_free;
%ignore qless_queue_free;
%ignore qless_job_free;
%ignore qless_recur_free;
%ignore qless_worker_free;
%ignore qless_events_free;
%ignore qless_strlist_free;
%ignore qless_joblist_free;
%ignore qless_heartbeater_free;
%ignore qless_queue_countlist_free;
%ignore qless_schedule_free;
%ignore qless_tree_free;
%ignore qless_store_free;
%ignore qless_port_free;
%ignore qless_channel_free;
%ignore qless_subscribers_free;
%ignore qless_entries_free;
%ignore qless_joblist_get;
/* Operators use `qless server status`; programs only need start and stop. */
%ignore qless_server_status;
/* Options structs are initialised by their INIT macros in C; the bindings
 * build them field by field from keyword arguments. */
%ignore qless_client_options_init;
%ignore qless_put_options_init;
/* Options structs in from the language's native map (see QLESS_OPTIONS). */
%apply const SWIGTYPE *QLESS_OPTIONS {
  const qless_put_options *, const qless_complete_options *, const qless_recur_options *,
  const qless_client_options *, const qless_worker_options *, const qless_schedule_options *,
  const qless_schedule_add_options *, const qless_listen_options *
};
%ignore qless_schedule_add_options_init;
%ignore qless_schedule_options_init;
/* Bindings read time text through Schedule.add_at_text and friends. */
%ignore qless_when_read;
%ignore qless_complete_options_init;
%ignore qless_recur_options_init;
%ignore qless_worker_options_init;

/* qless_joblist_take hands over ownership. */
%newobject qless_joblist_take;

/* ---- results: an int is a status; values have types of their own ---- */
%typemap(out) int = int QLESS_STATUS_OUT;
%apply int QLESS_PLAIN_OUT { qless_bool, qless_error_code, qless_when_kind, qless_port_dir, qless_entry_kind };
/* The one int result that is a value, kept an int in C for the ABI. */
%ignore qless_version_number;
%rename(qless_version_number) qless_swig_version_number;
%inline %{
static long qless_swig_version_number(void)
{
	return qless_version_number();
}
%}

/* Functions whose output struct the caller makes and passes in (a When, a
 * QueueCounts, a Stats, a Backoff): in C it comes first (docs/conventions.md),
 * in the languages it keeps its place after the inputs, through these
 * flat wrappers of the old order (defined after the headers, below). */
%ignore qless_when_parse;
%ignore qless_queue_counts_get;
%ignore qless_queue_stats;
%ignore qless_queue_countlist_get;
%ignore qless_backoff_parse;
%rename(qless_when_parse) qless_swig_when_parse;
%rename(qless_queue_counts_get) qless_swig_queue_counts_get;
%rename(qless_queue_stats) qless_swig_queue_stats;
%rename(qless_queue_countlist_get) qless_swig_queue_countlist_get;
%rename(qless_backoff_parse) qless_swig_backoff_parse;

/* ---- out-parameters ---- */
%apply SWIGTYPE **QLESS_OUT_HANDLE {
  qless_client **, qless_queue **, qless_job **, qless_recur **, qless_worker **,
  qless_events **, qless_heartbeater **, qless_joblist **, qless_strlist **,
  qless_queue_countlist **, qless_schedule **, qless_swig_times **,
  qless_tree **, qless_store **, qless_port **, qless_channel **, qless_subscribers **, qless_entries **
};
%apply char **QLESS_OUT_STRING { char ** };
/* SWIG drops qualifiers when no typemap fits a type exactly, and a list of
 * strings in (const char *const *) would then take char **'s out-typemaps:
 * these exact, empty ones keep it an input. */
%typemap(argout) const char *const * "";
%typemap(freearg) const char *const * "";
%apply int64_t *QLESS_OUT_INT { int64_t * };
%apply double *QLESS_OUT_DOUBLE { double * };
/* The only int * parameters are yes/no answers (*out_inserted). */
%apply int *QLESS_OUT_FLAG { int * };
/* Fixed-size char arrays are output buffers of the callee (a unique jid,
 * a formatted time); struct members of that type are read-only below. */
%apply char QLESS_OUT_BUF[ANY] { char [ANY] };

/* Option structs hold C arrays whose lifetime a language cannot express:
 * they are built from a native map for the duration of one call
 * (QLESS_OPTIONS), never proxy classes. */
%ignore qless_client_options;
%ignore qless_put_options;
%ignore qless_complete_options;
%ignore qless_recur_options;
%ignore qless_worker_options;
%ignore qless_schedule_options;
%ignore qless_schedule_add_options;
/* Pipelined raw calls: a C-level batching tool, not wrapped. */
%ignore qless_call;
%ignore qless_client_call_batch;
/* Jids for raw batched puts: C-level too (the bindings' put makes its own). */
%ignore qless_jid_generate;
/* The engine runs C callbacks: each language's file wraps qless_worker_main
 * with trampolines of its own (perform, fork) and reaches nothing else of it. */
%ignore qless_worker_main;
%ignore qless_worker_run;
%ignore qless_worker_run_options;
%ignore qless_result_fail;
%ignore qless_result_retry;
%ignore qless_result_suspend;
%ignore qless_allowlist_check;
%ignore qless_allowlist_match;
/* Listening runs job code on pool threads: each language listens through
 * the worker trampoline instead (qless_swig_worker_listen, worker.i), with
 * the listen options from its map (QLESS_OPTIONS). */
%ignore qless_schedule_listen;
%ignore qless_schedule_listen_run;
%ignore qless_schedule_stop;
%ignore qless_listen_options;
%ignore qless_listen_options_init;
/* Borrowed from the schedule: a proxy could outlive it. Languages make
 * their own Queue of the schedule's name. */
%ignore qless_schedule_queue;

/* Output structs: constructed with their version set. */
%extend qless_queue_counts { qless_queue_counts() { qless_queue_counts *c = calloc(1, sizeof *c); if (c) c->version = QLESS_QUEUE_COUNTS_VERSION; return c; } }
%extend qless_stats { qless_stats() { qless_stats *s = calloc(1, sizeof *s); if (s) s->version = QLESS_STATS_VERSION; return s; } }
%extend qless_timing_stats { int64_t bucket(size_t index) { return index < QLESS_STATS_BUCKETS ? $self->histogram[index] : 0; } }
%ignore qless_timing_stats::histogram;
%immutable qless_queue_counts::version;
%immutable qless_stats::version;
/* qless_when_parse's result: made with its version set, read as an object. */
%extend qless_when { qless_when() { qless_when *w = calloc(1, sizeof *w); if (w) w->version = QLESS_WHEN_VERSION; return w; } }
%immutable qless_when::version;
%immutable qless_when::kind;
%immutable qless_when::at;
%immutable qless_when::interval;
%immutable qless_when::cron;

/* Due times (cron.next, recur.next): C gives an owned array and its length,
 * two parameters a typemap could only select by name; the object model
 * hands them over as a TimeList (size, get) instead, and the flat
 * functions stay C-only. */
%ignore qless_client_cron_next;
%ignore qless_recur_next;
%ignore qless_schedule_next_times;
/* Borrowed from its tree: a proxy could outlive it (Tree has store_* instead). */
%ignore qless_tree_store;
/* The handles' clients are borrowed: languages hold the Client they made. */
%ignore qless_port_client;
%ignore qless_channel_client;
%{
typedef struct qless_swig_times {
	double *v;   /* owned: qless_free */
	size_t n;
} qless_swig_times;

static void qless_swig_times_free(qless_swig_times *t)
{
	if (t) {
		qless_free(t->v);
		free(t);
	}
}

static size_t qless_swig_times_size(const qless_swig_times *t)
{
	return t ? t->n : 0;
}

static double qless_swig_times_get(const qless_swig_times *t, size_t index)
{
	return t && index < t->n ? t->v[index] : 0;
}

/* Hands t to *out when the call that filled it (rc) succeeded. */
static int qless_swig_times_done(qless_swig_times **out, qless_swig_times *t, int rc)
{
	if (rc < 0)
		qless_swig_times_free(t);
	else
		*out = t;
	return rc;
}
%}

/* ---- handles: opaque in C, proxy classes with destructors here ----
 * Declared after the typemaps above: SWIG wraps a class's %extend methods
 * (objects.i) with the typemaps in force where the class is declared.
 * CLASS is the name of the handle's class in every language (see objects.i
 * for why it differs from the C name). */
%define QLESS_HANDLE(TYPE, CLASS, FREE)
%rename(CLASS) TYPE;
%nodefaultctor TYPE;
%nodefaultdtor TYPE;
struct TYPE {};
%extend TYPE { ~TYPE() { FREE($self); } }
%enddef

QLESS_HANDLE(qless_client, Client, qless_client_free)
QLESS_HANDLE(qless_queue, Queue, qless_queue_free)
QLESS_HANDLE(qless_job, Job, qless_job_free)
QLESS_HANDLE(qless_recur, Recur, qless_recur_free)
QLESS_HANDLE(qless_worker, Worker, qless_worker_free)
QLESS_HANDLE(qless_events, Events, qless_events_free)
QLESS_HANDLE(qless_strlist, StrList, qless_strlist_free)
QLESS_HANDLE(qless_joblist, JobList, qless_joblist_free)
QLESS_HANDLE(qless_heartbeater, Heartbeater, qless_heartbeater_free)
QLESS_HANDLE(qless_queue_countlist, QueueCountList, qless_queue_countlist_free)
QLESS_HANDLE(qless_schedule, Schedule, qless_schedule_free)
QLESS_HANDLE(qless_swig_times, TimeList, qless_swig_times_free)
/* Job trees and schedule entries (qless/tree.h, qless/schedule.h). */
QLESS_HANDLE(qless_tree, Tree, qless_tree_free)
QLESS_HANDLE(qless_store, Store, qless_store_free)
QLESS_HANDLE(qless_port, Port, qless_port_free)
QLESS_HANDLE(qless_channel, Channel, qless_channel_free)
QLESS_HANDLE(qless_subscribers, Subscribers, qless_subscribers_free)
QLESS_HANDLE(qless_entries, ScheduleEntries, qless_entries_free)

%include "qless/common.h"
%include "qless/client.h"
%include "qless/queue.h"
%include "qless/job.h"
%include "qless/recur.h"
%include "qless/worker.h"
%include "qless/events.h"
%include "qless/heartbeater.h"
%include "qless/server.h"
%include "qless/when.h"
%include "qless/schedule.h"
%include "qless/tree.h"

%include "worker.i"

%inline %{
static int qless_swig_when_parse(const char *text, double now, qless_when *out)
{
	return qless_when_parse(out, text, now);
}
static int qless_swig_queue_counts_get(qless_queue *queue, qless_queue_counts *out)
{
	return qless_queue_counts_get(out, queue);
}
static int qless_swig_queue_stats(qless_queue *queue, double date, qless_stats *out)
{
	return qless_queue_stats(out, queue, date);
}
static int qless_swig_queue_countlist_get(const qless_queue_countlist *list, size_t index, qless_queue_counts *out)
{
	return qless_queue_countlist_get(out, list, index);
}
static int qless_swig_backoff_parse(const char *spec, qless_backoff *out)
{
	return qless_backoff_parse(out, spec);
}
%}

%include "objects.i"
