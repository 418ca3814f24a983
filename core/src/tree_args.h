/* Argument checks of the job-tree calls (tree_args.c). */
#ifndef QLESS_TREE_ARGS_H
#define QLESS_TREE_ARGS_H

#include <stddef.h>

#include "qless/qless.h"
#include "args.h"

/* QLESS_OK when s is non-NULL, non-empty UTF-8, else QLESS_EINVAL naming func and arg. */
int qless__check_text(const char *func, const char *arg, const char *s);
/* Checks client and the name value (as qless__check_text), then starts a
 * with it: the calls whose first argument is a jid, alias or channel. */
int qless__first_arg(const char *func, qless_client *client, const char *arg, const char *value, qless_args *a);
/* JSON text (not NULL); an object for the second. */
int qless__check_json_arg(const char *func, const char *arg, const char *json);
int qless__check_json_object(const char *func, const char *arg, const char *json);
int qless__check_dir(const char *func, qless_port_dir dir);
/* "in" or "out" (static). */
const char *qless__dir_name(qless_port_dir dir);
/* At least one string, each non-empty UTF-8. */
int qless__check_list(const char *func, const char *arg, const char *const *strs, size_t n);
/* The version-3 fields of put options: checked, then added to a put's arguments. */
int qless__check_tree_put(const char *func, const qless_put_options *o);
void qless__tree_put_args(qless_args *a, const qless_put_options *o);

#endif
