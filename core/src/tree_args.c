/* Argument checks of the job-tree calls (qless/tree.h) and the tree fields
 * of put options: whatever the library can refuse alone, it refuses before
 * anything is sent, naming the function and the argument. */
#include <string.h>

#include "qless/qless.h"
#include "args.h"
#include "errors.h"
#include "tree_args.h"
#include "util.h"

int qless__check_text(const char *func, const char *arg, const char *s)
{
	if (s == NULL)
		return qless__err_null(func, arg);
	if (*s == '\0')
		return qless__err_empty(func, arg);
	if (!qless__utf8_valid(s))
		return qless__err(QLESS_EINVAL, "%s: %s is not valid UTF-8 text", func, arg);
	return QLESS_OK;
}

int qless__first_arg(const char *func, qless_client *client, const char *arg, const char *value, qless_args *a)
{
	int rc;
	QLESS_CHECK_NULL(func, client);
	if ((rc = qless__check_text(func, arg, value)) != QLESS_OK)
		return rc;
	qless__args_init(a);
	qless__args_add(a, value);
	return QLESS_OK;
}

int qless__check_json_arg(const char *func, const char *arg, const char *json)
{
	if (json == NULL)
		return qless__err_null(func, arg);
	return qless__check_json(func, arg, json);
}

/* The server tells an object by its first non-blank character (jobtrees.md
 * K3), and valid JSON that starts with '{' is an object. */
int qless__check_json_object(const char *func, const char *arg, const char *json)
{
	int rc = qless__check_json_arg(func, arg, json);
	if (rc != QLESS_OK)
		return rc;
	json += strspn(json, " \t\r\n");
	if (*json != '{')
		return qless__err(QLESS_EINVAL, "%s: %s is not a JSON object", func, arg);
	return QLESS_OK;
}

int qless__check_dir(const char *func, qless_port_dir dir)
{
	if (dir != QLESS_PORT_IN && dir != QLESS_PORT_OUT)
		return qless__err(QLESS_EINVAL, "%s: dir must be QLESS_PORT_IN or QLESS_PORT_OUT, not %d", func, (int)dir);
	return QLESS_OK;
}

const char *qless__dir_name(qless_port_dir dir)
{
	return dir == QLESS_PORT_IN ? "in" : "out";
}

int qless__check_list(const char *func, const char *arg, const char *const *strs, size_t n)
{
	if (n == 0)
		return qless__err_empty(func, arg);
	return qless__check_strv(func, arg, strs, n, 1);
}

int qless__check_tree_put(const char *func, const qless_put_options *o)
{
	int rc = QLESS_OK;
	if ((o->parent == NULL) != (o->name == NULL))
		return qless__err(QLESS_EINVAL, "%s: parent and name go together (%s is NULL)", func,
		                  o->parent == NULL ? "parent" : "name");
	if ((o->parent != NULL && ((rc = qless__check_text(func, "parent", o->parent)) != QLESS_OK ||
	                           (rc = qless__check_text(func, "name", o->name)) != QLESS_OK)) ||
	    (o->inports != NULL && (rc = qless__check_json_object(func, "inports", o->inports)) != QLESS_OK) ||
	    (o->outports != NULL && (rc = qless__check_json_object(func, "outports", o->outports)) != QLESS_OK) ||
	    (o->naliases > 0 && (rc = qless__check_list(func, "aliases", o->aliases, o->naliases)) != QLESS_OK) ||
	    (o->by != NULL && (rc = qless__check_text(func, "by", o->by)) != QLESS_OK))
		return rc;
	return QLESS_OK;
}

void qless__tree_put_args(qless_args *a, const qless_put_options *o)
{
	if (o->tree) {
		qless__args_add(a, "tree");
		qless__args_add(a, "1");
	}
	if (o->parent != NULL) {
		qless__args_add(a, "parent");
		qless__args_add(a, o->parent);
		qless__args_add(a, "name");
		qless__args_add(a, o->name);
	}
	if (o->inports != NULL) {
		qless__args_add(a, "inports");
		qless__args_add(a, o->inports);
	}
	if (o->outports != NULL) {
		qless__args_add(a, "outports");
		qless__args_add(a, o->outports);
	}
	if (o->naliases > 0) {
		qless__args_add(a, "aliases");
		qless__args_own(a, qless__json_strv(o->aliases, o->naliases));
	}
	if (o->by != NULL) {
		qless__args_add(a, "by");
		qless__args_add(a, o->by);
	}
}
