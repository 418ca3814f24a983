/* The schedule facade's entries (schedules.md §6.4, S5): adds as unique
 * puts and recurs, removal and listing through schedule.remove/.list. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "cron.h"
#include "errors.h"
#include "next_times.h"
#include "options.h"
#include "put.h"
#include "queue_handle.h"
#include "recurring.h"
#include "util.h"
#include "schedule_text.h"
#include "when_read.h"

/* schedule.list pages hold at most this many entries (S5). */
#define LIST_PAGE 1000

static qless_client *client_of(qless_schedule *s)
{
	return qless__queue_client(qless_schedule_queue(s));
}

int qless_schedule_options_init(qless_schedule_options *opts, unsigned int version)
{
	static const qless_schedule_options init = QLESS_SCHEDULE_OPTIONS_INIT;
	return qless__options_init("qless_schedule_options_init", opts, version, &init, sizeof init, sizeof init,
	                           QLESS_SCHEDULE_OPTIONS_VERSION);
}

/* Checks what every add shares and reads opts into o. */
static int add_args(const char *F, qless_schedule *s, char **out_jid, int *out_inserted, const char *klass,
                    const qless_schedule_options *opts, qless_schedule_options *o)
{
	static const qless_schedule_options init = QLESS_SCHEDULE_OPTIONS_INIT;
	int rc;

	if (out_jid != NULL)
		*out_jid = NULL;
	if (out_inserted != NULL)
		*out_inserted = 0;
	QLESS_CHECK_NULL(F, s);
	QLESS_CHECK_STR(F, klass);
	if ((rc = qless__options_read(F, opts, o, &init, sizeof *o, sizeof *o, QLESS_SCHEDULE_OPTIONS_VERSION)) !=
	    QLESS_OK)
		return rc;
	if (o->has_priority && (rc = qless__check_finite(F, "opts->priority", o->priority)) != QLESS_OK)
		return rc;
	if (o->backlog < 0)
		return qless__err(QLESS_EINVAL, "%s: opts->backlog must not be negative", F);
	if (o->key != NULL && !o->unique)
		return qless__err(QLESS_EINVAL, "%s: opts->key is set but opts->unique is not", F);
	return qless__check_strv(F, "opts->tags", o->tags, o->ntags, 1);
}

/* A plain (not unique) add inserts whatever was there. */
static int inserted_unless_unique(int rc, const qless_schedule_options *o, int *out_inserted)
{
	if (rc == QLESS_OK && !o->unique && out_inserted != NULL)
		*out_inserted = 1;
	return rc;
}

/* A one-off entry: put with delay (>= 0). */
static int add_job(const char *F, qless_schedule *s, char **out_jid, int *out_inserted, double delay,
                   const char *klass, const char *data, const qless_schedule_options *o)
{
	qless_put_options po = QLESS_PUT_OPTIONS_INIT;
	int rc;

	po.jid = o->jid;
	po.delay = delay > 0 ? delay : 0;
	po.has_priority = o->has_priority;
	po.priority = o->priority;
	po.retries = o->retries;
	po.tags = o->ntags > 0 ? o->tags : NULL;
	po.ntags = o->ntags;
	po.unique = o->unique;
	po.unique_key = o->key;
	rc = qless__put(client_of(s), F, "put", qless_schedule_name(s), out_jid,
	                out_inserted, klass, data, &po, o->unique ? "report" : NULL);
	return inserted_unless_unique(rc, o, out_inserted);
}

/* A template: every interval seconds after offset, or at expr's times. */
static int add_template(const char *F, qless_schedule *s, char **out_jid, int *out_inserted, double interval,
                        double offset, const char *expr, const char *klass, const char *data,
                        const qless_schedule_options *o)
{
	qless_recur_options ro = QLESS_RECUR_OPTIONS_INIT;
	int rc;

	if (data != NULL && (rc = qless__check_json(F, "data", data)) != QLESS_OK)
		return rc;
	ro.jid = o->jid;
	ro.offset = offset > 0 ? offset : 0;
	ro.priority = o->has_priority ? o->priority : 0;
	ro.retries = o->retries < 0 ? 0 : o->retries;
	ro.backlog = o->backlog;
	ro.tags = o->tags;
	ro.ntags = o->ntags;
	ro.unique_key = o->key;
	rc = qless__recur(qless_schedule_queue(s), F, out_jid, out_inserted, klass, data ? data : "{}", interval,
	                  expr, &ro, 1, o->unique ? "report" : NULL);
	return inserted_unless_unique(rc, o, out_inserted);
}

/* A one-off time more than this before now is refused: it is a mistake
 * (a stale computed time, "today at 9am" read after 9), not a wish to run
 * at once, which add_now and the text "now" say. The minute covers clocks
 * and the caller's own arithmetic. */
#define PAST_SLACK 60.0

static int check_not_past(const char *F, const char *arg, double when, double now)
{
	char iso[QLESS_TIME_SIZE];
	if (when >= now - PAST_SLACK)
		return QLESS_OK;
	if (qless_time_format(iso, when) != QLESS_OK)
		snprintf(iso, sizeof iso, "%.17g", when);
	return qless__err(QLESS_EINVAL,
	                  "%s: %s %s is in the past (more than a minute before now); "
	                  "add it now (add_now, or the time \"now\") to run it at once",
	                  F, arg, iso);
}

/* add_at and add_every turn times into delays from now, the pinned now
 * (qless__pin_now) their call sends, so the server lands on those times. */
static int add_at(const char *F, const char *arg, qless_schedule *s, char **out_jid, int *out_inserted,
                  double when, double now, const char *klass, const char *data, const qless_schedule_options *o)
{
	int rc = qless__check_finite(F, arg, when);
	if (rc == QLESS_OK)
		rc = check_not_past(F, arg, when, now);
	if (rc != QLESS_OK)
		return rc;
	return add_job(F, s, out_jid, out_inserted, when - now, klass, data, o);
}

static int add_every(const char *F, qless_schedule *s, char **out_jid, int *out_inserted, double interval,
                     double first, double now, const char *klass, const char *data,
                     const qless_schedule_options *o)
{
	int rc;
	if (!qless__finite(interval) || interval <= 0)
		return qless__err(QLESS_EINVAL, "%s: interval must be a number > 0", F);
	if ((rc = qless__check_finite(F, "first", first)) != QLESS_OK)
		return rc;
	return add_template(F, s, out_jid, out_inserted, interval, first == 0 ? 0 : first - now, NULL, klass, data,
	                    o);
}

static int add_cron(const char *F, qless_schedule *s, char **out_jid, int *out_inserted, const char *expr,
                    const char *klass, const char *data, const qless_schedule_options *o)
{
	int rc = qless__cron_norm(F, expr, NULL);
	if (rc != QLESS_OK)
		return rc;
	/* qless__recur checks the backlog bound of cron schedules */
	return add_template(F, s, out_jid, out_inserted, 0, 0, expr, klass, data, o);
}

int qless_schedule_add_now(char **out_jid, int *out_inserted, qless_schedule *s, const char *klass,
                           const char *data, const qless_schedule_options *opts)
{
	static const char F[] = "qless_schedule_add_now";
	qless_schedule_options o;
	int rc = add_args(F, s, out_jid, out_inserted, klass, opts, &o);
	return rc != QLESS_OK ? rc : add_job(F, s, out_jid, out_inserted, 0, klass, data, &o);
}

int qless_schedule_add_at(char **out_jid, int *out_inserted, qless_schedule *s, double when, const char *klass,
                          const char *data, const qless_schedule_options *opts)
{
	static const char F[] = "qless_schedule_add_at";
	qless_schedule_options o;
	int rc = add_args(F, s, out_jid, out_inserted, klass, opts, &o);
	if (rc != QLESS_OK)
		return rc;
	rc = add_at(F, "when", s, out_jid, out_inserted, when, qless__pin_now(client_of(s)), klass, data, &o);
	qless__unpin_now(client_of(s));
	return rc;
}

int qless_schedule_add_in(char **out_jid, int *out_inserted, qless_schedule *s, double seconds,
                          const char *klass, const char *data, const qless_schedule_options *opts)
{
	static const char F[] = "qless_schedule_add_in";
	qless_schedule_options o;
	int rc = add_args(F, s, out_jid, out_inserted, klass, opts, &o);
	if (rc == QLESS_OK)
		rc = qless__check_finite(F, "seconds", seconds);
	if (rc == QLESS_OK && seconds < -PAST_SLACK) {
		double now = qless__pin_now(client_of(s));
		rc = check_not_past(F, "seconds", now + seconds, now);
		qless__unpin_now(client_of(s));
	}
	return rc != QLESS_OK ? rc : add_job(F, s, out_jid, out_inserted, seconds, klass, data, &o);
}

int qless_schedule_add_every(char **out_jid, int *out_inserted, qless_schedule *s, double interval, double first,
                             const char *klass, const char *data, const qless_schedule_options *opts)
{
	static const char F[] = "qless_schedule_add_every";
	qless_schedule_options o;
	int rc = add_args(F, s, out_jid, out_inserted, klass, opts, &o);
	if (rc != QLESS_OK)
		return rc;
	rc = add_every(F, s, out_jid, out_inserted, interval, first, qless__pin_now(client_of(s)), klass, data, &o);
	qless__unpin_now(client_of(s));
	return rc;
}

int qless_schedule_add_cron(char **out_jid, int *out_inserted, qless_schedule *s, const char *expr,
                            const char *klass, const char *data, const qless_schedule_options *opts)
{
	static const char F[] = "qless_schedule_add_cron";
	qless_schedule_options o;
	int rc = add_args(F, s, out_jid, out_inserted, klass, opts, &o);
	return rc != QLESS_OK ? rc : add_cron(F, s, out_jid, out_inserted, expr, klass, data, &o);
}

/* The one implementation of the text adds: what the text means decides
 * add_at, add_every or add_cron, all from the one pinned now. */
int qless__schedule_add_text(const char *F, const char *arg, qless_when_read_as as, unsigned int flags,
                             qless_schedule *s, char **out_jid, int *out_inserted, const char *text,
                             const char *klass, const char *data, const qless_schedule_options *opts)
{
	qless_when w = QLESS_WHEN_INIT;
	qless_schedule_options o;
	double now;
	int rc;

	/* a warning left by an earlier parse is not this add's */
	qless__when_warning_clear();
	w.flags = flags;
	if ((rc = add_args(F, s, out_jid, out_inserted, klass, opts, &o)) != QLESS_OK)
		return rc;
	if (text == NULL)
		return qless__err_null(F, arg);
	now = qless__pin_now(client_of(s));
	rc = qless__when_read(F, arg, "use qless_schedule_add_every_text or qless_schedule_add_cron", text, as, now, &w);
	if (rc == QLESS_OK && w.kind == QLESS_WHEN_AT)
		rc = add_at(F, arg, s, out_jid, out_inserted, w.at, now, klass, data, &o);
	else if (rc == QLESS_OK && w.kind == QLESS_WHEN_INTERVAL)
		rc = add_every(F, s, out_jid, out_inserted, w.interval, w.at, now, klass, data, &o);
	else if (rc == QLESS_OK)
		rc = add_cron(F, s, out_jid, out_inserted, w.cron, klass, data, &o);
	qless__unpin_now(client_of(s));
	return rc;
}

int qless_schedule_add(char **out_jid, int *out_inserted, qless_schedule *s, const char *when_text,
                       const char *klass, const char *data, const qless_schedule_options *opts)
{
	return qless__schedule_add_text("qless_schedule_add", "when_text", QLESS_WHEN_READ_ANY, 0, s, out_jid, out_inserted,
	                                when_text, klass, data, opts);
}

int qless_schedule_add_at_text(char **out_jid, int *out_inserted, qless_schedule *s, const char *at_text,
                               const char *klass, const char *data, const qless_schedule_options *opts)
{
	return qless__schedule_add_text("qless_schedule_add_at_text", "at_text", QLESS_WHEN_READ_AT, 0, s, out_jid, out_inserted,
	                                at_text, klass, data, opts);
}

int qless_schedule_add_in_text(char **out_jid, int *out_inserted, qless_schedule *s, const char *in_text,
                               const char *klass, const char *data, const qless_schedule_options *opts)
{
	return qless__schedule_add_text("qless_schedule_add_in_text", "in_text", QLESS_WHEN_READ_IN, 0, s, out_jid, out_inserted,
	                                in_text, klass, data, opts);
}

int qless_schedule_add_every_text(char **out_jid, int *out_inserted, qless_schedule *s, const char *every_text,
                                  const char *klass, const char *data, const qless_schedule_options *opts)
{
	return qless__schedule_add_text("qless_schedule_add_every_text", "every_text", QLESS_WHEN_READ_EVERY, 0, s, out_jid, out_inserted,
	                                every_text, klass, data, opts);
}

int qless_schedule_remove(int *out_removed, qless_schedule *s, const char *jid)
{
	static const char F[] = "qless_schedule_remove";
	qless_args a;
	int64_t removed = 0;
	int rc;

	if (out_removed != NULL)
		*out_removed = 0;
	QLESS_CHECK_NULL(F, s);
	QLESS_CHECK_STR(F, jid);
	qless__args_init(&a);
	qless__args_add(&a, qless_schedule_name(s));
	qless__args_add(&a, jid);
	if ((rc = qless__call_int(client_of(s), F, "schedule.remove", &a, &removed)) != QLESS_OK)
		return rc;
	if (out_removed != NULL)
		*out_removed = removed != 0;
	return QLESS_OK;
}

/* Appends one schedule.list page from offset to all; *n: its size. */
static int list_page(const char *F, qless_schedule *s, size_t offset, json_t *all, size_t *n)
{
	qless_args a;
	json_t *page;
	int rc;

	*n = 0;
	qless__args_init(&a);
	qless__args_add(&a, qless_schedule_name(s));
	qless__args_int(&a, (int64_t)offset);
	qless__args_int(&a, LIST_PAGE);
	if ((rc = qless__call_json(client_of(s), F, "schedule.list", &a, &page)) != QLESS_OK ||
	    (rc = qless__json_list(F, &page, "entries")) != QLESS_OK)
		return rc;
	*n = json_array_size(page);
	for (size_t i = 0; i < *n; i++) {
		/* cjson's {} for no tags, as the list of tags it is. */
		json_t *tags = json_object_get(json_array_get(page, i), "tags");
		if (json_is_object(tags) && json_object_size(tags) == 0)
			json_object_set_new(json_array_get(page, i), "tags", json_array());
	}
	rc = json_array_extend(all, page) == 0 ? QLESS_OK : qless__err_nomem(F);
	json_decref(page);
	return rc;
}

int qless_schedule_list(char **out_json, qless_schedule *s)
{
	static const char F[] = "qless_schedule_list";
	json_t *all;
	size_t n = LIST_PAGE;
	int rc = QLESS_OK;

	QLESS_CHECK_NULL(F, out_json);
	*out_json = NULL;
	QLESS_CHECK_NULL(F, s);
	if ((all = json_array()) == NULL)
		return qless__err_nomem(F);
	while (rc == QLESS_OK && n == LIST_PAGE)
		rc = list_page(F, s, json_array_size(all), all, &n);
	if (rc == QLESS_OK && (*out_json = json_dumps(all, JSON_COMPACT)) == NULL)
		rc = qless__err_nomem(F);
	json_decref(all);
	return rc;
}
