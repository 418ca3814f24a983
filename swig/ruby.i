/* swig/ruby.i — Ruby part of the libqless interface (qless/core.so, module
 * Qless::Core): typemaps, the Qless::Error classes, freeing a handle now and
 * the worker's hooks. Everything else is in qless.i. */
%module "qless::core"

/* Ruby constants and classes must be capitalised. */
%rename(QueueCounts) qless_queue_counts;
%rename(Stats) qless_stats;
%rename(TimingStats) qless_timing_stats;
%rename(Backoff) qless_backoff;
%rename(When) qless_when;

/* A name the layer gives another meaning (job.klass is the Ruby class,
 * job.tag(*tags) adds tags, client.jobs is a view) moves the core's member
 * aside; setters become Ruby setters. */
%rename(klass_name) qless_job::klass;
%rename(queue_name) qless_job::queue;
%rename(worker_name) qless_job::worker;
%rename(expires_at) qless_job::expires;
%rename(to_json_text) qless_job::json;
%rename(tag_at) qless_job::tag;
%rename(undepend_all) qless_job::depends_clear;
%rename("priority=") qless_job::set_priority;
%rename(klass_name) qless_recur::klass;
%rename(queue_name) qless_recur::queue;
%rename(tag_at) qless_recur::tag;
%rename("priority=") qless_recur::set_priority;
%rename("interval=") qless_recur::set_interval;
%rename("retries=") qless_recur::set_retries;
%rename("backlog=") qless_recur::set_backlog;
%rename("heartbeat=") qless_queue::set_heartbeat;
%rename("max_concurrency=") qless_queue::set_max_concurrency;
%rename("time_offset=") qless_client::set_time_offset;
%rename(job_ids) qless_client::jobs_impl;
%rename(worker_counts) qless_client::workers_impl;
/* events.next holds the GVL while it waits: Ruby's next is next_nogvl (below). */
%ignore qless_events::next_impl;
%rename(next) qless_events::next_nogvl;

%{
#define QLESS_SWIG_WORKER_ERROR "Qless::WorkerError"
#include <limits.h>
#include <string.h>
#include <qless/qless.h>
#include <pthread.h>
#include <ruby/thread.h>

static VALUE qless_rb_errors[QLESS_SWIG_NERRORS];   /* rows of qless_swig_errors (qless.i) */

/* rb_exc_raise longjmps past SWIG's cleanup, so nothing C-allocated may be
 * pending when this runs: the typemaps below keep their temporaries in
 * Ruby-managed memory and out-parameters are only written on success. */
static void qless_rb_raise_message(int code, const char *message)
{
	VALUE msg = rb_utf8_str_new_cstr(message);
	VALUE exc = rb_exc_new_str(qless_rb_errors[qless_swig_error_index(code)], msg);
	rb_ivar_set(exc, rb_intern("@code"), INT2NUM(code));
	rb_ivar_set(exc, rb_intern("@name"), rb_utf8_str_new_cstr(qless_error_name(code)));
	rb_exc_raise(exc);
}

static void qless_rb_raise(int code)
{
	qless_rb_raise_message(code, qless_error_last_message());
}

static void qless_rb_option_type_error(const struct qless_swig_optspec *spec, const struct qless_swig_field *f)
{
	char msg[256];
	qless_swig_type_message(msg, sizeof msg, spec, f);
	rb_raise(rb_eTypeError, "%s", msg);
}

/* A String or Symbol as a C string, kept alive by keep. */
static const char *qless_rb_option_str(VALUE value, VALUE keep)
{
	if (SYMBOL_P(value))
		value = rb_sym2str(value);
	if (!RB_TYPE_P(value, T_STRING))
		return NULL;
	rb_ary_push(keep, value);
	return StringValueCStr(value);
}

/* An Array's strings as a C array (NULL: not an Array). The pointer array
 * lives in a Ruby string, kept with a snapshot of the items (the caller
 * cannot change them under us) by keep: a raise cannot leak it. Items that
 * are no Strings are converted with to_s (coerce) or refused. */
static const char **qless_rb_strv(VALUE value, VALUE keep, int coerce, size_t *count)
{
	VALUE ary = rb_check_array_type(value), buf;
	long i, n;
	if (NIL_P(ary))
		return NULL;
	ary = rb_ary_dup(ary);
	n = RARRAY_LEN(ary);
	buf = rb_str_new(NULL, (long)((n ? n : 1) * sizeof(char *)));
	rb_ary_push(keep, ary);
	rb_ary_push(keep, buf);
	for (i = 0; i < n; i++) {
		VALUE item = rb_ary_entry(ary, i);
		if (coerce)
			rb_ary_store(ary, i, item = rb_obj_as_string(item));
		else if (!RB_TYPE_P(item, T_STRING))
			rb_raise(rb_eTypeError, "expected an Array of Strings");
		((const char **)RSTRING_PTR(buf))[i] = StringValueCStr(item);
	}
	*count = (size_t)n;
	return (const char **)RSTRING_PTR(buf);
}

/* Options (a Hash of Symbol or String -> value, or nil) into *opts; *keep,
 * referenced by the wrapper's frame, holds every Ruby object the struct
 * points into. List items are converted with to_s, as the Ruby API always did. */
static void qless_rb_options(VALUE map, const struct qless_swig_optspec *spec, void *opts, VALUE *keep)
{
	VALUE pairs;
	long i;
	char msg[256];
	memcpy(opts, spec->defaults, spec->size);
	if (NIL_P(map))
		return;
	Check_Type(map, T_HASH);
	*keep = rb_ary_new();
	pairs = rb_funcall(map, rb_intern("to_a"), 0);
	rb_ary_push(*keep, pairs);
	for (i = 0; i < RARRAY_LEN(pairs); i++) {
		VALUE pair = rb_ary_entry(pairs, i), value = rb_ary_entry(pair, 1);
		const char *name = qless_rb_option_str(rb_ary_entry(pair, 0), *keep);
		const struct qless_swig_field *f;
		struct qless_swig_value v = { NULL, NULL, 0, 0, 0 };
		if (!name)
			rb_raise(rb_eTypeError, "%s: option names must be Symbols or Strings", spec->what);
		if (NIL_P(value))
			continue;
		if (!(f = qless_swig_field_find(spec, name))) {
			qless_swig_unknown_message(msg, sizeof msg, spec, name);
			qless_rb_raise_message(QLESS_EINVAL, msg);
		}
		switch (f->kind) {
		case QLESS_SWIG_STR:
			if (!(v.s = qless_rb_option_str(value, *keep)))
				qless_rb_option_type_error(spec, f);
			break;
		case QLESS_SWIG_STRV:
			if (!(v.v = qless_rb_strv(value, *keep, 1, &v.n)))
				qless_rb_option_type_error(spec, f);
			break;
		case QLESS_SWIG_DOUBLE:
			if (!rb_obj_is_kind_of(value, rb_cNumeric))
				qless_rb_option_type_error(spec, f);
			v.d = NUM2DBL(value);
			break;
		case QLESS_SWIG_INT:
			if (!RB_INTEGER_TYPE_P(value))
				qless_rb_option_type_error(spec, f);
			v.i = NUM2LL(value);
			break;
		}
		if (qless_swig_field_set(spec, opts, f, &v, msg, sizeof msg) < 0)
			qless_rb_raise_message(QLESS_EINVAL, msg);
	}
}

/* Output values of one call: none -> nil, one -> itself, several -> an
 * Array (also when the first is nil, unlike SWIG's AppendOutput). */
static VALUE qless_rb_output(VALUE result, VALUE value, int *count)
{
	if ((*count)++ == 0)
		return value;
	if (*count == 2)
		result = rb_ary_new_from_args(1, result);
	rb_ary_push(result, value);
	return result;
}

static VALUE qless_rb_str(const char *s)
{
	return s ? rb_utf8_str_new_cstr(s) : Qnil;
}

/* Qless::Core.release(handle): frees the C handle now instead of at garbage
 * collection (stopping a heartbeater, closing a connection); the proxy then
 * refuses further use. Releasing twice or releasing nil does nothing. */
static VALUE qless_rb_release(VALUE self, VALUE obj)
{
	(void)self;
	if (NIL_P(obj))
		return Qnil;
	if (!RB_TYPE_P(obj, T_DATA) || RTYPEDDATA_P(obj))
		rb_raise(rb_eTypeError, "not a libqless handle");
	{
		void *ptr = DATA_PTR(obj);
		RUBY_DATA_FUNC dfree = RDATA(obj)->dfree;
		RDATA(obj)->dfree = 0;
		DATA_PTR(obj) = NULL;
		if (ptr && dfree)
			dfree(ptr);
	}
	return Qnil;
}

/* Qless::Core.released?(handle): SWIG's type errors inspect the object,
 * so inspect must not touch a released (or no longer lent) handle. */
static VALUE qless_rb_released(VALUE self, VALUE obj)
{
	(void)self;
	return RB_TYPE_P(obj, T_DATA) && !RTYPEDDATA_P(obj) && !DATA_PTR(obj) ? Qtrue : Qfalse;
}

/* qless_events_next without the GVL. No unblocking function: callers keep
 * timeouts short to stay responsive to signals. */
struct qless_rb_next_args {
	qless_events *events;
	int timeout_ms;
	char **channel, **message;
	int rc;
};

static void *qless_rb_next_nogvl(void *p)
{
	struct qless_rb_next_args *a = p;
	a->rc = qless_events_next(a->channel, a->message, a->events, a->timeout_ms);
	return NULL;
}
%}

%init %{
{
	VALUE mQless = rb_define_module("Qless"), mCore = rb_define_module_under(mQless, "Core");
	int i;
	for (i = 0; i < QLESS_SWIG_NERRORS; i++) {
		qless_rb_errors[i] = rb_define_class_under(mQless, qless_swig_errors[i].klass,
		                                           i ? qless_rb_errors[0] : rb_eStandardError);
		rb_gc_register_mark_object(qless_rb_errors[i]);
	}
	rb_define_attr(qless_rb_errors[0], "code", 1, 0);
	rb_define_attr(qless_rb_errors[0], "name", 1, 0);
	rb_define_module_function(mCore, "release", qless_rb_release, 1);
	rb_define_module_function(mCore, "released?", qless_rb_released, 1);
	rb_define_module_function(mCore, "worker_main", qless_rb_worker_main, -1);
	rb_define_module_function(mCore, "schedule_listen", qless_rb_schedule_listen, -1);
}
%}

/* Borrowed strings from accessors: UTF-8 Ruby strings, NULL -> nil. */
%typemap(out) const char * { $result = qless_rb_str($1); }

%typemap(out) int QLESS_PLAIN_OUT = int;
/* qless_nout counts this call's output values (see qless_rb_output); every
 * function with out-parameters returns a status, so the argout typemaps
 * below can rely on it being declared. */
%typemap(out) int QLESS_STATUS_OUT (int qless_nout = 0) {
	if ($1 < 0) qless_rb_raise($1);
	$result = Qnil;
}

%typemap(in, numinputs=0) SWIGTYPE **QLESS_OUT_HANDLE ($*1_ltype tmp = NULL) { $1 = &tmp; }
%typemap(argout) SWIGTYPE **QLESS_OUT_HANDLE {
	$result = qless_rb_output($result, tmp$argnum
		? SWIG_NewPointerObj(SWIG_as_voidptr(tmp$argnum), $*1_descriptor, SWIG_POINTER_OWN)
		: Qnil, &qless_nout);
}

/* The string is copied into Ruby before freearg frees the C one. */
%typemap(in, numinputs=0) char **QLESS_OUT_STRING (char *tmp = NULL) { $1 = &tmp; }
%typemap(argout) char **QLESS_OUT_STRING { $result = qless_rb_output($result, qless_rb_str(tmp$argnum), &qless_nout); }
%typemap(freearg) char **QLESS_OUT_STRING { qless_free(tmp$argnum); }

%typemap(in, numinputs=0) int64_t *QLESS_OUT_INT (int64_t tmp = 0) { $1 = &tmp; }
%typemap(argout) int64_t *QLESS_OUT_INT { $result = qless_rb_output($result, LL2NUM(tmp$argnum), &qless_nout); }
%typemap(in, numinputs=0) double *QLESS_OUT_DOUBLE (double tmp = 0) { $1 = &tmp; }
%typemap(argout) double *QLESS_OUT_DOUBLE { $result = qless_rb_output($result, rb_float_new(tmp$argnum), &qless_nout); }
%typemap(in, numinputs=0) int *QLESS_OUT_FLAG (int tmp = 0) { $1 = &tmp; }
%typemap(argout) int *QLESS_OUT_FLAG { $result = qless_rb_output($result, tmp$argnum ? Qtrue : Qfalse, &qless_nout); }
%typemap(in, numinputs=0) char QLESS_OUT_BUF[ANY] (char tmp[$1_dim0]) { tmp[0] = '\0'; $1 = tmp; }
%typemap(argout) char QLESS_OUT_BUF[ANY] { $result = qless_rb_output($result, qless_rb_str(tmp$argnum), &qless_nout); }

/* nil -> (NULL, 0); an Array of Strings, even empty -> a non-NULL array,
 * referenced from this frame until the call returns. */
%typemap(in) (const char *const *QLESS_STRV, size_t QLESS_STRC) (VALUE keep = Qnil) {
	$2 = 0;
	$1 = NIL_P($input) ? NULL : ($1_ltype)qless_rb_strv($input, keep = rb_ary_new(), 0, &$2);
	if (!NIL_P($input) && !$1) rb_raise(rb_eTypeError, "expected an Array of Strings");
}
%typemap(freearg) (const char *const *QLESS_STRV, size_t QLESS_STRC) { RB_GC_GUARD(keep$argnum); }

/* ---- options structs: a Hash of option name -> value (nil: not given) ---- */
%typemap(in) const SWIGTYPE *QLESS_OPTIONS ($*1_ltype opts, VALUE keep = Qnil) {
	qless_rb_options($input, QLESS_SWIG_OPTSPEC(&opts), &opts, &keep);
	$1 = &opts;
}
%typemap(freearg) const SWIGTYPE *QLESS_OPTIONS { RB_GC_GUARD(keep$argnum); }

%include "qless.i"

/* ---- the worker: Ruby's hooks of the trampoline (swig/worker.i) ----
 * Qless::Core.worker_main(argv, run, threads = 0, tree = nil) runs
 * qless_worker_main without the GVL (other Ruby threads live while the
 * engine waits for jobs) on the calling Ruby thread; single_threaded makes
 * the engine call job code and fork on that same thread, where the hooks
 * take the GVL back. Ruby code runs only under rb_protect: an exception
 * must never longjmp through the engine's frames. */
%{
/* A thread pool's calls, handed from the engine's pool threads (not Ruby
 * threads: they may not enter Ruby, not even to take the GVL) to Ruby
 * threads that worker_main starts for the pool and that run them with the
 * GVL. */
struct qless_rb_relayed {
	struct qless_swig_call *call;
	struct qless_rb_relayed *next;
	int done;                 /* set by the Ruby thread that ran it */
};

struct qless_rb_relay {
	pthread_mutex_t mu;
	pthread_cond_t cv;        /* a call queued, a call done, or closed */
	struct qless_rb_relayed *queue;
	int closed;
	VALUE runners;            /* the Ruby threads serving it (an Array) */
};

struct qless_swig_worker {
	VALUE run;                /* run.call(job, client, phase): Qless::Worker.method(:run) */
	int argc;
	const char **argv;        /* malloc'ed with the strings: GC compaction cannot move them */
	const char **tree;        /* ntree class names, then ntree configs (NULL: none); one block */
	size_t ntree;
	qless_schedule *schedule;     /* with listen: a schedule's listen instead of argv */
	qless_listen_options *listen; /* malloc'ed with its allow-list (strings may move) */
	qless_worker_run_options options;
	int status;
	struct qless_rb_relay relay;
};

/* The Ruby side of one call, on the Ruby thread that runs it: VALUEs on a
 * stack the GC scans (a pool thread's is not). */
struct qless_rb_frame {
	struct qless_swig_call *call;
	VALUE job, client, below; /* proxies over borrowed pointers; the stack under the call */
};

static void *qless_rb_enter_gvl(void *call)
{
	qless_swig_call_run(call);
	return NULL;
}

static void qless_swig_lang_enter(struct qless_swig_call *call)
{
	struct qless_rb_relay *r = &call->worker->relay;
	struct qless_rb_relayed item;
	if (ruby_native_thread_p()) {
		rb_thread_call_with_gvl(qless_rb_enter_gvl, call);
		return;
	}
	/* A pool thread: queue the call and wait until a Ruby thread ran it.
	 * The relay stays open until the engine, and so this thread, is done. */
	item.call = call;
	item.done = 0;
	pthread_mutex_lock(&r->mu);
	item.next = r->queue;
	r->queue = &item;
	pthread_cond_broadcast(&r->cv);
	while (!item.done)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
}

static VALUE qless_rb_frame_body(VALUE arg)
{
	struct qless_rb_frame *f = (struct qless_rb_frame *)arg;
	struct qless_swig_call *call = f->call;
	f->below = rb_make_backtrace();
	f->job = SWIG_NewPointerObj(SWIG_as_voidptr(call->job), SWIGTYPE_p_qless_job, 0);
	f->client = SWIG_NewPointerObj(SWIG_as_voidptr(qless_job_client(call->job)), SWIGTYPE_p_qless_client, 0);
	return rb_funcall(call->worker->run, rb_intern("call"), 3, f->job, f->client,
	                  ID2SYM(rb_intern(qless_swig_phase_names[call->phase])));
}

/* The exception's description (below) needs the stack under the call,
 * kept for the thread's current call only. */
static __thread VALUE *qless_rb_below;
static void qless_swig_lang_describe(struct qless_swig_call *call);

static int qless_swig_lang_call(struct qless_swig_call *call)
{
	struct qless_rb_frame f;
	VALUE *outer = qless_rb_below;
	int state = 0;
	f.call = call;
	f.job = f.client = f.below = Qnil;
	qless_rb_below = &f.below;
	rb_protect(qless_rb_frame_body, (VALUE)&f, &state);
	/* The job and its client are the engine's and only lent for this call:
	 * a proxy kept by job code must raise on use, not touch them. */
	if (RB_TYPE_P(f.job, T_DATA))
		DATA_PTR(f.job) = NULL;
	if (RB_TYPE_P(f.client, T_DATA))
		DATA_PTR(f.client) = NULL;
	/* Described here, while f.below is alive: the outcome is then set, and
	 * the skeleton has nothing left to ask. */
	if (state)
		qless_swig_lang_describe(call);
	qless_rb_below = outer;
	RB_GC_GUARD(f.job);
	RB_GC_GUARD(f.client);
	RB_GC_GUARD(f.below);
	return 0;
}

/* A copy of v's string form up to its first NUL byte: the C side can carry no more. */
static VALUE qless_rb_cstr(VALUE v)
{
	v = rb_obj_as_string(v);
	return rb_str_new(RSTRING_PTR(v), (long)strnlen(RSTRING_PTR(v), (size_t)RSTRING_LEN(v)));
}

/* Takes the pending exception out of the interpreter (rb_protect left it
 * set); non-exceptions (a throw to a catch outside worker_main) give nil. */
static VALUE qless_rb_take_error(void)
{
	VALUE err = rb_errinfo();
	rb_set_errinfo(Qnil);
	return (RB_TYPE_P(err, T_OBJECT) && rb_obj_is_kind_of(err, rb_eException)) ? err : Qnil;
}

/* "Class: message\n" and the backtrace without the worker's own frames
 * (the stack under the call, then the dispatcher's); group: the class, or
 * an anonymous class's nearest named ancestor; retried when it is a
 * Qless::RetryableError. d: error, below, run; out: group, message, retry. */
static VALUE qless_rb_describe(VALUE arg)
{
	VALUE *d = (VALUE *)arg;
	VALUE klass = rb_obj_class(d[0]), message, bt = rb_funcall(d[0], rb_intern("backtrace"), 0);
	VALUE where = rb_funcall(d[2], rb_intern("source_location"), 0), file;
	long n, m, i;
	file = RB_TYPE_P(where, T_ARRAY) ? rb_str_plus(rb_obj_as_string(rb_ary_entry(where, 0)), rb_str_new_cstr(":"))
	                                 : rb_str_new_cstr("\n");
	while (RTEST(klass) && NIL_P(rb_mod_name(klass)))
		klass = rb_class_superclass(klass);
	d[3] = RTEST(klass) ? qless_rb_cstr(rb_mod_name(klass)) : rb_str_new_cstr("Exception");
	d[5] = rb_obj_is_kind_of(d[0], rb_path2class("Qless::RetryableError"));
	message = rb_str_dup(d[3]);
	rb_str_cat_cstr(message, ": ");
	rb_str_append(message, qless_rb_cstr(rb_funcall(d[0], rb_intern("message"), 0)));
	if (RB_TYPE_P(bt, T_ARRAY)) {
		n = RARRAY_LEN(bt);
		m = RB_TYPE_P(d[1], T_ARRAY) ? RARRAY_LEN(d[1]) : 0;
		for (i = 0; i < m && i < n && rb_equal(RARRAY_AREF(bt, n - 1 - i), RARRAY_AREF(d[1], m - 1 - i)); i++)
			;
		if (i == m)
			n -= m;
		while (n > 0 && RTEST(rb_funcall(rb_obj_as_string(RARRAY_AREF(bt, n - 1)), rb_intern("start_with?"), 1, file)))
			n--;
		if (n > 0) {
			rb_str_cat_cstr(message, "\n");
			rb_str_append(message, qless_rb_cstr(rb_ary_join(rb_ary_subseq(bt, 0, n), rb_str_new_cstr("\n"))));
		}
	}
	d[4] = message;
	return Qnil;
}

/* Called by qless_swig_lang_call itself, while the stack under the call
 * (qless_rb_below) is alive. */
static void qless_swig_lang_describe(struct qless_swig_call *call)
{
	VALUE d[6] = { qless_rb_take_error(), Qnil, call->worker->run, Qnil, Qnil, Qfalse };
	int state = 0;
	if (NIL_P(d[0])) {
		qless_swig_call_outcome(call, 0, "Qless::WorkerError", "the job code left by a non-local jump (throw)");
		return;
	}
	d[1] = qless_rb_below ? *qless_rb_below : Qnil;
	rb_protect(qless_rb_describe, (VALUE)d, &state);
	if (state) {
		qless_rb_take_error();
		qless_swig_call_outcome(call, 0, "Qless::WorkerError", "the job's exception could not be described");
	} else {
		qless_swig_call_outcome(call, RTEST(d[5]), RSTRING_PTR(d[3]), RSTRING_PTR(d[4]));
	}
	RB_GC_GUARD(d[0]);
	RB_GC_GUARD(d[1]);
	RB_GC_GUARD(d[3]);
	RB_GC_GUARD(d[4]);
}

/* Waits (without the GVL) until a call is queued or the relay closed. */
static void *qless_rb_relay_wait(void *arg)
{
	struct qless_rb_relay *r = arg;
	pthread_mutex_lock(&r->mu);
	while (!r->queue && !r->closed)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

/* The body of a Ruby thread serving the relay. A call is taken only with
 * the GVL held, after the return from the wait (where Ruby may raise into
 * this thread): a runner killed there leaves its call to another. The
 * calls' C frames stay valid while they run: their pool threads wait. */
static VALUE qless_rb_relay_serve(void *arg)
{
	struct qless_rb_relay *r = arg;
	struct qless_rb_relayed *item;
	int closed;
	for (;;) {
		rb_thread_call_without_gvl(qless_rb_relay_wait, r, NULL, NULL);
		pthread_mutex_lock(&r->mu);
		if ((item = r->queue) != NULL)
			r->queue = item->next;
		closed = r->closed;
		pthread_mutex_unlock(&r->mu);
		if (item == NULL) {
			if (closed)
				return Qnil;
			continue;
		}
		qless_swig_call_run(item->call);
		pthread_mutex_lock(&r->mu);
		item->done = 1;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
	}
}

/* Ruby's own fork (Process.fork, so its at-fork work runs: Process._fork
 * hooks, stdio flushed, other threads dropped in the child). */
static VALUE qless_rb_fork_body(VALUE unused)
{
	(void)unused;
	return rb_funcall(rb_mProcess, rb_intern("fork"), 0);
}

static void *qless_rb_fork_gvl(void *arg)
{
	int *pid = arg, state = 0;
	VALUE v = rb_protect(qless_rb_fork_body, Qnil, &state);

	if (state) {
		VALUE err = qless_rb_take_error();
		fprintf(stderr, "qless-worker: Process.fork raised %s\n", NIL_P(err) ? "(a non-local jump)" : rb_obj_classname(err));
		*pid = -1;
	} else if (NIL_P(v)) {
		*pid = 0;   /* the child */
	} else if (FIXNUM_P(v) && FIX2LONG(v) > 0 && FIX2LONG(v) <= INT_MAX) {
		*pid = (int)FIX2LONG(v);
	} else {
		fprintf(stderr, "qless-worker: Process.fork returned neither nil nor a pid\n");
		*pid = -1;
	}
	return NULL;
}

static int qless_swig_lang_fork(struct qless_swig_worker *w)
{
	int pid = -1;
	(void)w;
	rb_thread_call_with_gvl(qless_rb_fork_gvl, &pid);
	return pid;
}

static void *qless_rb_worker_main_nogvl(void *arg)
{
	struct qless_swig_worker *w = arg;
	const char **configs = w->tree ? w->tree + w->ntree : NULL;
	if (w->listen)
		w->status = qless_swig_worker_listen(w, &w->options, w->schedule, w->listen, w->tree, w->ntree, configs,
		                                     w->ntree);
	else
		w->status = qless_swig_worker_run(w, &w->options, w->argv, (size_t)w->argc, w->tree, w->ntree, configs,
		                                  w->ntree);
	/* Freed here: the return to Ruby may raise (pending interrupts). */
	free(w->argv);
	w->argv = NULL;
	free(w->tree);
	w->tree = NULL;
	free(w->listen);
	w->listen = NULL;
	return NULL;
}

/* Starts a Ruby thread serving the relay (under rb_protect: it may raise). */
static VALUE qless_rb_relay_start(VALUE arg)
{
	struct qless_rb_relay *r = (struct qless_rb_relay *)arg;
	return rb_ary_push(r->runners, rb_thread_create(qless_rb_relay_serve, r));
}

static VALUE qless_rb_join(VALUE thread)
{
	return rb_funcall(thread, rb_intern("join"), 0);
}

/* Closes the relay and waits until every runner has left it; returns the
 * tag of the first exception raised meanwhile (0: none), to be re-raised
 * once the relay is gone. */
static int qless_rb_relay_close(struct qless_rb_relay *r)
{
	VALUE runners = r->runners;
	int first = 0, state;
	long i;
	pthread_mutex_lock(&r->mu);
	r->closed = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	/* A join that raises was interrupted, or re-raises what ended the
	 * runner: join again only while it runs. */
	for (i = 0; i < RARRAY_LEN(runners); i++) {
		VALUE t = RARRAY_AREF(runners, i);
		do {
			rb_protect(qless_rb_join, t, &state);
			if (state && !first)
				first = state;
		} while (state && RTEST(rb_funcall(t, rb_intern("alive?"), 0)));
	}
	pthread_cond_destroy(&r->cv);
	pthread_mutex_destroy(&r->mu);
	RB_GC_GUARD(runners);
	return first;
}

/* Bytes the strings of ary (a snapshot: the caller's Array may change)
 * take with their NULs; raises naming what[i] for an item that is no
 * String (nil is taken for NULL where allow_nil) or holds a NUL. */
static size_t qless_rb_strv_size(VALUE ary, const char *what, int allow_nil)
{
	size_t size = 0;
	long i;
	for (i = 0; i < RARRAY_LEN(ary); i++) {
		VALUE s = rb_ary_entry(ary, i);
		if (allow_nil && NIL_P(s))
			continue;
		if (!RB_TYPE_P(s, T_STRING))
			rb_raise(rb_eTypeError, "worker_main: %s[%ld] is not a String%s", what, i, allow_nil ? " or nil" : "");
		StringValueCStr(s);   /* raises on an embedded NUL */
		size += (size_t)RSTRING_LEN(s) + 1;
	}
	return size;
}

/* Copies the strings of ary into p, pointing v[i] at each (NULL for nil);
 * returns the end of what it wrote. */
static char *qless_rb_strv_copy(VALUE ary, const char **v, char *p)
{
	long i;
	for (i = 0; i < RARRAY_LEN(ary); i++) {
		VALUE s = RARRAY_AREF(ary, i);
		if (NIL_P(s)) {
			v[i] = NULL;
			continue;
		}
		memcpy(p, RSTRING_PTR(s), (size_t)RSTRING_LEN(s));
		p[RSTRING_LEN(s)] = '\0';
		v[i] = p;
		p += RSTRING_LEN(s) + 1;
	}
	return p;
}

/* An Array option of worker_main's tree Hash, duplicated; nil: empty. */
static VALUE qless_rb_tree_list(VALUE tree, const char *key)
{
	VALUE v = rb_hash_aref(tree, ID2SYM(rb_intern(key)));
	if (NIL_P(v))
		return rb_ary_new();
	if (NIL_P(v = rb_check_array_type(v)))
		rb_raise(rb_eTypeError, "worker_main: tree[:%s] must be an Array", key);
	return rb_ary_dup(v);
}

static VALUE qless_rb_worker_go(VALUE argv, VALUE run, long threads, VALUE tree, qless_schedule *schedule,
                                const qless_listen_options *listen);

/* The arguments both entries share: run (args[1]), then the optional
 * threads (args[at]) and tree (args[at + 1]). */
static void qless_rb_worker_args(const char *what, int nargs, VALUE *args, int at, long *threads, VALUE *tree)
{
	*threads = 0;
	*tree = Qnil;
	if (nargs > at) {
		if (!RB_INTEGER_TYPE_P(args[at]) || (*threads = NUM2LONG(args[at])) < 0 || *threads > 128)
			rb_raise(rb_eArgError, "%s: threads must be an Integer from 0 to 128", what);
	}
	if (nargs > at + 1 && !NIL_P(*tree = args[at + 1]))
		Check_Type(*tree, T_HASH);
	if (!rb_respond_to(args[1], rb_intern("call")))
		rb_raise(rb_eTypeError, "%s: run must respond to call", what);
}

/* Qless::Core.worker_main(argv, run, threads = 0, tree = nil) -> exit
 * status (Integer). argv: [program name, flags...] (Strings); --require is
 * accepted (the layer loaded the files). run.call(job, client, phase) is
 * the layer's dispatcher (Qless::Worker.run): it gets the job and its
 * client as Core proxies valid during the call only and the phase
 * (:perform, :startup, :shutdown); what it raises is the job's outcome.
 * threads > 0 starts that many Ruby threads to run the calls of a thread
 * pool (argv's --pool threads --size threads); with 0 the engine refuses
 * thread pools. tree: {klasses: [class names], configs: [JSON text or nil,
 * one per class]}, the run's tree classes. */
static VALUE qless_rb_worker_main(int nargs, VALUE *args, VALUE self)
{
	VALUE argv, tree;
	long threads;

	(void)self;
	rb_check_arity(nargs, 2, 4);
	qless_rb_worker_args("worker_main", nargs, args, 2, &threads, &tree);
	argv = rb_check_array_type(args[0]);
	if (NIL_P(argv) || RARRAY_LEN(argv) < 1 || RARRAY_LEN(argv) > 100000)
		rb_raise(rb_eArgError, "worker_main: argv must be an Array of Strings, the program name first");
	return qless_rb_worker_go(argv, args[1], threads, tree, NULL, NULL);
}

/* Qless::Core.schedule_listen(schedule, run, opts, threads = 0, tree = nil)
 * -> exit status: the schedule's listen (qless_swig_worker_listen), opts
 * a Hash of listen options (qless.i: size, pool, interval, max_jobs,
 * allow, signals); run, threads and tree as for worker_main. */
static VALUE qless_rb_schedule_listen(int nargs, VALUE *args, VALUE self)
{
	qless_listen_options opts;
	void *schedule = NULL;
	VALUE tree, keep = Qnil, status;
	long threads;

	(void)self;
	rb_check_arity(nargs, 3, 5);
	if (!SWIG_IsOK(SWIG_ConvertPtr(args[0], &schedule, SWIGTYPE_p_qless_schedule, 0)) || !schedule)
		rb_raise(rb_eTypeError, "schedule_listen: schedule must be a live Qless::Core::Schedule");
	qless_rb_worker_args("schedule_listen", nargs, args, 3, &threads, &tree);
	qless_rb_options(args[2], QLESS_SWIG_OPTSPEC(&opts), &opts, &keep);
	status = qless_rb_worker_go(rb_ary_new(), args[1], threads, tree, (qless_schedule *)schedule, &opts);
	RB_GC_GUARD(keep);
	RB_GC_GUARD(args[0]);
	return status;
}

/* Runs argv (or, with listen, schedule's listen) through the trampoline. */
static VALUE qless_rb_worker_go(VALUE argv, VALUE run, long threads, VALUE tree, qless_schedule *schedule,
                                const qless_listen_options *listen)
{
	qless_worker_run_options init = QLESS_WORKER_RUN_OPTIONS_INIT;
	struct qless_swig_worker w;
	VALUE klasses, configs;
	size_t size, tree_size;
	long n, ntree, i;
	int state = 0;

	argv = rb_ary_dup(argv);
	n = RARRAY_LEN(argv);
	size = (size_t)(n + 1) * sizeof(char *) + qless_rb_strv_size(argv, "argv", 0);
	klasses = NIL_P(tree) ? rb_ary_new() : qless_rb_tree_list(tree, "klasses");
	configs = NIL_P(tree) ? rb_ary_new() : qless_rb_tree_list(tree, "configs");
	ntree = RARRAY_LEN(klasses);
	if (ntree > 100000 || (RARRAY_LEN(configs) != 0 && RARRAY_LEN(configs) != ntree))
		rb_raise(rb_eArgError, "worker_main: tree[:configs] must have one entry per class of tree[:klasses]");
	rb_ary_concat(klasses, configs);   /* one block: the names, then the configs */
	tree_size = (size_t)(ntree * 2 + 1) * sizeof(char *) + qless_rb_strv_size(klasses, "tree", 1);
	memset(&w, 0, sizeof w);
	pthread_mutex_init(&w.relay.mu, NULL);
	pthread_cond_init(&w.relay.cv, NULL);
	w.relay.runners = rb_ary_new();
	for (i = 0; i < threads && !state; i++)
		rb_protect(qless_rb_relay_start, (VALUE)&w.relay, &state);
	/* From here on nothing raises until the relay is closed: its runners
	 * point into this frame, and the one C block cannot leak. */
	w.argv = state ? NULL : malloc(size);
	w.tree = state || !w.argv ? NULL : malloc(tree_size);
	w.listen = state || !w.tree || !listen ? NULL : qless_swig_listen_options_copy(listen);
	if (!w.argv || !w.tree || (listen && !w.listen)) {
		int closing = qless_rb_relay_close(&w.relay);
		free(w.argv);
		free(w.tree);
		if (state || (state = closing) != 0)
			rb_jump_tag(state);
		rb_raise(rb_eNoMemError, "worker_main: out of memory");
	}
	qless_rb_strv_copy(argv, w.argv, (char *)(w.argv + n + 1));
	w.argv[n] = NULL;
	w.argc = (int)n;
	qless_rb_strv_copy(klasses, w.tree, (char *)(w.tree + ntree * 2 + 1));
	if (RARRAY_LEN(configs) == 0)
		for (i = 0; i < ntree; i++)
			w.tree[ntree + i] = NULL;
	w.ntree = (size_t)ntree;
	w.schedule = schedule;
	w.run = run;
	w.options = init;
	w.options.single_threaded = threads == 0;
	w.options.loads_files = 1;
	rb_thread_call_without_gvl(qless_rb_worker_main_nogvl, &w, NULL, NULL);
	/* The engine's threads are gone: no call is queued or running. */
	state = qless_rb_relay_close(&w.relay);
	RB_GC_GUARD(run);
	RB_GC_GUARD(argv);
	RB_GC_GUARD(klasses);
	RB_GC_GUARD(configs);
	RB_GC_GUARD(w.relay.runners);
	if (state)
		rb_jump_tag(state);
	return INT2NUM(w.status);
}
%}

/* Declared after qless.i so the channel/message out-typemaps apply. */
%extend qless_events {
	int next_nogvl(int timeout_ms, char **channel, char **message)
	{
		struct qless_rb_next_args a;
		a.events = $self; a.timeout_ms = timeout_ms; a.channel = channel; a.message = message; a.rc = 0;
		rb_thread_call_without_gvl(qless_rb_next_nogvl, &a, NULL, NULL);
		return a.rc;
	}
}
