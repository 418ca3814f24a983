/* Handle lifetimes: every handle made from a client keeps it alive, so
 * handles may be freed in any order and on any thread. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <pthread.h>
#include <stdlib.h>

enum kind { K_QUEUE, K_JOB, K_JOBLIST, K_RECUR, K_EVENTS, K_WORKER, K_COUNTS, K_KINDS };

typedef struct node {
	enum kind kind;
	void *h;
	int client;      /* index of the client it came from; -1: holds no reference */
	int64_t weight;  /* handles it added to qless_handle_count() */
} node;

#define MAX_CLIENTS 3
#define MAX_NODES 12

typedef struct world {
	unsigned int seed;
	qless_client *clients[MAX_CLIENTS];
	int held[MAX_CLIENTS];  /* the test still owns its own reference */
	int alive[MAX_CLIENTS]; /* the model: held, or some node holds it */
	node nodes[MAX_NODES];
	int nnodes;
	char *jids[3], *recur_jid;
	int64_t base;
} world;

static unsigned int lifetime_seed(void)
{
	const char *env = getenv("QLESS_TEST_SEED");
	return env ? (unsigned int)strtoul(env, NULL, 10) : 20261123u;
}

static int pick(world *w, int n)
{
	return (int)(rand_r(&w->seed) % (unsigned)n);
}

static void node_free(node *n)
{
	switch (n->kind) {
	case K_QUEUE: qless_queue_free(n->h); break;
	case K_JOB: qless_job_free(n->h); break;
	case K_JOBLIST: qless_joblist_free(n->h); break;
	case K_RECUR: qless_recur_free(n->h); break;
	case K_EVENTS: qless_events_free(n->h); break;
	case K_WORKER: qless_worker_free(n->h); break;
	case K_COUNTS: qless_queue_countlist_free(n->h); break;
	default: break;
	}
}

static void add_node(world *w, enum kind kind, void *h, int client, int64_t before)
{
	if (h == NULL)
		return;
	node *n = &w->nodes[w->nnodes++];
	n->kind = kind;
	n->h = h;
	n->client = client;
	n->weight = qless_handle_count() - before;
}

/* Talks to the server through the node's client (a freed client would be
 * a use after free, caught by the sanitizers and valgrind). A job a worker
 * reserves becomes a node of its own. */
static void node_use(world *w, node *n)
{
	int64_t before = qless_handle_count(), len = 0;
	qless_job *job = NULL;
	char *ch = NULL, *msg = NULL;
	switch (n->kind) {
	case K_QUEUE: TH_OK(qless_queue_length(&len, n->h)); break;
	case K_JOB: TH_OK(qless_job_refresh(n->h)); break;
	case K_JOBLIST:
		if (qless_joblist_size(n->h) > 0)
			TH_OK(qless_job_refresh(qless_joblist_get(n->h, 0)));
		break;
	case K_RECUR: TH_OK(qless_recur_set_priority(n->h, pick(w, 5))); break;
	case K_EVENTS:
		TH_OK(qless_events_next(&ch, &msg, n->h, 0));
		qless_free(ch);
		qless_free(msg);
		break;
	case K_WORKER:
		TH_OK(qless_worker_reserve(&job, n->h));
		if (w->nnodes < MAX_NODES)
			add_node(w, K_JOB, job, n->client, before);
		else
			qless_job_free(job);
		break;
	case K_COUNTS: CU_ASSERT_PTR_NOT_NULL(qless_queue_countlist_name(n->h, 0)); break;
	default: break;
	}
}

/* Up to two jobs as a list; the queue handle is gone before it returns. */
static qless_joblist *peek2(qless_client *c)
{
	qless_queue *q = NULL;
	qless_joblist *l = NULL;
	TH_OK(qless_queue_new(&q, c, "q"));
	TH_OK(qless_queue_peek(&l, q, 2));
	qless_queue_free(q);
	return l;
}

static void make_node(world *w, int ci)
{
	qless_client *c = w->clients[ci];
	enum kind kind = (enum kind)pick(w, K_KINDS);
	int64_t before = qless_handle_count();
	void *h = NULL;
	const char *q[] = { "q" };
	switch (kind) {
	case K_QUEUE: TH_OK(qless_queue_new((qless_queue **)&h, c, "q")); break;
	case K_JOB: TH_OK(qless_client_get_job((qless_job **)&h, c, w->jids[pick(w, 3)])); break;
	case K_JOBLIST: h = peek2(c); break;
	case K_RECUR: TH_OK(qless_client_get_recur((qless_recur **)&h, c, w->recur_jid)); break;
	case K_EVENTS: TH_OK(qless_events_new((qless_events **)&h, c, (const char *[]){ "log" }, 1)); break;
	case K_WORKER: TH_OK(qless_worker_new((qless_worker **)&h, c, q, 1, NULL)); break;
	case K_COUNTS: TH_OK(qless_client_queue_counts((qless_queue_countlist **)&h, c)); break;
	default: break;
	}
	/* Lists hold the client only through their jobs. */
	int holder = kind == K_COUNTS || (kind == K_JOBLIST && qless_joblist_size(h) == 0) ? -1 : ci;
	add_node(w, kind, h, holder, before);
}

/* The model's count of live handles: every node's, plus each client that
 * is held or still referenced by a node. A client destroyed too early (or
 * never) shows up here, not only under the sanitizers. */
static void check_model(world *w)
{
	int64_t expect = w->base;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		w->alive[i] = w->held[i];
		for (int k = 0; k < w->nnodes; k++)
			w->alive[i] |= w->nodes[k].client == i;
		expect += w->alive[i];
	}
	for (int k = 0; k < w->nnodes; k++)
		expect += w->nodes[k].weight;
	CU_ASSERT_EQUAL(qless_handle_count(), expect);
	if (qless_handle_count() != expect) {
		fprintf(stderr, "\n  handles %lld, model %lld; clients held %d%d%d; nodes (kind/client):",
		        (long long)qless_handle_count(), (long long)expect, w->held[0], w->held[1], w->held[2]);
		for (int k = 0; k < w->nnodes; k++)
			fprintf(stderr, " %d/%d", (int)w->nodes[k].kind, w->nodes[k].client);
	}
}

static void free_one(world *w)
{
	int held = 0;
	for (int i = 0; i < MAX_CLIENTS; i++)
		held += w->held[i];
	int at = pick(w, held + w->nnodes);
	if (at < held) {
		for (int i = 0; i < MAX_CLIENTS; i++)
			if (w->held[i] && at-- == 0) {
				qless_client_free(w->clients[i]);
				w->held[i] = 0;
				break;
			}
	} else {
		at -= held;
		node_free(&w->nodes[at]);
		w->nodes[at] = w->nodes[--w->nnodes];
	}
	check_model(w);
	for (int k = 0; k < w->nnodes; k++)
		node_use(w, &w->nodes[k]);
	check_model(w);
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (!w->alive[i])
			w->clients[i] = NULL;
}

static void seed_data(world *w)
{
	qless_client *c = th_client("setup");
	qless_queue *q = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_OK(qless_queue_new(&q, c, "q"));
	for (int i = 0; i < 3; i++)
		TH_OK(qless_queue_put(&w->jids[i], q, "K", NULL, NULL));
	qless_recur_options ro = QLESS_RECUR_OPTIONS_INIT;
	ro.offset = 1e6;
	TH_OK(qless_queue_recur(&w->recur_jid, q, "K", NULL, 60, &ro));
	qless_queue_free(q);
	qless_client_free(c);
}

static void test_random_trees(void)
{
	world w = { .seed = lifetime_seed() };
	for (int round = 0; round < 8; round++) {
		th_flush();
		seed_data(&w);
		w.base = qless_handle_count();
		for (int step = 0; step < 30; step++) {
			int held = 0, free_slot = -1;
			for (int i = 0; i < MAX_CLIENTS; i++) {
				held += w.held[i];
				if (w.clients[i] == NULL && free_slot < 0)
					free_slot = i;
			}
			int r = pick(&w, 10);
			if (free_slot >= 0 && (held == 0 || r == 0)) {
				w.clients[free_slot] = th_client("w");
				w.held[free_slot] = w.clients[free_slot] != NULL;
			} else if (held > 0 && r < 6 && w.nnodes < MAX_NODES - 1) {
				int ci;
				do
					ci = pick(&w, MAX_CLIENTS);
				while (!w.held[ci]);
				make_node(&w, ci);
			} else if (held + w.nnodes > 0) {
				free_one(&w);
			}
			check_model(&w);
		}
		while (w.nnodes > 0 || w.held[0] || w.held[1] || w.held[2])
			free_one(&w);
		CU_ASSERT_EQUAL(qless_handle_count(), w.base);
		for (int i = 0; i < 3; i++)
			qless_free(w.jids[i]);
		qless_free(w.recur_jid);
		if (CU_get_number_of_failures() > 0) {
			fprintf(stderr, "\n  lifetimes: failed with QLESS_TEST_SEED=%u (round %d)\n", lifetime_seed(), round);
			break;
		}
	}
}

/* ---- freeing on many threads at once ---- */

#define FREE_THREADS 4
#define FREE_ROUNDS 100000

static pthread_barrier_t start_line;

static void *churn(void *arg)
{
	qless_client *c = arg;
	pthread_barrier_wait(&start_line);
	for (int i = 0; i < FREE_ROUNDS; i++) {
		qless_queue *q = NULL;
		if (qless_queue_new(&q, c, "q") != QLESS_OK)
			return (void *)1;
		qless_queue_free(q);
	}
	return NULL;
}

/* Threads make and free handles of one client at once (each its own
 * handles, as a language's garbage collector may on any thread). A reference
 * count updated without atomics loses updates here: the client is then
 * destroyed while in use, or never. */
static void test_free_on_threads(void)
{
	int64_t base = qless_handle_count();
	qless_client *c = th_client("w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	qless_queue *keep = NULL;
	TH_OK(qless_queue_new(&keep, c, "q"));
	pthread_t t[FREE_THREADS];
	pthread_barrier_init(&start_line, NULL, FREE_THREADS + 1);
	for (int i = 0; i < FREE_THREADS; i++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, churn, c), 0);
	/* The caller's reference goes while the threads run: `keep` and their
	 * own queues hold the client from here on. */
	pthread_barrier_wait(&start_line);
	qless_client_free(c);
	for (int i = 0; i < FREE_THREADS; i++) {
		void *rc = NULL;
		pthread_join(t[i], &rc);
		CU_ASSERT_PTR_NULL(rc);
	}
	pthread_barrier_destroy(&start_line);
	CU_ASSERT_EQUAL(qless_handle_count(), base + 2);
	int64_t len = -1;
	TH_OK(qless_queue_length(&len, keep));
	CU_ASSERT_EQUAL(len, 0);
	qless_queue_free(keep);
	CU_ASSERT_EQUAL(qless_handle_count(), base);
}

CU_TestInfo lifetime_tests[] = {
	{ "random_trees", test_random_trees },
	{ "free_on_threads", test_free_on_threads },
	CU_TEST_INFO_NULL,
};
