/* Memory, text, JSON and number helpers and the argument checks built on them (util.c). */
#ifndef QLESS_UTIL_H
#define QLESS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

char *qless__strdup(const char *s);
char *qless__strndup(const char *s, size_t n);
/* A copy of s (the caller frees it), NULL for NULL; sets *oom when out of
 * memory, so several copies can be made before one check. */
char *qless__strdup_or_null(const char *s, int *oom);
/* The deepest nesting of arrays and objects the protocol's JSON decoder
 * (Redis' cjson) accepts. */
#define QLESS_JSON_MAX_DEPTH 1000
/* QLESS_OK if text is any JSON value the protocol can decode, else
 * QLESS_EINVAL naming func and arg (the argument as the caller knows it). */
int qless__check_json(const char *func, const char *arg, const char *text);
/* QLESS_OK if v is finite, else QLESS_EINVAL naming func and arg. */
int qless__check_finite(const char *func, const char *arg, double v);
/* Non-zero if s is valid UTF-8 (RFC 3629: no overlongs, surrogates or code
 * points past U+10FFFF). The protocol's text is UTF-8: the script stores it
 * in JSON, which every client must be able to read back. */
int qless__utf8_valid(const char *s);
/* A failure's group and message: both, group non-empty (or, when optional,
 * neither). QLESS_EINVAL naming what is wrong otherwise. */
int qless__check_failure(const char *func, const char *group, const char *message, int optional);
/* Checks strs[0..n) are non-NULL, valid UTF-8 (and non-empty when nonempty); on failure
 * records QLESS_EINVAL naming func/arg and returns it. */
int qless__check_strv(const char *func, const char *arg, const char *const *strs, size_t n, int nonempty);
/* JSON array text of n strings (owned) or NULL on OOM. */
char *qless__json_strv(const char *const *strs, size_t n);
/* Number of a JSON number (integer or real); 0 otherwise. */
double qless__jnum(const json_t *v);
int64_t qless__jint(const json_t *v);
/* Formats a double so it round-trips; integers without exponent. */
void qless__fmt_num(char *buf, size_t size, double v);
int qless__finite(double v);

#endif
