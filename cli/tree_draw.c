/*
 * qless tree JID: the job and its descendants drawn as an ASCII tree, one
 * line a job (name, jid, class, state, aliases, port sizes and channels),
 * or with --json the tree.get objects in the order drawn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char tree_get_usage[] =
	"       qless tree [get] JID\n"
	"           draw the job and its children (each line: name, jid, class, state,\n"
	"           [aliases], in:/out: ports as name=size with <-/->channels);\n"
	"           --json: the tree.get objects of every job, parents first\n";

/* A job still to draw: its line starts with prefix then the branch. */
typedef struct pending {
	char *jid, *name, *prefix;
	int last, top;
} pending;

typedef struct stack {
	pending *items;
	size_t n, cap;
} stack;

static char *dup_or_die(const char *s)
{
	char *d = strdup(s);
	if (d == NULL)
		abort();
	return d;
}

static char *concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 1);
	if (s == NULL)
		abort();
	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	return s;
}

static void push(stack *st, const char *jid, const char *name, char *prefix, int last, int top)
{
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 16;
		st->items = realloc(st->items, st->cap * sizeof *st->items);
		if (st->items == NULL)
			abort();
	}
	pending *p = &st->items[st->n++];
	p->jid = dup_or_die(jid);
	p->name = name != NULL ? dup_or_die(name) : NULL;
	p->prefix = prefix;
	p->last = last;
	p->top = top;
}

static void pending_free(pending *p)
{
	free(p->jid);
	free(p->name);
	free(p->prefix);
}

/* Object keys in byte order (K4 of jobtrees.md: the order the server uses). */
static int cmp_keys(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char **sorted_keys(json_t *obj, size_t *n)
{
	*n = json_object_size(obj);
	const char **keys = calloc(*n + 1, sizeof *keys);
	if (keys == NULL)
		abort();
	size_t i = 0;
	const char *key;
	json_t *value;
	json_object_foreach(obj, key, value) keys[i++] = key;
	qsort(keys, *n, sizeof *keys, cmp_keys);
	return keys;
}

/* " in: a=2<-/x,/y b=0" for the ports of one direction that have a size. */
static void print_ports(json_t *tree, const char *dir, const char *channels_key, const char *arrow)
{
	json_t *sizes = json_object_get(json_object_get(tree, "sizes"), dir);
	json_t *channels = json_object_get(tree, channels_key);
	size_t n;
	const char **ports = sorted_keys(sizes, &n);
	if (n > 0)
		printf("  %s:", dir);
	for (size_t i = 0; i < n; i++) {
		printf(" %s=%lld", ports[i], (long long)json_integer_value(json_object_get(sizes, ports[i])));
		json_t *list = json_object_get(channels, ports[i]);
		size_t k;
		json_t *ch;
		json_array_foreach(list, k, ch) printf("%s%s", k ? "," : arrow, json_string_value(ch));
	}
	free(ports);
}

static void print_line(const pending *p, json_t *tree)
{
	fputs(p->prefix, stdout);
	if (!p->top)
		fputs(p->last ? "`-- " : "|-- ", stdout);
	if (p->name != NULL)
		printf("%s: ", p->name);
	if (tree == NULL) {
		printf("%s (no such job)\n", p->jid);
		return;
	}
	printf("%s %s %s", p->jid, json_string_value(json_object_get(tree, "klass")),
	       json_string_value(json_object_get(tree, "state")));
	json_t *aliases = json_object_get(tree, "aliases");
	size_t i;
	json_t *a;
	json_array_foreach(aliases, i, a) printf("%s%s", i ? "," : " [", json_string_value(a));
	if (json_array_size(aliases) > 0)
		fputc(']', stdout);
	print_ports(tree, "in", "inchannels", "<-");
	print_ports(tree, "out", "outchannels", "->");
	json_t *parent = json_object_get(tree, "parent");
	if (p->top && json_is_string(parent))
		printf("  (parent %s)", json_string_value(parent));
	fputc('\n', stdout);
}

/* Children pushed last first, so that they are drawn in name order. */
static void push_children(stack *st, const pending *p, json_t *tree)
{
	json_t *children = json_object_get(tree, "children");
	size_t n;
	const char **names = sorted_keys(children, &n);
	const char *branch = p->top ? "" : p->last ? "    " : "|   ";
	for (size_t i = n; i-- > 0;)
		push(st, json_string_value(json_object_get(children, names[i])), names[i], concat(p->prefix, branch),
		     i == n - 1, 0);
	free(names);
}

/* tree.get of one job: 0 with *out (NULL when the job is gone), else an exit status. */
static int fetch_tree(cli *c, const char *jid, int top, json_t **out)
{
	char *text = NULL;
	*out = NULL;
	if (qless_client_tree_get(&text, c->client, jid) != QLESS_OK) {
		if (qless_error_last_code() != QLESS_ENOTFOUND)
			return cli_lib_error(c);
		return top ? cli_error(c, "no job %s", jid) : 0;
	}
	*out = json_parse(text);
	qless_free(text);
	return 0;
}

int tree_get(cli *c, int argc, char **argv)
{
	char *pos[1];
	int status, n = cli_parse(c, argc, argv, NULL, tree_get_usage, pos, 1, &status);
	if (n < 0)
		return status;
	if (n < 1)
		return cli_usage_error(c, "needs a JID (see qless tree --help)");
	if (arg_words(c, "JID", pos, 1) || (status = cli_connect(c)) != 0)
		return status ? status : EXIT_USAGE;
	stack st = { 0 };
	/* Links are acyclic by the server's checks; seen guards the walk anyway. */
	json_t *all = json_array(), *seen = json_object();
	push(&st, pos[0], NULL, dup_or_die(""), 1, 1);
	while (status == 0 && st.n > 0) {
		pending p = st.items[--st.n];
		json_t *tree = NULL;
		if (json_object_get(seen, p.jid) == NULL && (status = fetch_tree(c, p.jid, p.top, &tree)) == 0) {
			json_object_set_new(seen, p.jid, json_true());
			if (p.top && tree != NULL && json_is_string(json_object_get(tree, "name")))
				p.name = dup_or_die(json_string_value(json_object_get(tree, "name")));
			if (!c->json)
				print_line(&p, tree);
			if (tree != NULL) {
				push_children(&st, &p, tree);
				json_array_append(all, tree);
			}
		}
		json_decref(tree);
		pending_free(&p);
	}
	while (st.n > 0)
		pending_free(&st.items[--st.n]);
	free(st.items);
	if (status == 0 && c->json)
		json_print(json_incref(all));
	json_decref(all);
	json_decref(seen);
	return status;
}
