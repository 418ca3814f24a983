/* Argument vectors of protocol calls: the strings a call sends, numbers
 * formatted in place, strings it owns, and text that is not UTF-8 noted
 * so that the call is refused before anything is sent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "args.h"
#include "errors.h"
#include "util.h"

void qless__args_init(qless_args *a)
{
	a->v = a->stack;
	a->n = QLESS_ARGS_PREFIX;
	a->cap = QLESS_ARGS_STACK;
	a->nnums = 0;
	a->owned = NULL;
	a->nowned = a->ownedcap = 0;
	a->oom = 0;
	a->bad_utf8 = 0;
}

static int grow(qless_args *a, size_t extra)
{
	size_t ncap;
	const char **nv;
	if (a->n + extra <= a->cap)
		return 0;
	ncap = a->cap * 2;
	while (ncap < a->n + extra)
		ncap *= 2;
	if (a->v == a->stack) {
		nv = malloc(ncap * sizeof *nv);
		if (nv != NULL)
			memcpy(nv, a->stack, a->n * sizeof *nv);
	} else {
		nv = realloc(a->v, ncap * sizeof *nv);
	}
	if (nv == NULL) {
		a->oom = 1;
		return -1;
	}
	a->v = nv;
	a->cap = ncap;
	return 0;
}

/* Text that is not UTF-8 never reaches the script (see qless__utf8_valid):
 * the call is refused before anything is sent. */
static void note_utf8(qless_args *a, const char *s)
{
	if (a->bad_utf8 == 0 && !qless__utf8_valid(s))
		a->bad_utf8 = (int)(a->n - QLESS_ARGS_PREFIX) + 1;
}

void qless__args_add(qless_args *a, const char *s)
{
	if (a->oom || grow(a, 1) != 0)
		return;
	note_utf8(a, s);
	a->v[a->n++] = s;
}

void qless__args_addv(qless_args *a, const char *const *strs, size_t n)
{
	size_t i;
	if (a->oom || grow(a, n) != 0)
		return;
	for (i = 0; i < n; i++) {
		note_utf8(a, strs[i]);
		a->v[a->n++] = strs[i];
	}
}

int qless__args_bad_utf8(const qless_args *a, const char *func, const char *cmd)
{
	return qless__err(QLESS_EINVAL, "%s: argument %d of %s is not valid UTF-8 text", func, a->bad_utf8, cmd);
}

void qless__args_own(qless_args *a, char *s)
{
	if (s == NULL || a->oom) {
		free(s);
		a->oom = 1;
		return;
	}
	if (a->nowned == a->ownedcap) {
		size_t ncap = a->ownedcap ? a->ownedcap * 2 : 4;
		char **no = realloc(a->owned, ncap * sizeof *no);
		if (no == NULL) {
			free(s);
			a->oom = 1;
			return;
		}
		a->owned = no;
		a->ownedcap = ncap;
	}
	a->owned[a->nowned++] = s;
	qless__args_add(a, s);
}

void qless__args_num(qless_args *a, double v)
{
	char buf[40];
	if (a->nnums < QLESS_ARGS_NUMS) {
		qless__fmt_num(a->nums[a->nnums], sizeof a->nums[0], v);
		qless__args_add(a, a->nums[a->nnums++]);
		return;
	}
	qless__fmt_num(buf, sizeof buf, v);
	qless__args_own(a, qless__strdup(buf));
}

void qless__args_int(qless_args *a, int64_t v)
{
	char buf[40];
	snprintf(buf, sizeof buf, "%lld", (long long)v);
	if (a->nnums < QLESS_ARGS_NUMS) {
		memcpy(a->nums[a->nnums], buf, strlen(buf) + 1);
		qless__args_add(a, a->nums[a->nnums++]);
		return;
	}
	qless__args_own(a, qless__strdup(buf));
}

void qless__args_free(qless_args *a)
{
	size_t i;
	for (i = 0; i < a->nowned; i++)
		free(a->owned[i]);
	free(a->owned);
	if (a->v != a->stack)
		free(a->v);
	a->v = a->stack;
	a->owned = NULL;
	a->nowned = a->ownedcap = 0;
	a->n = QLESS_ARGS_PREFIX;
}
