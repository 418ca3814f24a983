/* Words of natural-language time text and their roles (when_words.h). */
#include <stdlib.h>
#include <string.h>

#include "qless/qless.h"
#include "calendar.h"
#include "when_words.h"

/* The last figure that still counts as a number: beyond it sums of
 * seconds stop being exact in a double. */
#define WORD_NUMBER_MAX 1e15
/* Epoch times must be printable as four-digit years. */
#define WORD_EPOCH_MAX 253402300799.0

static const char *const KEYWORDS[] = {
	"now", "in", "at", "on", "today", "tomorrow", "next", "noon", "midnight",
	"am", "pm", "and", ",", "every", "of", "the", "day", "week", "month",
	"year", "hour", "minute", "second", "weekday", "weekend", "other", "last",
	"a", "an",
};

static const struct { const char *word; double seconds; } UNITS[] = {
	{ "s", 1 }, { "sec", 1 }, { "secs", 1 }, { "second", 1 }, { "seconds", 1 },
	{ "m", 60 }, { "min", 60 }, { "mins", 60 }, { "minute", 60 }, { "minutes", 60 },
	{ "h", 3600 }, { "hr", 3600 }, { "hrs", 3600 }, { "hour", 3600 }, { "hours", 3600 },
	{ "d", 86400 }, { "day", 86400 }, { "days", 86400 },
	{ "w", 604800 }, { "wk", 604800 }, { "wks", 604800 }, { "week", 604800 }, { "weeks", 604800 },
};

static const char *const WEEKDAYS[7] = {
	"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
};
static const char *const MONTHS[12] = {
	"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december",
};
static const char *const ORDINALS[5] = { "first", "second", "third", "fourth", "fifth" };

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* digits[.digits] at *p: 1 and *v, advancing *p; else 0. */
static int read_number(const char **p, const char *end, double *v)
{
	const char *s = *p;
	double scale = 1;
	*v = 0;
	for (; *p < end && is_digit(**p); (*p)++)
		*v = *v * 10 + (**p - '0');
	if (*p == s)
		return 0;
	if (*p + 1 < end && **p == '.' && is_digit((*p)[1])) {
		for ((*p)++; *p < end && is_digit(**p); (*p)++) {
			scale /= 10;
			*v += (**p - '0') * scale;
		}
	}
	return 1;
}

static void classify_names(qless_word *w, const char *lw, size_t n)
{
	for (size_t i = 0; i < sizeof KEYWORDS / sizeof KEYWORDS[0]; i++)
		if (word_is(lw, n, KEYWORDS[i]))
			w->kw = (qless_kw)i;
	for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++)
		if (word_is(lw, n, UNITS[i].word))
			w->unit = UNITS[i].seconds;
	for (int i = 0; i < 7; i++)
		if (word_is(lw, n, WEEKDAYS[i]) || (n == 3 && memcmp(lw, WEEKDAYS[i], 3) == 0))
			w->wday = i;
	for (int i = 0; i < 12; i++)
		if (word_is(lw, n, MONTHS[i]) || (n == 3 && memcmp(lw, MONTHS[i], 3) == 0))
			w->month = i + 1;
	if (word_is(lw, n, "sept"))
		w->month = 9;
	for (int i = 0; i < 5; i++)
		if (word_is(lw, n, ORDINALS[i]))
			w->ordinal = i + 1;
}

/* H[:MM[:SS]] with am/pm attached, or H:MM[:SS] with an optional zone. */
static int clock_parse(const char *lw, size_t n, qless_clock *c)
{
	const char *p = lw, *end = lw + n;
	int colon = 0;
	memset(c, 0, sizeof *c);
	for (int k = 0; k < 2 && p < end && is_digit(*p); k++, p++)
		c->hour = c->hour * 10 + (*p - '0');
	if (p == lw)
		return 0;
	for (int part = 0; part < 2 && p + 2 < end + 0 && *p == ':'; part++) {
		if (!is_digit(p[1]) || !is_digit(p[2]))
			return 0;
		int v = (p[1] - '0') * 10 + (p[2] - '0');
		if (part == 0)
			c->minute = v;
		else
			c->second = v;
		colon = 1;
		p += 3;
	}
	if (end - p == 2 && (memcmp(p, "am", 2) == 0 || memcmp(p, "pm", 2) == 0)) {
		c->ampm = p[0] == 'a' ? KW_AM : KW_PM;
		if (c->hour < 1 || c->hour > 12)
			return 0;
		c->hour = c->hour % 12 + (c->ampm == KW_PM ? 12 : 0);
	} else if (p < end) {
		if (!colon || !qless__zone_parse(p, (size_t)(end - p), &c->zone))
			return 0;
		c->has_zone = 1;
	} else if (!colon) {
		return 0;
	}
	return c->hour <= 23 && c->minute <= 59 && c->second <= 59;
}

/* Digits and unit letters: 90s, 1h30m, 1.5h. */
static int compact_parse(const char *lw, size_t n, double *seconds)
{
	const char *p = lw, *end = lw + n;
	*seconds = 0;
	while (p < end) {
		double v;
		if (!read_number(&p, end, &v) || p == end)
			return 0;
		switch (*p++) {
		case 's': *seconds += v; break;
		case 'm': *seconds += v * 60; break;
		case 'h': *seconds += v * 3600; break;
		case 'd': *seconds += v * 86400; break;
		case 'w': *seconds += v * 604800; break;
		default: return 0;
		}
	}
	return 1;
}

static void classify_shapes(qless_word *w, const char *lw, size_t n)
{
	const char *p = lw, *end = lw + n;
	double v;
	if (lw[0] == '@') {
		p = lw + 1 + (n > 1 && lw[1] == '-');
		if (read_number(&p, end, &v) && p == end) {
			w->is_epoch = 1;
			w->epoch = lw[1] == '-' ? -v : v;
			if (v > WORD_EPOCH_MAX)
				w->error = WORD_BAD_NUMBER;
		}
		return;
	}
	if (!is_digit(lw[0]))
		return;
	switch ((w->iso = qless__iso_parse(lw, n, &w->iso_value))) {
	case QLESS_ISO_NONE:
		break;
	case QLESS_ISO_BAD_DATE:
		w->error = WORD_BAD_DATE;
		w->iso = QLESS_ISO_NONE;
		return;
	case QLESS_ISO_BAD_TIME:
		w->error = WORD_BAD_TIME;
		w->iso = QLESS_ISO_NONE;
		return;
	default:
		return;
	}
	if (read_number(&p, end, &v) && p == end) {
		w->is_number = 1;
		w->number = v;
		w->is_int = memchr(lw, '.', n) == NULL;
	} else if (p + 2 == end && p > lw && (memcmp(p, "st", 2) == 0 || memcmp(p, "nd", 2) == 0 ||
	                                      memcmp(p, "rd", 2) == 0 || memcmp(p, "th", 2) == 0) &&
	           memchr(lw, '.', n) == NULL) {
		w->ordinal = v > 1e9 ? 1000000000L : (long)v;
	} else if (compact_parse(lw, n, &v)) {
		w->is_compact = 1;
		w->compact = v;
	} else if (clock_parse(lw, n, &w->clock)) {
		w->is_clock = 1;
		return;
	} else if (memchr(lw, ':', n) != NULL || (n > 2 && (memcmp(end - 2, "am", 2) == 0 ||
	                                                    memcmp(end - 2, "pm", 2) == 0))) {
		w->error = WORD_BAD_TIME;
		return;
	}
	if ((w->is_number && v > WORD_NUMBER_MAX) || (w->is_compact && w->compact > WORD_NUMBER_MAX))
		w->error = WORD_BAD_NUMBER;
}

int qless__word_known(const qless_word *w)
{
	return w->kw != KW_NONE || w->unit > 0 || w->wday >= 0 || w->month > 0 || w->ordinal > 0 ||
	       w->is_number || w->is_compact || w->is_clock || w->iso != QLESS_ISO_NONE || w->is_epoch ||
	       w->error != WORD_OK;
}

static void classify(qless_word *w, char *lw)
{
	w->kw = KW_NONE;
	w->wday = -1;
	for (size_t i = 0; i < w->len; i++)
		lw[i] = (w->text[i] >= 'A' && w->text[i] <= 'Z') ? (char)(w->text[i] + 32) : w->text[i];
	classify_names(w, lw, w->len);
	classify_shapes(w, lw, w->len);
}

int qless__when_words(const char *text, qless_word **out, size_t *n)
{
	size_t count = 0, cap = 0, len = strlen(text);
	const char *p = text;
	qless_word *words;
	char *lw;
	/* at most one word and one "," per two bytes, plus one */
	cap = len + 2;
	words = calloc(cap, sizeof *words);
	lw = malloc(len + 1);
	if (words == NULL || lw == NULL) {
		free(words);
		free(lw);
		return -1;
	}
	for (;;) {
		while (is_space(*p))
			p++;
		if (*p == '\0')
			break;
		const char *s = p;
		while (*p != '\0' && !is_space(*p))
			p++;
		size_t wlen = (size_t)(p - s);
		int comma = wlen > 1 && s[wlen - 1] == ',';
		words[count].text = s;
		words[count].len = wlen - (size_t)comma;
		words[count].column = (int)(s - text) + 1;
		classify(&words[count++], lw);
		if (comma) {
			words[count].text = s + wlen - 1;
			words[count].len = 1;
			words[count].column = (int)(s - text) + (int)wlen;
			classify(&words[count++], lw);
		}
	}
	free(lw);
	*out = words;
	*n = count;
	return 0;
}
