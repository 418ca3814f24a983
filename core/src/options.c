/* Versioned options structs: a caller built against an older header passes
 * a shorter struct (its version says how long); the library reads only that
 * far and takes the rest from the current defaults. */
#include <string.h>

#include "qless/qless.h"
#include "errors.h"
#include "options.h"

int qless__options_init_sizes(const char *func, void *opts, unsigned int version, const void *init,
                              const size_t *sizes, unsigned int current)
{
	QLESS_CHECK_NULL(func, opts);
	if (version == 0 || version > current)
		return qless__err(QLESS_EINVAL, "%s: unsupported version %u", func, version);
	/* An older struct is shorter: write only its fields. */
	memcpy(opts, init, sizes[version - 1]);
	*(unsigned int *)opts = version;
	return QLESS_OK;
}

int qless__options_read_sizes(const char *func, const void *opts, void *o, const void *init, const size_t *sizes,
                              unsigned int current)
{
	unsigned int version;
	memcpy(o, init, sizes[current - 1]);
	if (opts == NULL)
		return QLESS_OK;
	version = *(const unsigned int *)opts;
	if (version == 0 || version > current)
		return qless__err(QLESS_EINVAL, "%s: unsupported options version %u", func, version);
	memcpy(o, opts, sizes[version - 1]);
	*(unsigned int *)o = current;
	return QLESS_OK;
}

int qless__options_init(const char *func, void *opts, unsigned int version, const void *init, size_t v1_size,
                        size_t size, unsigned int current)
{
	const size_t sizes[2] = { v1_size, size };
	return qless__options_init_sizes(func, opts, version, init, sizes, current);
}

int qless__options_read(const char *func, const void *opts, void *o, const void *init, size_t v1_size,
                        size_t size, unsigned int current)
{
	const size_t sizes[2] = { v1_size, size };
	return qless__options_read_sizes(func, opts, o, init, sizes, current);
}
