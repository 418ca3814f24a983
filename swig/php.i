/* swig/php.i — PHP part of the libqless interface: module name, typemaps
 * and the Qless\Exception classes. Everything else is in qless.i.
 *
 * The extension is qless.so (PHP 8, SWIG 4.1). SWIG 4.1's PHP backend has
 * no namespaces, so the generated functions and handle classes stay global
 * and low-level (qless_queue_put, qless_client); bindings/php/Qless.php
 * builds the Qless namespace on them. The exceptions are defined here,
 * because the status typemap throws them. */
%module qless

%{
#include <string.h>
#include <qless/qless.h>
#include "ext/spl/spl_exceptions.h"

/* The classes of qless_swig_errors (swig/qless.i), row by row; row 0 is
 * Qless\Exception (PHP's own Error is taken), the base of the others. */
static zend_class_entry *qless_php_errors[QLESS_SWIG_NERRORS];

static void qless_php_throw(int code)
{
	zend_throw_exception(qless_php_errors[qless_swig_error_index(code)], qless_error_last_message(), code);
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

/* Strings in: only PHP strings (or null -> NULL), whatever strict_types
 * says: SWIG's stock typemap converts other types in place and leaks the
 * converted string. An embedded NUL would silently truncate, so it is refused. */
%typemap(in, phptype="?string") const char *, char * {
	if (Z_TYPE($input) == IS_NULL) {
		$1 = NULL;
	} else if (Z_TYPE($input) != IS_STRING) {
		zend_type_error("$symname(): $1_name must be a string, %s given", zend_zval_type_name(&$input));
		SWIG_fail;
	} else if (strlen(Z_STRVAL($input)) != Z_STRLEN($input)) {
		zend_value_error("$symname(): $1_name contains a NUL byte");
		SWIG_fail;
	} else {
		$1 = ($1_ltype)Z_STRVAL($input);
	}
}

%typemap(out) int QLESS_PLAIN_OUT = int;
/* qless_nout counts this call's output values (see qless_php_output); every
 * function with out-parameters returns a status, so the argout typemaps
 * below can rely on it being declared. */
%typemap(out) int QLESS_STATUS_OUT (int qless_nout = 0) {
	if ($1 < 0) { qless_php_throw($1); SWIG_fail; }
	RETVAL_NULL();
}

%typemap(in, numinputs=0) SWIGTYPE **QLESS_OUT_HANDLE ($*1_ltype tmp = NULL) { $1 = &tmp; }
%typemap(argout) SWIGTYPE **QLESS_OUT_HANDLE {
	zval o;
	ZVAL_NULL(&o);   /* SWIG_SetPointerZval reuses an object already in o */
	SWIG_SetPointerZval(&o, (void *)tmp$argnum, $*1_descriptor, 1);
	qless_php_output($result, &o, &qless_nout);
}

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

/* null -> (NULL, 0); an array of strings (values, in order), even empty ->
 * a non-NULL array. The strings stay owned by the PHP array. */
%typemap(in, phptype="?array") (const char *const *QLESS_STRV, size_t QLESS_STRC) (const char **tmp = NULL) {
	if (Z_TYPE($input) == IS_NULL) {
		$1 = NULL; $2 = 0;
	} else if (Z_TYPE($input) != IS_ARRAY) {
		zend_type_error("$symname(): argument $argnum must be an array of strings, %s given", zend_zval_type_name(&$input));
		SWIG_fail;
	} else {
		size_t n = 0;
		zval *item;
		tmp = calloc(zend_hash_num_elements(Z_ARRVAL($input)) + 1, sizeof *tmp);
		if (!tmp) { zend_throw_exception(qless_php_errors[qless_swig_error_index(QLESS_ENOMEM)], "out of memory", QLESS_ENOMEM); SWIG_fail; }
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL($input), item) {
			ZVAL_DEREF(item);
			if (Z_TYPE_P(item) != IS_STRING || strlen(Z_STRVAL_P(item)) != Z_STRLEN_P(item)) {
				zend_type_error("$symname(): argument $argnum must be an array of strings without NUL bytes");
				SWIG_fail;
			}
			tmp[n++] = Z_STRVAL_P(item);
		} ZEND_HASH_FOREACH_END();
		$1 = ($1_ltype)tmp; $2 = n;
	}
}
%typemap(freearg) (const char *const *QLESS_STRV, size_t QLESS_STRC) { free((void *)tmp$argnum); }

/* ==== options structs from a PHP associative array (issue 13, option typemaps) ==== */
%{
/* The string value of an option as a C string, or NULL when it is not one
 * (embedded NUL bytes included). Borrowed from the caller's array. */
static const char *qless_php_option_str(zval *value)
{
	ZVAL_DEREF(value);
	if (Z_TYPE_P(value) != IS_STRING || strlen(Z_STRVAL_P(value)) != Z_STRLEN_P(value))
		return NULL;
	return Z_STRVAL_P(value);
}

/* Options (an array of name => value, or null; a null value is "not
 * given") into *opts; list arrays go to lists. Returns 0, or -1 with an
 * exception thrown: Qless\InvalidArgument for an unknown name or a value
 * out of range, TypeError for a value of the wrong type. */
static int qless_php_options(zval *map, const struct qless_swig_optspec *spec, void *opts,
                             struct qless_swig_lists *lists)
{
	zend_string *key;
	zend_ulong index;
	zval *value, *item;
	char msg[256];
	memcpy(opts, spec->defaults, spec->size);
	if (Z_TYPE_P(map) == IS_NULL)
		return 0;
	if (Z_TYPE_P(map) != IS_ARRAY) {
		zend_type_error("%s must be an array, %s given", spec->what, zend_zval_type_name(map));
		return -1;
	}
	ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(map), index, key, value) {
		const struct qless_swig_field *f;
		struct qless_swig_value v = { NULL, NULL, 0, 0, 0 };
		const char **items;
		int ok = 1;
		(void)index;
		ZVAL_DEREF(value);
		if (!key) {
			zend_type_error("%s: option names must be strings", spec->what);
			return -1;
		}
		if (Z_TYPE_P(value) == IS_NULL)
			continue;
		if (!(f = qless_swig_field_find(spec, ZSTR_VAL(key)))) {
			qless_swig_unknown_message(msg, sizeof msg, spec, ZSTR_VAL(key));
			zend_throw_exception(qless_php_errors[qless_swig_error_index(QLESS_EINVAL)], msg, QLESS_EINVAL);
			return -1;
		}
		switch (f->kind) {
		case QLESS_SWIG_STR:
			ok = (v.s = qless_php_option_str(value)) != NULL;
			break;
		case QLESS_SWIG_STRV:
			if (!(ok = Z_TYPE_P(value) == IS_ARRAY))
				break;
			if (!(items = qless_swig_lists_alloc(lists, zend_hash_num_elements(Z_ARRVAL_P(value))))) {
				zend_throw_exception(qless_php_errors[qless_swig_error_index(QLESS_ENOMEM)], "out of memory", QLESS_ENOMEM);
				return -1;
			}
			ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(value), item) {
				if (!(items[v.n++] = qless_php_option_str(item)))
					ok = 0;
			} ZEND_HASH_FOREACH_END();
			v.v = items;
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
			zend_throw_exception(qless_php_errors[qless_swig_error_index(QLESS_EINVAL)], msg, QLESS_EINVAL);
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
/* ==== end of options structs ==== */

%include "qless.i"
