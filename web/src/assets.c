/* The dashboard's files, built into the binary (web/embed_assets.cmake). */
#include <string.h>
#include "assets.h"
#include "server.h"

int web_asset_find(const unsigned char **data, size_t *len, const char **type, const char *path)
{
	for (const web_asset *a = web_assets; a->path != NULL; a++) {
		if (strcmp(a->path, path) == 0) {
			*data = a->data;
			*len = a->len;
			*type = a->type;
			return 0;
		}
	}
	return -1;
}
