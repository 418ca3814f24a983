/* Argument vectors of protocol calls (args.c). */
#ifndef QLESS_ARGS_H
#define QLESS_ARGS_H

#include <stddef.h>
#include <stdint.h>

#define QLESS_ARGS_PREFIX 6   /* EVALSHA sha 1 key command now (call.c set_head) */
#define QLESS_ARGS_STACK 32
#define QLESS_ARGS_NUMS 10
typedef struct qless_args {
	const char **v;
	size_t n, cap;
	const char *stack[QLESS_ARGS_STACK];
	char nums[QLESS_ARGS_NUMS][40];
	size_t nnums;
	char **owned;
	size_t nowned, ownedcap;
	int oom;
	int bad_utf8;   /* 1 + index of the first argument that is not UTF-8, else 0 */
} qless_args;
void qless__args_init(qless_args *a);
void qless__args_add(qless_args *a, const char *s);
void qless__args_addv(qless_args *a, const char *const *strs, size_t n);
void qless__args_num(qless_args *a, double v);
void qless__args_int(qless_args *a, int64_t v);
/* Takes ownership of s (NULL marks the vector out of memory). */
void qless__args_own(qless_args *a, char *s);
void qless__args_free(qless_args *a);
/* Records QLESS_EINVAL naming the first argument that is not UTF-8. */
int qless__args_bad_utf8(const qless_args *a, const char *func, const char *cmd);

#endif
