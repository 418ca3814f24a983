/* swig/ruby.i — Ruby part of the libqless interface: module name, typemaps,
 * the Qless::Error classes and a way to free a handle now. Everything else
 * is in qless.i.
 *
 * The extension is qless/core.so (Init_core) and defines module Qless::Core;
 * the Ruby layer in bindings/ruby/lib builds the idiomatic classes on it. */
%module "qless::core"

/* Ruby constants and classes must be capitalised. */
%rename(Client) qless_client;
%rename(Queue) qless_queue;
%rename(Job) qless_job;
%rename(Recur) qless_recur;
%rename(Worker) qless_worker;
%rename(Events) qless_events;
%rename(StrList) qless_strlist;
%rename(JobList) qless_joblist;
%rename(Heartbeater) qless_heartbeater;
%rename(QueueCounts) qless_queue_counts;
%rename(Stats) qless_stats;
%rename(TimingStats) qless_timing_stats;

%{
#include <qless/qless.h>
#include <ruby/thread.h>

static VALUE qless_rb_errors[8];   /* indexed by -code; [0] is Qless::Error */

/* Raises the Qless::Error subclass for code with the library's message.
 * rb_exc_raise longjmps past SWIG's cleanup, so nothing C-allocated may be
 * pending when this runs: the typemaps below keep their temporaries in
 * Ruby-managed memory and out-parameters are only written on success. */
static void qless_rb_raise(int code)
{
	int i = (code < 0 && -code < 8) ? -code : 0;
	VALUE msg = rb_utf8_str_new_cstr(qless_error_last_message());
	VALUE exc = rb_exc_new_str(qless_rb_errors[i], msg);
	rb_ivar_set(exc, rb_intern("@code"), INT2NUM(code));
	rb_ivar_set(exc, rb_intern("@name"), rb_utf8_str_new_cstr(qless_error_name(code)));
	rb_exc_raise(exc);
}

/* Output values of one call: none -> nil, one -> itself, several -> an
 * Array (also when the first of them is nil, unlike SWIG's AppendOutput). */
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
 * collection (stopping a heartbeater thread, closing a connection). The
 * proxy then refuses further use (ObjectPreviouslyDeleted); releasing twice
 * or releasing nil does nothing. */
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

/* qless_events_next without the GVL, so other Ruby threads run while one
 * waits for a message. No unblocking function: callers keep timeouts short
 * to stay responsive to signals. */
struct qless_rb_next_args {
	qless_events *events;
	int timeout_ms;
	char **channel, **message;
	int rc;
};

static void *qless_rb_next_nogvl(void *p)
{
	struct qless_rb_next_args *a = p;
	a->rc = qless_events_next(a->events, a->timeout_ms, a->channel, a->message);
	return NULL;
}
%}

%init %{
{
	static const char *names[8] = { "Error", "InvalidArgument", "NotFound", "LockLost",
		"StateError", "ProtocolError", "ConnectionError", "OutOfMemory" };
	VALUE mQless = rb_define_module("Qless");
	int i;
	qless_rb_errors[0] = rb_define_class_under(mQless, names[0], rb_eStandardError);
	rb_define_attr(qless_rb_errors[0], "code", 1, 0);
	rb_define_attr(qless_rb_errors[0], "name", 1, 0);
	rb_gc_register_mark_object(qless_rb_errors[0]);
	for (i = 1; i < 8; i++) {
		qless_rb_errors[i] = rb_define_class_under(mQless, names[i], qless_rb_errors[0]);
		rb_gc_register_mark_object(qless_rb_errors[i]);
	}
	rb_define_module_function(rb_define_module_under(mQless, "Core"), "release", qless_rb_release, 1);
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

/* nil -> (NULL, 0); an Array of Strings, even empty -> a non-NULL array.
 * The pointer array lives in a Ruby string so that a raise (type error
 * here, qless error later) cannot leak it; the array and its strings are
 * referenced from this frame until the call returns. */
%typemap(in) (const char *const *QLESS_STRV, size_t QLESS_STRC) (VALUE buf = Qnil, VALUE ary = Qnil) {
	if (NIL_P($input)) {
		$1 = NULL; $2 = 0;
	} else {
		long i, n;
		const char **v;
		ary = rb_check_array_type($input);
		if (NIL_P(ary)) rb_raise(rb_eTypeError, "expected an Array of Strings");
		ary = rb_ary_dup(ary);   /* a snapshot the caller cannot change under us */
		n = RARRAY_LEN(ary);
		buf = rb_str_new(NULL, (long)((n ? n : 1) * sizeof(char *)));
		v = (const char **)RSTRING_PTR(buf);
		for (i = 0; i < n; i++) {
			VALUE item = rb_ary_entry(ary, i);
			if (!RB_TYPE_P(item, T_STRING)) rb_raise(rb_eTypeError, "expected an Array of Strings");
			v[i] = StringValueCStr(item);
		}
		$1 = ($1_ltype)v; $2 = (size_t)n;
	}
}
%typemap(freearg) (const char *const *QLESS_STRV, size_t QLESS_STRC) { RB_GC_GUARD(buf$argnum); RB_GC_GUARD(ary$argnum); }

%include "qless.i"

/* Declared after qless.i so the channel/message out-typemaps apply. */
%inline %{
static int qless_rb_events_next(qless_events *events, int timeout_ms, char **channel, char **message)
{
	struct qless_rb_next_args a;
	a.events = events; a.timeout_ms = timeout_ms; a.channel = channel; a.message = message; a.rc = 0;
	rb_thread_call_without_gvl(qless_rb_next_nogvl, &a, NULL, NULL);
	return a.rc;
}
%}
