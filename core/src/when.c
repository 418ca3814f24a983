/* qless_when_parse: English time text to a time, an interval or a cron
 * expression (schedules.md §5). The grammar reads the words left to right
 * and reports the first word it cannot use. */
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "errors.h"
#include "util.h"
#include "schedule_text.h"
#include "when_read.h"
#include "when_words.h"

static const char *const FUNC = QLESS_WHEN_FUNC;

/* The warning of this thread's last parse (qless_when_warning). */
static _Thread_local char last_warning[WHEN_WARNING_SIZE];

const char *qless_when_warning(void)
{
	return last_warning;
}

void qless__when_warning_clear(void)
{
	last_warning[0] = '\0';
}

/* No sensible time text is longer; bounds the words kept per call. */
#define WHEN_MAX_BYTES 4096

/* Puts the word lead (e.g. "in") before words unless words[0] is it, so
 * that every column still counts in the text as given; the lead's own
 * column is 1. -1 when out of memory. */
static int lead_with(const char *lead, qless_word **words, size_t *n)
{
	qless_word *one = NULL, *all;
	size_t k = 0;

	if (qless__when_words(lead, &one, &k) != 0)
		return -1;
	if (*n > 0 && (*words)[0].kw == one[0].kw) {
		free(one);
		return 0;
	}
	if ((all = realloc(*words, (*n + 1) * sizeof *all)) == NULL) {
		free(one);
		return -1;
	}
	memmove(all + 1, all, *n * sizeof *all);
	all[0] = one[0];
	free(one);
	*words = all;
	*n += 1;
	return 0;
}

int qless_when_parse(qless_when *out, const char *text, double now)
{
	return qless__when_parse_led(text, NULL, now, out);
}

int qless__when_parse_led(const char *text, const char *lead, double now, qless_when *out)
{
	qless_when r;
	parser p;
	qless_word *words = NULL;
	size_t n = 0;
	int rc;
	last_warning[0] = '\0';
	QLESS_CHECK_NULL(FUNC, text);
	QLESS_CHECK_NULL(FUNC, out);
	if (out->version < 1 || out->version > QLESS_WHEN_VERSION)
		return qless__err(QLESS_EINVAL, "%s: out->version is %u, expected 1 to %d (QLESS_WHEN_INIT)", FUNC,
		                  out->version, QLESS_WHEN_VERSION);
	/* a version 1 struct ends before flags */
	unsigned flags = out->version >= 2 ? out->flags : 0;
	if ((flags & ~QLESS_WHEN_DAY_FIRST) != 0)
		return qless__err(QLESS_EINVAL, "%s: out->flags has unknown bits 0x%x", FUNC, flags & ~QLESS_WHEN_DAY_FIRST);
	if ((rc = qless__check_finite(FUNC, "now", now)) != QLESS_OK)
		return rc;
	/* days are counted in int64: keep now where every date is printable */
	if (now < WHEN_TIME_MIN || now >= WHEN_TIME_END)
		return qless__err(QLESS_EINVAL, "%s: now is outside years 0000-9999", FUNC);
	if (strlen(text) > WHEN_MAX_BYTES)
		return qless__err(QLESS_EINVAL, "%s: text longer than %d bytes", FUNC, WHEN_MAX_BYTES);
	if (qless__when_words(text, &words, &n) != 0 || (n > 0 && lead != NULL && lead_with(lead, &words, &n) != 0)) {
		free(words);
		return qless__err_nomem(FUNC);
	}
	memset(&r, 0, sizeof r);
	p.w = words;
	p.n = n;
	p.i = 0;
	p.now = now;
	p.day_first = (flags & QLESS_WHEN_DAY_FIRST) != 0;
	p.warning[0] = '\0';
	if (n == 0) {
		rc = qless__err(QLESS_EINVAL, "%s: empty text", FUNC);
	} else if (is_kw(&words[0], KW_EVERY)) {
		p.i = 1;
		rc = qless__when_every(&p, &r);
	} else {
		rc = qless__when_oneoff(&p, &r);
	}
	free(words);
	if (rc != QLESS_OK)
		return rc;
	out->kind = r.kind;
	out->at = r.at;
	out->interval = r.interval;
	memcpy(out->cron, r.cron, sizeof out->cron);
	memcpy(last_warning, p.warning, sizeof last_warning);
	return QLESS_OK;
}

static const char *const KIND_NAMES[] = { "", "a one-off time", "an interval", "a cron schedule" };

int qless__when_read(const char *func, const char *arg, const char *hint, const char *text, qless_when_read_as as,
                     double now, qless_when *out)
{
	static const char PARSE[] = "qless_when_parse: ";
	const char *lead = as == QLESS_WHEN_READ_IN ? "in" : as == QLESS_WHEN_READ_EVERY ? "every" : NULL;
	char where[128], subject[128];
	int rc;

	snprintf(where, sizeof where, "%s: %s%s", func, arg ? arg : "", arg ? ": " : "");
	snprintf(subject, sizeof subject, "%s: %s%s", func, arg ? arg : "", arg ? " " : "");
	if (as < QLESS_WHEN_READ_ANY || as > QLESS_WHEN_READ_EVERY)
		return qless__err(QLESS_EINVAL, "%sas must be a qless_when_read_as, not %d", where, (int)as);
	if ((rc = qless__when_parse_led(text, lead, now, out)) != QLESS_OK) {
		/* Say which call and argument the parser's message is about. */
		char why[512];
		const char *m = qless_error_last_message();
		snprintf(why, sizeof why, "%s", strncmp(m, PARSE, sizeof PARSE - 1) == 0 ? m + sizeof PARSE - 1 : m);
		return qless__err(rc, "%s%s", where, why);
	}
	if (out->kind != QLESS_WHEN_AT ? as == QLESS_WHEN_READ_AT || as == QLESS_WHEN_READ_IN : as == QLESS_WHEN_READ_EVERY)
		last_warning[0] = '\0';
	if ((as == QLESS_WHEN_READ_AT || as == QLESS_WHEN_READ_IN) && out->kind != QLESS_WHEN_AT)
		return qless__err(QLESS_EINVAL, "%s\"%.64s\" is %s, not a one-off time%s%s", subject, text,
		                  KIND_NAMES[out->kind], hint ? "; " : "", hint ? hint : "");
	if (as == QLESS_WHEN_READ_EVERY && out->kind == QLESS_WHEN_AT)
		return qless__err(QLESS_EINVAL, "%s\"%.64s\" is a one-off time, not a recurrence", subject, text);
	return QLESS_OK;
}

int qless_when_read(qless_when *out, const char *text, qless_when_read_as as, double now)
{
	return qless__when_read("qless_when_read", NULL, NULL, text, as, now, out);
}
