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

/* Every spelling of each keyword (the first is the one the grammar names). */
static const struct { const char *word; qless_kw kw; } KEYWORDS[] = {
	{ "now", KW_NOW }, { "in", KW_IN }, { "at", KW_AT }, { "on", KW_ON }, { "today", KW_TODAY },
	{ "tomorrow", KW_TOMORROW }, { "next", KW_NEXT }, { "noon", KW_NOON }, { "midday", KW_NOON },
	{ "midnight", KW_MIDNIGHT }, { "am", KW_AM }, { "a.m.", KW_AM }, { "a.m", KW_AM }, { "pm", KW_PM },
	{ "p.m.", KW_PM }, { "p.m", KW_PM }, { "and", KW_AND }, { ",", KW_COMMA }, { "every", KW_EVERY },
	{ "of", KW_OF }, { "the", KW_THE }, { "day", KW_DAY }, { "week", KW_WEEK }, { "month", KW_MONTH },
	{ "year", KW_YEAR }, { "hour", KW_HOUR }, { "minute", KW_MINUTE }, { "second", KW_SECOND },
	{ "weekday", KW_WEEKDAY }, { "weekend", KW_WEEKEND }, { "other", KW_OTHER }, { "last", KW_LAST },
	{ "a", KW_A }, { "an", KW_AN }, { "yesterday", KW_YESTERDAY }, { "ago", KW_AGO }, { "hence", KW_HENCE },
	{ "later", KW_LATER }, { "from", KW_FROM }, { "before", KW_BEFORE }, { "after", KW_AFTER },
	{ "this", KW_THIS }, { "half", KW_HALF }, { "quarter", KW_QUARTER }, { "past", KW_PAST }, { "to", KW_TO },
	{ "till", KW_TO }, { "o'clock", KW_OCLOCK }, { "oclock", KW_OCLOCK }, { "+", KW_PLUS }, { "plus", KW_PLUS },
	{ "-", KW_MINUS }, { "minus", KW_MINUS }, { "end", KW_END }, { "start", KW_START },
	{ "beginning", KW_START }, { "tonight", KW_TONIGHT }, { "morning", KW_MORNING },
	{ "afternoon", KW_AFTERNOON }, { "evening", KW_EVENING }, { "night", KW_NIGHT }, { "@", KW_AT },
	{ "weekends", KW_WEEKENDS }, { "mornings", KW_MORNINGS }, { "afternoons", KW_AFTERNOONS },
	{ "evenings", KW_EVENINGS }, { "nights", KW_NIGHTS }, { "prior", KW_PRIOR },
};

static const struct { const char *word; double seconds; int months; } UNITS[] = {
	{ "s", 1, 0 }, { "sec", 1, 0 }, { "secs", 1, 0 }, { "second", 1, 0 }, { "seconds", 1, 0 },
	{ "m", 60, 0 }, { "min", 60, 0 }, { "mins", 60, 0 }, { "minute", 60, 0 }, { "minutes", 60, 0 },
	{ "h", 3600, 0 }, { "hr", 3600, 0 }, { "hrs", 3600, 0 }, { "hour", 3600, 0 }, { "hours", 3600, 0 },
	{ "d", 86400, 0 }, { "day", 86400, 0 }, { "days", 86400, 0 },
	{ "w", 604800, 0 }, { "wk", 604800, 0 }, { "wks", 604800, 0 }, { "week", 604800, 0 }, { "weeks", 604800, 0 },
	{ "fortnight", 1209600, 0 }, { "fortnights", 1209600, 0 },
	{ "mo", 0, 1 }, { "mos", 0, 1 }, { "month", 0, 1 }, { "months", 0, 1 },
	{ "yr", 0, 12 }, { "yrs", 0, 12 }, { "year", 0, 12 }, { "years", 0, 12 },
};

static const char *const WEEKDAYS[7] = {
	"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
};
static const char *const MONTHS[12] = {
	"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december",
};
/* Numbers spelled out: 1-19 and the tens to ninety, as cardinals and ordinals;
 * "twenty-one", "twenty one" and "thirty-first" are put together. */
static const char *const CARDINALS[20] = {
	"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
	"twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
};
static const char *const ORDINALS[20] = {
	"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
	"eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
	"eighteenth", "nineteenth",
};
static const struct { const char *cardinal, *ordinal; int value; } TENS[] = {
	{ "twenty", "twentieth", 20 }, { "thirty", "thirtieth", 30 }, { "forty", "fortieth", 40 },
	{ "fifty", "fiftieth", 50 }, { "sixty", "sixtieth", 60 }, { "seventy", "seventieth", 70 },
	{ "eighty", "eightieth", 80 }, { "ninety", "ninetieth", 90 },
};

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

/* A number spelled out (1-99; ordinals to ninety-ninth): 1 and *value,
 * *ordinal set when it is an ordinal. */
static int spelled_number(const char *lw, size_t n, int *value, int *ordinal)
{
	const char *dash = memchr(lw, '-', n);
	for (int i = 1; i < 20; i++) {
		if (word_is(lw, n, CARDINALS[i]) || word_is(lw, n, ORDINALS[i])) {
			*value = i;
			*ordinal = word_is(lw, n, ORDINALS[i]);
			return 1;
		}
	}
	for (size_t t = 0; t < sizeof TENS / sizeof TENS[0]; t++) {
		size_t tl = strlen(TENS[t].cardinal);
		if (word_is(lw, n, TENS[t].cardinal) || word_is(lw, n, TENS[t].ordinal)) {
			*value = TENS[t].value;
			*ordinal = word_is(lw, n, TENS[t].ordinal);
			return 1;
		}
		if (dash == lw + tl && memcmp(lw, TENS[t].cardinal, tl) == 0) {
			int unit, ord;
			if (!spelled_number(dash + 1, n - tl - 1, &unit, &ord) || unit > 9)
				return 0;
			*value = TENS[t].value + unit;
			*ordinal = ord;
			return 1;
		}
	}
	return 0;
}

/* A weekday or month abbreviated with a dot ("aug.", "thurs."): the
 * abbreviation's length, else n. Full names keep their dot (unknown). */
static size_t abbreviation(const char *lw, size_t n)
{
	static const char *const LONGER[] = { "sept", "tues", "thur", "thurs" };
	if (n < 4 || lw[n - 1] != '.')
		return n;
	if (n == 4)
		return 3;
	for (size_t i = 0; i < sizeof LONGER / sizeof LONGER[0]; i++)
		if (word_is(lw, n - 1, LONGER[i]))
			return n - 1;
	return n;
}

static void classify_names(qless_word *w, const char *lw, size_t n)
{
	int value, ordinal;
	size_t an = abbreviation(lw, n);
	for (size_t i = 0; i < sizeof KEYWORDS / sizeof KEYWORDS[0]; i++)
		if (word_is(lw, n, KEYWORDS[i].word))
			w->kw = KEYWORDS[i].kw;
	for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++) {
		if (word_is(lw, n, UNITS[i].word)) {
			w->unit = UNITS[i].seconds;
			w->months = UNITS[i].months;
		}
	}
	for (int i = 0; i < 7; i++)
		if (word_is(lw, n, WEEKDAYS[i]) || (an == 3 && memcmp(lw, WEEKDAYS[i], 3) == 0))
			w->wday = i;
	if (word_is(lw, an, "tues"))
		w->wday = 2;
	if (word_is(lw, an, "thur") || word_is(lw, an, "thurs"))
		w->wday = 4;
	for (int i = 0; i < 12; i++)
		if (word_is(lw, n, MONTHS[i]) || (an == 3 && memcmp(lw, MONTHS[i], 3) == 0))
			w->month = i + 1;
	if (word_is(lw, an, "sept"))
		w->month = 9;
	if (spelled_number(lw, n, &value, &ordinal)) {
		if (ordinal) {
			w->ordinal = value;
		} else {
			w->is_number = w->is_int = 1;
			w->number = value;
		}
	}
}

/* "22-feb", "feb-22", "22-feb-2013", "feb-22-2013": 1 and *d. */
static int named_date(const char *lw, size_t n, qless_numdate *d)
{
	const char *p = lw, *end = lw + n;
	long v[2];
	int nv = 0, month = 0, year_digits = 0;
	for (int part = 0; part < 3 && p < end; part++) {
		const char *s = p;
		if (part > 0 && *p++ != '-')
			return 0;
		s = p;
		if (is_digit(*p)) {
			long x = 0;
			for (; p < end && is_digit(*p); p++)
				x = x < 100000 ? x * 10 + (*p - '0') : x;
			if (nv == 2)
				return 0;
			v[nv++] = x;
			if (nv == 2)
				year_digits = (int)(p - s);
		} else {
			while (p < end && *p != '-')
				p++;
			if (month != 0 || part == 2)
				return 0;
			for (int i = 0; i < 12; i++)
				if (word_is(s, (size_t)(p - s), MONTHS[i]) || ((p - s) == 3 && memcmp(s, MONTHS[i], 3) == 0))
					month = i + 1;
			if (word_is(s, (size_t)(p - s), "sept"))
				month = 9;
			if (month == 0)
				return 0;
		}
	}
	if (p != end || month == 0 || nv == 0 || memchr(lw, '-', n) == NULL)
		return 0;
	d->form = DATE_NAMED;
	d->nparts = nv + 1;
	d->parts[0] = v[0];
	d->parts[1] = month;
	d->parts[2] = nv == 2 ? v[1] : 0;
	d->year_digits = year_digits;
	return 1;
}

/* a/b[/c], a.b.c and a-b-c of digits: 1 and *d. */
static int numeric_date(const char *lw, size_t n, qless_numdate *d)
{
	const char *p = lw, *end = lw + n;
	char sep = 0;
	int len[3] = { 0, 0, 0 };
	memset(d, 0, sizeof *d);
	for (int part = 0; part < 3 && p < end; part++) {
		if (part > 0) {
			if (sep == 0 && (*p == '/' || *p == '.' || *p == '-' || (*p == ':' && len[0] == 4)))
				sep = *p;
			if (*p++ != sep)
				return 0;
		}
		long x = 0;
		const char *s = p;
		for (; p < end && is_digit(*p); p++)
			x = x < 100000 ? x * 10 + (*p - '0') : x;
		if ((len[part] = (int)(p - s)) == 0 || len[part] > 4)
			return 0;
		d->parts[part] = x;
		d->nparts = part + 1;
	}
	if (p != end || sep == 0 || (d->nparts == 2 && sep != '/' && !(sep == '-' && len[0] == 4)) ||
	    (sep == ':' && d->nparts != 3))
		return 0;
	if (len[0] == 4 && d->nparts == 2 && len[1] <= 2) {
		/* 2027-06, 2027/6: a year and a month, its 1st */
		d->form = DATE_YMD;
		d->year_digits = 4;
		d->parts[2] = 1;
		d->nparts = 3;
	} else if (len[0] == 4 && d->nparts == 3) {
		/* a four-digit year first is year-month-day, with dots too */
		d->form = DATE_YMD;
		d->year_digits = 4;
	} else {
		d->form = sep == '.' ? DATE_DOTS : DATE_SLASH;
		d->year_digits = d->nparts == 3 ? len[2] : 0;
	}
	return 1;
}

/* The am/pm suffix at the end of the n bytes at s ("pm", "p.m.", "p.m", "a"):
 * its length and *kw, else 0. */
static size_t ampm_suffix(const char *s, size_t n, int *kw)
{
	static const char *const SUFFIXES[] = { "am", "a.m.", "a.m", "pm", "p.m.", "p.m" };
	for (size_t i = 0; i < sizeof SUFFIXES / sizeof SUFFIXES[0]; i++) {
		size_t k = strlen(SUFFIXES[i]);
		if (n > k && memcmp(s + n - k, SUFFIXES[i], k) == 0 && is_digit(s[n - k - 1])) {
			*kw = i < 3 ? KW_AM : KW_PM;
			return k;
		}
	}
	/* a lone a or p only after minutes ("12:15a", "6:30p"): "5p" stays unknown */
	if (n > 2 && (s[n - 1] == 'a' || s[n - 1] == 'p') && is_digit(s[n - 2]) && memchr(s, ':', n) != NULL) {
		*kw = s[n - 1] == 'a' ? KW_AM : KW_PM;
		return 1;
	}
	return 0;
}

/* H[:MM[:SS]] or HMM/HHMM with am/pm attached ("4a.m.", "1045pm"), or
 * H:MM[:SS] with an optional zone. */
static int clock_parse(const char *lw, size_t n, qless_clock *c)
{
	const char *p = lw, *end = lw + n;
	int colon = 0, kw = 0, k;
	size_t suffix = ampm_suffix(lw, n, &kw);
	memset(c, 0, sizeof *c);
	end -= suffix;
	for (k = 0; p + k < end && is_digit(p[k]); k++)
		;
	if (k == 0)
		return 0;
	if (suffix > 0 && (k == 3 || k == 4) && p + k == end) {
		/* 930pm, 1045pm: the last two digits are the minutes */
		for (int i = 0; i < k - 2; i++)
			c->hour = c->hour * 10 + (p[i] - '0');
		c->minute = (p[k - 2] - '0') * 10 + (p[k - 1] - '0');
		p += k;
	} else {
		if (k > 2)
			return 0;
		for (int i = 0; i < k; i++)
			c->hour = c->hour * 10 + (p[i] - '0');
		p += k;
	}
	/* :MM then :SS (or .SS: "15:30.30"), one digit each allowed ("0:0:0am") */
	int parts = 0;
	for (; parts < 2 && p + 1 < end && (*p == ':' || (parts == 1 && *p == '.')); parts++) {
		int two = p + 2 < end && is_digit(p[2]);
		if (!is_digit(p[1]) || (*p == '.' && !two))
			return 0;
		int v = two ? (p[1] - '0') * 10 + (p[2] - '0') : p[1] - '0';
		if (parts == 0)
			c->minute = v;
		else
			c->second = v;
		colon = 1;
		p += two ? 3 : 2;
	}
	if (parts == 2 && p + 1 < end && *p == '.' && is_digit(p[1])) {
		/* a fraction of the second: "5:32:19.764" */
		double scale = 1;
		for (p++; p < end && is_digit(*p); p++) {
			scale /= 10;
			c->fraction += (*p - '0') * scale;
		}
	}
	if (suffix > 0) {
		if (p != end)
			return 0;
		c->ampm = kw;
		/* 0am is midnight too ("00:00:00am"); 0pm is nothing */
		if (c->hour > 12 || (c->hour == 0 && kw != KW_AM))
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
	if (named_date(lw, n, &w->date))
		return;
	if (lw[0] == ':' && n == 3 && is_digit(lw[1]) && is_digit(lw[2])) {
		int minute = (lw[1] - '0') * 10 + (lw[2] - '0');
		w->minute_mark = minute + 1;
		if (minute > 59)
			w->error = WORD_BAD_TIME;
		return;
	}
	if ((lw[0] == '+' || lw[0] == '-') && (n == 5 || n == 6) && is_digit(lw[1]) &&
	    qless__zone_parse(lw, n, &w->zone)) {
		/* a zone after a clock time: "22:11:35 +0100" */
		w->is_zone = 1;
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
	if (numeric_date(lw, n, &w->date)) {
		return;
	} else if (read_number(&p, end, &v) && p == end) {
		const char *dot = memchr(lw, '.', n);
		w->is_number = 1;
		w->number = v;
		w->is_int = dot == NULL;
		w->digits = (int)((dot ? dot : end) - lw);
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
	       w->months > 0 || w->date.form != DATE_NONE || w->minute_mark > 0 || w->is_zone || w->error != WORD_OK;
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

/* "twenty one" and "thirty first" as one word: the tens spelled out
 * followed by a unit (1-9) spelled out. The new count. */
static size_t join_tens(qless_word *words, size_t n)
{
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		qless_word *w = &words[i], *u = i + 1 < n ? &words[i + 1] : NULL;
		int tens = w->is_number && w->digits == 0 && w->number >= 20 && (int)w->number % 10 == 0;
		int unit = u != NULL && u->text[0] >= 'A' && ((u->is_number && u->number <= 9) ||
		                                           (u->ordinal > 0 && u->ordinal <= 9));
		words[out] = *w;
		if (tens && unit) {
			/* j may be w itself: take what is needed from u first */
			qless_word *j = &words[out];
			double tens_value = w->number;
			j->len = (size_t)(u->text + u->len - j->text);
			if (u->ordinal > 0) {
				j->is_number = j->is_int = 0;
				j->number = 0;
				j->ordinal = (long)tens_value + u->ordinal;
			} else {
				j->number = tens_value + u->number;
			}
			j->unit = 0;
			j->kw = KW_NONE;
			i++;
		}
		out++;
	}
	return out;
}

/* The multiplier a scale word spelled out stands for, else 0. */
static double scale_of(const qless_word *w)
{
	static const struct { const char *word; double value; } SCALES[] = {
		{ "hundred", 100 }, { "thousand", 1e3 }, { "million", 1e6 },
	};
	for (size_t i = 0; i < sizeof SCALES / sizeof SCALES[0]; i++) {
		size_t k = strlen(SCALES[i].word), j = 0;
		while (w->len == k && j < k && (w->text[j] | 0x20) == SCALES[i].word[j])
			j++;
		if (w->len == k && j == k)
			return SCALES[i].value;
	}
	return 0;
}

static int is_spelled_cardinal(const qless_word *w)
{
	return w->is_number && w->is_int && w->digits == 0 && w->number >= 1 && w->number <= 99;
}

/* A number spelled out with scales at words[i]: "two million eight
 * hundred and sixty seven thousand five hundred and thirty two" (after
 * join_tens). "and" only after a scale and before a cardinal; each
 * thousand or million smaller than the one before. The count of words
 * taken (0: no scale word, not such a number) and *value. */
static size_t scaled_number(const qless_word *words, size_t n, size_t i, double *value)
{
	double total = 0, group = 0, big = 1e12;
	size_t k, taken = 0;
	int last = 0; /* 1 cardinal, 2 hundred, 3 thousand or million, 4 and */
	for (k = i; k < n; k++) {
		const qless_word *w = &words[k];
		double scale = scale_of(w);
		if (is_spelled_cardinal(w) && last != 1) {
			group += w->number;
			last = 1;
		} else if (scale == 100 && last == 1 && group >= 1 && group <= 99) {
			group *= 100;
			last = 2;
		} else if (scale > 100 && scale < big && (last == 1 || last == 2)) {
			total += group * scale;
			group = 0;
			big = scale;
			last = 3;
		} else if (w->kw == KW_AND && (last == 2 || last == 3) && k + 1 < n && is_spelled_cardinal(&words[k + 1])) {
			last = 4;
		} else {
			break;
		}
		if (last == 2 || last == 3)
			taken = k + 1 - i;
		else if (last == 1 && taken > 0)
			taken = k + 1 - i;
	}
	*value = total + group;
	return taken;
}

/* Numbers with scales and "prior to" as one word each. The new count. */
static size_t join_phrases(qless_word *words, size_t n)
{
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		double value;
		size_t k = 1;
		words[out] = words[i];
		if (words[i].kw == KW_PRIOR && i + 1 < n && words[i + 1].kw == KW_TO) {
			k = 2;
			words[out].kw = KW_TO;
		} else if (is_spelled_cardinal(&words[i]) && (k = scaled_number(words, n, i, &value)) > 1) {
			words[out].number = value;
		} else {
			k = 1;
		}
		words[out].len = (size_t)(words[i + k - 1].text + words[i + k - 1].len - words[out].text);
		i += k - 1;
		out++;
	}
	return out;
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
		/* a word ends at a blank or a comma; each comma is a word ("Jan 1,2010") */
		const char *s = p;
		if (*p == ',')
			p++;
		else
			while (*p != '\0' && !is_space(*p) && *p != ',')
				p++;
		words[count].text = s;
		words[count].len = (size_t)(p - s);
		words[count].column = (int)(s - text) + 1;
		classify(&words[count++], lw);
	}
	free(lw);
	*n = join_phrases(words, join_tens(words, count));
	*out = words;
	return 0;
}
