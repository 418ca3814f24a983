/* qless_strlist: immutable list of strings with optional numbers. */
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"
#include "errors.h"
#include "handles.h"
#include "strlist.h"
#include "util.h"

qless_strlist *qless__strlist_new(size_t cap)
{
	qless_strlist *l = calloc(1, sizeof *l);
	if (l == NULL)
		return NULL;
	qless__handle_add(1);
	if (cap > 0) {
		l->items = malloc(cap * sizeof *l->items);
		l->numbers = malloc(cap * sizeof *l->numbers);
		if (l->items == NULL || l->numbers == NULL) {
			qless_strlist_free(l);
			return NULL;
		}
		l->cap = cap;
	}
	return l;
}

int qless__strlist_push(qless_strlist *l, const char *s, size_t len, int64_t number)
{
	char *copy;
	if (l->size == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 8;
		char **items = realloc(l->items, ncap * sizeof *items);
		int64_t *nums;
		if (items == NULL)
			return QLESS_ENOMEM;
		l->items = items;
		nums = realloc(l->numbers, ncap * sizeof *nums);
		if (nums == NULL)
			return QLESS_ENOMEM;
		l->numbers = nums;
		l->cap = ncap;
	}
	copy = qless__strndup(s, len);
	if (copy == NULL)
		return QLESS_ENOMEM;
	l->items[l->size] = copy;
	l->numbers[l->size] = number;
	l->size++;
	return QLESS_OK;
}

int qless__strlist_from_reply(const redisReply *r, qless_strlist **out, const char *func)
{
	qless_strlist *l;
	size_t i;
	*out = NULL;
	if (r->type != REDIS_REPLY_ARRAY)
		return qless__err(QLESS_EPROTOCOL, "%s: expected an array reply", func);
	l = qless__strlist_new(r->elements);
	if (l == NULL)
		return qless__err_nomem(func);
	for (i = 0; i < r->elements; i++) {
		const redisReply *e = r->element[i];
		if (e->type != REDIS_REPLY_STRING && e->type != REDIS_REPLY_STATUS) {
			qless_strlist_free(l);
			return qless__err(QLESS_EPROTOCOL, "%s: expected strings in the array reply", func);
		}
		if (qless__strlist_push(l, e->str, e->len, 0) != QLESS_OK) {
			qless_strlist_free(l);
			return qless__err_nomem(func);
		}
	}
	*out = l;
	return QLESS_OK;
}

int qless__strlist_from_json(const json_t *v, qless_strlist **out, const char *func)
{
	qless_strlist *l;
	size_t i;
	*out = NULL;
	if (json_is_object(v) && json_object_size(v) == 0) {
		l = qless__strlist_new(0);
		if (l == NULL)
			return qless__err_nomem(func);
		*out = l;
		return QLESS_OK;
	}
	if (!json_is_array(v))
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array in the reply", func);
	l = qless__strlist_new(json_array_size(v));
	if (l == NULL)
		return qless__err_nomem(func);
	for (i = 0; i < json_array_size(v); i++) {
		const json_t *e = json_array_get(v, i);
		if (!json_is_string(e)) {
			qless_strlist_free(l);
			return qless__err(QLESS_EPROTOCOL, "%s: expected strings in the JSON array", func);
		}
		if (qless__strlist_push(l, json_string_value(e), json_string_length(e), 0) != QLESS_OK) {
			qless_strlist_free(l);
			return qless__err_nomem(func);
		}
	}
	*out = l;
	return QLESS_OK;
}

size_t qless_strlist_size(const qless_strlist *list)
{
	return list ? list->size : 0;
}

const char *qless_strlist_get(const qless_strlist *list, size_t index)
{
	if (list == NULL || index >= list->size)
		return NULL;
	return list->items[index];
}

int64_t qless_strlist_number(const qless_strlist *list, size_t index)
{
	if (list == NULL || index >= list->size)
		return 0;
	return list->numbers[index];
}

void qless_strlist_free(qless_strlist *list)
{
	size_t i;
	if (list == NULL)
		return;
	qless__handle_add(-1);
	for (i = 0; i < list->size; i++)
		free(list->items[i]);
	free(list->items);
	free(list->numbers);
	free(list);
}

void qless__strlist_give(qless_strlist *l, qless_strlist **out)
{
	if (out != NULL)
		*out = l;
	else
		qless_strlist_free(l);
}
