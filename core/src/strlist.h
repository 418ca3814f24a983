/* qless_strlist (strlist.c): lists of strings, each with an optional number. */
#ifndef QLESS_STRLIST_H
#define QLESS_STRLIST_H

#include <stddef.h>
#include <stdint.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/common.h"

struct qless_strlist {
	size_t size, cap;
	char **items;
	int64_t *numbers;
};
qless_strlist *qless__strlist_new(size_t cap);
/* For optional out-parameters: hands l to *out when out is not NULL, else frees it. */
void qless__strlist_give(qless_strlist *l, qless_strlist **out);
int qless__strlist_push(qless_strlist *l, const char *s, size_t len, int64_t number);
/* Strings from a Redis array reply; NULL on bad shape (EPROTOCOL) or OOM. */
int qless__strlist_from_reply(const redisReply *r, qless_strlist **out, const char *func);
/* Strings from a JSON array (or empty object); EPROTOCOL on bad shape. */
int qless__strlist_from_json(const json_t *v, qless_strlist **out, const char *func);

#endif
