/* swig/ruby.i — Ruby part of the libqless interface: module name, typemaps,
 * the Qless::Error classes and a way to free a handle now. Everything else
 * is in qless.i.
 *
 * The extension is qless/core.so (Init_core) and defines module Qless::Core;
 * the Ruby layer in bindings/ruby/lib builds the idiomatic classes on it. */
%module "qless::core"

/* Ruby constants and classes must be capitalised (the handles' classes are
 * named in qless.i: Client, Queue, Job, Recur, Worker, Events, ...). */
%rename(QueueCounts) qless_queue_counts;
%rename(Stats) qless_stats;
%rename(TimingStats) qless_timing_stats;
%rename(Backoff) qless_backoff;
%rename(When) qless_when;

/* The Ruby API's names for the object model's members where they differ
 * (lib/qless reopens these classes as Qless::Job, Qless::Client, ...): a
 * name the layer gives another meaning (job.klass is the Ruby class,
 * job.tag(*tags) adds tags, client.jobs and client.workers are views)
 * moves the core's member aside; setters become Ruby setters. */
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
%rename(job_ids) qless_client::jobs;
%rename(worker_counts) qless_client::workers;
/* events.next holds the GVL while it waits: Ruby's next is next_nogvl (below). */
%ignore qless_events::next;
%rename(next) qless_events::next_nogvl;

/* The engine is driven only through Qless::Core.worker_main (below): its
 * run options hold C callbacks, and a qless_result exists only during one
 * perform call, where the trampoline applies the Ruby outcome to it. */

%{
#include <limits.h>
#include <string.h>
#include <qless/qless.h>
#include <pthread.h>
#include <ruby/thread.h>

static VALUE qless_rb_errors[QLESS_SWIG_NERRORS];   /* rows of qless_swig_errors (qless.i) */

/* Raises the Qless::Error subclass for code with the library's message.
 * rb_exc_raise longjmps past SWIG's cleanup, so nothing C-allocated may be
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

/* Options (a Hash of Symbol or String -> value, or nil) into *opts. Every
 * Ruby object the C struct points into, and the pointer arrays of its
 * lists (Ruby strings), are held by *keep, which the wrapper's frame
 * references: a raise from here on leaks nothing. List items are
 * converted with to_s, as the Ruby API always did. */
static void qless_rb_options(VALUE map, const struct qless_swig_optspec *spec, void *opts, VALUE *keep)
{
	VALUE pairs;
	long i, j, n;
	char msg[256];
	memcpy(opts, spec->defaults, spec->size);
	if (NIL_P(map))
		return;
	Check_Type(map, T_HASH);
	*keep = rb_ary_new();
	pairs = rb_funcall(map, rb_intern("to_a"), 0);
	rb_ary_push(*keep, pairs);
	for (i = 0; i < RARRAY_LEN(pairs); i++) {
		VALUE pair = rb_ary_entry(pairs, i), value = rb_ary_entry(pair, 1), ary, buf;
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
			if (NIL_P(ary = rb_check_array_type(value)))
				qless_rb_option_type_error(spec, f);
			ary = rb_ary_dup(ary);   /* a snapshot the caller cannot change under us */
			rb_ary_push(*keep, ary);
			n = RARRAY_LEN(ary);
			buf = rb_str_new(NULL, (long)((n ? n : 1) * sizeof(char *)));
			rb_ary_push(*keep, buf);
			for (j = 0; j < n; j++) {
				VALUE item = rb_obj_as_string(rb_ary_entry(ary, j));
				rb_ary_store(ary, j, item);
				((const char **)RSTRING_PTR(buf))[j] = StringValueCStr(item);
			}
			v.v = (const char *const *)RSTRING_PTR(buf);
			v.n = (size_t)n;
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

/* Qless::Core.released?(handle): true once the proxy's C handle is gone
 * (released, or lent by the worker engine for a call that has returned).
 * SWIG's type errors inspect the object, so inspect must not touch a
 * released handle. */
static VALUE qless_rb_released(VALUE self, VALUE obj)
{
	(void)self;
	return RB_TYPE_P(obj, T_DATA) && !RTYPEDDATA_P(obj) && !DATA_PTR(obj) ? Qtrue : Qfalse;
}

/* ---- the worker engine: Qless::Core.worker_main(argv, perform) ----
 *
 * qless_worker_main runs without the GVL (so other Ruby threads live while
 * the engine waits for jobs) on the calling Ruby thread; single_threaded
 * makes the engine call perform and fork on that same thread, where the
 * trampolines take the GVL back. Ruby code runs only under rb_protect: an
 * exception must never longjmp through the engine's frames. */
enum { QLESS_RB_COMPLETE = 0, QLESS_RB_FAIL = 1, QLESS_RB_RETRY = 2 };

/* A thread pool's perform calls, handed from the engine's pool threads
 * (not Ruby threads: they may not enter Ruby, not even to take the GVL)
 * to Ruby threads that worker_main starts for the pool and that run them
 * with the GVL. */
struct qless_rb_relay {
	pthread_mutex_t mu;
	pthread_cond_t cv;        /* a call queued, a call done, or closed */
	struct qless_rb_perform_call *queue;
	int closed;
	VALUE runners;            /* the Ruby threads serving it (an Array) */
};

struct qless_rb_worker {
	VALUE perform;            /* callable(job, client) -> nil | [:fail|:retry, group, message] */
	VALUE startup, shutdown;  /* tree-job hooks, the same kind of callable, or nil */
	int argc;
	const char **argv;        /* malloc'ed with the strings: GC compaction cannot move them */
	const char **tree;        /* ntree class names, then ntree configs (NULL: none); one block, like argv */
	size_t ntree;
	qless_worker_run_options run;
	int status;
	struct qless_rb_relay relay;
};

struct qless_rb_perform_call {
	struct qless_rb_worker *worker;
	VALUE fn;                  /* the callable this call runs: perform or a tree hook */
	qless_job *job;
	qless_result *result;
	VALUE job_obj, client_obj; /* proxies over borrowed pointers (no free at GC) */
	VALUE outcome_obj;         /* the job's @outcome (suspend), over the borrowed result */
	VALUE error;               /* the exception that escaped the callable */
	int kind;                  /* QLESS_RB_* */
	VALUE group, message;      /* NUL-free copies, kept alive by this frame */
	struct qless_rb_perform_call *next;   /* in the relay's queue */
	int done;                  /* set by the Ruby thread that ran a relayed call */
};

/* A copy of v's string form up to its first NUL byte: the C side can carry no more. */
static VALUE qless_rb_cstr(VALUE v)
{
	v = rb_obj_as_string(v);
	return rb_str_new(RSTRING_PTR(v), (long)strnlen(RSTRING_PTR(v), (size_t)RSTRING_LEN(v)));
}

static VALUE qless_rb_outcome_class;   /* Qless::Core::Outcome */

/* Outcome#suspend: qless_result_suspend on the result of the call that
 * lent it, so job code learns at once when its job cannot be suspended. */
static VALUE qless_rb_outcome_suspend(VALUE self)
{
	qless_result *result = DATA_PTR(self);
	int rc;
	if (!result)
		qless_rb_raise_message(QLESS_ESTATE, "Job#suspend: the worker's run of this job is over; "
		                       "call suspend during perform");
	if ((rc = qless_result_suspend(result)) != QLESS_OK)
		qless_rb_raise(rc);
	return Qnil;
}

static VALUE qless_rb_perform_body(VALUE arg)
{
	struct qless_rb_perform_call *c = (struct qless_rb_perform_call *)arg;
	VALUE r, kind, job, client, outcome;

	/* Locals guarded below: a relayed call's struct is on a pool thread's
	 * stack, which Ruby's GC does not scan, while these allocate. */
	c->job_obj = job = SWIG_NewPointerObj(SWIG_as_voidptr(c->job), SWIGTYPE_p_qless_job, 0);
	c->client_obj = client = SWIG_NewPointerObj(SWIG_as_voidptr(qless_job_client(c->job)), SWIGTYPE_p_qless_client, 0);
	c->outcome_obj = outcome = rb_data_object_wrap(qless_rb_outcome_class, c->result, NULL, NULL);
	rb_ivar_set(job, rb_intern("@outcome"), outcome);
	r = rb_funcall(c->fn, rb_intern("call"), 2, job, client);
	RB_GC_GUARD(job);
	RB_GC_GUARD(client);
	RB_GC_GUARD(outcome);
	if (NIL_P(r))
		return Qnil;
	if (!RB_TYPE_P(r, T_ARRAY) || RARRAY_LEN(r) != 3)
		rb_raise(rb_eTypeError, "the perform callable returned %" PRIsVALUE ", not nil or [:fail|:retry, group, message]",
		         rb_inspect(r));
	kind = rb_ary_entry(r, 0);
	if (kind == ID2SYM(rb_intern("fail")))
		c->kind = QLESS_RB_FAIL;
	else if (kind == ID2SYM(rb_intern("retry")))
		c->kind = QLESS_RB_RETRY;
	else
		rb_raise(rb_eArgError, "unknown outcome %" PRIsVALUE " (expected :fail or :retry)", rb_inspect(kind));
	c->group = qless_rb_cstr(rb_ary_entry(r, 1));
	c->message = qless_rb_cstr(rb_ary_entry(r, 2));
	return Qnil;
}

/* Group and message of an exception that escaped the callable, in the
 * layer's own format: "Class: message\n" + backtrace. */
static VALUE qless_rb_describe(VALUE arg)
{
	struct qless_rb_perform_call *c = (struct qless_rb_perform_call *)arg;
	VALUE group = qless_rb_cstr(rb_class_name(rb_obj_class(c->error)));
	VALUE message = rb_str_dup(group), bt;

	rb_str_cat_cstr(message, ": ");
	rb_str_append(message, qless_rb_cstr(rb_funcall(c->error, rb_intern("message"), 0)));
	bt = rb_funcall(c->error, rb_intern("backtrace"), 0);
	if (RB_TYPE_P(bt, T_ARRAY)) {
		rb_str_cat_cstr(message, "\n");
		rb_str_append(message, qless_rb_cstr(rb_ary_join(bt, rb_str_new_cstr("\n"))));
	}
	c->group = group;
	c->message = message;
	return Qnil;
}

/* Takes the pending exception out of the interpreter (rb_protect left it
 * set); non-exceptions (a throw to a catch outside worker_main) give nil. */
static VALUE qless_rb_take_error(void)
{
	VALUE err = rb_errinfo();
	rb_set_errinfo(Qnil);
	return (RB_TYPE_P(err, T_OBJECT) && rb_obj_is_kind_of(err, rb_eException)) ? err : Qnil;
}

static void *qless_rb_perform_gvl(void *arg)
{
	struct qless_rb_perform_call *c = arg;
	int state = 0, rc = QLESS_OK;
	const char *group = NULL, *message = NULL;

	rb_protect(qless_rb_perform_body, (VALUE)c, &state);
	/* The job and its client are the engine's and only borrowed for this
	 * call: a proxy kept by job code must raise on use, not touch them. */
	if (RB_TYPE_P(c->job_obj, T_DATA))
		DATA_PTR(c->job_obj) = NULL;
	if (RB_TYPE_P(c->client_obj, T_DATA))
		DATA_PTR(c->client_obj) = NULL;
	if (RB_TYPE_P(c->outcome_obj, T_DATA))
		DATA_PTR(c->outcome_obj) = NULL;
	if (state) {
		c->kind = QLESS_RB_FAIL;
		c->group = c->message = Qnil;
		c->error = qless_rb_take_error();
		if (!NIL_P(c->error)) {
			rb_protect(qless_rb_describe, (VALUE)c, &state);
			if (state)
				qless_rb_take_error();
		}
		if (NIL_P(c->group) || NIL_P(c->message)) {
			c->group = rb_str_new_cstr("Qless::WorkerError");
			c->message = rb_str_new_cstr("the job code left by a non-local jump, or its exception could not be described");
		}
		fprintf(stderr, "qless-worker: %s: an exception escaped the Ruby perform callable: %s\n",
		        qless_job_jid(c->job), RSTRING_PTR(c->message));
	}
	if (c->kind == QLESS_RB_COMPLETE)
		return NULL;   /* the engine's default outcome */
	group = RSTRING_PTR(c->group);
	message = RSTRING_PTR(c->message);
	rc = c->kind == QLESS_RB_RETRY ? qless_result_retry(c->result, group, message, -1.0)
	                               : qless_result_fail(c->result, group, message);
	if (rc != QLESS_OK) {
		/* e.g. an empty group: still a failure, never the default complete */
		fprintf(stderr, "qless-worker: %s: outcome %s/%s refused (%s): failing the job\n", qless_job_jid(c->job),
		        group, message, qless_error_last_message());
		qless_result_fail(c->result, "Qless::WorkerError", message[0] ? message : "invalid outcome");
	}
	RB_GC_GUARD(c->group);
	RB_GC_GUARD(c->message);
	return NULL;
}

static void qless_rb_call(struct qless_rb_worker *w, VALUE fn, qless_job *job, qless_result *result)
{
	struct qless_rb_perform_call c;
	memset(&c, 0, sizeof c);
	c.worker = w;
	c.fn = fn;
	c.job = job;
	c.result = result;
	c.job_obj = c.client_obj = c.outcome_obj = c.error = c.group = c.message = Qnil;
	if (ruby_native_thread_p()) {
		rb_thread_call_with_gvl(qless_rb_perform_gvl, &c);
		return;
	}
	/* A pool thread: queue the call and wait until a Ruby thread ran it.
	 * The relay stays open until the engine, and so this thread, is done. */
	pthread_mutex_lock(&c.worker->relay.mu);
	c.next = c.worker->relay.queue;
	c.worker->relay.queue = &c;
	pthread_cond_broadcast(&c.worker->relay.cv);
	while (!c.done)
		pthread_cond_wait(&c.worker->relay.cv, &c.worker->relay.mu);
	pthread_mutex_unlock(&c.worker->relay.mu);
}

static void qless_rb_perform(void *ctx, qless_job *job, qless_result *result)
{
	qless_rb_call(ctx, ((struct qless_rb_worker *)ctx)->perform, job, result);
}

static void qless_rb_startup(void *ctx, qless_job *job, qless_result *result)
{
	qless_rb_call(ctx, ((struct qless_rb_worker *)ctx)->startup, job, result);
}

static void qless_rb_shutdown(void *ctx, qless_job *job, qless_result *result)
{
	qless_rb_call(ctx, ((struct qless_rb_worker *)ctx)->shutdown, job, result);
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
	struct qless_rb_perform_call *c;
	int closed;
	for (;;) {
		rb_thread_call_without_gvl(qless_rb_relay_wait, r, NULL, NULL);
		pthread_mutex_lock(&r->mu);
		if ((c = r->queue) != NULL)
			r->queue = c->next;
		closed = r->closed;
		pthread_mutex_unlock(&r->mu);
		if (c == NULL) {
			if (closed)
				return Qnil;
			continue;
		}
		qless_rb_perform_gvl(c);
		pthread_mutex_lock(&r->mu);
		c->done = 1;
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

static int qless_rb_fork(void *ctx)
{
	int pid = -1;
	(void)ctx;
	rb_thread_call_with_gvl(qless_rb_fork_gvl, &pid);
	return pid;
}

static void *qless_rb_worker_main_nogvl(void *arg)
{
	struct qless_rb_worker *w = arg;
	w->status = qless_worker_main(w->argc, (const char *const *)w->argv, &w->run);
	/* Freed here: the return to Ruby may raise (pending interrupts). */
	free(w->argv);
	w->argv = NULL;
	free(w->tree);
	w->tree = NULL;
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

static VALUE qless_rb_tree_hook(VALUE tree, const char *key)
{
	VALUE v = rb_hash_aref(tree, ID2SYM(rb_intern(key)));
	if (!NIL_P(v) && !rb_respond_to(v, rb_intern("call")))
		rb_raise(rb_eTypeError, "worker_main: tree[:%s] must respond to call", key);
	return v;
}

/* Qless::Core.worker_main(argv, perform, threads = 0, tree = nil) -> exit
 * status (Integer). argv: [program name, flags...] (Strings).
 * perform.call(job, client) gets the job and its client as Core proxies
 * valid during the call only, and returns nil (complete) or [:fail |
 * :retry, group, message]; the job's @outcome (a Core::Outcome, valid as
 * long) suspends a tree job. threads > 0 starts that many Ruby threads to
 * run the calls of a thread pool (argv's --pool threads --size threads);
 * with 0 the engine refuses thread pools. tree: the run's tree-job options
 * (worker.h, version 4): {klasses: [class names], configs: [JSON text or
 * nil, one per class], startup:, shutdown: (callables like perform, or
 * nil)}. */
static VALUE qless_rb_worker_main(int nargs, VALUE *args, VALUE self)
{
	qless_worker_run_options init = QLESS_WORKER_RUN_OPTIONS_INIT;
	struct qless_rb_worker w;
	VALUE argv, perform, tree = Qnil, klasses, configs, startup = Qnil, shutdown = Qnil;
	size_t size, tree_size;
	long n, ntree, i, threads = 0;
	int state = 0;

	(void)self;
	rb_check_arity(nargs, 2, 4);
	argv = args[0];
	perform = args[1];
	if (nargs >= 3) {
		if (!RB_INTEGER_TYPE_P(args[2]) || (threads = NUM2LONG(args[2])) < 0 || threads > 128)
			rb_raise(rb_eArgError, "worker_main: threads must be an Integer from 0 to 128");
	}
	if (nargs == 4 && !NIL_P(tree = args[3]))
		Check_Type(tree, T_HASH);
	argv = rb_check_array_type(argv);
	if (NIL_P(argv) || RARRAY_LEN(argv) < 1 || RARRAY_LEN(argv) > 100000)
		rb_raise(rb_eArgError, "worker_main: argv must be an Array of Strings, the program name first");
	if (!rb_respond_to(perform, rb_intern("call")))
		rb_raise(rb_eTypeError, "worker_main: perform must respond to call");
	argv = rb_ary_dup(argv);
	n = RARRAY_LEN(argv);
	size = (size_t)(n + 1) * sizeof(char *) + qless_rb_strv_size(argv, "argv", 0);
	klasses = NIL_P(tree) ? rb_ary_new() : qless_rb_tree_list(tree, "klasses");
	configs = NIL_P(tree) ? rb_ary_new() : qless_rb_tree_list(tree, "configs");
	if (!NIL_P(tree)) {
		startup = qless_rb_tree_hook(tree, "startup");
		shutdown = qless_rb_tree_hook(tree, "shutdown");
	}
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
	if (!w.argv || !w.tree) {
		int closing = qless_rb_relay_close(&w.relay);
		free(w.argv);
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
	w.perform = perform;
	w.startup = startup;
	w.shutdown = shutdown;
	w.run = init;
	w.run.perform = qless_rb_perform;
	w.run.tree_klasses = w.tree;
	w.run.tree_configs = w.tree + ntree;
	w.run.ntree = w.ntree;
	w.run.startup = NIL_P(startup) ? NULL : qless_rb_startup;
	w.run.shutdown = NIL_P(shutdown) ? NULL : qless_rb_shutdown;
	w.run.fork = qless_rb_fork;
	w.run.ctx = &w;
	w.run.single_threaded = threads == 0;
	/* Klass.perform by const lookup: the operator's allow-list is required. */
	w.run.resolves_classes = 1;
	rb_thread_call_without_gvl(qless_rb_worker_main_nogvl, &w, NULL, NULL);
	/* The engine's threads are gone: no call is queued or running. */
	state = qless_rb_relay_close(&w.relay);
	RB_GC_GUARD(perform);
	RB_GC_GUARD(argv);
	RB_GC_GUARD(klasses);
	RB_GC_GUARD(configs);
	RB_GC_GUARD(startup);
	RB_GC_GUARD(shutdown);
	RB_GC_GUARD(w.relay.runners);
	if (state)
		rb_jump_tag(state);
	return INT2NUM(w.status);
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
	VALUE mQless = rb_define_module("Qless");
	int i;
	for (i = 0; i < QLESS_SWIG_NERRORS; i++) {
		qless_rb_errors[i] = rb_define_class_under(mQless, qless_swig_errors[i].klass,
		                                           i ? qless_rb_errors[0] : rb_eStandardError);
		rb_gc_register_mark_object(qless_rb_errors[i]);
	}
	rb_define_attr(qless_rb_errors[0], "code", 1, 0);
	rb_define_attr(qless_rb_errors[0], "name", 1, 0);
	rb_define_module_function(rb_define_module_under(mQless, "Core"), "release", qless_rb_release, 1);
	rb_define_module_function(rb_define_module_under(mQless, "Core"), "released?", qless_rb_released, 1);
	rb_define_module_function(rb_define_module_under(mQless, "Core"), "worker_main", qless_rb_worker_main, -1);
	/* Lent to job code as job's @outcome during one engine call only. */
	qless_rb_outcome_class = rb_define_class_under(rb_define_module_under(mQless, "Core"), "Outcome", rb_cObject);
	rb_undef_alloc_func(qless_rb_outcome_class);
	rb_gc_register_mark_object(qless_rb_outcome_class);
	rb_define_method(qless_rb_outcome_class, "suspend", qless_rb_outcome_suspend, 0);
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

/* ---- options structs: a Hash of option name -> value (nil: not given) ---- */
%typemap(in) const SWIGTYPE *QLESS_OPTIONS ($*1_ltype opts, VALUE keep = Qnil) {
	qless_rb_options($input, QLESS_SWIG_OPTSPEC(&opts), &opts, &keep);
	$1 = &opts;
}
%typemap(freearg) const SWIGTYPE *QLESS_OPTIONS { RB_GC_GUARD(keep$argnum); }

%include "qless.i"

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
