/*
 * swig/qless.i — the language-neutral part of the libqless SWIG interface.
 *
 * Each language's entry file (python.i, ruby.i, lua.i) declares %module,
 * defines the typemaps named below for its language, then includes this
 * file. This file decides WHICH C parameters use which typemap, which
 * functions are hidden, and how handles are destroyed, once for everyone.
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
 *   (const char *const *QLESS_STRV, size_t QLESS_STRC) list of strings in
 *                                     (nil -> NULL, 0); QLESS_STRV(list, n) in
 *                                     the headers gives SWIG these names
 *   int64_t / size_t results          as native integers
 * and, at module init, one exception class per row of qless_swig_errors
 * (below): row 0 the base class, the others its subclasses.
 */

/* In the runtime section, which precedes every language file's own
 * %{ ... %} code, so its raise helpers can use the table. */
%runtime %{
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

/* ---- handles: opaque in C, proxy classes with destructors here ---- */
%define QLESS_HANDLE(TYPE, FREE)
%nodefaultctor TYPE;
%nodefaultdtor TYPE;
struct TYPE {};
%extend TYPE { ~TYPE() { FREE($self); } }
%enddef

QLESS_HANDLE(qless_client, qless_client_free)
QLESS_HANDLE(qless_queue, qless_queue_free)
QLESS_HANDLE(qless_job, qless_job_free)
QLESS_HANDLE(qless_recur, qless_recur_free)
QLESS_HANDLE(qless_worker, qless_worker_free)
QLESS_HANDLE(qless_events, qless_events_free)
QLESS_HANDLE(qless_strlist, qless_strlist_free)
QLESS_HANDLE(qless_joblist, qless_joblist_free)
QLESS_HANDLE(qless_heartbeater, qless_heartbeater_free)

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
%ignore qless_joblist_get;
/* Operators use `qless server status`; programs only need start and stop. */
%ignore qless_server_status;
/* Options structs are initialised by their INIT macros in C; the bindings
 * build them field by field from keyword arguments. */
%ignore qless_client_options_init;
%ignore qless_put_options_init;
%ignore qless_complete_options_init;
%ignore qless_recur_options_init;
%ignore qless_worker_options_init;

/* qless_joblist_take hands over ownership. */
%newobject qless_joblist_take;

/* ---- results: an int is a status; values have types of their own ---- */
%typemap(out) int = int QLESS_STATUS_OUT;
%apply int QLESS_PLAIN_OUT { qless_bool, qless_error_code };
/* The one int result that is a value, kept an int in C for the ABI. */
%ignore qless_version_number;
%rename(qless_version_number) qless_swig_version_number;
%inline %{
static long qless_swig_version_number(void)
{
	return qless_version_number();
}
%}

/* ---- out-parameters ---- */
%apply SWIGTYPE **QLESS_OUT_HANDLE {
  qless_client **, qless_queue **, qless_job **, qless_recur **, qless_worker **,
  qless_events **, qless_heartbeater **, qless_joblist **, qless_strlist **
};
%apply char **QLESS_OUT_STRING { char ** };
/* SWIG drops qualifiers when no typemap fits a type exactly, and a list of
 * strings in (const char *const *) would then take char **'s out-typemaps:
 * these exact, empty ones keep it an input. */
%typemap(argout) const char *const * "";
%typemap(freearg) const char *const * "";
%apply int64_t *QLESS_OUT_INT { int64_t * };
%apply double *QLESS_OUT_DOUBLE { double * };

/* Option structs hold C arrays whose lifetime a language cannot express;
 * the bindings use the flat qless_swig_* calls below instead, which build
 * the options on the stack for the duration of one call. */
%ignore qless_client_options;
%ignore qless_put_options;
%ignore qless_complete_options;
%ignore qless_recur_options;
%ignore qless_worker_options;
%ignore qless_client_new;
/* Pipelined raw calls: a C-level batching tool, not wrapped. */
%ignore qless_call;
%ignore qless_client_call_batch;
/* Jids for raw batched puts: C-level too (the bindings' put makes its own). */
%ignore qless_jid_generate;
%ignore qless_queue_put;
%ignore qless_job_requeue;
%ignore qless_job_complete;
%ignore qless_queue_recur;
%ignore qless_worker_new;
/* The engine runs C callbacks: each language's file wraps qless_worker_main
 * with trampolines of its own (perform, fork) and reaches nothing else of it. */
%ignore qless_worker_main;
%ignore qless_worker_run;
%ignore qless_worker_run_options;
%ignore qless_result_fail;
%ignore qless_result_retry;
%ignore qless_allowlist_check;
%ignore qless_allowlist_match;

/* Output structs: constructed with their version set. */
%extend qless_queue_counts { qless_queue_counts() { qless_queue_counts *c = calloc(1, sizeof *c); if (c) c->version = QLESS_QUEUE_COUNTS_VERSION; return c; } }
%extend qless_stats { qless_stats() { qless_stats *s = calloc(1, sizeof *s); if (s) s->version = QLESS_STATS_VERSION; return s; } }
%extend qless_timing_stats { int64_t bucket(size_t index) { return index < QLESS_STATS_BUCKETS ? $self->histogram[index] : 0; } }
%ignore qless_timing_stats::histogram;
%immutable qless_queue_counts::version;
%immutable qless_stats::version;

%ignore qless_swig_fill_put;
%inline %{
/* A tags/depends list given as nil is "not given" (NULL); an empty list is sent. */
static int qless_swig_client_new(qless_client **out, const char *url, int connect_timeout_ms,
                                 int command_timeout_ms, const char *worker_name)
{
	qless_client_options o = QLESS_CLIENT_OPTIONS_INIT;
	o.connect_timeout_ms = connect_timeout_ms;
	o.command_timeout_ms = command_timeout_ms;
	o.worker_name = worker_name;
	return qless_client_new(out, url, &o);
}

static void qless_swig_fill_put(qless_put_options *o, const char *jid, double delay, int has_priority,
                                double priority, int retries, QLESS_STRV(tags, ntags),
                                QLESS_STRV(depends, ndepends))
{
	o->jid = jid;
	o->delay = delay;
	o->has_priority = has_priority;
	o->priority = priority;
	o->retries = retries;
	o->tags = tags;
	o->ntags = ntags;
	o->depends = depends;
	o->ndepends = ndepends;
}

static int qless_swig_queue_put(qless_queue *queue, char **out_jid, const char *klass, const char *data,
                                const char *jid, double delay, int has_priority, double priority, int retries,
                                QLESS_STRV(tags, ntags), QLESS_STRV(depends, ndepends))
{
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	qless_swig_fill_put(&o, jid, delay, has_priority, priority, retries, tags, ntags, depends, ndepends);
	return qless_queue_put(queue, out_jid, klass, data, &o);
}

static int qless_swig_job_requeue(qless_job *job, const char *queue, double delay, int has_priority,
                                  double priority, int retries, QLESS_STRV(tags, ntags),
                                  QLESS_STRV(depends, ndepends))
{
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	qless_swig_fill_put(&o, NULL, delay, has_priority, priority, retries, tags, ntags, depends, ndepends);
	return qless_job_requeue(job, queue, &o);
}

static int qless_swig_job_complete(qless_job *job, const char *next, double delay,
                                   QLESS_STRV(depends, ndepends))
{
	qless_complete_options o = QLESS_COMPLETE_OPTIONS_INIT;
	o.next = next;
	o.delay = delay;
	o.depends = depends;
	o.ndepends = ndepends;
	return qless_job_complete(job, &o);
}

static int qless_swig_queue_recur(qless_queue *queue, char **out_jid, const char *klass, const char *data,
                                  double interval, const char *jid, double offset, double priority,
                                  int retries, int backlog, QLESS_STRV(tags, ntags))
{
	qless_recur_options o = QLESS_RECUR_OPTIONS_INIT;
	o.jid = jid;
	o.offset = offset;
	o.priority = priority;
	o.retries = retries;
	o.backlog = backlog;
	o.tags = tags;
	o.ntags = ntags;
	return qless_queue_recur(queue, out_jid, klass, data, interval, &o);
}

static int qless_swig_worker_new(qless_worker **out, qless_client *client, QLESS_STRV(queues, nqueues),
                                 int round_robin, int watch_locks)
{
	qless_worker_options o = QLESS_WORKER_OPTIONS_INIT;
	o.order = round_robin ? QLESS_RESERVE_ROUND_ROBIN : QLESS_RESERVE_ORDERED;
	o.watch_locks = watch_locks;
	return qless_worker_new(out, client, queues, nqueues, &o);
}
%}
%include "qless/common.h"
%include "qless/client.h"
%include "qless/queue.h"
%include "qless/job.h"
%include "qless/recur.h"
%include "qless/worker.h"
%include "qless/events.h"
%include "qless/heartbeater.h"
%include "qless/server.h"
