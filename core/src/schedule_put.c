/* The schedule facade's one add (qless_schedule_put: the at/in/every/cron
 * choice made here for every binding), its typed entries (qless_entries)
 * and the next due times of an entry (qless/schedule.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "errors.h"
#include "handles.h"
#include "next_times.h"
#include "options.h"
#include "queue_handle.h"
#include "schedule_text.h"
#include "util.h"

int qless_schedule_add_options_init(qless_schedule_add_options *opts, unsigned int version)
{
	static const qless_schedule_add_options init = QLESS_SCHEDULE_ADD_OPTIONS_INIT;
	return qless__options_init("qless_schedule_add_options_init", opts, version, &init,
	                           offsetof(qless_schedule_add_options, day_first), sizeof init,
	                           QLESS_SCHEDULE_ADD_OPTIONS_VERSION);
}

int qless_schedule_put(char **out_jid, int *out_inserted, qless_schedule *s, const char *klass, const char *data,
                       const qless_schedule_add_options *opts)
{
	static const char F[] = "qless_schedule_put";
	static const qless_schedule_add_options init = QLESS_SCHEDULE_ADD_OPTIONS_INIT;
	qless_schedule_options so = QLESS_SCHEDULE_OPTIONS_INIT;
	qless_schedule_add_options o;
	/* Named by concept (at_text is "at" too), as every binding spells them. */
	const char *names[7] = { "at", "at", "in", "in", "every", "every", "cron" };
	char given[80] = "";
	int count = 0, which = -1, i, rc;
	unsigned int flags;

	if (out_jid != NULL)
		*out_jid = NULL;
	if (out_inserted != NULL)
		*out_inserted = 0;
	qless__when_warning_clear();
	QLESS_CHECK_NULL(F, opts);
	if ((rc = qless__options_read(F, opts, &o, &init, offsetof(qless_schedule_add_options, day_first), sizeof o,
	                              QLESS_SCHEDULE_ADD_OPTIONS_VERSION)) !=
	    QLESS_OK)
		return rc;
	{
		int set[7] = { o.has_at, o.at_text != NULL, o.has_in, o.in_text != NULL, o.has_every,
		               o.every_text != NULL, o.cron != NULL };
		for (i = 0; i < 7; i++) {
			if (!set[i])
				continue;
			snprintf(given + strlen(given), sizeof given - strlen(given), "%s%s", count ? ", " : "", names[i]);
			count++;
			which = i;
		}
	}
	if (count != 1)
		return qless__err(QLESS_EINVAL, "%s: give exactly one of at, in, every and cron, each a number or a text "
		                  "(given: %s)", F, count ? given : "none");
	so.unique = o.unique;
	so.key = o.key;
	so.jid = o.jid;
	so.has_priority = o.has_priority;
	so.priority = o.priority;
	so.retries = o.retries;
	so.backlog = o.backlog;
	so.tags = o.tags;
	so.ntags = o.ntags;
	flags = o.day_first ? QLESS_WHEN_DAY_FIRST : 0;
	switch (which) {
	case 0: return qless_schedule_add_at(out_jid, out_inserted, s, o.at, klass, data, &so);
	case 1: return qless__schedule_add_text("qless_schedule_add_at_text", "at_text", QLESS_WHEN_READ_AT, flags, s,
	                                        out_jid, out_inserted, o.at_text, klass, data, &so);
	case 2: return qless_schedule_add_in(out_jid, out_inserted, s, o.in_seconds, klass, data, &so);
	case 3: return qless__schedule_add_text("qless_schedule_add_in_text", "in_text", QLESS_WHEN_READ_IN, flags, s,
	                                        out_jid, out_inserted, o.in_text, klass, data, &so);
	case 4: return qless_schedule_add_every(out_jid, out_inserted, s, o.every, o.first, klass, data, &so);
	case 5: return qless__schedule_add_text("qless_schedule_add_every_text", "every_text", QLESS_WHEN_READ_EVERY,
	                                        flags, s, out_jid, out_inserted, o.every_text, klass, data, &so);
	default: return qless_schedule_add_cron(out_jid, out_inserted, s, o.cron, klass, data, &so);
	}
}

/* ---- entries ---- */

typedef struct entry {
	const json_t *obj;   /* borrowed from the list */
	qless_entry_kind kind;
	char *json;
	char *description;
} entry;

struct qless_entries {
	json_t *list;
	size_t n;
	entry *items;
};

void qless_entries_free(qless_entries *e)
{
	size_t i;
	if (e == NULL)
		return;
	for (i = 0; i < e->n; i++) {
		free(e->items[i].json);
		qless_free(e->items[i].description);
	}
	free(e->items);
	json_decref(e->list);
	free(e);
	qless__handle_add(-1);
}

static int describe(entry *it)
{
	char buf[64 + QLESS_TIME_SIZE], num[32], when[QLESS_TIME_SIZE];
	const json_t *o = it->obj;

	if (it->kind == QLESS_ENTRY_CRON)
		return qless_cron_describe(&it->description, json_string_value(json_object_get(o, "cron")));
	if (it->kind == QLESS_ENTRY_INTERVAL) {
		qless__fmt_num(num, sizeof num, qless__jnum(json_object_get(o, "interval")));
		snprintf(buf, sizeof buf, "every %s seconds", num);
	} else {
		if (qless_time_format(when, qless__jnum(json_object_get(o, "next"))) != QLESS_OK)
			snprintf(when, sizeof when, "?");
		snprintf(buf, sizeof buf, "once at %s", when);
	}
	return (it->description = qless__strdup(buf)) ? QLESS_OK : QLESS_ENOMEM;
}

static int read_entry(const char *F, entry *it)
{
	const char *kind = json_string_value(json_object_get(it->obj, "kind"));
	const json_t *tags = json_object_get(it->obj, "tags");
	size_t i;

	if (!json_is_string(json_object_get(it->obj, "jid")) || !json_is_string(json_object_get(it->obj, "klass")) ||
	    kind == NULL || (tags != NULL && !json_is_array(tags)))
		return qless__err(QLESS_EPROTOCOL, "%s: schedule.list sent an entry of another shape", F);
	for (i = 0; tags && i < json_array_size(tags); i++)
		if (!json_is_string(json_array_get(tags, i)))
			return qless__err(QLESS_EPROTOCOL, "%s: schedule.list sent a tag that is not a string", F);
	if (strcmp(kind, "cron") == 0 && json_is_string(json_object_get(it->obj, "cron")))
		it->kind = QLESS_ENTRY_CRON;
	else if (strcmp(kind, "interval") == 0)
		it->kind = QLESS_ENTRY_INTERVAL;
	else if (strcmp(kind, "at") == 0)
		it->kind = QLESS_ENTRY_AT;
	else
		return qless__err(QLESS_EPROTOCOL, "%s: schedule.list sent the unknown kind '%s'", F, kind);
	if ((it->json = json_dumps(it->obj, JSON_COMPACT)) == NULL)
		return qless__err_nomem(F);
	if (describe(it) != QLESS_OK)
		/* an expression the server took but this library cannot describe */
		return (it->description = qless__strdup(json_string_value(json_object_get(it->obj, "cron")))) ? QLESS_OK
		                                                                                         : qless__err_nomem(F);
	return QLESS_OK;
}

int qless_entries_get(qless_entries **out, qless_schedule *s)
{
	static const char F[] = "qless_entries_get";
	qless_entries *e;
	char *text = NULL;
	size_t i;
	int rc;

	QLESS_CHECK_NULL(F, out);
	*out = NULL;
	if ((rc = qless_schedule_list(&text, s)) != QLESS_OK)
		return rc;
	if ((e = calloc(1, sizeof *e)) == NULL) {
		qless_free(text);
		return qless__err_nomem(F);
	}
	qless__handle_add(1);
	e->list = json_loads(text, 0, NULL);
	qless_free(text);
	if (!json_is_array(e->list)) {
		qless_entries_free(e);
		return qless__err(QLESS_EPROTOCOL, "%s: expected a JSON array of entries", F);
	}
	if ((e->items = calloc(json_array_size(e->list) + 1, sizeof *e->items)) == NULL) {
		qless_entries_free(e);
		return qless__err_nomem(F);
	}
	for (i = 0; i < json_array_size(e->list); i++) {
		e->items[i].obj = json_array_get(e->list, i);
		e->n = i + 1;
		if ((rc = read_entry(F, &e->items[i])) != QLESS_OK) {
			qless_entries_free(e);
			return rc;
		}
	}
	*out = e;
	return QLESS_OK;
}

static const entry *entry_at(const qless_entries *e, size_t index)
{
	return e && index < e->n ? &e->items[index] : NULL;
}

static const char *entry_str(const qless_entries *e, size_t index, const char *key)
{
	const entry *it = entry_at(e, index);
	return it ? json_string_value(json_object_get(it->obj, key)) : NULL;
}

static double entry_num(const qless_entries *e, size_t index, const char *key)
{
	const entry *it = entry_at(e, index);
	return it ? qless__jnum(json_object_get(it->obj, key)) : 0;
}

size_t qless_entries_size(const qless_entries *e)
{
	return e ? e->n : 0;
}

const char *qless_entries_jid(const qless_entries *e, size_t index)
{
	return entry_str(e, index, "jid");
}

const char *qless_entries_klass(const qless_entries *e, size_t index)
{
	return entry_str(e, index, "klass");
}

qless_entry_kind qless_entries_kind(const qless_entries *e, size_t index)
{
	const entry *it = entry_at(e, index);
	return it ? it->kind : QLESS_ENTRY_AT;
}

const char *qless_entries_kind_name(const qless_entries *e, size_t index)
{
	static const char *const names[] = { "at", "interval", "cron" };
	const entry *it = entry_at(e, index);
	return it ? names[it->kind] : NULL;
}

const char *qless_entries_cron(const qless_entries *e, size_t index)
{
	return qless_entries_kind(e, index) == QLESS_ENTRY_CRON ? entry_str(e, index, "cron") : NULL;
}

double qless_entries_interval(const qless_entries *e, size_t index)
{
	return qless_entries_kind(e, index) == QLESS_ENTRY_INTERVAL ? entry_num(e, index, "interval") : 0;
}

double qless_entries_next(const qless_entries *e, size_t index)
{
	return entry_num(e, index, "next");
}

double qless_entries_priority(const qless_entries *e, size_t index)
{
	return entry_num(e, index, "priority");
}

size_t qless_entries_tag_count(const qless_entries *e, size_t index)
{
	const entry *it = entry_at(e, index);
	return it ? json_array_size(json_object_get(it->obj, "tags")) : 0;
}

const char *qless_entries_tag(const qless_entries *e, size_t index, size_t tag)
{
	const entry *it = entry_at(e, index);
	return it ? json_string_value(json_array_get(json_object_get(it->obj, "tags"), tag)) : NULL;
}

const char *qless_entries_description(const qless_entries *e, size_t index)
{
	const entry *it = entry_at(e, index);
	return it ? it->description : NULL;
}

const char *qless_entries_json(const qless_entries *e, size_t index)
{
	const entry *it = entry_at(e, index);
	return it ? it->json : NULL;
}

/* ---- next due times ---- */

int qless_schedule_next_times(double **out, size_t *out_n, qless_schedule *s, const char *jid, int64_t count)
{
	static const char F[] = "qless_schedule_next_times";
	qless_recur *recur = NULL;
	qless_entries *e = NULL;
	size_t i;
	int rc;

	if ((rc = qless__times_out(F, out, out_n)) != QLESS_OK)
		return rc;
	QLESS_CHECK_NULL(F, s);
	QLESS_CHECK_STR(F, jid);
	if (count < 1 || count > 1000)
		return qless__err(QLESS_EINVAL, "%s: count must be between 1 and 1000, not %lld", F, (long long)count);
	rc = qless_client_get_recur(&recur, qless__queue_client(qless_schedule_queue(s)), jid);
	if (rc == QLESS_OK && strcmp(qless_recur_queue(recur), qless_schedule_name(s)) == 0) {
		rc = qless_recur_next(out, out_n, recur, count);
		qless_recur_free(recur);
		return rc;
	}
	qless_recur_free(recur);
	if (rc != QLESS_OK && rc != QLESS_ENOTFOUND)
		return rc;
	if ((rc = qless_entries_get(&e, s)) != QLESS_OK)
		return rc;
	for (i = 0; i < e->n; i++) {
		if (strcmp(qless_entries_jid(e, i), jid) != 0)
			continue;
		if ((*out = malloc(sizeof **out)) == NULL) {
			qless_entries_free(e);
			return qless__err_nomem(F);
		}
		**out = qless_entries_next(e, i);
		*out_n = 1;
		qless_entries_free(e);
		return QLESS_OK;
	}
	qless_entries_free(e);
	return qless__err(QLESS_ENOTFOUND, "%s: %s is no pending entry of %s", F, jid, qless_schedule_name(s));
}
