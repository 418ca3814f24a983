/* The protocol script compiled into the library (generated: script_embedded.c). */
#ifndef QLESS_EMBEDDED_SCRIPT_H
#define QLESS_EMBEDDED_SCRIPT_H

#include <stddef.h>

extern const char qless_script_lua[];
extern const size_t qless_script_lua_len;
extern const char qless_script_lua_sha1[];

#endif
