/* Typed queue counts: every queue (qless_client_queue_counts) and one queue
 * (qless_queue_counts_get) against a model of what was done to the queues. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <stdlib.h>

#ifdef QLESS_BUILDING
#include "queue_counts.h"
#endif

typedef struct model {
	char name[16];
	int64_t waiting, running, stalled, scheduled, depends, recurring;
	int paused, known;
} model;

static unsigned int counts_seed(void)
{
	const char *env = getenv("QLESS_TEST_SEED");
	return env ? (unsigned int)strtoul(env, NULL, 10) : 20261123u;
}

static int pick(unsigned int *seed, int most)
{
	return (int)(rand_r(seed) % (unsigned)(most + 1));
}

static void pop_n(qless_queue *q, int64_t n)
{
	qless_joblist *l = NULL;
	if (n == 0)
		return;
	TH_OK(qless_queue_pop(&l, q, n));
	CU_ASSERT_EQUAL(qless_joblist_size(l), (size_t)n);
	qless_joblist_free(l);
}

/* Fills one queue at random and records in m what its counts must be.
 * Jobs popped by `late` (a client 10 minutes behind) hold locks that have
 * already expired: they count as stalled, not running. */
static void fill(unsigned int *seed, qless_client *c, qless_client *late, model *m)
{
	qless_queue *q = NULL, *ql = NULL;
	TH_OK(qless_queue_new(&q, c, m->name));
	TH_OK(qless_queue_new(&ql, late, m->name));
	int64_t put = pick(seed, 4);
	char *first = NULL;
	for (int64_t i = 0; i < put; i++)
		TH_OK(qless_queue_put(i == 0 ? &first : NULL, q, "K", NULL, NULL));
	m->running = pick(seed, (int)put);
	m->stalled = pick(seed, (int)(put - m->running));
	m->waiting = put - m->running - m->stalled;
	pop_n(q, m->running);
	pop_n(ql, m->stalled);

	qless_put_options later = QLESS_PUT_OPTIONS_INIT;
	later.delay = 1e6;
	m->scheduled = pick(seed, 3);
	for (int64_t i = 0; i < m->scheduled; i++)
		TH_OK(qless_queue_put(NULL, q, "K", NULL, &later));

	qless_put_options dep = QLESS_PUT_OPTIONS_INIT;
	const char *on[] = { first };
	dep.depends = on;
	dep.ndepends = 1;
	m->depends = first ? pick(seed, 3) : 0;
	for (int64_t i = 0; i < m->depends; i++)
		TH_OK(qless_queue_put(NULL, q, "K", NULL, &dep));

	qless_recur_options ro = QLESS_RECUR_OPTIONS_INIT;
	ro.offset = 1e6;
	m->recurring = pick(seed, 2);
	for (int64_t i = 0; i < m->recurring; i++)
		TH_OK(qless_queue_recur(NULL, q, "K", NULL, 60, &ro));

	/* A queue nothing was put in stays unknown, even when paused. */
	m->known = put + m->scheduled + m->depends + m->recurring > 0;
	m->paused = pick(seed, 1);
	if (m->paused)
		TH_OK(qless_queue_pause(q));
	qless_free(first);
	qless_queue_free(ql);
	qless_queue_free(q);
}

static void assert_counts(const qless_queue_counts *qc, const model *m)
{
	CU_ASSERT_EQUAL(qc->waiting, m->waiting);
	CU_ASSERT_EQUAL(qc->running, m->running);
	CU_ASSERT_EQUAL(qc->stalled, m->stalled);
	CU_ASSERT_EQUAL(qc->scheduled, m->scheduled);
	CU_ASSERT_EQUAL(qc->depends, m->depends);
	CU_ASSERT_EQUAL(qc->recurring, m->recurring);
	CU_ASSERT_EQUAL(qc->paused, m->paused);
}

/* The raw JSON view (kept for ABI) agrees with the typed one. */
static void assert_json_agrees(qless_client *c, const qless_queue_countlist *list)
{
	char *text = NULL;
	TH_OK(qless_client_queues_json(&text, c));
	json_t *arr = th_json(text);
	qless_free(text);
	size_t n = json_is_array(arr) ? json_array_size(arr) : 0;
	CU_ASSERT_EQUAL(n, qless_queue_countlist_size(list));
	for (size_t i = 0; i < n; i++) {
		json_t *q = json_array_get(arr, i);
		qless_queue_counts qc = QLESS_QUEUE_COUNTS_INIT;
		TH_OK(qless_queue_countlist_get(&qc, list, i));
		TH_STREQ(json_string_value(json_object_get(q, "name")), qless_queue_countlist_name(list, i));
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(q, "stalled")), qc.stalled);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(q, "waiting")), qc.waiting);
	}
	json_decref(arr);
}

static void test_generated(void)
{
	unsigned int seed = counts_seed();
	qless_client *c = th_client("w-now"), *late = th_client("w-late");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(late);
	TH_OK(qless_client_set_time_offset(late, -600));
	for (int round = 0; round < 6; round++) {
		th_flush();
		model ms[4] = { { "" } };
		int nq = 1 + pick(&seed, 3), known = 0;
		for (int i = 0; i < nq; i++) {
			/* Names sort as they are made: ties in the queues' creation
			 * time then keep the same order. */
			snprintf(ms[i].name, sizeof ms[i].name, "q%d", i);
			fill(&seed, c, late, &ms[i]);
			known += ms[i].known;
		}
		qless_queue_countlist *list = NULL;
		TH_OK(qless_client_queue_counts(&list, c));
		CU_ASSERT_FATAL(list != NULL);
		CU_ASSERT_EQUAL(qless_queue_countlist_size(list), (size_t)known);
		size_t at = 0;
		for (int i = 0; i < nq; i++) {
			qless_queue_counts qc = QLESS_QUEUE_COUNTS_INIT;
			if (ms[i].known && at < qless_queue_countlist_size(list)) {
				TH_STREQ(qless_queue_countlist_name(list, at), ms[i].name);
				TH_OK(qless_queue_countlist_get(&qc, list, at));
				assert_counts(&qc, &ms[i]);
				at++;
			}
			qless_queue *q = NULL;
			qless_queue_counts one = QLESS_QUEUE_COUNTS_INIT;
			TH_OK(qless_queue_new(&q, c, ms[i].name));
			TH_OK(qless_queue_counts_get(&one, q));
			assert_counts(&one, &ms[i]);
			qless_queue_free(q);
		}
		assert_json_agrees(c, list);
		qless_queue_countlist_free(list);
		if (CU_get_number_of_failures() > 0) {
			fprintf(stderr, "\n  queue counts: failed with QLESS_TEST_SEED=%u (round %d)\n", counts_seed(), round);
			break;
		}
	}
	qless_client_free(late);
	qless_client_free(c);
}

static void test_unknown_and_bad(void)
{
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	qless_queue_countlist *list = NULL;
	/* No queue yet: the protocol answers "{}", an empty list here. */
	TH_OK(qless_client_queue_counts(&list, c));
	CU_ASSERT_PTR_NOT_NULL_FATAL(list);
	CU_ASSERT_EQUAL(qless_queue_countlist_size(list), 0);
	qless_queue_counts qc = QLESS_QUEUE_COUNTS_INIT;
	TH_RC(qless_queue_countlist_get(&qc, list, 0), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "index 0 is out of range"));
	CU_ASSERT_PTR_NULL(qless_queue_countlist_name(list, 0));
	qless_queue_countlist_free(list);

	/* Asking for an unknown queue's counts does not make it known. */
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, c, "nobody"));
	qc.waiting = 99;
	TH_OK(qless_queue_counts_get(&qc, q));
	CU_ASSERT_EQUAL(qc.waiting, 0);
	CU_ASSERT_EQUAL(qc.paused, 0);
	TH_OK(qless_queue_put(NULL, q, "K", NULL, NULL));
	qless_queue_free(q);
	TH_OK(qless_client_queue_counts(&list, c));
	CU_ASSERT_EQUAL(qless_queue_countlist_size(list), 1);
	TH_STREQ(qless_queue_countlist_name(list, 0), "nobody");

	/* Bad arguments are refused by name, and leave *out alone. */
	qless_queue_counts old = QLESS_QUEUE_COUNTS_INIT;
	old.version = 0;
	old.waiting = 7;
	TH_RC(qless_queue_countlist_get(&old, list, 0), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "version"));
	CU_ASSERT_EQUAL(old.waiting, 7);
	TH_RC(qless_queue_countlist_get(&qc, list, 1), QLESS_EINVAL);
	TH_RC(qless_queue_countlist_get(&qc, list, (size_t)-1), QLESS_EINVAL);
	TH_RC(qless_queue_countlist_get(NULL, list, 0), QLESS_EINVAL);
	TH_RC(qless_queue_countlist_get(&qc, NULL, 0), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "list"));
	CU_ASSERT_EQUAL(qless_queue_countlist_size(NULL), 0);
	CU_ASSERT_PTR_NULL(qless_queue_countlist_name(NULL, 0));
	qless_queue_countlist_free(list);
	qless_queue_countlist_free(NULL);
	list = (qless_queue_countlist *)&old; /* must be reset on failure */
	TH_RC(qless_client_queue_counts(&list, NULL), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(list);
	TH_RC(qless_client_queue_counts(NULL, c), QLESS_EINVAL);
	qless_client_free(c);
}

#ifdef QLESS_BUILDING
/* The one parser refuses each malformed entry whole (sanitizer build only:
 * the parser is internal, and a real server never sends these). */
static void test_parser_shapes(void)
{
	static const char *const bad[] = {
		"[]",
		"{\"waiting\":0,\"running\":0,\"stalled\":0,\"scheduled\":0,\"depends\":0,\"recurring\":0,\"paused\":false}",
		"{\"name\":\"\",\"waiting\":0,\"running\":0,\"stalled\":0,\"scheduled\":0,\"depends\":0,\"recurring\":0,"
		"\"paused\":false}",
		"{\"name\":\"q\",\"running\":0,\"stalled\":0,\"scheduled\":0,\"depends\":0,\"recurring\":0,\"paused\":false}",
		"{\"name\":\"q\",\"waiting\":\"1\",\"running\":0,\"stalled\":0,\"scheduled\":0,\"depends\":0,\"recurring\":0,"
		"\"paused\":false}",
		"{\"name\":\"q\",\"waiting\":0,\"running\":0,\"stalled\":-1,\"scheduled\":0,\"depends\":0,\"recurring\":0,"
		"\"paused\":false}",
		"{\"name\":\"q\",\"waiting\":0,\"running\":0,\"stalled\":0,\"scheduled\":0,\"depends\":0,\"recurring\":0}",
		"{\"name\":\"q\",\"waiting\":0,\"running\":0,\"stalled\":0,\"scheduled\":0,\"depends\":0,\"recurring\":0,"
		"\"paused\":1}",
	};
	const char *good = "{\"name\":\"q\",\"waiting\":1,\"running\":2,\"stalled\":3,\"scheduled\":4,\"depends\":5,"
	                   "\"recurring\":6,\"paused\":true}";
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		json_t *j = th_json(bad[i]);
		qless_queue_counts qc = QLESS_QUEUE_COUNTS_INIT;
		const char *name = NULL;
		qc.waiting = 42;
		TH_RC(qless__queue_counts_parse(j, &qc, &name, "F"), QLESS_EPROTOCOL);
		CU_ASSERT_EQUAL(qc.waiting, 42);
		CU_ASSERT_PTR_NULL(name);
		json_decref(j);
	}
	json_t *j = th_json(good);
	qless_queue_counts qc = QLESS_QUEUE_COUNTS_INIT;
	const char *name = NULL;
	TH_OK(qless__queue_counts_parse(j, &qc, &name, "F"));
	model m = { "q", 1, 2, 3, 4, 5, 6, 1, 1 };
	assert_counts(&qc, &m);
	TH_STREQ(name, "q");
	json_decref(j);
}
#endif

CU_TestInfo counts_tests[] = {
	{ "generated", test_generated },
	{ "unknown_and_bad", test_unknown_and_bad },
#ifdef QLESS_BUILDING
	{ "parser_shapes", test_parser_shapes },
#endif
	CU_TEST_INFO_NULL,
};
