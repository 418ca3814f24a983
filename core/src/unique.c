/*
 * Unique jids (schedules.md §4): the SHA-1 of an entry's identity in
 * canonical JSON, so every client that adds the same entry names it alike
 * and the script's `unique` option can tell a repeat by its jid alone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include <jansson.h>

#include "qless/qless.h"
#include "cron.h"
#include "errors.h"
#include "ids.h"
#include "unique.h"
#include "util.h"

/* §4.2: what jansson writes with these flags is the canonical form. */
#define CANON_DUMP (JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY)
#define CANON_LOAD (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES)

static int canon_load(const char *F, const char *arg, const char *text, json_t **out)
{
	json_error_t e;
	*out = json_loads(text, CANON_LOAD, &e);
	if (*out == NULL)
		return qless__err(QLESS_EINVAL, "%s: %s is not valid JSON: %s", F, arg, e.text);
	return QLESS_OK;
}

int qless_json_canonicalize(char **out, const char *json)
{
	static const char F[] = "qless_json_canonicalize";
	json_t *v;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	QLESS_CHECK_NULL(F, json);
	if ((rc = canon_load(F, "json", json, &v)) != QLESS_OK)
		return rc;
	*out = json_dumps(v, CANON_DUMP);
	json_decref(v);
	return *out ? QLESS_OK : qless__err_nomem(F);
}

/* SHA-1 of the canonical text of id, as 40 hex digits in out. Takes id. */
static int identity_jid(const char *F, json_t *id, char out[QLESS_UNIQUE_JID_SIZE])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	char *text = json_dumps(id, CANON_DUMP);
	int ok;

	json_decref(id);
	if (text == NULL)
		return qless__err_nomem(F);
	ok = EVP_Digest(text, strlen(text), md, &mdlen, EVP_sha1(), NULL) == 1 && mdlen == 20;
	free(text);
	if (!ok)
		return qless__err(QLESS_EIO, "%s: libcrypto could not compute SHA-1", F);
	for (i = 0; i < mdlen; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[40] = '\0';
	return QLESS_OK;
}

/* Sets id[name] = the string s (NULL or empty: QLESS_EINVAL naming it). */
static int set_text(const char *F, json_t *id, const char *name, const char *s)
{
	json_t *v;
	if (s == NULL)
		return qless__err_null(F, name);
	if (s[0] == '\0')
		return qless__err_empty(F, name);
	if ((v = json_string(s)) == NULL)
		return qless__err(QLESS_EINVAL, "%s: %s is not valid UTF-8", F, name);
	return json_object_set_new(id, name, v) == 0 ? QLESS_OK : qless__err_nomem(F);
}

/* id[name] = the decoded value; steals it. */
static int set_value(const char *F, json_t *id, const char *name, json_t *v)
{
	if (v == NULL || json_object_set_new(id, name, v) != 0)
		return qless__err_nomem(F);
	return QLESS_OK;
}

int qless__unique_jid(const char *F, char out[QLESS_UNIQUE_JID_SIZE], const char *queue, const char *klass,
                      const char *data, const char *cron, double interval)
{
	json_t *id, *d;
	char *norm = NULL;
	int rc;

	QLESS_CHECK_NULL(F, out);
	out[0] = '\0';
	if (!qless__finite(interval) || interval < 0)
		return qless__err(QLESS_EINVAL, "%s: interval must be 0 (none) or a positive number", F);
	if (cron != NULL && interval != 0)
		return qless__err(QLESS_EINVAL, "%s: give cron or interval, not both", F);
	if ((id = json_object()) == NULL)
		return qless__err_nomem(F);
	if ((rc = set_text(F, id, "queue", queue)) != QLESS_OK || (rc = set_text(F, id, "klass", klass)) != QLESS_OK ||
	    (rc = canon_load(F, "data", data ? data : "{}", &d)) != QLESS_OK ||
	    (rc = set_value(F, id, "data", d)) != QLESS_OK)
		goto fail;
	if (cron != NULL && ((rc = qless__cron_identity(F, cron, &norm)) != QLESS_OK ||
	                     (rc = set_text(F, id, "cron", norm)) != QLESS_OK))
		goto fail;
	/* §4.1: an integral interval is a JSON integer, so 300 and 300.0 agree. */
	if (interval != 0 && (rc = set_value(F, id, "interval", interval == floor(interval) && interval < 9007199254740992.0
	                                                        ? json_integer((json_int_t)interval)
	                                                        : json_real(interval))) != QLESS_OK)
		goto fail;
	free(norm);
	return identity_jid(F, id, out);
fail:
	free(norm);
	json_decref(id);
	return rc;
}

int qless_unique_jid(char out[QLESS_UNIQUE_JID_SIZE], const char *queue, const char *klass, const char *data,
                     const char *cron, double interval)
{
	return qless__unique_jid("qless_unique_jid", out, queue, klass, data, cron, interval);
}

int qless__unique_jid_for_key(const char *F, char out[QLESS_UNIQUE_JID_SIZE], const char *queue, const char *key)
{
	json_t *id;
	int rc;

	QLESS_CHECK_NULL(F, out);
	out[0] = '\0';
	if ((id = json_object()) == NULL)
		return qless__err_nomem(F);
	if ((rc = set_text(F, id, "queue", queue)) != QLESS_OK || (rc = set_text(F, id, "key", key)) != QLESS_OK) {
		json_decref(id);
		return rc;
	}
	return identity_jid(F, id, out);
}

int qless_unique_jid_for_key(char out[QLESS_UNIQUE_JID_SIZE], const char *queue, const char *key)
{
	return qless__unique_jid_for_key("qless_unique_jid_for_key", out, queue, key);
}

int qless__entry_jid(const char *F, char buf[QLESS_UNIQUE_JID_SIZE], const char **jid, const char *given,
                     int unique, const char *key, const char *queue, const char *klass, const char *data,
                     const char *cron, double interval)
{
	*jid = buf;
	if (given != NULL) {
		*jid = given;
		return given[0] == '\0' ? qless__err_empty(F, "jid") : QLESS_OK;
	}
	if (key != NULL && !unique)
		return qless__err(QLESS_EINVAL, "%s: opts->unique_key is set but opts->unique is not", F);
	if (!unique)
		return qless__make_jid(buf);
	if (key != NULL)
		return qless__unique_jid_for_key(F, buf, queue, key);
	return qless__unique_jid(F, buf, queue, klass, data, cron, interval);
}
