/* The table of web/assets files the build generates (assets_table.c). */
#ifndef QLESS_WEB_ASSETS_H
#define QLESS_WEB_ASSETS_H
#include <stddef.h>

typedef struct web_asset {
	const char *path;            /* relative to web/assets, '/'-separated */
	const char *type;            /* Content-Type */
	const unsigned char *data;
	size_t len;
} web_asset;

/* Ends with a row whose path is NULL. */
extern const web_asset web_assets[];
#endif
