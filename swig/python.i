/* swig/python.i — Python part of the libqless interface: module name,
 * typemaps, exception classes and GIL policy. Everything else is in qless.i.
 *
 * Built with -builtin (see bindings/python/CMakeLists.txt): the handles are
 * real extension types whose tp_dealloc runs the qless_*_free destructor, and
 * no generated shadow .py is needed (it would be named _core.py too and
 * shadow nothing). The pythonic layer is bindings/python/qless/*.py. */
%module(package="qless", threads="1") _core

%{
#include <qless/qless.h>
/* The classes of qless_swig_errors (swig/qless.i), row by row. */
static PyObject *qless_py_errors[QLESS_SWIG_NERRORS];

static void qless_py_raise_message(int code, const char *message)
{
	PyObject *cls = qless_py_errors[qless_swig_error_index(code)];
	PyObject *args = Py_BuildValue("(si)", message, code);
	PyErr_SetObject(cls ? cls : PyExc_RuntimeError, args);
	Py_XDECREF(args);
}

/* Any iterable of str into an array from lists; the strings are borrowed
 * from the sequence made of it, which *keep (a list) holds until freearg. */
static int qless_py_strv(PyObject *in, struct qless_swig_lists *lists, PyObject **keep,
                         const char ***out, size_t *count)
{
	Py_ssize_t i, n;
	PyObject *seq = PySequence_Fast(in, "expected a list of strings");
	if (!seq)
		return -1;
	if ((!*keep && !(*keep = PyList_New(0))) || PyList_Append(*keep, seq) < 0) {
		Py_DECREF(seq);
		return -1;
	}
	Py_DECREF(seq);
	n = PySequence_Fast_GET_SIZE(seq);
	if (!(*out = qless_swig_lists_alloc(lists, (size_t)n))) {
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; i < n; i++) {
		PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
		if (!PyUnicode_Check(item)) {
			PyErr_SetString(PyExc_TypeError, "expected a list of strings");
			return -1;
		}
		if (!((*out)[i] = PyUnicode_AsUTF8(item)))
			return -1;
	}
	*count = (size_t)n;
	return 0;
}

/* Options (a dict of name -> value, or None) into *opts. A lone str is a
 * one-item list, as in the Python API's tags=. */
static int qless_py_options(PyObject *map, const struct qless_swig_optspec *spec, void *opts,
                            struct qless_swig_lists *lists, PyObject **keep)
{
	PyObject *key, *value;
	Py_ssize_t pos = 0;
	char msg[256];
	memcpy(opts, spec->defaults, spec->size);
	if (map == Py_None)
		return 0;
	if (!PyDict_Check(map)) {
		PyErr_Format(PyExc_TypeError, "%s must be a dict", spec->what);
		return -1;
	}
	while (PyDict_Next(map, &pos, &key, &value)) {
		const struct qless_swig_field *f;
		struct qless_swig_value v = { NULL, NULL, 0, 0, 0 };
		const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
		int ok = 1;
		if (!name) {
			PyErr_Format(PyExc_TypeError, "%s: option names must be str", spec->what);
			return -1;
		}
		if (value == Py_None)
			continue;
		if (!(f = qless_swig_field_find(spec, name))) {
			qless_swig_unknown_message(msg, sizeof msg, spec, name);
			qless_py_raise_message(QLESS_EINVAL, msg);
			return -1;
		}
		switch (f->kind) {
		case QLESS_SWIG_STR:
			ok = PyUnicode_Check(value) && (v.s = PyUnicode_AsUTF8(value));
			break;
		case QLESS_SWIG_STRV: {
			PyObject *list = PyUnicode_Check(value) ? PyTuple_Pack(1, value) : Py_NewRef(value);
			ok = list && qless_py_strv(list, lists, keep, (const char ***)&v.v, &v.n) == 0;
			Py_XDECREF(list);
			break;
		}
		case QLESS_SWIG_DOUBLE:
			ok = (PyFloat_Check(value) || PyLong_Check(value)) && !((v.d = PyFloat_AsDouble(value)) == -1 && PyErr_Occurred());
			break;
		case QLESS_SWIG_INT:
			ok = PyLong_Check(value) && !((v.i = PyLong_AsLongLong(value)) == -1 && PyErr_Occurred());
			break;
		}
		if (!ok) {
			if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
				PyErr_Clear();
				qless_swig_type_message(msg, sizeof msg, spec, f);
				PyErr_SetString(PyExc_TypeError, msg);
			}
			return -1;
		}
		if (qless_swig_field_set(spec, opts, f, &v, msg, sizeof msg) < 0) {
			qless_py_raise_message(QLESS_EINVAL, msg);
			return -1;
		}
	}
	return 0;
}
%}

%init %{
{
	/* ERROR_CLASSES (base first) lets the layer export them without
	 * listing their names again. */
	PyObject *all = PyTuple_New(QLESS_SWIG_NERRORS);
	int i;
	if (!all)
		return NULL;
	for (i = 0; i < QLESS_SWIG_NERRORS; i++) {
		char qualname[64];
		PyObject *code;
		snprintf(qualname, sizeof qualname, "qless._core.%s", qless_swig_errors[i].klass);
		qless_py_errors[i] = PyErr_NewExceptionWithDoc(qualname, qless_swig_errors[i].meaning,
		                                               i ? qless_py_errors[0] : NULL, NULL);
		if (!qless_py_errors[i])
			return NULL;
		/* The class knows its code (InvalidArgument.code == -1); instances
		 * carry (message, code) as args, read by the layer's properties. */
		code = i ? PyLong_FromLong(qless_swig_errors[i].code) : Py_NewRef(Py_None);
		PyObject_SetAttrString(qless_py_errors[i], "code", code);
		Py_XDECREF(code);
		Py_INCREF(qless_py_errors[i]);   /* one reference kept in the array */
		PyTuple_SET_ITEM(all, i, Py_NewRef(qless_py_errors[i]));
		PyModule_AddObject(m, qless_swig_errors[i].klass, qless_py_errors[i]);
	}
	PyModule_AddObject(m, "ERROR_CLASSES", all);
}
%}

/* GIL policy. Every wrapper keeps the GIL (the C API allows one thread per
 * client at a time, and the GIL is what gives Python callers that guarantee)
 * except the calls that wait without touching a client shared with other
 * Python threads: they release it so other threads run meanwhile.
 *   qless_events_next       waits on the events handle's own connection
 *   qless_worker_lost_locks waits on the worker's own subscription
 *   ~qless_heartbeater      joins the heartbeat thread (its own connection)
 *   qless_client_new        connects a client nobody else has yet
 * and the same calls as methods (Events.next, Worker.lost_locks).
 * pop and the other commands share the client's connection, so they keep
 * the GIL: releasing it would let two threads drive one connection. */
%nothread;
%thread qless_events_next;
%thread qless_worker_lost_locks;
%thread qless_client_new;
%thread qless_events::next_impl;
%thread qless_worker::lost_locks_impl;
%thread qless_heartbeater::~qless_heartbeater;
/* The worker engine runs for the life of the worker with the GIL released;
 * the trampoline (swig/worker.i) takes it around every call into Python. */
%thread qless_py_worker_main;

%typemap(out) int QLESS_PLAIN_OUT = int;
%typemap(out) int QLESS_STATUS_OUT {
	if ($1 < 0) { qless_py_raise_message($1, qless_error_last_message()); SWIG_fail; }
	$result = SWIG_Py_Void();
}

%typemap(in, numinputs=0) SWIGTYPE **QLESS_OUT_HANDLE ($*1_ltype tmp = NULL) { $1 = &tmp; }
%typemap(argout) SWIGTYPE **QLESS_OUT_HANDLE {
	$result = SWIG_Python_AppendOutput($result, tmp$argnum
		? SWIG_NewPointerObj(SWIG_as_voidptr(tmp$argnum), $*1_descriptor, SWIG_POINTER_OWN)
		: SWIG_Py_Void());
}

%typemap(in, numinputs=0) char **QLESS_OUT_STRING (char *tmp = NULL) { $1 = &tmp; }
%typemap(argout) char **QLESS_OUT_STRING {
	$result = SWIG_Python_AppendOutput($result, tmp$argnum ? SWIG_FromCharPtr(tmp$argnum) : SWIG_Py_Void());
}
%typemap(freearg) char **QLESS_OUT_STRING { qless_free(tmp$argnum); }

%typemap(in, numinputs=0) int64_t *QLESS_OUT_INT (int64_t tmp = 0) { $1 = &tmp; }
%typemap(argout) int64_t *QLESS_OUT_INT { $result = SWIG_Python_AppendOutput($result, PyLong_FromLongLong(tmp$argnum)); }
%typemap(in, numinputs=0) double *QLESS_OUT_DOUBLE (double tmp = 0) { $1 = &tmp; }
%typemap(argout) double *QLESS_OUT_DOUBLE { $result = SWIG_Python_AppendOutput($result, PyFloat_FromDouble(tmp$argnum)); }
%typemap(in, numinputs=0) int *QLESS_OUT_FLAG (int tmp = 0) { $1 = &tmp; }
%typemap(argout) int *QLESS_OUT_FLAG { $result = SWIG_Python_AppendOutput($result, PyBool_FromLong(tmp$argnum)); }
%typemap(in, numinputs=0) char QLESS_OUT_BUF[ANY] (char tmp[$1_dim0]) { tmp[0] = '\0'; $1 = tmp; }
%typemap(argout) char QLESS_OUT_BUF[ANY] { $result = SWIG_Python_AppendOutput($result, SWIG_FromCharPtr(tmp$argnum)); }

/* None -> (NULL, 0); any sequence of str, even empty -> a non-NULL array. */
%typemap(in) (const char *const *QLESS_STRV, size_t QLESS_STRC) (struct qless_swig_lists lists = { { NULL }, 0 }, PyObject *keep = NULL) {
	const char **v = NULL;
	size_t n = 0;
	if ($input != Py_None && qless_py_strv($input, &lists, &keep, &v, &n) < 0) SWIG_fail;
	$1 = ($1_ltype)v; $2 = n;
}
%typemap(freearg) (const char *const *QLESS_STRV, size_t QLESS_STRC) { qless_swig_lists_free(&lists$argnum); Py_XDECREF(keep$argnum); }

/* ---- options structs: a dict of option name -> value (None: not given) ---- */
%typemap(in) const SWIGTYPE *QLESS_OPTIONS ($*1_ltype opts, struct qless_swig_lists lists = { { NULL }, 0 }, PyObject *keep = NULL) {
	if (qless_py_options($input, QLESS_SWIG_OPTSPEC(&opts), &opts, &lists, &keep) < 0) SWIG_fail;
	$1 = &opts;
}
%typemap(freearg) const SWIGTYPE *QLESS_OPTIONS { qless_swig_lists_free(&lists$argnum); Py_XDECREF(keep$argnum); }

/* ---- the worker: Python's hooks of the trampoline (swig/worker.i) ---- */
%{
#define QLESS_SWIG_WORKER_ERROR "qless.WorkerError"
%}
%inline %{
typedef int qless_py_exit_status;
typedef PyObject qless_py_callable;
%}
%apply int QLESS_PLAIN_OUT { qless_py_exit_status };
/* Checked while the GIL is still held. */
%typemap(in) qless_py_callable * {
	if (!PyCallable_Check($input)) { PyErr_SetString(PyExc_TypeError, "$1_name must be callable"); SWIG_fail; }
	$1 = $input;
}

%include "qless.i"

%{
/* Referenced by the arguments of the qless_py_worker_main call for its
 * whole duration (it runs without the GIL, so it could not own them). */
struct qless_swig_worker {
	PyObject *run;   /* run(job, client, phase): the layer's dispatcher */
	PyObject *fork;  /* os.fork */
};

/* Any C thread (a pool thread too) becomes a Python thread here. */
static void qless_swig_lang_enter(struct qless_swig_call *call)
{
	PyGILState_STATE gil = PyGILState_Ensure();
	qless_swig_call_run(call);
	PyGILState_Release(gil);
}

/* A proxy of a borrowed handle must not outlive the call: kept, it holds
 * NULL, which the library refuses, not a dangling pointer. */
static void qless_py_forget(PyObject *proxy)
{
	SwigPyObject *sobj = proxy ? SWIG_Python_GetSwigThis(proxy) : NULL;
	if (sobj)
		sobj->ptr = NULL;
}

/* A pool child exits from C, past Python's own flushing: what job code
 * printed is flushed after each call (a broken stream is not the job's
 * failure). The job's exception, if any, is kept pending. */
static void qless_py_flush(const char *name)
{
	PyObject *type, *value, *tb, *stream = PySys_GetObject(name), *ret;
	PyErr_Fetch(&type, &value, &tb);
	ret = stream && stream != Py_None ? PyObject_CallMethod(stream, "flush", NULL) : NULL;
	Py_XDECREF(ret);
	PyErr_Clear();
	PyErr_Restore(type, value, tb);
}

static int qless_swig_lang_call(struct qless_swig_call *call)
{
	PyObject *job = SWIG_Python_NewPointerObj(NULL, SWIG_as_voidptr(call->job), SWIGTYPE_p_qless_job, 0);
	PyObject *client = SWIG_Python_NewPointerObj(NULL, SWIG_as_voidptr(qless_job_client(call->job)),
	                                             SWIGTYPE_p_qless_client, 0);
	PyObject *phase = PyUnicode_FromString(qless_swig_phase_names[call->phase]);
	PyObject *ret = job && client && phase
		? PyObject_CallFunctionObjArgs(call->worker->run, job, client, phase, NULL) : NULL;

	qless_py_forget(job);
	qless_py_forget(client);
	qless_py_flush("stdout");
	qless_py_flush("stderr");
	Py_XDECREF(job);
	Py_XDECREF(client);
	Py_XDECREF(phase);
	Py_XDECREF(ret);
	return ret ? 0 : -1;
}

/* group: the exception's class name (tp_name of a Python class is its bare
 * name); message: the traceback as Python prints it; retried when it is a
 * qless.RetryableError. */
static void qless_swig_lang_describe(struct qless_swig_call *call)
{
	PyObject *type, *value, *tb, *mod = NULL, *lines = NULL, *sep = NULL, *text = NULL, *retryable = NULL;
	const char *message = NULL;
	int retry = 0;

	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	if (tb && value)
		PyException_SetTraceback(value, tb);
	if ((mod = PyImport_ImportModule("traceback")) != NULL)
		lines = PyObject_CallMethod(mod, "format_exception", "OOO", type ? type : Py_None, value ? value : Py_None,
		                            tb ? tb : Py_None);
	Py_XDECREF(mod);
	if (lines && (sep = PyUnicode_FromString("")) != NULL)
		text = PyUnicode_Join(sep, lines);
	if (text)
		message = PyUnicode_AsUTF8(text);
	if ((mod = PyImport_ImportModule("qless.errors")) != NULL)
		retryable = PyObject_GetAttrString(mod, "RetryableError");
	if (retryable && type && PyType_Check(type))
		retry = PyObject_IsSubclass(type, retryable) == 1;
	PyErr_Clear();
	qless_swig_call_outcome(call, retry, type && PyType_Check(type) ? ((PyTypeObject *)type)->tp_name : NULL,
	                        message ? message : "(the exception could not be printed)");
	Py_XDECREF(mod);
	Py_XDECREF(retryable);
	Py_XDECREF(lines);
	Py_XDECREF(sep);
	Py_XDECREF(text);
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
}

/* os.fork with the GIL held: Python's own before/after-fork handling
 * (locks, threading state) runs in both processes. */
static int qless_swig_lang_fork(struct qless_swig_worker *w)
{
	PyGILState_STATE gil = PyGILState_Ensure();
	PyObject *ret = PyObject_CallNoArgs(w->fork);
	long pid = ret ? PyLong_AsLong(ret) : -1;

	if (PyErr_Occurred()) {
		PyErr_WriteUnraisable(w->fork);
		pid = -1;
	}
	Py_XDECREF(ret);
	PyGILState_Release(gil);
	return (int)pid;
}
%}

%inline %{
/* qless_worker_main through the trampoline, for qless/worker.py: argv (the
 * program name first), run(job, client, phase) (its exceptions are the
 * job's outcome, see swig/worker.i), fork (os.fork), and the tree classes
 * with their worker.register configs (JSON text; None: none). Returns the
 * exit status. Pool threads call run concurrently, each taking the GIL. */
static qless_py_exit_status qless_py_worker_main(QLESS_STRV(argv, argc), qless_py_callable *run,
                                                 qless_py_callable *fork, QLESS_STRV(tree_klasses, ntree),
                                                 QLESS_STRV(tree_configs, nconfigs))
{
	qless_worker_run_options options = QLESS_WORKER_RUN_OPTIONS_INIT;
	struct qless_swig_worker w;

	w.run = run;
	w.fork = fork;
	return qless_swig_worker_run(&w, &options, argv, argc, tree_klasses, ntree, tree_configs, nconfigs);
}
%}

/* A schedule's listen through the trampoline, for qless/schedule.py: run
 * and fork as for qless_py_worker_main, opts a dict of listen options
 * (qless.i: size, pool, interval, max_jobs, allow, signals), the tree
 * classes the allow-list names. Returns the exit status. */
%thread qless_py_schedule_listen;
%inline %{
static qless_py_exit_status qless_py_schedule_listen(qless_schedule *schedule, qless_py_callable *run,
                                                     qless_py_callable *fork, const qless_listen_options *opts,
                                                     QLESS_STRV(tree_klasses, ntree),
                                                     QLESS_STRV(tree_configs, nconfigs))
{
	qless_worker_run_options options = QLESS_WORKER_RUN_OPTIONS_INIT;
	struct qless_swig_worker w;

	w.run = run;
	w.fork = fork;
	return qless_swig_worker_listen(&w, &options, schedule, opts, tree_klasses, ntree, tree_configs, nconfigs);
}
%}
