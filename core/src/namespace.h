/* Namespaces (namespace.c, docs/cluster.md): the key prefix `{NAME}:ql:`
 * of a client's calls and channels, and `NAME/queue` in queue lists. */
#ifndef QLESS_NAMESPACE_H
#define QLESS_NAMESPACE_H

#include <stddef.h>

/* The longest NAME (the protocol script checks the same bound). */
#define QLESS_NAMESPACE_MAX 64

/* QLESS_OK if name is a valid namespace name, else QLESS_EINVAL naming
 * func, `what` (where the name came from) and the rule. */
int qless__namespace_check(const char *func, const char *what, const char *name, size_t len);
/* "{NAME}:ql:" (owned), or NULL out of memory. */
char *qless__namespace_prefix(const char *name);
/*
 * Splits a queue list entry "NAME/queue" at its first '/': *ns (owned) is
 * NAME, checked, and *queue points into entry past the '/'. An entry without
 * '/' gives *ns NULL and *queue entry. QLESS_EINVAL (naming func) for an
 * invalid NAME or an empty queue.
 */
int qless__namespace_split(const char *func, const char *entry, char **ns, const char **queue);

/*
 * QLESS_EINVAL naming func and `what` if jid, given to a client in namespace
 * ns (NULL: none, and nothing is checked), is written "OTHER/jid" with
 * OTHER another valid namespace name: a job of another namespace, which no
 * dependency or job tree may reach (each namespace is atomic on its own).
 */
int qless__namespace_same(const char *func, const char *what, const char *ns, const char *jid);

#endif
