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

static void qless_py_raise(int code)
{
	qless_py_raise_message(code, qless_error_last_message());
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
%thread qless_events::next;
%thread qless_worker::lost_locks;
%thread qless_heartbeater::~qless_heartbeater;
/* The worker engine runs for the life of the worker with the GIL released;
 * its trampolines (below) take it around every call into Python. */
%thread qless_swig_worker_main;

%typemap(out) int QLESS_PLAIN_OUT = int;
%typemap(out) int QLESS_STATUS_OUT {
	if ($1 < 0) { qless_py_raise($1); SWIG_fail; }
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

/* ---- the worker engine ----
 * Python reaches the engine only through qless_swig_worker_main (below):
 * the C entry points take C callbacks, which Python cannot supply. */
%inline %{
typedef int qless_py_exit_status;
%}
%apply int QLESS_PLAIN_OUT { qless_py_exit_status };

/* Callables for the engine, checked while the GIL is still held: perform is
 * required; fork and log may be None (NULL: the engine's own default). */
%inline %{
typedef PyObject qless_py_callable;
typedef PyObject qless_py_opt_callable;
%}
%typemap(in) qless_py_callable * {
	if (!PyCallable_Check($input)) { PyErr_SetString(PyExc_TypeError, "$1_name must be callable"); SWIG_fail; }
	$1 = $input;
}
%typemap(in) qless_py_opt_callable * {
	if ($input != Py_None && !PyCallable_Check($input)) {
		PyErr_SetString(PyExc_TypeError, "$1_name must be callable or None");
		SWIG_fail;
	}
	$1 = $input == Py_None ? NULL : $input;
}

%include "qless.i"

/* Job.suspend in a worker's perform: qless_result_suspend on the result the
 * engine lent that call, reached through the outcome capsule the trampoline
 * passes (below). A capsule whose call is over holds no result any more. */
%{
#define QLESS_PY_OUTCOME "qless.outcome"
%}
%inline %{
typedef qless_result qless_py_outcome;
%}
%typemap(in) qless_py_outcome * {
	$1 = PyCapsule_IsValid($input, QLESS_PY_OUTCOME) ? PyCapsule_GetContext($input) : NULL;
	if (!$1) {
		qless_py_raise_message(QLESS_ESTATE, "Job.suspend: the worker's run of this job is over; "
		                       "call suspend during perform");
		SWIG_fail;
	}
}
%inline %{
static int qless_swig_suspend(qless_py_outcome *outcome)
{
	return qless_result_suspend(outcome);
}
%}

%{
/*
 * Trampolines from the engine into Python. The engine calls them with the
 * GIL released (qless_swig_worker_main is %thread) from the main thread, a
 * pool thread or a pool child, so each takes the GIL itself. Whatever the
 * Python side raises is reported through sys.unraisablehook and never
 * propagates: an exception cannot cross the C engine.
 *
 * The protocol with qless/worker.py: perform(job, client, phase, outcome)
 * gets proxies of the borrowed qless_job and of its qless_client (neither
 * owned), the phase ("perform", or a tree job's "startup" or "shutdown",
 * jobtrees.md §9) and the outcome capsule that Job.suspend hands to
 * qless_swig_suspend, and returns
 *   None                          complete (the engine's default)
 *   ("fail", group, message)      qless_result_fail
 *   ("retry", group, message)     qless_result_retry with the backoff delay
 * An exception, or any other value, fails the job with group = the
 * exception's class name and message = its text.
 */
typedef struct qless_py_worker {
	/* Referenced by the argument tuple of the qless_swig_worker_main call for
	 * its whole duration: that function runs without the GIL and could not
	 * touch reference counts anyway. */
	PyObject *perform, *fork, *log;
} qless_py_worker;

/* Reports the pending Python error; with a result, fails the job with it. */
static void qless_py_report(PyObject *where, qless_result *result)
{
	PyObject *type, *value, *tb, *text = NULL;
	const char *message = NULL;

	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	if (result) {
		if (value)
			text = PyObject_Str(value);
		if (text)
			message = PyUnicode_AsUTF8(text);
		if (!message) {
			PyErr_Clear();
			message = "(the exception could not be printed)";
		}
		/* tp_name of a class defined in Python is its bare name, as the
		 * layer's groups are; both strings are copied by the result. */
		qless_result_fail(result, type ? ((PyTypeObject *)type)->tp_name : "Exception", message);
		Py_XDECREF(text);
	}
	PyErr_Restore(type, value, tb);
	PyErr_WriteUnraisable(where);
}

/* perform's answer -> the result; -1 with a Python error set if it is none
 * of the protocol's values. */
static int qless_py_apply(qless_result *result, PyObject *ret)
{
	const char *kind, *group, *message;
	int rc;

	if (ret == Py_None)
		return 0;
	if (!PyTuple_Check(ret) || !PyArg_ParseTuple(ret, "sss", &kind, &group, &message)) {
		PyErr_Format(PyExc_TypeError,
		             "perform must return None, (\"fail\", group, message) or (\"retry\", group, message), not %R",
		             ret);
		return -1;
	}
	if (strcmp(kind, "fail") == 0) {
		rc = qless_result_fail(result, group, message);
	} else if (strcmp(kind, "retry") == 0) {
		rc = qless_result_retry(result, group, message, -1);
	} else {
		PyErr_Format(PyExc_ValueError, "perform returned the unknown outcome %R", PyTuple_GET_ITEM(ret, 0));
		return -1;
	}
	if (rc < 0) {   /* e.g. an empty group */
		qless_py_raise(rc);
		return -1;
	}
	return 0;
}

/* A proxy of a borrowed handle must not outlive the call it was made for:
 * job code that kept the job (or its client) finds a NULL handle, which the
 * library refuses, instead of a dangling pointer. */
static void qless_py_forget(PyObject *proxy)
{
	SwigPyObject *sobj = proxy ? SWIG_Python_GetSwigThis(proxy) : NULL;
	if (sobj)
		sobj->ptr = NULL;
}

/* One call of the Python perform for the engine's perform, startup or
 * shutdown (phase). The outcome capsule lends the result to Job.suspend
 * (qless_swig_suspend) for this call only: its context is cleared after. */
static void qless_py_call(void *ctx, qless_job *job, qless_result *result, const char *phase)
{
	qless_py_worker *w = ctx;
	PyGILState_STATE gil = PyGILState_Ensure();
	PyObject *pyjob = SWIG_Python_NewPointerObj(NULL, SWIG_as_voidptr(job), SWIGTYPE_p_qless_job, 0);
	PyObject *pyclient = SWIG_Python_NewPointerObj(NULL, SWIG_as_voidptr(qless_job_client(job)),
	                                               SWIGTYPE_p_qless_client, 0);
	PyObject *outcome = PyCapsule_New(result, QLESS_PY_OUTCOME, NULL);
	PyObject *name = PyUnicode_FromString(phase);
	PyObject *ret = NULL;

	if (pyjob && pyclient && outcome && name && PyCapsule_SetContext(outcome, result) == 0)
		ret = PyObject_CallFunctionObjArgs(w->perform, pyjob, pyclient, name, outcome, NULL);
	if (!ret || qless_py_apply(result, ret) < 0)
		qless_py_report(w->perform, result);
	if (outcome)
		PyCapsule_SetContext(outcome, NULL);
	qless_py_forget(pyjob);
	qless_py_forget(pyclient);
	Py_XDECREF(ret);
	Py_XDECREF(name);
	Py_XDECREF(outcome);
	Py_XDECREF(pyjob);
	Py_XDECREF(pyclient);
	PyGILState_Release(gil);
}

static void qless_py_perform(void *ctx, qless_job *job, qless_result *result)
{
	qless_py_call(ctx, job, result, "perform");
}

static void qless_py_startup(void *ctx, qless_job *job, qless_result *result)
{
	qless_py_call(ctx, job, result, "startup");
}

static void qless_py_shutdown(void *ctx, qless_job *job, qless_result *result)
{
	qless_py_call(ctx, job, result, "shutdown");
}

/* Python's os.fork (or what the caller passed) run with the GIL held, so
 * the interpreter's own before/after-fork handling happens in both
 * processes. */
static int qless_py_fork(void *ctx)
{
	qless_py_worker *w = ctx;
	PyGILState_STATE gil = PyGILState_Ensure();
	PyObject *ret = PyObject_CallNoArgs(w->fork);
	long pid = ret ? PyLong_AsLong(ret) : -1;

	if (PyErr_Occurred()) {
		qless_py_report(w->fork, NULL);
		pid = -1;
	}
	Py_XDECREF(ret);
	PyGILState_Release(gil);
	return (int)pid;
}

static void qless_py_log(void *ctx, const char *line)
{
	qless_py_worker *w = ctx;
	PyGILState_STATE gil = PyGILState_Ensure();
	/* Log lines may quote job data: undecodable bytes must not lose the line. */
	PyObject *text = PyUnicode_DecodeUTF8(line, (Py_ssize_t)strlen(line), "replace");
	PyObject *ret = text ? PyObject_CallOneArg(w->log, text) : NULL;

	if (!ret)
		qless_py_report(w->log, NULL);
	Py_XDECREF(ret);
	Py_XDECREF(text);
	PyGILState_Release(gil);
}
%}

%inline %{
/* qless_worker_main for Python: argv as a list of str (argv[0] is the
 * program name shown in messages), perform as described above,
 * fork (os.fork; None: fork(2), which skips Python's at-fork handling) and
 * log (one line per call; None: lines on stderr), and the run's tree
 * classes and their worker.register configs (JSON text; None: none; run
 * options version 4), with whose jobs perform is also called for startup
 * and shutdown. Returns the exit status.
 * Pool threads call perform concurrently, each taking the GIL. */
static qless_py_exit_status qless_swig_worker_main(QLESS_STRV(argv, argc), qless_py_callable *perform,
                                  qless_py_opt_callable *fork, qless_py_opt_callable *log,
                                  QLESS_STRV(tree_klasses, ntree), QLESS_STRV(tree_configs, nconfigs))
{
	qless_worker_run_options run = QLESS_WORKER_RUN_OPTIONS_INIT;
	qless_py_worker w;
	const char **args;
	size_t n = argc ? argc : 1, i;
	int status;

	/* A C main's argv: a program name first, NULL after the last (the list
	 * typemap promises neither), and an array the engine may reorder. */
	args = calloc(n + 1, sizeof *args);
	if (!args) {
		fputs("qless worker: out of memory\n", stderr);
		return 1;
	}
	args[0] = "qless-worker";
	for (i = 0; i < argc; i++)
		args[i] = argv[i];
	w.perform = perform;
	w.fork = fork;
	w.log = log;
	run.perform = qless_py_perform;
	run.ctx = &w;
	run.fork = fork ? qless_py_fork : NULL;
	run.log = log ? qless_py_log : NULL;
	/* PyGILState_Ensure makes any C thread a Python thread: pools of
	 * threads are fine. */
	run.single_threaded = 0;
	/* Job code is imported by class name: the operator's allow-list is required. */
	run.resolves_classes = 1;
	/* Tree classes (None: none): their configs are one per class, or none. */
	if (tree_klasses) {
		if (tree_configs && nconfigs != ntree) {
			free(args);
			fprintf(stderr, "qless worker: tree_configs must have one entry per class of tree_klasses\n");
			return 2;
		}
		run.tree_klasses = tree_klasses;
		run.tree_configs = tree_configs;
		run.ntree = ntree;
		run.startup = qless_py_startup;
		run.shutdown = qless_py_shutdown;
	}
	status = qless_worker_main((int)n, args, &run);
	free(args);
	return status;
}
%}
