/* qless_worker_main: the worker program every language's worker is, so the
 * flags, their checks and their help text exist once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pthread.h>

#include "qless/qless.h"
#include "allowlist.h"
#include "engine.h"
#include "errors.h"
#include "namespace.h"
#include "run_hooks.h"
#include "strlist.h"
#include "util.h"

static const char USAGE[] =
	"usage: %s --queue Q [--queue Q2 ...] [options]\n"
	"  --url URL               redis:// or unix:// URL (default: $QLESS_URL, else the embedded server);\n"
	"                          a password in --url shows in the process list: set QLESS_URL instead\n"
	"  --queue, -q Q           a queue to work on (repeatable; at least one); NAMESPACE/Q: queue Q of\n"
	"                          that namespace (one connection and worker per namespace, each with the\n"
	"                          pool, size and --max-jobs given, on a thread each: --pool processes and\n"
	"                          one-thread languages (Ruby, Lua, PHP) serve one namespace)\n"
	"  --order O               ordered (default), round-robin or shuffled\n"
	"  --pool P                serial (default), threads or processes\n"
	"  --size N                threads or processes of the pool (default 1; 1..128)\n"
	"  --interval S            seconds between reservations while the queues are empty (default 5)\n"
	"  --heartbeat S           seconds between heartbeats (default: a third of the lock time)\n"
	"  --max-jobs N            stop after N jobs (a pool child: N of its own)\n"
	"  --name NAME             worker name (default <hostname>-<pid>; pool children NAME-<pid>)\n"
	"  --reconnect-max S       longest wait between reconnects while Redis is away (default 5)\n"
	"  --backoff SPEC          retry backoff of every job: fixed:BASE or exponential:BASE[:MAX[:JITTER]]\n"
	"  --backoff-queue Q=SPEC  the backoff of the jobs of queue Q\n"
	"  --backoff-class K=SPEC  the backoff of the jobs of class K (wins over the queue's)\n"
	"  --allow PATTERN         a job class this worker may run (repeatable): a class name, a prefix\n"
	"                          ending in '*' (myapp.jobs.*, MyApp::Jobs::*) or '*' (every class);\n"
	"                          default: $QLESS_WORKER_ALLOW (comma-separated), which --allow replaces.\n"
	"                          A job of another class fails in group qless.ClassNotAllowed, unrun.\n"
	"                          Workers that find job code by name (Python, Ruby, Lua, PHP) need a list.\n"
	"  --require, -r FILE      load job code from FILE before the run (repeatable; Ruby, PHP)\n"
	"SIGTERM/SIGINT finish the running jobs, then exit 0; SIGQUIT exits at once.\n";

typedef struct parsed {
	const char *url, *name;
	const char **queues;
	size_t nqueues;
	qless_reserve_order order;
	const char **backoffs; /* "", "Q=SPEC" or "K=SPEC", by kind below */
	char *kinds;           /* 'd' default, 'q' queue, 'c' class */
	size_t nbackoffs;
	const char **allows;   /* --allow flags, else $QLESS_WORKER_ALLOW's items */
	size_t nallows;
	char *env_allow;       /* the items' storage when they come from the variable */
} parsed;

static int usage_error(const char *prog, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see --help)\n");
	return 2;
}

static int number(const char *prog, const char *flag, const char *text, double lo, double hi, double *out)
{
	char *end;
	double v;
	if (text == NULL)
		return usage_error(prog, "%s needs a value", flag);
	v = strtod(text, &end);
	if (end == text || *end != '\0' || !qless__finite(v) || v < lo || v > hi) {
		fprintf(stderr, "%s: %s: '%s' is not a number from %g to %g (see --help)\n", prog, flag, text, lo, hi);
		return 2;
	}
	*out = v;
	return 0;
}

/* The words of --order and --pool, in the order of their enums' values. */
static const char *const ORDERS[] = { "ordered", "round-robin", "shuffled", NULL };
static const char *const POOLS[] = { "serial", "threads", "processes", NULL };
_Static_assert(QLESS_RESERVE_ROUND_ROBIN == 1 && QLESS_RESERVE_SHUFFLED == 2 && QLESS_POOL_THREADS == 1 &&
               QLESS_POOL_PROCESSES == 2, "ORDERS and POOLS follow the enums");

/* The index of v in words (NULL-terminated, three of them), else a usage error. */
static int choice(const char *prog, const char *flag, const char *v, const char *const *words, int *out)
{
	for (*out = 0; words[*out] != NULL; (*out)++)
		if (strcmp(v, words[*out]) == 0)
			return 0;
	fprintf(stderr, "%s: %s '%s': expected %s, %s or %s (see --help)\n", prog, flag, v, words[0], words[1],
	        words[2]);
	return 2;
}

static int parse(int argc, const char *const *argv, parsed *p, qless_worker_run_options *o)
{
	const char *prog = argv[0];
	int i;
	for (i = 1; i < argc; i++) {
		const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		double d;
		int rc = 0, k;
		if (strcmp(f, "--help") == 0 || strcmp(f, "-h") == 0) {
			printf(USAGE, prog);
			return -1;
		}
		if (v == NULL)
			return usage_error(prog, "%s needs a value", f);
		i++;
		if (strcmp(f, "--url") == 0) {
			p->url = v;
		} else if (strcmp(f, "--name") == 0) {
			if (!*v)
				return usage_error(prog, "%s is empty", f);
			p->name = v;
		} else if (strcmp(f, "--queue") == 0 || strcmp(f, "-q") == 0) {
			if (!*v)
				return usage_error(prog, "%s is empty", f);
			p->queues[p->nqueues++] = v;
		} else if (strcmp(f, "--order") == 0) {
			if ((rc = choice(prog, f, v, ORDERS, &k)) == 0)
				p->order = (qless_reserve_order)k;
		} else if (strcmp(f, "--pool") == 0) {
			if ((rc = choice(prog, f, v, POOLS, &k)) == 0)
				o->pool = (qless_pool_kind)k;
		} else if (strcmp(f, "--size") == 0) {
			if ((rc = number(prog, f, v, 1, 128, &d)) == 0)
				o->size = (int)d;
			if (rc == 0 && d != (int)d)
				return usage_error(prog, "--size '%s' is not a whole number", v);
		} else if (strcmp(f, "--interval") == 0) {
			rc = number(prog, f, v, 0, 86400, &o->interval);
		} else if (strcmp(f, "--heartbeat") == 0) {
			rc = number(prog, f, v, 0.1, 86400, &o->heartbeat);
		} else if (strcmp(f, "--reconnect-max") == 0) {
			rc = number(prog, f, v, 0.1, 3600, &o->reconnect_max);
		} else if (strcmp(f, "--max-jobs") == 0) {
			if ((rc = number(prog, f, v, 1, 1e15, &d)) == 0)
				o->max_jobs = (int64_t)d;
		} else if (strcmp(f, "--backoff") == 0 || strcmp(f, "--backoff-queue") == 0 ||
		           strcmp(f, "--backoff-class") == 0) {
			char kind = f[9] == '\0' ? 'd' : f[10];
			if (kind != 'd' && (strchr(v, '=') == NULL || v[0] == '='))
				return usage_error(prog, "%s needs NAME=SPEC", f);
			p->kinds[p->nbackoffs] = kind;
			p->backoffs[p->nbackoffs++] = v;
		} else if (strcmp(f, "--allow") == 0) {
			p->allows[p->nallows++] = v;
		} else if (o->loads_files && (strcmp(f, "--require") == 0 || strcmp(f, "-r") == 0)) {
			if (!*v)
				return usage_error(prog, "%s is empty", f);   /* the language loaded it already */
		} else {
			return usage_error(prog, "unknown option '%s'", f);
		}
		if (rc != 0)
			return rc;
	}
	if (p->nqueues == 0)
		return usage_error(prog, "%s", "at least one --queue is needed");
	if (o->pool != QLESS_POOL_SERIAL && o->size < 1)
		o->size = 1;
	if (o->pool == QLESS_POOL_SERIAL && o->size != 1)
		return usage_error(prog, "%s", "--size needs --pool threads or --pool processes");
	if (o->pool == QLESS_POOL_THREADS && o->single_threaded)
		return usage_error(prog, "%s", "this language's jobs cannot run on pool threads: use --pool processes");
	return 0;
}

/* Splits $QLESS_WORKER_ALLOW at commas into p->allows, blanks around
 * items dropped; the flags, when given, replace it. */
static int env_allows(const char *prog, parsed *p)
{
	const char *env = getenv("QLESS_WORKER_ALLOW");
	char *item, *next;
	size_t n = 1;
	if (p->nallows > 0 || env == NULL || *env == '\0')
		return 0;
	for (item = strchr(env, ','); item != NULL; item = strchr(item + 1, ','))
		n++;
	free(p->allows);
	p->allows = calloc(n, sizeof *p->allows);
	p->env_allow = qless__strdup(env);
	if (p->allows == NULL || p->env_allow == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	for (item = p->env_allow; item != NULL; item = next) {
		char *end;
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		while (*item == ' ' || *item == '\t')
			item++;
		for (end = item + strlen(item); end > item && (end[-1] == ' ' || end[-1] == '\t');)
			*--end = '\0';
		p->allows[p->nallows++] = item;
	}
	return 0;
}

/* Checks the allow patterns, naming a bad one (bytes that are not
 * printable ASCII as \xNN) and where it came from. */
static int check_allows(const char *prog, const parsed *p, int required)
{
	const char *from = p->env_allow ? "QLESS_WORKER_ALLOW" : "--allow";
	size_t i;
	if (required && p->nallows == 0) {
		fprintf(stderr, "%s: no job classes are allowed: this worker finds job code by class name, so "
		        "name the classes it may run with --allow PATTERN (repeatable) or QLESS_WORKER_ALLOW "
		        "(comma-separated), e.g. --allow 'myapp.jobs.*' ('*' allows every class)\n", prog);
		return 2;
	}
	for (i = 0; i < p->nallows; i++) {
		const char *why = qless__allow_invalid(p->allows[i]), *c;
		if (why == NULL)
			continue;
		fprintf(stderr, "%s: %s pattern '", prog, from);
		for (c = p->allows[i]; *c; c++)
			fprintf(stderr, (unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e ? "\\x%02x" : "%c",
			        (unsigned char)*c);
		fprintf(stderr, "' %s (see --help)\n", why);
		return 2;
	}
	return 0;
}

/* Applies the backoff flags, each checked by qless_backoff_parse. */
static int backoffs(const char *prog, const parsed *p, qless_worker *w)
{
	size_t i;
	for (i = 0; i < p->nbackoffs; i++) {
		const char *v = p->backoffs[i], *spec = v;
		char name[256] = "";
		qless_backoff b;
		if (p->kinds[i] != 'd') {
			const char *eq = strchr(v, '=');
			snprintf(name, sizeof name, "%.*s", (int)(eq - v), v);
			spec = eq + 1;
		}
		if (qless_backoff_parse(&b, spec) != QLESS_OK ||
		    qless_worker_set_backoff(w, p->kinds[i] == 'c' ? name : NULL, p->kinds[i] == 'q' ? name : NULL,
		                             &b) != QLESS_OK) {
			fprintf(stderr, "%s: %s (see --help)\n", prog, qless_error_last_message());
			return 2;
		}
	}
	return 0;
}

/* A worker started while Redis is away waits for it (the engine does the
 * same once running) instead of exiting. */
static int connect_waiting(const char *prog, const char *url, const qless_client_options *co, double cap,
                           qless_client **out)
{
	double wait = 0.1;
	int said = 0, rc;
	while ((rc = qless_client_new(out, url, co)) == QLESS_EIO) {
		struct timespec ts;
		if (!said++)
			fprintf(stderr, "%s: %s; waiting for Redis\n", prog, qless_error_last_message());
		ts.tv_sec = (time_t)wait;
		ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
		wait = wait * 2 > cap ? cap : wait * 2;
	}
	return rc;
}

int qless_worker_main_args(qless_strlist **allow, qless_strlist **files, const char *const *argv, size_t argc)
{
	static const char F[] = "qless_worker_main_args";
	qless_strlist *a, *r;
	const char *env;
	size_t i;
	int help = 0;

	QLESS_CHECK_NULL(F, allow);
	QLESS_CHECK_NULL(F, files);
	*allow = *files = NULL;
	if (argc > 0 && argv == NULL)
		return qless__err(QLESS_EINVAL, "%s: argv is NULL", F);
	a = qless__strlist_new(argc);
	r = qless__strlist_new(argc);
	if (a == NULL || r == NULL)
		goto nomem;
	/* The walk of parse(): every flag but --help takes the next argument. */
	for (i = 0; i < argc; i++) {
		const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (f == NULL)
			continue;
		if (strcmp(f, "--help") == 0 || strcmp(f, "-h") == 0) {
			help = 1;
			break;
		}
		if (v == NULL)
			break;
		i++;
		if (strcmp(f, "--allow") == 0 && qless__strlist_push(a, v, strlen(v), 0) != QLESS_OK)
			goto nomem;
		if ((strcmp(f, "--require") == 0 || strcmp(f, "-r") == 0) && *v &&
		    qless__strlist_push(r, v, strlen(v), 0) != QLESS_OK)
			goto nomem;
	}
	if (help) {
		/* Nothing is loaded or looked up when the user asked for help. */
		while (a->size > 0)
			free(a->items[--a->size]);
		while (r->size > 0)
			free(r->items[--r->size]);
	}
	env = getenv("QLESS_WORKER_ALLOW");
	if (!help && a->size == 0 && env != NULL) {
		/* The items as env_allows() splits them: at commas, blanks dropped. */
		const char *item = env;
		while (*item) {
			const char *end = strchr(item, ',');
			size_t len = end ? (size_t)(end - item) : strlen(item);
			const char *b = item, *e = item + len;
			while (b < e && (*b == ' ' || *b == '\t'))
				b++;
			while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			if (e > b && qless__strlist_push(a, b, (size_t)(e - b), 0) != QLESS_OK)
				goto nomem;
			item += len + (end ? 1 : 0);
		}
	}
	*allow = a;
	*files = r;
	return QLESS_OK;
nomem:
	qless_strlist_free(a);
	qless_strlist_free(r);
	return qless__err_nomem(F);
}

/* The workers of one program run: one per namespace its queues name
 * ("NAME/queue"; a bare name: the URL's namespace, or none). */
typedef struct ns_run {
	char *ns;                 /* owned; NULL: the URL's */
	const char **queues;      /* borrowed names (past "NAME/") */
	size_t n;
	qless_client *client;
	qless_worker *worker;
	const qless_worker_run_options *o;
	pthread_t thread;
	int started, rc;
	char err[256];
} ns_run;

/* Groups p's queues by namespace into runs[0..*nruns) (each runs[i].queues
 * sized for all queues). QLESS_EINVAL for a bad "NAME/queue". */
static int group_queues(const parsed *p, ns_run *runs, size_t *nruns)
{
	size_t i, k;
	int rc;
	*nruns = 0;
	for (i = 0; i < p->nqueues; i++) {
		char *ns = NULL;
		const char *queue;
		if ((rc = qless__namespace_split("qless_worker_main", p->queues[i], &ns, &queue)) != QLESS_OK)
			return rc;
		for (k = 0; k < *nruns; k++)
			if ((ns == NULL && runs[k].ns == NULL) || (ns != NULL && runs[k].ns != NULL && strcmp(ns, runs[k].ns) == 0))
				break;
		if (k == *nruns) {
			runs[k].ns = ns;
			if ((runs[k].queues = calloc(p->nqueues, sizeof *runs[k].queues)) == NULL)
				return qless__err_nomem("qless_worker_main");
			(*nruns)++;
		} else {
			free(ns);
		}
		runs[k].queues[runs[k].n++] = queue;
	}
	return QLESS_OK;
}

static void *run_thread(void *arg)
{
	ns_run *r = arg;
	r->rc = qless_worker_run(r->worker, r->o);
	if (r->rc != QLESS_OK)
		snprintf(r->err, sizeof r->err, "%s", qless_error_last_message());
	return NULL;
}

int qless_worker_main(int argc, const char *const *argv, const qless_worker_run_options *run)
{
	qless_worker_run_options o = QLESS_WORKER_RUN_OPTIONS_INIT;
	qless_client_options co = QLESS_CLIENT_OPTIONS_INIT;
	qless_worker_options wo = QLESS_WORKER_OPTIONS_INIT;
	qless_worker_run_options sub;
	ns_run *runs = NULL;
	size_t nruns = 0, k;
	const char *prog = argc > 0 && argv && argv[0] ? argv[0] : "qless-worker";
	parsed p;
	int code, i;

	if (argv == NULL || argc < 1 || run == NULL || run->perform == NULL) {
		fprintf(stderr, "%s: qless_worker_main needs argv and a perform callback\n", prog);
		return 2;
	}
	for (i = 0; i < argc; i++)
		if (argv[i] == NULL) {
			fprintf(stderr, "%s: argv[%d] is NULL\n", prog, i);
			return 2;
		}
	qless__run_hooks_copy(&o, run);
	if (run->version >= 2) {
		o.allow = run->allow;
		o.nallow = run->nallow;
	}
	if (run->version >= 5)
		o.loads_files = run->loads_files;
	o.signals = 1;
	memset(&p, 0, sizeof p);
	p.queues = calloc((size_t)argc, sizeof *p.queues);
	p.backoffs = calloc((size_t)argc, sizeof *p.backoffs);
	p.kinds = calloc((size_t)argc, 1);
	p.allows = calloc((size_t)argc, sizeof *p.allows);
	if (p.queues == NULL || p.backoffs == NULL || p.kinds == NULL || p.allows == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		code = 1;
		goto out;
	}
	if ((code = parse(argc, argv, &p, &o)) != 0) {
		code = code < 0 ? 0 : code;
		goto out;
	}
	if ((code = env_allows(prog, &p)) != 0)
		goto out;
	if (p.nallows > 0) {
		o.allow = p.allows;
		o.nallow = p.nallows;
	}
	if ((code = check_allows(prog, &p, o.resolves_classes && o.nallow == 0)) != 0)
		goto out;
	co.worker_name = p.name;
	wo.order = p.order;
	wo.watch_locks = 0;
	if ((runs = calloc(p.nqueues, sizeof *runs)) == NULL || group_queues(&p, runs, &nruns) != QLESS_OK) {
		fprintf(stderr, "%s: %s\n", prog, runs ? qless_error_last_message() : "out of memory");
		code = runs ? 2 : 1;
		goto out;
	}
	/* Each further namespace runs on a thread of its own. */
	if (nruns > 1 && o.pool == QLESS_POOL_PROCESSES) {
		code = usage_error(prog, "--pool %s serves one namespace: run one worker per namespace", "processes");
		goto out;
	}
	if (nruns > 1 && o.single_threaded) {
		code = usage_error(prog, "%s: this language's worker runs jobs on one thread, so it serves one "
		                   "namespace: run one worker program per namespace", "NAMESPACE/queue");
		goto out;
	}
	for (k = 0; k < nruns; k++) {
		co.namespace_name = runs[k].ns;
		if (connect_waiting(prog, p.url, &co, o.reconnect_max, &runs[k].client) != QLESS_OK ||
		    qless_worker_new(&runs[k].worker, runs[k].client, runs[k].queues, runs[k].n, &wo) != QLESS_OK) {
			fprintf(stderr, "%s: %s\n", prog, qless_error_last_message());
			code = qless_error_last_code() == QLESS_EINVAL ? 2 : 1;
			goto out;
		}
		if ((code = backoffs(prog, &p, runs[k].worker)) != 0)
			goto out;
		if (k > 0) /* a signal stops the first: it stops them all */
			runs[k - 1].worker->peer = runs[k].worker;
	}
	/* The first namespace's worker on this thread (it takes the signals),
	 * every other one on a thread of its own. */
	sub = o;
	sub.signals = 0;
	for (k = 1; k < nruns; k++) {
		runs[k].o = &sub;
		if (pthread_create(&runs[k].thread, NULL, run_thread, &runs[k]) != 0) {
			fprintf(stderr, "%s: cannot start a thread for namespace %s\n", prog, runs[k].ns ? runs[k].ns : "(none)");
			qless_worker_stop(runs[0].worker, 0);
			code = 1;
			break;
		}
		runs[k].started = 1;
	}
	if (code == 0 && qless_worker_run(runs[0].worker, &o) != QLESS_OK) {
		fprintf(stderr, "%s: %s\n", prog, qless_error_last_message());
		code = qless_error_last_code() == QLESS_EINVAL ? 2 : 1;
	}
	for (k = 1; k < nruns; k++)
		if (runs[k].started) {
			pthread_join(runs[k].thread, NULL);
			if (runs[k].rc != QLESS_OK) {
				fprintf(stderr, "%s: namespace %s: %s\n", prog, runs[k].ns ? runs[k].ns : "(none)", runs[k].err);
				if (code == 0)
					code = runs[k].rc == QLESS_EINVAL ? 2 : 1;
			}
		}
out:
	for (k = 0; runs != NULL && k < nruns; k++) {
		qless_worker_free(runs[k].worker);
		qless_client_free(runs[k].client);
		free(runs[k].ns);
		free(runs[k].queues);
	}
	/* group_queues may have stopped half way through a run's creation. */
	if (runs != NULL && nruns < p.nqueues) {
		free(runs[nruns].ns);
		free(runs[nruns].queues);
	}
	free(runs);
	free(p.queues);
	free(p.backoffs);
	free(p.kinds);
	free(p.allows);
	free(p.env_allow);
	return code;
}
