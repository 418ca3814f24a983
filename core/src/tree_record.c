/* The typed tree record (qless_tree) and per-job store (qless_store) of
 * qless/tree.h: tree.get and state.get read once, answered by accessors. */
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "call.h"
#include "errors.h"
#include "handles.h"
#include "tree_args.h"
#include "util.h"

struct qless_store {
	size_t n;
	char **keys;     /* sorted */
	char **values;   /* JSON texts */
	char *json;
};

typedef struct tree_port {
	const char *name;      /* borrowed from the record */
	int64_t size;          /* -1 for "*" */
	char *deflt;           /* JSON text or NULL */
	size_t nchan;
	const char **chans;    /* borrowed from the record, sorted */
} tree_port;

struct qless_tree {
	json_t *rec;
	char *json;
	qless_store *store;
	size_t nchildren, naliases, nports[2];
	const char **child_names, **child_jids, **aliases;   /* borrowed from rec */
	tree_port *ports[2];
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The value beside key in the sorted keys[0..n) (values parallel), or NULL. */
static const char *find_sorted(const char *const *keys, const char *const *values, size_t n, const char *key)
{
	const char *const *hit;
	if (key == NULL || n == 0)
		return NULL;
	hit = bsearch(&key, keys, n, sizeof *keys, cmp_str);
	return hit ? values[hit - keys] : NULL;
}

/* ---- store ---- */

void qless_store_free(qless_store *s)
{
	size_t i;
	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->keys[i]);
		free(s->values[i]);
	}
	free(s->keys);
	free(s->values);
	free(s->json);
	free(s);
	qless__handle_add(-1);
}

/* The store of the JSON object obj (state.get without a key). */
static int store_from(const char *F, json_t *obj, qless_store **out)
{
	qless_store *s;
	const char *key;
	json_t *v;
	size_t i = 0;

	if (json_is_array(obj) && json_array_size(obj) == 0) {  /* cjson's {} may come back as [] */
		json_decref(obj);
		obj = json_object();
	}
	if (!json_is_object(obj)) {
		json_decref(obj);
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON object of the job's state", F);
	}
	if ((s = calloc(1, sizeof *s)) == NULL) {
		json_decref(obj);
		return qless__err_nomem(F);
	}
	qless__handle_add(1);
	s->keys = calloc(json_object_size(obj) + 1, sizeof *s->keys);
	s->values = calloc(json_object_size(obj) + 1, sizeof *s->values);
	s->json = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	if (s->keys == NULL || s->values == NULL || s->json == NULL)
		goto nomem;
	json_object_foreach(obj, key, v) {
		if ((s->keys[i] = qless__strdup(key)) == NULL)
			goto nomem;
		s->n = ++i;
	}
	qsort(s->keys, s->n, sizeof *s->keys, cmp_str);
	for (i = 0; i < s->n; i++)
		if ((s->values[i] = json_dumps(json_object_get(obj, s->keys[i]), JSON_COMPACT | JSON_ENCODE_ANY)) == NULL)
			goto nomem;
	json_decref(obj);
	*out = s;
	return QLESS_OK;
nomem:
	json_decref(obj);
	qless_store_free(s);
	return qless__err_nomem(F);
}

static int store_read(const char *F, qless_client *client, const char *jid, qless_store **out)
{
	qless_args a;
	json_t *obj;
	int rc;

	if ((rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK ||
	    (rc = qless__call_json(client, F, "state.get", &a, &obj)) != QLESS_OK)
		return rc;
	return store_from(F, obj, out);
}

int qless_store_get(qless_store **out, qless_client *client, const char *jid)
{
	static const char F[] = "qless_store_get";
	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	return store_read(F, client, jid, out);
}

size_t qless_store_size(const qless_store *s)
{
	return s ? s->n : 0;
}

const char *qless_store_key(const qless_store *s, size_t index)
{
	return s && index < s->n ? s->keys[index] : NULL;
}

const char *qless_store_value(const qless_store *s, size_t index)
{
	return s && index < s->n ? s->values[index] : NULL;
}

const char *qless_store_find(const qless_store *s, const char *key)
{
	return s ? find_sorted((const char *const *)s->keys, (const char *const *)s->values, s->n, key) : NULL;
}

const char *qless_store_json(const qless_store *s)
{
	return s ? s->json : NULL;
}

/* ---- tree ---- */

void qless_tree_free(qless_tree *t)
{
	int d;
	size_t i;
	if (t == NULL)
		return;
	for (d = 0; d < 2; d++) {
		for (i = 0; i < t->nports[d]; i++) {
			free(t->ports[d][i].deflt);
			free(t->ports[d][i].chans);
		}
		free(t->ports[d]);
	}
	free(t->child_names);
	free(t->child_jids);
	free(t->aliases);
	free(t->json);
	qless_store_free(t->store);
	json_decref(t->rec);
	free(t);
	qless__handle_add(-1);
}

/* The strings of a JSON array (cjson's {} for an empty one), sorted; NULL
 * with *n 0 for none. -1 when an item is not a string, -2 out of memory. */
static int sorted_strings(const json_t *arr, const char ***out, size_t *n)
{
	size_t i, size = json_is_array(arr) ? json_array_size(arr) : 0;
	*out = NULL;
	*n = 0;
	if (size == 0)
		return json_is_array(arr) || json_is_object(arr) || arr == NULL ? 0 : -1;
	if ((*out = calloc(size, sizeof **out)) == NULL)
		return -2;
	for (i = 0; i < size; i++)
		if (((*out)[i] = json_string_value(json_array_get(arr, i))) == NULL)
			return -1;
	*n = size;
	qsort((void *)*out, size, sizeof **out, cmp_str);
	return 0;
}

/* The keys of JSON object obj, sorted and borrowed from it; NULL with *n 0
 * for none (or for anything but an object). -2 out of memory. */
static int sorted_keys(const json_t *obj, const char ***out, size_t *n)
{
	const char *k;
	json_t *v;
	size_t i = 0, size = json_is_object(obj) ? json_object_size(obj) : 0;

	*out = NULL;
	*n = 0;
	if (size == 0)
		return 0;
	if ((*out = calloc(size, sizeof **out)) == NULL)
		return -2;
	json_object_foreach((json_t *)obj, k, v)
		(*out)[i++] = k;
	qsort((void *)*out, size, sizeof **out, cmp_str);
	*n = size;
	return 0;
}

/* Sorted pairs of an object of strings (children: name -> jid). -1 when a
 * value is not a string. */
static int sorted_pairs(const json_t *obj, const char ***keys, const char ***values, size_t *n)
{
	size_t i;
	int rc = sorted_keys(obj, keys, n);

	*values = NULL;
	if (rc != 0 || *n == 0)
		return rc;
	if ((*values = calloc(*n, sizeof **values)) == NULL)
		return -2;
	for (i = 0; i < *n; i++)
		if (((*values)[i] = json_string_value(json_object_get(obj, (*keys)[i]))) == NULL)
			return -1;
	return 0;
}

/* One direction's ports from the record's <dir>ports, <dir>channels and sizes.<dir>. */
static int read_ports(qless_tree *t, int d)
{
	static const char *const names[2][2] = { { "inports", "inchannels" }, { "outports", "outchannels" } };
	const json_t *ports = json_object_get(t->rec, names[d][0]);
	const json_t *chans = json_object_get(t->rec, names[d][1]);
	const json_t *sizes = json_object_get(json_object_get(t->rec, "sizes"), d ? "out" : "in");
	const char **keys;
	size_t i, size;
	int rc;

	if (ports != NULL && !json_is_object(ports) && !(json_is_array(ports) && json_array_size(ports) == 0))
		return -1;
	if ((rc = sorted_keys(ports, &keys, &size)) != 0 || size == 0)
		return rc;
	if ((t->ports[d] = calloc(size, sizeof *t->ports[d])) == NULL) {
		free(keys);
		return -2;
	}
	t->nports[d] = size;
	for (i = 0; i < size && rc == 0; i++) {
		tree_port *p = &t->ports[d][i];
		const json_t *deflt = json_object_get(json_object_get(ports, keys[i]), "default");
		const json_t *sz = json_object_get(sizes, keys[i]);
		p->name = keys[i];
		p->size = strcmp(keys[i], "*") == 0 ? -1 : (json_is_integer(sz) ? json_integer_value(sz) : 0);
		if (deflt != NULL && (p->deflt = json_dumps(deflt, JSON_COMPACT | JSON_ENCODE_ANY)) == NULL)
			rc = -2;
		if (rc == 0)
			rc = sorted_strings(json_object_get(chans, keys[i]), &p->chans, &p->nchan);
	}
	free(keys);
	return rc;
}

static const char *opt_str(const json_t *rec, const char *key)
{
	return json_string_value(json_object_get(rec, key));
}

int qless_tree_get(qless_tree **out, qless_client *client, const char *jid)
{
	static const char F[] = "qless_tree_get";
	qless_tree *t;
	qless_args a;
	int rc, bad;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	if ((rc = qless__first_arg(F, client, "jid", jid, &a)) != QLESS_OK)
		return rc;
	if ((t = calloc(1, sizeof *t)) == NULL)
		return qless__err_nomem(F);
	qless__handle_add(1);
	if ((rc = qless__call_json_found(client, F, "tree.get", &a, &t->rec, "job", jid)) != QLESS_OK) {
		qless_tree_free(t);
		return rc;
	}
	bad = !json_is_object(t->rec) || opt_str(t->rec, "jid") == NULL;
	if (!bad && (t->json = json_dumps(t->rec, JSON_COMPACT)) == NULL)
		bad = -2;
	if (!bad)
		bad = sorted_pairs(json_object_get(t->rec, "children"), &t->child_names, &t->child_jids, &t->nchildren);
	if (!bad)
		bad = sorted_strings(json_object_get(t->rec, "aliases"), &t->aliases, &t->naliases);
	if (!bad)
		bad = read_ports(t, 0);
	if (!bad)
		bad = read_ports(t, 1);
	if (bad) {
		qless_tree_free(t);
		return bad == -2 ? qless__err_nomem(F)
		                 : qless__err(QLESS_EPROTOCOL, "%s: tree.get of %s sent a record of another shape", F, jid);
	}
	if ((rc = store_read(F, client, jid, &t->store)) != QLESS_OK) {
		qless_tree_free(t);
		return rc;
	}
	*out = t;
	return QLESS_OK;
}

const char *qless_tree_json(const qless_tree *t)
{
	return t ? t->json : NULL;
}

#define TREE_STR(NAME, KEY) \
	const char *qless_tree_##NAME(const qless_tree *t) { return t ? opt_str(t->rec, KEY) : NULL; }
TREE_STR(jid, "jid")
TREE_STR(klass, "klass")
TREE_STR(queue, "queue")
TREE_STR(status, "state")
TREE_STR(parent, "parent")
TREE_STR(name, "name")
TREE_STR(created_by, "created_by")

double qless_tree_started(const qless_tree *t)
{
	const json_t *v = t ? json_object_get(t->rec, "started") : NULL;
	return json_is_number(v) ? json_number_value(v) : 0;
}

int64_t qless_tree_runs(const qless_tree *t)
{
	const json_t *v = t ? json_object_get(t->rec, "runs") : NULL;
	return json_is_number(v) ? (int64_t)json_number_value(v) : 0;
}

int qless_tree_rerun(const qless_tree *t)
{
	return t ? json_is_true(json_object_get(t->rec, "rerun")) : 0;
}

size_t qless_tree_child_count(const qless_tree *t)
{
	return t ? t->nchildren : 0;
}

const char *qless_tree_child_name(const qless_tree *t, size_t index)
{
	return t && index < t->nchildren ? t->child_names[index] : NULL;
}

const char *qless_tree_child_jid(const qless_tree *t, size_t index)
{
	return t && index < t->nchildren ? t->child_jids[index] : NULL;
}

const char *qless_tree_child(const qless_tree *t, const char *name)
{
	return t ? find_sorted(t->child_names, t->child_jids, t->nchildren, name) : NULL;
}

size_t qless_tree_alias_count(const qless_tree *t)
{
	return t ? t->naliases : 0;
}

const char *qless_tree_alias(const qless_tree *t, size_t index)
{
	return t && index < t->naliases ? t->aliases[index] : NULL;
}

static const tree_port *port_at(const qless_tree *t, qless_port_dir dir, size_t index)
{
	int d = dir == QLESS_PORT_OUT ? 1 : 0;
	if (t == NULL || (dir != QLESS_PORT_IN && dir != QLESS_PORT_OUT) || index >= t->nports[d])
		return NULL;
	return &t->ports[d][index];
}

size_t qless_tree_port_count(const qless_tree *t, qless_port_dir dir)
{
	if (t == NULL || (dir != QLESS_PORT_IN && dir != QLESS_PORT_OUT))
		return 0;
	return t->nports[dir == QLESS_PORT_OUT];
}

const char *qless_tree_port_name(const qless_tree *t, qless_port_dir dir, size_t index)
{
	const tree_port *p = port_at(t, dir, index);
	return p ? p->name : NULL;
}

int64_t qless_tree_port_size(const qless_tree *t, qless_port_dir dir, size_t index)
{
	const tree_port *p = port_at(t, dir, index);
	return p ? p->size : 0;
}

const char *qless_tree_port_default(const qless_tree *t, qless_port_dir dir, size_t index)
{
	const tree_port *p = port_at(t, dir, index);
	return p ? p->deflt : NULL;
}

size_t qless_tree_port_channel_count(const qless_tree *t, qless_port_dir dir, size_t index)
{
	const tree_port *p = port_at(t, dir, index);
	return p ? p->nchan : 0;
}

const char *qless_tree_port_channel(const qless_tree *t, qless_port_dir dir, size_t index, size_t channel)
{
	const tree_port *p = port_at(t, dir, index);
	return p && channel < p->nchan ? p->chans[channel] : NULL;
}

const qless_store *qless_tree_store(const qless_tree *t)
{
	return t ? t->store : NULL;
}
