/*
 * swig/qless.i — the language-neutral part of the libqless SWIG interface.
 *
 * Each language's entry file (python.i, ruby.i, lua.i) declares %module,
 * defines the typemaps named below for its language, then includes this
 * file. This file decides WHICH C parameters use which typemap, which
 * functions are hidden, and how handles are destroyed, once for everyone.
 *
 * Typemaps a language file must provide:
 *   int QLESS_STATUS_OUT              return of a status code: negative -> raise
 *                                     qless error (code + message); else no value
 *   int QLESS_PLAIN_OUT               copy of the language's default (out) int
 *   SWIGTYPE **QLESS_OUT_HANDLE       (in, numinputs=0 + argout) owned handle
 *                                     out-parameter -> proxy owning it (NULL -> nil)
 *   char **QLESS_OUT_STRING           owned string out-parameter (freed with
 *                                     qless_free) -> string (NULL -> nil)
 *   int64_t *QLESS_OUT_INT, double *QLESS_OUT_DOUBLE   numeric out-parameters
 *   (const char *const *QLESS_STRV, size_t QLESS_STRC) list of strings in
 *                                     (nil -> NULL, 0)
 *   int64_t / size_t results          as native integers
 */

%{
#include <qless/qless.h>
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

/* ---- status codes ---- */
%typemap(out) int = int QLESS_STATUS_OUT;
%apply int QLESS_PLAIN_OUT { int qless_version_number, int qless_error_last_code, int qless_job_tracked, int qless_heartbeater_lost, int paused, int qless_job_lock_lost };

/* ---- out-parameters ---- */
%apply SWIGTYPE **QLESS_OUT_HANDLE {
  qless_client **out, qless_queue **out, qless_job **out, qless_recur **out,
  qless_worker **out, qless_events **out, qless_heartbeater **out,
  qless_joblist **out, qless_joblist **jobs,
  qless_strlist **out, qless_strlist **jobs, qless_strlist **stalled, qless_strlist **expired
};
%apply char **QLESS_OUT_STRING { char **out, char **out_jid, char **channel, char **message };
%apply int64_t *QLESS_OUT_INT { int64_t *out, int64_t *total, int64_t *out_moved, int64_t *out_remaining };
%apply double *QLESS_OUT_DOUBLE { double *out_expires };

/* ---- lists of strings in ---- */
%apply (const char *const *QLESS_STRV, size_t QLESS_STRC) {
  (const char *const *jids, size_t njids),
  (const char *const *argv, size_t argc),
  (const char *const *tags, size_t ntags),
  (const char *const *workers, size_t n),
  (const char *const *channels, size_t nchannels),
  (const char *const *queues, size_t nqueues)
};

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
%apply (const char *const *QLESS_STRV, size_t QLESS_STRC) { (const char *const *depends, size_t ndepends) };

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
                                double priority, int retries, const char *const *tags, size_t ntags,
                                const char *const *depends, size_t ndepends)
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
                                const char *const *tags, size_t ntags, const char *const *depends, size_t ndepends)
{
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	qless_swig_fill_put(&o, jid, delay, has_priority, priority, retries, tags, ntags, depends, ndepends);
	return qless_queue_put(queue, out_jid, klass, data, &o);
}

static int qless_swig_job_requeue(qless_job *job, const char *queue, double delay, int has_priority,
                                  double priority, int retries, const char *const *tags, size_t ntags,
                                  const char *const *depends, size_t ndepends)
{
	qless_put_options o = QLESS_PUT_OPTIONS_INIT;
	qless_swig_fill_put(&o, NULL, delay, has_priority, priority, retries, tags, ntags, depends, ndepends);
	return qless_job_requeue(job, queue, &o);
}

static int qless_swig_job_complete(qless_job *job, const char *next, double delay,
                                   const char *const *depends, size_t ndepends)
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
                                  int retries, int backlog, const char *const *tags, size_t ntags)
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

static int qless_swig_worker_new(qless_worker **out, qless_client *client, const char *const *queues,
                                 size_t nqueues, int round_robin, int watch_locks)
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
