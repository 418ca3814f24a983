/* swig/php.i — PHP part of the libqless interface (qless.so, PHP 8, SWIG
 * 4.1): module, typemaps, the Qless\Exception classes (the status typemap
 * throws them) and the worker's hooks. The rest is qless.i. SWIG 4.1's PHP
 * backend has no namespaces: bindings/php/Qless.php extends the generated
 * global classes into Qless\, and the handle typemaps hand out those. */
%module qless

%{
#define QLESS_SWIG_WORKER_ERROR "Qless\\WorkerError"
#include <string.h>
#include <qless/qless.h>
#include "ext/spl/spl_exceptions.h"

/* The classes of qless_swig_errors (swig/qless.i), row by row; row 0 is
 * Qless\Exception (PHP's own Error is taken), the base of the others. */
static zend_class_entry *qless_php_errors[QLESS_SWIG_NERRORS];

static void qless_php_raise(int code, const char *message)
{
	zend_throw_exception(qless_php_errors[qless_swig_error_index(code)], message, code);
}

/* Output values of one call: none -> null, one -> itself, several -> a
 * list (also when the first is null, unlike SWIG's t_output_helper). */
static void qless_php_output(zval *result, zval *value, int *count)
{
	if ((*count)++ == 1) {
		zval first;
		ZVAL_COPY_VALUE(&first, result);
		array_init(result);
		add_next_index_zval(result, &first);
	}
	if (*count == 1)
		ZVAL_COPY_VALUE(result, value);
	else
		add_next_index_zval(result, value);
}

/* value as a C string borrowed from it, or NULL when it is no string or
 * has a NUL byte (C would silently cut it there). */
static const char *qless_php_str(zval *value)
{
	ZVAL_DEREF(value);
	return Z_TYPE_P(value) == IS_STRING && strlen(Z_STRVAL_P(value)) == Z_STRLEN_P(value) ? Z_STRVAL_P(value) : NULL;
}

/* The values of a PHP array, in order, into items (room for all of them) by
 * qless_php_str: their number, or -1 when one is no such string. */
static long qless_php_strings(zval *array, const char **items)
{
	long n = 0;
	zval *item;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(array), item) {
		if (!(items[n++] = qless_php_str(item)))
			return -1;
	} ZEND_HASH_FOREACH_END();
	return n;
}
%}

%init %{
{
	int i;
	for (i = 0; i < QLESS_SWIG_NERRORS; i++) {
		zend_class_entry ce;
		char name[64];
		snprintf(name, sizeof name, "Qless\\%s", i ? qless_swig_errors[i].klass : "Exception");
		INIT_CLASS_ENTRY_EX(ce, name, strlen(name), NULL);
		qless_php_errors[i] = zend_register_internal_class_ex(&ce, i ? qless_php_errors[0] : spl_ce_RuntimeException);
	}
}
%}

/* Strings in: only PHP strings without NUL bytes (or null -> NULL), whatever
 * strict_types says: SWIG's stock typemap converts other types in place and
 * leaks the converted string. */
%typemap(in, phptype="?string") const char *, char * {
	if (Z_TYPE($input) != IS_NULL && !($1 = ($1_ltype)qless_php_str(&$input))) {
		if (Z_TYPE($input) == IS_STRING) zend_value_error("$symname(): $1_name contains a NUL byte");
		else zend_type_error("$symname(): $1_name must be a string, %s given", zend_zval_type_name(&$input));
		SWIG_fail;
	}
}

/* Numbers (and enums: a port's side) in, likewise: SWIG's stock typemaps turn "soon" or null into 0,
 * and a value C cannot hold into another value. */
%typemap(in, phptype="int") int64_t, int, size_t, enum SWIGTYPE {
	if (Z_TYPE($input) != IS_LONG) {
		zend_type_error("$symname(): $1_name must be an int, %s given", zend_zval_type_name(&$input));
		SWIG_fail;
	}
	$1 = ($1_ltype)Z_LVAL($input);
	if ((zend_long)$1 != Z_LVAL($input) || (($1_ltype)-1 > 0 && Z_LVAL($input) < 0)) {
		zend_value_error("$symname(): $1_name is out of range");
		SWIG_fail;
	}
}
%typemap(in, phptype="float") double {
	if (Z_TYPE($input) != IS_LONG && Z_TYPE($input) != IS_DOUBLE) {
		zend_type_error("$symname(): $1_name must be a number, %s given", zend_zval_type_name(&$input));
		SWIG_fail;
	}
	$1 = zval_get_double(&$input);
}

%typemap(out) int QLESS_PLAIN_OUT = int;
/* qless_nout counts this call's output values (see qless_php_output); every
 * function with out-parameters returns a status, so the argout typemaps
 * below can rely on it being declared. */
%typemap(out) int QLESS_STATUS_OUT (int qless_nout = 0) {
	if ($1 < 0) { qless_php_raise($1, qless_error_last_message()); SWIG_fail; }
	RETVAL_NULL();
}

/* Handles the extension hands out are objects of the layer's class of the
 * same name in Qless\ (QlessJob -> Qless\Job) when Qless.php has defined one
 * that extends the generated class, else of the generated class. Looked up
 * at each call: a request's user classes die with the request. */
%{
static void qless_php_wrap(zval *z, void *ptr, swig_type_info *type, int own)
{
	zend_class_entry *swig = (zend_class_entry *)type->clientdata, *ce;
	char name[64];
	ZVAL_NULL(z);   /* SWIG_SetPointerZval reuses an object already in z */
	if (ptr && swig && strncmp(ZSTR_VAL(swig->name), "Qless", 5) == 0) {
		snprintf(name, sizeof name, "qless\\%s", ZSTR_VAL(swig->name) + 5);
		zend_str_tolower(name, strlen(name));   /* the class table's keys */
		if ((ce = zend_hash_str_find_ptr(EG(class_table), name, strlen(name))) && instanceof_function(ce, swig))
			ZVAL_OBJ(z, ce->create_object(ce));
	}
	SWIG_SetPointerZval(z, ptr, type, own);
}
%}

%typemap(in, numinputs=0) SWIGTYPE **QLESS_OUT_HANDLE ($*1_ltype tmp = NULL) { $1 = &tmp; }
%typemap(argout) SWIGTYPE **QLESS_OUT_HANDLE {
	zval o;
	qless_php_wrap(&o, (void *)tmp$argnum, $*1_descriptor, 1);
	qless_php_output($result, &o, &qless_nout);
}
/* The one handle returned as a result: JobList::take's job. */
%typemap(out) qless_job * { qless_php_wrap($result, (void *)$1, $1_descriptor, $owner); }

/* The string is copied into PHP before freearg frees the C one. */
%typemap(in, numinputs=0) char **QLESS_OUT_STRING (char *tmp = NULL) { $1 = &tmp; }
%typemap(argout) char **QLESS_OUT_STRING {
	zval o;
	if (tmp$argnum) ZVAL_STRING(&o, tmp$argnum); else ZVAL_NULL(&o);
	qless_php_output($result, &o, &qless_nout);
}
%typemap(freearg) char **QLESS_OUT_STRING { qless_free(tmp$argnum); }

%typemap(in, numinputs=0) int64_t *QLESS_OUT_INT (int64_t tmp = 0) { $1 = &tmp; }
%typemap(argout) int64_t *QLESS_OUT_INT { zval o; ZVAL_LONG(&o, (zend_long)tmp$argnum); qless_php_output($result, &o, &qless_nout); }
%typemap(in, numinputs=0) double *QLESS_OUT_DOUBLE (double tmp = 0) { $1 = &tmp; }
%typemap(argout) double *QLESS_OUT_DOUBLE { zval o; ZVAL_DOUBLE(&o, tmp$argnum); qless_php_output($result, &o, &qless_nout); }
%typemap(in, numinputs=0) int *QLESS_OUT_FLAG (int tmp = 0) { $1 = &tmp; }
%typemap(argout) int *QLESS_OUT_FLAG { zval o; ZVAL_BOOL(&o, tmp$argnum); qless_php_output($result, &o, &qless_nout); }
%typemap(in, numinputs=0) char QLESS_OUT_BUF[ANY] (char tmp[$1_dim0]) { tmp[0] = '\0'; $1 = tmp; }
%typemap(argout) char QLESS_OUT_BUF[ANY] { zval o; ZVAL_STRING(&o, tmp$argnum); qless_php_output($result, &o, &qless_nout); }

/* null -> (NULL, 0); an array of strings (values, in order), even empty ->
 * a non-NULL array. The strings stay owned by the PHP array. */
%typemap(in, phptype="?array") (const char *const *QLESS_STRV, size_t QLESS_STRC) (const char **tmp = NULL, long n = 0) {
	if (Z_TYPE($input) == IS_ARRAY && !(tmp = calloc(zend_hash_num_elements(Z_ARRVAL($input)) + 1, sizeof *tmp))) {
		qless_php_raise(QLESS_ENOMEM, "out of memory");
		SWIG_fail;
	}
	if (Z_TYPE($input) != IS_NULL && (!tmp || (n = qless_php_strings(&$input, tmp)) < 0)) {
		zend_type_error("$symname(): argument $argnum must be an array of strings without NUL bytes, %s given",
		                zend_zval_type_name(&$input));
		SWIG_fail;
	}
	$1 = ($1_ltype)tmp; $2 = (size_t)n;
}
%typemap(freearg) (const char *const *QLESS_STRV, size_t QLESS_STRC) { free((void *)tmp$argnum); }

%{
/* Options (an array of name => value, or null; a null value is "not
 * given") into *opts; list arrays go to lists. Returns 0, or -1 with an
 * exception thrown: Qless\InvalidArgument for an unknown name or a value
 * out of range, TypeError for a value of the wrong type. */
static int qless_php_options(zval *map, const struct qless_swig_optspec *spec, void *opts,
                             struct qless_swig_lists *lists)
{
	zend_string *key;
	zval *value;
	char msg[256];
	memcpy(opts, spec->defaults, spec->size);
	if (Z_TYPE_P(map) == IS_NULL)
		return 0;
	if (Z_TYPE_P(map) != IS_ARRAY) {
		zend_type_error("%s must be an array, %s given", spec->what, zend_zval_type_name(map));
		return -1;
	}
	ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(map), key, value) {
		const struct qless_swig_field *f;
		struct qless_swig_value v = { NULL, NULL, 0, 0, 0 };
		const char **items;
		long n;
		int ok = 1;
		ZVAL_DEREF(value);
		if (!key) {
			zend_type_error("%s: option names must be strings", spec->what);
			return -1;
		}
		if (Z_TYPE_P(value) == IS_NULL)
			continue;
		if (!(f = qless_swig_field_find(spec, ZSTR_VAL(key)))) {
			qless_swig_unknown_message(msg, sizeof msg, spec, ZSTR_VAL(key));
			qless_php_raise(QLESS_EINVAL, msg);
			return -1;
		}
		switch (f->kind) {
		case QLESS_SWIG_STR:
			ok = (v.s = qless_php_str(value)) != NULL;
			break;
		case QLESS_SWIG_STRV:
			if (!(ok = Z_TYPE_P(value) == IS_ARRAY))
				break;
			if (!(items = qless_swig_lists_alloc(lists, zend_hash_num_elements(Z_ARRVAL_P(value))))) {
				qless_php_raise(QLESS_ENOMEM, "out of memory");
				return -1;
			}
			ok = (n = qless_php_strings(value, items)) >= 0;
			v.v = items;
			v.n = (size_t)n;
			break;
		case QLESS_SWIG_DOUBLE:
			ok = Z_TYPE_P(value) == IS_DOUBLE || Z_TYPE_P(value) == IS_LONG;
			v.d = zval_get_double(value);
			break;
		case QLESS_SWIG_INT:
			ok = Z_TYPE_P(value) == IS_LONG;
			v.i = (long long)zval_get_long(value);
			break;
		}
		if (!ok) {
			qless_swig_type_message(msg, sizeof msg, spec, f);
			zend_type_error("%s", msg);
			return -1;
		}
		if (qless_swig_field_set(spec, opts, f, &v, msg, sizeof msg) < 0) {
			qless_php_raise(QLESS_EINVAL, msg);
			return -1;
		}
	} ZEND_HASH_FOREACH_END();
	return 0;
}
%}

%typemap(in, phptype="?array") const SWIGTYPE *QLESS_OPTIONS ($*1_ltype opts, struct qless_swig_lists lists = { { NULL }, 0 }) {
	if (qless_php_options(&$input, QLESS_SWIG_OPTSPEC(&opts), &opts, &lists) < 0) SWIG_fail;
	$1 = &opts;
}
%typemap(freearg) const SWIGTYPE *QLESS_OPTIONS { qless_swig_lists_free(&lists$argnum); }
/* Options may be left out: the C defaults. */
%typemap(default) const SWIGTYPE *QLESS_OPTIONS { $1 = NULL; }

/* Where Qless.php's method has another meaning, the generated one moves aside:
 * Qless\Job::tag(...$tags) adds tags (the index accessor, also Recur's, is
 * tag_at); Qless\Schedule::add($klass, $data, $opts) is schedules.md §7's
 * (the extension's add(when_text, ...) is add_text). */
%rename(tag_at) qless_job::tag;
%rename(tag_at) qless_recur::tag;
%rename(add_text) qless_schedule::add_impl;
/* Result structs by the names of the other classes (with -prefix: QlessQueueCounts, ...). */
%rename(QueueCounts) qless_queue_counts;
%rename(Stats) qless_stats;
%rename(TimingStats) qless_timing_stats;
%rename(When) qless_when;

%include "qless.i"

/* new Qless\Client($url = null, $options = null): PHP makes objects with
 * new. On failure the exception is thrown here and the NULL result leaves
 * the half-made object without a handle (the wrapper sets no pointer). */
%extend qless_client {
	qless_client(const char *url = NULL, const qless_client_options *opts = NULL)
	{
		qless_client *client = NULL;
		int rc = qless_client_new(&client, url, opts);
		if (rc < 0)
			qless_php_raise(rc, qless_error_last_message());
		return client;
	}
}

/* ==== the worker: PHP's hooks of the trampoline (swig/worker.i) =========
 * qless_php_worker_main(argv, run, klasses, configs) runs qless_worker_main
 * through the trampoline; run($job, $client, $phase) is the layer's
 * dispatcher (Qless\Worker::run). The interpreter is not thread-safe (NTS
 * build, one thread): the engine runs on the calling thread with
 * single_threaded set (--pool threads is a usage error), and a process pool
 * forks with fork(2) (pcntl_fork does no more in the CLI). */
%inline %{
typedef int qless_php_exit_status;
typedef zval qless_php_callable;
%}
%apply int QLESS_PLAIN_OUT { qless_php_exit_status };
%typemap(in, phptype="callable") qless_php_callable * {
	if (!zend_is_callable(&$input, 0, NULL)) {
		zend_type_error("$symname(): argument $argnum must be callable, %s given", zend_zval_type_name(&$input));
		SWIG_fail;
	}
	$1 = &$input;
}

%{
#include <signal.h>
#include <unistd.h>
#include "zend_smart_str.h"

/* exit() and fatal errors (the memory limit, ...) cannot be caught in PHP:
 * they unwind (or longjmp, for a bailout) out of the dispatcher. They fail
 * the job and stop the worker gracefully (SIGTERM to itself; a pool
 * replaces the child), since the script asked to end and after a fatal
 * error no more job code may run; qless_php_worker_main then ends the
 * script as exit() or the fatal error would have. */
enum { QLESS_PHP_RUNNING, QLESS_PHP_EXIT, QLESS_PHP_BAILOUT };

struct qless_swig_worker {
	zval *run;
	int ending;        /* QLESS_PHP_*: how the script is to end after the run */
	int exit_status;   /* of exit() or the fatal error */
};

static void qless_php_end(struct qless_swig_call *call, int how, const char *group, const char *why)
{
	call->worker->ending = how;
	call->worker->exit_status = EG(exit_status);
	qless_swig_call_outcome(call, 0, group, why);
	fprintf(stderr, "qless-worker: %s: %s; stopping this worker\n", qless_job_jid(call->job), why);
	kill(getpid(), SIGTERM);
}

static void qless_swig_lang_enter(struct qless_swig_call *call)
{
	if (call->worker->ending != QLESS_PHP_RUNNING)
		qless_swig_call_outcome(call, 0, "Qless\\WorkerError",
		                        "not run: this worker process is ending (exit() or a fatal error)");
	else
		qless_swig_call_run(call);
}

static int qless_swig_lang_call(struct qless_swig_call *call)
{
	zval args[3], ret;
	volatile int bailed = 0;
	int i, fatal, rc = 0;
	char why[512];

	ZVAL_UNDEF(&ret);
	qless_php_wrap(&args[0], (void *)call->job, SWIGTYPE_p_qless_job, 0);
	qless_php_wrap(&args[1], (void *)qless_job_client(call->job), SWIGTYPE_p_qless_client, 0);
	ZVAL_STRING(&args[2], qless_swig_phase_names[call->phase]);
	zend_try {
		call_user_function(NULL, NULL, call->worker->run, &ret, 3, args);
	} zend_catch {
		bailed = 1;
	} zend_end_try();
	/* Job code that kept the job or client finds a dead proxy (TypeError on
	 * use), not a dangling pointer. */
	for (i = 0; i < 2; i++)
		if (Z_TYPE(args[i]) == IS_OBJECT)
			SWIG_Z_FETCH_OBJ_P(&args[i])->ptr = NULL;
	fatal = (PG(last_error_type) & E_FATAL_ERRORS) && PG(last_error_message);
	if (fatal)
		snprintf(why, sizeof why, "PHP fatal error: %s", ZSTR_VAL(PG(last_error_message)));
	if (bailed) {
		qless_php_end(call, QLESS_PHP_BAILOUT, "Qless\\FatalError", fatal ? why : "PHP fatal error");
		return 0;   /* after a bailout the interpreter's state is not to be touched */
	}
	if (EG(exception) && zend_is_unwind_exit(EG(exception))) {
		zend_clear_exception();
		qless_php_end(call, QLESS_PHP_EXIT, fatal ? "Qless\\FatalError" : "Qless\\WorkerError",
		              fatal ? why : "the job code called exit()");
	} else if (EG(exception)) {
		rc = -1;
	}
	zval_ptr_dtor(&ret);
	for (i = 0; i < 3; i++)
		zval_ptr_dtor(&args[i]);
	return rc;
}

/* Appends $object->$method() to out when it gives a string; leaves no exception pending. */
static void qless_php_append_call(smart_str *out, zend_object *object, const char *method)
{
	zval self, fn, ret;
	ZVAL_OBJ(&self, object);
	ZVAL_STRING(&fn, method);
	if (call_user_function(NULL, &self, &fn, &ret, 0, NULL) == SUCCESS && Z_TYPE(ret) == IS_STRING)
		smart_str_append(out, Z_STR(ret));
	zval_ptr_dtor(&ret);
	zval_ptr_dtor(&fn);
	if (EG(exception))
		zend_clear_exception();
}

/* group: the Throwable's class (an anonymous class: its nearest named
 * parent); message: "Class: message" and the trace; retried when it is a
 * Qless\RetryableError. */
static void qless_swig_lang_describe(struct qless_swig_call *call)
{
	zend_object *e = EG(exception);
	zend_class_entry *ce, *retryable = zend_hash_str_find_ptr(EG(class_table), ZEND_STRL("qless\\retryableerror"));
	smart_str message = { 0 };

	GC_ADDREF(e);
	zend_clear_exception();
	for (ce = e->ce; ce && strstr(ZSTR_VAL(ce->name), "@anonymous"); ce = ce->parent)
		;
	smart_str_append_printf(&message, "%s: ", ce ? ZSTR_VAL(ce->name) : "Throwable");
	qless_php_append_call(&message, e, "getMessage");
	smart_str_appendc(&message, '\n');
	qless_php_append_call(&message, e, "getTraceAsString");
	smart_str_0(&message);
	/* The C side stops at a NUL: a cut message is better than none. */
	qless_swig_call_outcome(call, retryable && instanceof_function(e->ce, retryable),
	                        ce ? ZSTR_VAL(ce->name) : "Throwable", ZSTR_VAL(message.s));
	smart_str_free(&message);
	OBJ_RELEASE(e);
}

static int qless_swig_lang_fork(struct qless_swig_worker *w)
{
	(void)w;
	return (int)fork();
}

/* After the run: ends the script as exit() or the fatal error in job code
 * would have (see above). */
static void qless_php_worker_end(const struct qless_swig_worker *w)
{
	if (w->ending == QLESS_PHP_RUNNING)
		return;
	EG(exit_status) = w->exit_status;
	if (w->ending == QLESS_PHP_BAILOUT)
		zend_bailout();
	zend_throw_unwind_exit();
}
%}

%inline %{
/* qless_worker_main through the trampoline, for Worker.php: argv (the
 * program name first), run($job, $client, $phase) as described above, and
 * the run's tree classes with their worker.register configs (JSON text;
 * null: none). Returns the exit status. */
static qless_php_exit_status qless_php_worker_main(QLESS_STRV(argv, argc), qless_php_callable *run,
                                                   QLESS_STRV(tree_klasses, ntree),
                                                   QLESS_STRV(tree_configs, nconfigs))
{
	qless_worker_run_options options = QLESS_WORKER_RUN_OPTIONS_INIT;
	struct qless_swig_worker w;
	int status;

	if (tree_configs && nconfigs != ntree) {
		zend_value_error("qless_php_worker_main(): tree_configs must have one entry per class of tree_klasses");
		return 2;
	}
	w.run = run;
	w.ending = QLESS_PHP_RUNNING;
	w.exit_status = 0;
	options.single_threaded = 1;
	options.loads_files = 1;   /* --require: Worker.php loaded them */
	status = qless_swig_worker_run(&w, &options, argv, argc, tree_klasses, ntree, tree_configs, nconfigs);
	qless_php_worker_end(&w);
	return status;
}

/* A schedule's listen through the trampoline, for Schedule.php: run as
 * above, opts an array of listen options (qless.i: size, pool, interval,
 * max_jobs, allow, signals), the tree classes the allow-list names.
 * Returns the exit status. */
static qless_php_exit_status qless_php_schedule_listen(qless_schedule *schedule, qless_php_callable *run,
                                                       const qless_listen_options *opts,
                                                       QLESS_STRV(tree_klasses, ntree),
                                                       QLESS_STRV(tree_configs, nconfigs))
{
	qless_worker_run_options options = QLESS_WORKER_RUN_OPTIONS_INIT;
	struct qless_swig_worker w;
	int status;

	w.run = run;
	w.ending = QLESS_PHP_RUNNING;
	w.exit_status = 0;
	options.single_threaded = 1;
	status = qless_swig_worker_listen(&w, &options, schedule, opts, tree_klasses, ntree, tree_configs, nconfigs);
	qless_php_worker_end(&w);
	return status;
}
%}
/* ==== end of the worker engine block ==================================== */
