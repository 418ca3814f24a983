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
static PyObject *qless_py_errors[8];   /* indexed by -code; [0] is the base class */

static void qless_py_raise(int code)
{
	int i = (code < 0 && -code < 8) ? -code : 0;
	PyObject *cls = qless_py_errors[i] ? qless_py_errors[i] : PyExc_RuntimeError;
	PyObject *args = Py_BuildValue("(si)", qless_error_last_message(), code);
	PyErr_SetObject(cls, args);
	Py_XDECREF(args);
}
%}

%init %{
{
	static const char *names[8] = {
		"qless._core.Error", "qless._core.InvalidArgument", "qless._core.NotFound",
		"qless._core.LockLost", "qless._core.StateError", "qless._core.ProtocolError",
		"qless._core.ConnectionError", "qless._core.OutOfMemory" };
	int i;
	for (i = 0; i < 8; i++) {
		PyObject *code;
		qless_py_errors[i] = PyErr_NewException((char *)names[i], i ? qless_py_errors[0] : NULL, NULL);
		if (!qless_py_errors[i])
			return NULL;
		/* The class knows its code (InvalidArgument.code == -1); instances
		 * carry (message, code) as args, read by the layer's properties. */
		code = i ? PyLong_FromLong(-i) : Py_NewRef(Py_None);
		PyObject_SetAttrString(qless_py_errors[i], "code", code);
		Py_XDECREF(code);
		Py_INCREF(qless_py_errors[i]);   /* one reference kept in the array */
		PyModule_AddObject(m, strrchr(names[i], '.') + 1, qless_py_errors[i]);
	}
}
%}

/* GIL policy. Every wrapper keeps the GIL (the C API allows one thread per
 * client at a time, and the GIL is what gives Python callers that guarantee)
 * except the calls that wait without touching a client shared with other
 * Python threads: they release it so other threads run meanwhile.
 *   qless_events_next       waits on the events handle's own connection
 *   qless_worker_lost_locks waits on the worker's own subscription
 *   ~qless_heartbeater      joins the heartbeat thread (its own connection)
 *   qless_swig_client_new   connects a client nobody else has yet
 * pop and the other commands share the client's connection, so they keep
 * the GIL: releasing it would let two threads drive one connection. */
%nothread;
%thread qless_events_next;
%thread qless_worker_lost_locks;
%thread qless_swig_client_new;
%thread qless_heartbeater::~qless_heartbeater;

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

/* None -> (NULL, 0); any sequence of str, even empty -> a non-NULL array. */
%typemap(in) (const char *const *QLESS_STRV, size_t QLESS_STRC) (const char **tmp = NULL, PyObject *seq = NULL) {
	if ($input == Py_None) {
		$1 = NULL; $2 = 0;
	} else {
		Py_ssize_t i, n;
		seq = PySequence_Fast($input, "expected a list of strings");
		if (!seq) SWIG_fail;
		n = PySequence_Fast_GET_SIZE(seq);
		tmp = calloc(n ? (size_t)n : 1, sizeof *tmp);
		if (!tmp) { PyErr_NoMemory(); SWIG_fail; }
		for (i = 0; i < n; i++) {
			PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
			if (!PyUnicode_Check(item)) { PyErr_SetString(PyExc_TypeError, "expected a list of strings"); SWIG_fail; }
			tmp[i] = PyUnicode_AsUTF8(item);
			if (!tmp[i]) SWIG_fail;
		}
		$1 = ($1_ltype)tmp; $2 = (size_t)n;
	}
}
%typemap(freearg) (const char *const *QLESS_STRV, size_t QLESS_STRC) { free((void *)tmp$argnum); Py_XDECREF(seq$argnum); }

%include "qless.i"
