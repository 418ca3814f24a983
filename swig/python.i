/* swig/python.i — Python part of the libqless interface: module name,
 * typemaps and exception classes. Everything else is in qless.i. */
%module(package="qless") _core

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
	qless_py_errors[0] = PyErr_NewException((char *)names[0], NULL, NULL);
	PyModule_AddObject(m, "Error", qless_py_errors[0]);
	Py_XINCREF(qless_py_errors[0]);
	for (i = 1; i < 8; i++) {
		qless_py_errors[i] = PyErr_NewException((char *)names[i], qless_py_errors[0], NULL);
		Py_XINCREF(qless_py_errors[i]);
		PyModule_AddObject(m, strrchr(names[i], '.') + 1, qless_py_errors[i]);
	}
}
%}

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
