/*
 * Unique jids (schedules.md §4): the SHA-1 of an entry's identity in
 * canonical JSON, so every client that adds the same entry names it alike
 * and the script's `unique` option can tell a repeat by its jid alone.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "internal.h"

/* §4.2: what jansson writes with these flags is the canonical form. */
#define CANON_DUMP (JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY)
#define CANON_LOAD (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES)

#define CRON_MAX 1024
#define CRON_FIELDS_MAX 7

static int canon_load(const char *F, const char *arg, const char *text, json_t **out)
{
	json_error_t e;
	*out = json_loads(text, CANON_LOAD, &e);
	if (*out == NULL)
		return qless__err(QLESS_EINVAL, "%s: %s is not valid JSON: %s", F, arg, e.text);
	return QLESS_OK;
}

int qless_canonical_json(const char *json, char **out)
{
	static const char F[] = "qless_canonical_json";
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

/* Three-letter names of a field's values, from its first value on. */
static const char *const MONTHS[] = { "JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                      "JUL", "AUG", "SEP", "OCT", "NOV", "DEC", NULL };
static const char *const DAYS[] = { "SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT", NULL };

static const struct { const char *name, *expansion; } MACROS[] = {
	{ "@yearly", "0 0 1 1 *" }, { "@annually", "0 0 1 1 *" }, { "@monthly", "0 0 1 * *" },
	{ "@weekly", "0 0 * * 0" }, { "@daily", "0 0 * * *" }, { "@midnight", "0 0 * * *" },
	{ "@hourly", "0 * * * *" }, { NULL, NULL },
};

/* Appends field text f (length n) to buf, upper-cased, with the names of
 * `names` (first value `first`) replaced by their numbers; in the
 * day-of-week field (dow) a value 7 that starts an item and is no range's
 * start becomes 0, as 7 and 0 both mean Sunday. */
static void cron_field(char *buf, size_t *len, const char *f, size_t n, const char *const *names, int first,
                       int dow)
{
	size_t i = 0;
	while (i < n) {
		int at_item = i == 0 || f[i - 1] == ',';
		if (isalpha((unsigned char)f[i])) {
			size_t j = i, k;
			char word[8];
			while (j < n && isalpha((unsigned char)f[j]))
				j++;
			for (k = 0; k < j - i && k < sizeof word - 1; k++)
				word[k] = (char)toupper((unsigned char)f[i + k]);
			word[k] = '\0';
			for (k = 0; names && names[k] && (j - i != 3 || strcmp(word, names[k]) != 0); k++)
				;
			if (names && names[k] && j - i == 3)
				*len += (size_t)sprintf(buf + *len, "%d", first + (int)k);
			else
				for (k = i; k < j; k++)
					buf[(*len)++] = (char)toupper((unsigned char)f[k]);
			i = j;
		} else if (dow && at_item && f[i] == '7' && (i + 1 == n || !isdigit((unsigned char)f[i + 1])) &&
		           (i + 1 == n || f[i + 1] != '-')) {
			buf[(*len)++] = '0';
			i++;
		} else {
			buf[(*len)++] = f[i++];
		}
	}
	buf[*len] = '\0';
}

/*
 * The identity text of a cron expression (S6): NORM(expr) (§2.5) with
 * macros and month and weekday names expanded and weekday 7 written 0.
 * Checks the length, the field count and the macro name; the rest of the
 * syntax is the server's to refuse. *out owned.
 */
static int cron_identity(const char *F, const char *expr, char **out)
{
	const char *start[CRON_FIELDS_MAX + 1], *p = expr;
	size_t len[CRON_FIELDS_MAX + 1], n = 0, total = 0, i;
	int dow, month;
	char *buf;

	*out = NULL;
	if (strlen(expr) > CRON_MAX)
		return qless__err(QLESS_EINVAL, "%s: Arg \"cron\" invalid: expression longer than %d bytes", F, CRON_MAX);
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		if (n == CRON_FIELDS_MAX + 1) {
			n++;
			break;
		}
		start[n] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		len[n] = (size_t)(p - start[n]);
		n++;
	}
	if (n == 0)
		return qless__err(QLESS_EINVAL, "%s: Arg \"cron\" invalid: empty expression", F);
	if (n == 1 && start[0][0] == '@') {
		for (i = 0; MACROS[i].name; i++)
			if (strlen(MACROS[i].name) == len[0] && strncasecmp(MACROS[i].name, start[0], len[0]) == 0)
				return (*out = qless__strdup(MACROS[i].expansion)) ? QLESS_OK : qless__err_nomem(F);
		return qless__err(QLESS_EINVAL, "%s: Arg \"cron\" invalid: unknown macro \"%.*s\"", F, (int)len[0],
		                  start[0]);
	}
	if (n != 5 && n != CRON_FIELDS_MAX) {
		if (n > CRON_FIELDS_MAX) {
			/* Only counted up to 8 so far: count the rest for the message. */
			for (n = 0, p = expr; *p; n++) {
				while (*p == ' ' || *p == '\t')
					p++;
				if (*p == '\0')
					break;
				while (*p != '\0' && *p != ' ' && *p != '\t')
					p++;
			}
		}
		return qless__err(QLESS_EINVAL, "%s: Arg \"cron\" invalid: expected 5 or 7 fields, got %zu", F, n);
	}
	for (i = 0; i < n; i++)
		total += len[i] * 2 + 1;   /* a name (3 letters) becomes at most 2 digits */
	if ((buf = malloc(total + 1)) == NULL)
		return qless__err_nomem(F);
	month = n == 5 ? 3 : 1;
	dow = n == 5 ? 4 : 3;
	total = 0;
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf[total++] = ' ';
		cron_field(buf, &total, start[i], len[i], (int)i == month ? MONTHS : (int)i == dow ? DAYS : NULL,
		           (int)i == month ? 1 : 0, (int)i == dow);
	}
	*out = buf;
	return QLESS_OK;
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
	if (cron != NULL && ((rc = cron_identity(F, cron, &norm)) != QLESS_OK ||
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
