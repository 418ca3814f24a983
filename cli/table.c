/*
 * Aligned text tables: a header row, then rows of cells; columns whose
 * cells all look like numbers are right-aligned. Long cells are kept whole.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct table {
	size_t ncols, nrows, cap;
	char **cells;   /* (nrows + 1) * ncols, row 0 the headers */
};

static char *dup_or_die(const char *s)
{
	char *d = strdup(s != NULL ? s : "");
	if (d == NULL)
		abort();
	return d;
}

static void grow(table *t)
{
	if (t->nrows + 1 < t->cap)
		return;
	t->cap = t->cap ? t->cap * 2 : 16;
	t->cells = realloc(t->cells, t->cap * t->ncols * sizeof *t->cells);
	if (t->cells == NULL)
		abort();
}

table *table_new(const char *const *headers)
{
	table *t = calloc(1, sizeof *t);
	if (t == NULL)
		abort();
	while (headers[t->ncols] != NULL)
		t->ncols++;
	grow(t);
	for (size_t i = 0; i < t->ncols; i++)
		t->cells[i] = dup_or_die(headers[i]);
	return t;
}

void table_row(table *t, ...)
{
	grow(t);
	va_list ap;
	va_start(ap, t);
	t->nrows++;
	for (size_t i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] = dup_or_die(va_arg(ap, const char *));
	va_end(ap);
}

static int numeric(const char *s)
{
	if (strcmp(s, "-") == 0)
		return 1;
	char *end;
	strtod(s, &end);
	return *s != '\0' && *end == '\0';
}

void table_print(table *t)
{
	size_t *width = calloc(t->ncols, sizeof *width);
	int *right = calloc(t->ncols, sizeof *right), *any = calloc(t->ncols, sizeof *any);
	if (width == NULL || right == NULL || any == NULL)
		abort();
	for (size_t col = 0; col < t->ncols; col++) {
		right[col] = t->nrows > 0;
		for (size_t row = 0; row <= t->nrows; row++) {
			const char *cell = t->cells[row * t->ncols + col];
			size_t len = strlen(cell);
			if (len > width[col])
				width[col] = len;
			if (row > 0 && !numeric(cell))
				right[col] = 0;
			if (row > 0 && strcmp(cell, "-") != 0)
				any[col] = 1;
		}
		right[col] = right[col] && any[col];
	}
	for (size_t row = 0; row <= t->nrows; row++) {
		for (size_t col = 0; col < t->ncols; col++) {
			const char *cell = t->cells[row * t->ncols + col];
			int last = col + 1 == t->ncols;
			if (right[col])
				printf("%*s", (int)width[col], cell);
			else if (last)
				printf("%s", cell);
			else
				printf("%-*s", (int)width[col], cell);
			if (!last)
				fputs("  ", stdout);
			free(t->cells[row * t->ncols + col]);
		}
		fputc('\n', stdout);
	}
	free(width);
	free(right);
	free(any);
	free(t->cells);
	free(t);
}

void table_free(table *t)
{
	for (size_t i = 0; i < (t->nrows + 1) * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}
