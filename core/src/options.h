/* Reading versioned options structs (options.c). */
#ifndef QLESS_OPTIONS_H
#define QLESS_OPTIONS_H

#include <stddef.h>

/* *_options_init of a struct whose version 1 was v1_size bytes and whose
 * current version `current` is size bytes; init is the current *_INIT. */
int qless__options_init(const char *func, void *opts, unsigned int version, const void *init, size_t v1_size,
                        size_t size, unsigned int current);
/* Reads a caller's versioned options struct (opts may be NULL: init) into o,
 * a struct of the current version `current` (size bytes): a version-1
 * struct (v1_size bytes) is copied only that far, the rest comes from init. */
int qless__options_read(const char *func, const void *opts, void *o, const void *init, size_t v1_size,
                        size_t size, unsigned int current);

/* The same for structs with more than two versions: sizes[v - 1] is the
 * size of version v, for v = 1..current. */
int qless__options_init_sizes(const char *func, void *opts, unsigned int version, const void *init,
                              const size_t *sizes, unsigned int current);
int qless__options_read_sizes(const char *func, const void *opts, void *o, const void *init, const size_t *sizes,
                              unsigned int current);

#endif
