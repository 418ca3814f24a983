/* qless_worker: reservation order, lost-lock notifications and the
 * allow-list of job classes (patterns checked and matched). */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_n(qless_client *c, const char *queue, int n, char **jids)
{
	for (int i = 0; i < n; i++) {
		qless_put_options o = QLESS_PUT_OPTIONS_INIT;
		o.has_priority = 1;
		o.priority = n - i; /* pop order = put order */
		jids[i] = th_put(c, queue, "K", NULL, &o);
		CU_ASSERT_PTR_NOT_NULL(jids[i]);
	}
}

/* Reserves until empty; writes the queue of each job into order[]. */
static int reserve_all(qless_worker *w, const char **order, int max)
{
	int n = 0;
	for (;;) {
		qless_job *job = (qless_job *)0x1;
		int rc = qless_worker_reserve(&job, w);
		CU_ASSERT_EQUAL(rc, QLESS_OK);
		if (rc != QLESS_OK || !job)
			break;
		if (n < max)
			order[n] = strcmp(qless_job_queue(job), "a") == 0 ? "a" : "b";
		n++;
		TH_STREQ(qless_job_state(job), "running");
		TH_OK(qless_job_complete(job, NULL));
		qless_job_free(job);
		if (n > max)
			break;
	}
	return n;
}

static void test_new(void)
{
	qless_client *c = th_client("wrk");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	const char *qs[] = { "a", "b" };
	qless_worker *w = NULL;
	TH_RC(qless_worker_new(&w, c, qs, 0, NULL), QLESS_EINVAL);
	TH_RC(qless_worker_new(&w, c, NULL, 1, NULL), QLESS_EINVAL);
	const char *withnull[] = { "a", NULL };
	TH_RC(qless_worker_new(&w, c, withnull, 2, NULL), QLESS_EINVAL);
	const char *empty[] = { "" };
	TH_RC(qless_worker_new(&w, c, empty, 1, NULL), QLESS_EINVAL);
	TH_RC(qless_worker_new(NULL, c, qs, 2, NULL), QLESS_EINVAL);
	qless_worker_options bad = QLESS_WORKER_OPTIONS_INIT;
	bad.version = 9;
	TH_RC(qless_worker_new(&w, c, qs, 2, &bad), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(w);
	TH_OK(qless_worker_new(&w, c, qs, 2, NULL));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	TH_STREQ(qless_worker_name(w), "wrk");
	qless_job *job = (qless_job *)0x1;
	TH_OK(qless_worker_reserve(&job, w));
	CU_ASSERT_PTR_NULL(job); /* all empty */
	TH_RC(qless_worker_reserve(NULL, w), QLESS_EINVAL);
	qless_worker_free(w);
	qless_client_free(c);
}

static void test_reserve_ordered(void)
{
	qless_client *c = th_client("wrk");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *ja[2], *jb[2];
	put_n(c, "a", 2, ja);
	put_n(c, "b", 2, jb);
	const char *qs[] = { "a", "b" };
	qless_worker_options o = QLESS_WORKER_OPTIONS_INIT;
	o.order = QLESS_RESERVE_ORDERED;
	o.watch_locks = 0;
	qless_worker *w = NULL;
	TH_OK(qless_worker_new(&w, c, qs, 2, &o));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	const char *order[6] = { 0 };
	int n = reserve_all(w, order, 6);
	CU_ASSERT_EQUAL(n, 4);
	TH_STREQ(order[0], "a");
	TH_STREQ(order[1], "a");
	TH_STREQ(order[2], "b");
	TH_STREQ(order[3], "b");
	qless_strlist *lost = NULL;
	TH_RC(qless_worker_lost_locks(&lost, w, 0), QLESS_EINVAL); /* watch_locks 0 */
	CU_ASSERT_PTR_NULL(lost);
	qless_worker_free(w);
	for (int i = 0; i < 2; i++) {
		qless_free(ja[i]);
		qless_free(jb[i]);
	}
	qless_client_free(c);
}

static void test_reserve_round_robin(void)
{
	qless_client *c = th_client("wrk");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *ja[3], *jb[2];
	put_n(c, "a", 3, ja);
	put_n(c, "b", 2, jb);
	const char *qs[] = { "a", "b" };
	qless_worker_options o = QLESS_WORKER_OPTIONS_INIT;
	o.order = QLESS_RESERVE_ROUND_ROBIN;
	o.watch_locks = 0;
	qless_worker *w = NULL;
	TH_OK(qless_worker_new(&w, c, qs, 2, &o));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	const char *order[8] = { 0 };
	int n = reserve_all(w, order, 8);
	CU_ASSERT_EQUAL(n, 5);
	TH_STREQ(order[0], "a");
	TH_STREQ(order[1], "b");
	TH_STREQ(order[2], "a");
	TH_STREQ(order[3], "b");
	TH_STREQ(order[4], "a");
	qless_worker_free(w);
	for (int i = 0; i < 3; i++)
		qless_free(ja[i]);
	for (int i = 0; i < 2; i++)
		qless_free(jb[i]);
	qless_client_free(c);
}

static void test_reserve_paused(void)
{
	qless_client *c = th_client("wrk");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	char *j = th_put(c, "a", "K", NULL, NULL);
	char *k = th_put(c, "b", "K", NULL, NULL);
	qless_queue *qa = NULL;
	TH_OK(qless_queue_new(&qa, c, "a"));
	TH_OK(qless_queue_pause(qa));
	const char *qs[] = { "a", "b" };
	qless_worker *w = NULL;
	TH_OK(qless_worker_new(&w, c, qs, 2, NULL));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	qless_job *job = NULL;
	TH_OK(qless_worker_reserve(&job, w));
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	TH_STREQ(qless_job_jid(job), k);
	TH_STREQ(qless_job_worker(job), "wrk");
	qless_job_free(job);
	job = (qless_job *)0x1;
	TH_OK(qless_worker_reserve(&job, w));
	CU_ASSERT_PTR_NULL(job);
	qless_worker_free(w);
	qless_queue_free(qa);
	qless_free(j);
	qless_free(k);
	qless_client_free(c);
}

static int wait_lost(qless_worker *w, const char *jid)
{
	qless_strlist *lost = NULL;
	int rc = qless_worker_lost_locks(&lost, w, 2000);
	CU_ASSERT_EQUAL(rc, QLESS_OK);
	int found = lost && th_strlist_has(lost, jid, NULL);
	if (!found)
		fprintf(stderr, "\n  lost_locks: %zu entries, %s missing\n", qless_strlist_size(lost), jid);
	qless_strlist_free(lost);
	return found;
}

static void test_lost_locks(void)
{
	qless_client *c = th_client("wrk");
	qless_client *other = th_client("thief");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	const char *qs[] = { "q" };
	qless_worker *w = NULL;
	TH_OK(qless_worker_new(&w, c, qs, 1, NULL));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);

	/* Nothing yet, without waiting. */
	qless_strlist *lost = NULL;
	TH_OK(qless_worker_lost_locks(&lost, w, 0));
	CU_ASSERT_PTR_NOT_NULL(lost);
	CU_ASSERT_EQUAL(qless_strlist_size(lost), 0);
	qless_strlist_free(lost);

	/* 1. timed out. */
	char *a = th_put(c, "q", "K", NULL, NULL);
	qless_job *ja = NULL;
	TH_OK(qless_worker_reserve(&ja, w));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ja);
	const char *ids[] = { a };
	TH_OK(qless_client_timeout(other, ids, 1));
	CU_ASSERT(wait_lost(w, a));

	/* 2. moved by another worker's put. */
	qless_job *ja2 = NULL;
	TH_OK(qless_worker_reserve(&ja2, w));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ja2);
	TH_STREQ(qless_job_jid(ja2), a);
	qless_job *view = th_get(other, a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(view);
	TH_OK(qless_job_requeue(view, "elsewhere", NULL));
	CU_ASSERT(wait_lost(w, a));
	TH_RC(qless_job_complete(ja2, NULL), QLESS_ELOCK);

	/* 3. canceled. */
	char *b = th_put(c, "q", "K", NULL, NULL);
	qless_job *jb = NULL;
	TH_OK(qless_worker_reserve(&jb, w));
	CU_ASSERT_PTR_NOT_NULL_FATAL(jb);
	const char *bid[] = { b };
	TH_OK(qless_client_cancel(other, bid, 1));
	CU_ASSERT(wait_lost(w, b));

	/* 4. expired and handed to another worker. */
	TH_OK(qless_client_config_set(c, "grace-period", "0"));
	char *d = th_put(c, "q", "K", NULL, NULL);
	qless_job *jd = NULL;
	TH_OK(qless_worker_reserve(&jd, w));
	CU_ASSERT_PTR_NOT_NULL_FATAL(jd);
	TH_OK(qless_client_set_time_offset(other, 100));
	qless_job *stolen = th_pop1(other, "q");
	CU_ASSERT_PTR_NOT_NULL(stolen);
	CU_ASSERT(wait_lost(w, d));
	/* Reported once: nothing left now. */
	lost = NULL;
	TH_OK(qless_worker_lost_locks(&lost, w, 100));
	CU_ASSERT_EQUAL(qless_strlist_size(lost), 0);
	qless_strlist_free(lost);
	TH_RC(qless_worker_lost_locks(NULL, w, 0), QLESS_EINVAL);

	qless_job_free(stolen);
	qless_job_free(jd);
	qless_job_free(jb);
	qless_job_free(view);
	qless_job_free(ja2);
	qless_job_free(ja);
	qless_worker_free(w);
	qless_free(a);
	qless_free(b);
	qless_free(d);
	qless_client_free(other);
	qless_client_free(c);
}

/* ---- allow-list: generated names and patterns against oracles ---- */

static unsigned int allow_seed(void)
{
	const char *env = getenv("QLESS_TEST_SEED");
	return env ? (unsigned int)strtoul(env, NULL, 10) : 20261123u;
}

/* Appends up to `most` random tokens of `tokens` to out (NUL-terminated);
 * returns the set of token indices used, as bits. */
static unsigned add_tokens(unsigned int *seed, const char *const *tokens, size_t ntokens, int most, char *out,
                           size_t size)
{
	unsigned used = 0;
	int n = (int)(rand_r(seed) % (unsigned)(most + 1));
	for (int i = 0; i < n; i++) {
		size_t t = rand_r(seed) % ntokens;
		used |= 1u << t;
		strncat(out, tokens[t], size - strlen(out) - 1);
	}
	return used;
}

/* What a pattern means, as plainly as it can be said. */
static int oracle_match(const char *pattern, const char *klass)
{
	size_t n = strlen(pattern);
	if (n == 0)
		return 0;
	if (pattern[n - 1] == '*')
		return strlen(klass) >= n - 1 && memcmp(pattern, klass, n - 1) == 0;
	return strcmp(pattern, klass) == 0;
}

static void test_allowlist_match(void)
{
	static const char *const tokens[] = { "a", "b", ".", "::", "\xc3\xa9", "\xe2\x82\xac" };
	unsigned int seed = allow_seed();
	int hits = 0;
	for (int round = 0; round < 20000; round++) {
		char patterns[3][64], klass[96] = "";
		const char *list[3];
		size_t n = 1 + rand_r(&seed) % 3;
		int expect = 0;
		for (size_t i = 0; i < n; i++) {
			patterns[i][0] = '\0';
			if (rand_r(&seed) % 10 == 0) {
				strcpy(patterns[i], "*");
			} else {
				add_tokens(&seed, tokens, 6, 4, patterns[i], sizeof patterns[i]);
				if (patterns[i][0] == '\0' || rand_r(&seed) % 2)
					strcat(patterns[i], "*");
			}
			list[i] = patterns[i];
		}
		/* Often a name built on a pattern's text, so that matches are common. */
		if (rand_r(&seed) % 2) {
			const char *base = list[rand_r(&seed) % n];
			snprintf(klass, sizeof klass, "%.*s", (int)strcspn(base, "*"), base);
		}
		add_tokens(&seed, tokens, 6, 3, klass, sizeof klass);
		for (size_t i = 0; i < n; i++)
			expect |= oracle_match(list[i], klass);
		hits += expect;
		if (qless_allowlist_match(list, n, klass) != expect) {
			fprintf(stderr, "allowlist_match (seed %u, round %d): '%s' against %zu pattern(s) '%s'...: "
			        "expected %d\n", allow_seed(), round, klass, n, list[0], expect);
			CU_FAIL("qless_allowlist_match disagrees with the oracle");
			return;
		}
	}
	CU_ASSERT(hits > 2000 && hits < 18000); /* both outcomes well exercised */
	const char *some[] = { "A" };
	CU_ASSERT_EQUAL(qless_allowlist_match(NULL, 0, "A"), 0);
	CU_ASSERT_EQUAL(qless_allowlist_match(some, 1, NULL), 0);
	CU_ASSERT_EQUAL(qless_allowlist_match(some, 0, "A"), 0);
}

static void test_allowlist_check(void)
{
	/* \xff and a lone lead byte are never UTF-8, whatever follows. */
	static const char *const tokens[] = { "a", ".", ":", "\xc3\xa9", "*", "\xff", "\xc3" };
	unsigned int seed = allow_seed();
	for (int round = 0; round < 5000; round++) {
		char pattern[64] = "", where[32];
		const char *list[3] = { "ok.*", "Ok", NULL };
		size_t at = rand_r(&seed) % 3;
		unsigned used = add_tokens(&seed, tokens, 7, 5, pattern, sizeof pattern);
		const char *star = strchr(pattern, '*');
		/* No continuation byte starts a token: a lone lead byte stays invalid. */
		int utf8 = (used & (1u << 5 | 1u << 6)) == 0;
		int valid = pattern[0] != '\0' && utf8 && (star == NULL || star[1] == '\0');
		list[2] = list[at];
		list[at] = pattern;
		int rc = qless_allowlist_check(list, 3);
		if (rc != (valid ? QLESS_OK : QLESS_EINVAL)) {
			fprintf(stderr, "allowlist_check (seed %u, round %d): pattern of %zu bytes: rc %d, expected %s\n",
			        allow_seed(), round, strlen(pattern), rc, valid ? "valid" : "invalid");
			CU_FAIL("qless_allowlist_check disagrees with the oracle");
			return;
		}
		if (valid)
			continue;
		/* The message names the pattern, by its text when that is printable. */
		snprintf(where, sizeof where, "patterns[%zu]", at);
		if (pattern[0] != '\0' && utf8) {
			char quoted[80];
			snprintf(quoted, sizeof quoted, "'%s'", pattern);
			CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), quoted));
		} else {
			CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), where));
		}
	}
	const char *null_item[] = { "a", NULL };
	TH_RC(qless_allowlist_check(null_item, 2), QLESS_EINVAL);
	TH_RC(qless_allowlist_check(NULL, 1), QLESS_EINVAL);
	TH_OK(qless_allowlist_check(NULL, 0));
}

/* Asserts that list holds exactly the n strings of want. */
static void strlist_is(const qless_strlist *list, const char *const *want, size_t n)
{
	CU_ASSERT_EQUAL(qless_strlist_size(list), n);
	for (size_t i = 0; i < n && i < qless_strlist_size(list); i++)
		TH_STREQ(qless_strlist_get(list, i), want[i]);
}

/* qless_worker_main_args: the allow-list and --require files the run will
 * see, by the same walk of the flags (a value is never read as a flag). */
static void test_main_args(void)
{
	qless_strlist *allow = NULL, *files = NULL;
	const char *argv[] = { "--queue", "q", "--allow", "a.*", "-r", "f1", "--name", "--allow", "--allow", "b.C",
		               "--require", "f2", "--require", "" };
	const char *want_allow[] = { "a.*", "b.C" }, *want_files[] = { "f1", "f2" };
	const char *env_allow[] = { "x.*", "y.Z" };

	unsetenv("QLESS_WORKER_ALLOW");
	TH_OK(qless_worker_main_args(&allow, &files, argv, 14));
	strlist_is(allow, want_allow, 2);
	strlist_is(files, want_files, 2);
	qless_strlist_free(allow);
	qless_strlist_free(files);

	/* No --allow: the variable's items, blanks and empty items dropped. */
	setenv("QLESS_WORKER_ALLOW", " x.* ,, y.Z ,", 1);
	TH_OK(qless_worker_main_args(&allow, &files, argv, 2));
	strlist_is(allow, env_allow, 2);
	strlist_is(files, NULL, 0);
	qless_strlist_free(allow);
	qless_strlist_free(files);
	/* The flags replace it; --help asks for nothing; a flag without its value is not read. */
	TH_OK(qless_worker_main_args(&allow, &files, argv + 2, 2));
	strlist_is(allow, want_allow, 1);
	qless_strlist_free(allow);
	qless_strlist_free(files);
	const char *help[] = { "--allow", "a.*", "-r", "f1", "--help" };
	TH_OK(qless_worker_main_args(&allow, &files, help, 5));
	strlist_is(allow, NULL, 0);
	strlist_is(files, NULL, 0);
	qless_strlist_free(allow);
	qless_strlist_free(files);
	unsetenv("QLESS_WORKER_ALLOW");
	const char *dangling[] = { "--require" };
	TH_OK(qless_worker_main_args(&allow, &files, dangling, 1));
	strlist_is(files, NULL, 0);
	qless_strlist_free(allow);
	qless_strlist_free(files);

	TH_OK(qless_worker_main_args(&allow, &files, NULL, 0));
	strlist_is(allow, NULL, 0);
	qless_strlist_free(allow);
	qless_strlist_free(files);
	TH_RC(qless_worker_main_args(&allow, &files, NULL, 1), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(allow);
	TH_RC(qless_worker_main_args(NULL, &files, argv, 2), QLESS_EINVAL);
}

CU_TestInfo worker_tests[] = {
	{ "new", test_new },
	{ "reserve_ordered", test_reserve_ordered },
	{ "reserve_round_robin", test_reserve_round_robin },
	{ "reserve_paused", test_reserve_paused },
	{ "lost_locks", test_lost_locks },
	{ "allowlist_match", test_allowlist_match },
	{ "allowlist_check", test_allowlist_check },
	{ "main_args", test_main_args },
	CU_TEST_INFO_NULL,
};
