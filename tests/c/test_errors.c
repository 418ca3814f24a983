/* Error paths: NULL handles everywhere, wrong worker, lost locks, odd replies. */
#define _POSIX_C_SOURCE 200809L
#include "helper.h"

#include <stdlib.h>

#ifdef QLESS_BUILDING
#include "errors.h"
#endif

/* Every function taking a handle refuses NULL with QLESS_EINVAL (and void
 * ones simply do nothing). */
static void test_null_handles(void)
{
	char *s = NULL;
	qless_strlist *sl = NULL;
	qless_joblist *jl = NULL;
	qless_job *job = NULL;
	qless_recur *rec = NULL;
	qless_worker *w = NULL;
	qless_events *ev = NULL;
	const char *one[] = { "x" };
	int64_t n = 0;
	double d = 0;

	TH_RC(qless_client_new(NULL, th_url(), NULL), QLESS_EINVAL);
	TH_RC(qless_client_get_jobs(&jl, NULL, one, 1), QLESS_EINVAL);
	TH_RC(qless_client_timeout(NULL, one, 1), QLESS_EINVAL);
	TH_RC(qless_client_jobs(&sl, NULL, "complete", NULL, 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_tagged(&sl, &n, NULL, "t", 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_top_tags(&sl, NULL, 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_tracked(&jl, &sl, NULL), QLESS_EINVAL);
	TH_RC(qless_client_failed_groups(&sl, NULL), QLESS_EINVAL);
	TH_RC(qless_client_failed(&sl, &n, NULL, "g", 0, 0), QLESS_EINVAL);
	TH_RC(qless_client_queue_names(&sl, NULL), QLESS_EINVAL);
	TH_RC(qless_client_queues_json(&s, NULL), QLESS_EINVAL);
	TH_RC(qless_client_workers(&sl, NULL), QLESS_EINVAL);
	TH_RC(qless_client_worker_jobs(&sl, NULL, NULL, "w"), QLESS_EINVAL);
	TH_RC(qless_client_deregister_workers(NULL, one, 1), QLESS_EINVAL);
	TH_RC(qless_client_get_recur(&rec, NULL, "r"), QLESS_EINVAL);

	TH_RC(qless_queue_put(&s, NULL, "K", NULL, NULL), QLESS_EINVAL);
	TH_RC(qless_queue_recur(&s, NULL, "K", NULL, 60, NULL), QLESS_EINVAL);

	TH_RC(qless_job_complete(NULL, NULL), QLESS_EINVAL);
	TH_RC(qless_job_fail(NULL, "g", "m"), QLESS_EINVAL);
	TH_RC(qless_job_retry(&n, NULL, 0, NULL, NULL), QLESS_EINVAL);
	TH_RC(qless_job_heartbeat(&d, NULL), QLESS_EINVAL);
	TH_RC(qless_job_requeue(NULL, "q", NULL), QLESS_EINVAL);
	TH_RC(qless_job_timeout(NULL), QLESS_EINVAL);
	TH_RC(qless_job_tag_remove(NULL, one, 1), QLESS_EINVAL);
	TH_RC(qless_job_depends_remove(NULL, one, 1), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(qless_job_spawned_from_jid(NULL));
	CU_ASSERT_PTR_NULL(qless_job_failure_group(NULL));
	CU_ASSERT_PTR_NULL(qless_job_failure_message(NULL));
	CU_ASSERT_PTR_NULL(qless_job_failure_worker(NULL));
	CU_ASSERT_PTR_NULL(qless_job_history_what(NULL, 0));
	CU_ASSERT_PTR_NULL(qless_job_history_json(NULL, 0));
	CU_ASSERT_PTR_NULL(qless_job_dependency(NULL, 0));
	CU_ASSERT_PTR_NULL(qless_job_dependent(NULL, 0));
	CU_ASSERT_EQUAL(qless_job_dependency_count(NULL), 0);
	CU_ASSERT_EQUAL(qless_job_dependent_count(NULL), 0);
	CU_ASSERT_EQUAL(qless_job_expires(NULL), 0);
	CU_ASSERT_EQUAL(qless_job_retries(NULL), 0);
	CU_ASSERT_EQUAL(qless_job_remaining(NULL), 0);
	CU_ASSERT_EQUAL(qless_job_tracked(NULL), 0);
	CU_ASSERT_EQUAL(qless_job_history_when(NULL, 0), 0);
	CU_ASSERT_EQUAL(qless_job_failure_when(NULL), 0);

	CU_ASSERT_PTR_NULL(qless_recur_jid(NULL));
	CU_ASSERT_PTR_NULL(qless_recur_klass(NULL));
	CU_ASSERT_PTR_NULL(qless_recur_queue(NULL));
	CU_ASSERT_PTR_NULL(qless_recur_data(NULL));
	CU_ASSERT_PTR_NULL(qless_recur_tag(NULL, 0));
	CU_ASSERT_EQUAL(qless_recur_tag_count(NULL), 0);
	CU_ASSERT_EQUAL(qless_recur_count(NULL), 0);
	TH_RC(qless_recur_set_priority(NULL, 1), QLESS_EINVAL);
	TH_RC(qless_recur_set_retries(NULL, 1), QLESS_EINVAL);
	TH_RC(qless_recur_set_interval(NULL, 1), QLESS_EINVAL);
	TH_RC(qless_recur_set_backlog(NULL, 1), QLESS_EINVAL);
	TH_RC(qless_recur_set_data(NULL, "{}"), QLESS_EINVAL);
	TH_RC(qless_recur_set_klass(NULL, "K"), QLESS_EINVAL);
	TH_RC(qless_recur_set_queue(NULL, "q"), QLESS_EINVAL);
	TH_RC(qless_recur_tag_add(NULL, one, 1), QLESS_EINVAL);
	TH_RC(qless_recur_tag_remove(NULL, one, 1), QLESS_EINVAL);
	TH_RC(qless_recur_cancel(NULL), QLESS_EINVAL);
	qless_recur_free(NULL);

	TH_RC(qless_worker_new(&w, NULL, one, 1, NULL), QLESS_EINVAL);
	TH_RC(qless_worker_reserve(&job, NULL), QLESS_EINVAL);
	TH_RC(qless_worker_lost_locks(&sl, NULL, 0), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(qless_worker_name(NULL));
	qless_worker_free(NULL);

	TH_RC(qless_events_new(&ev, NULL, one, 1), QLESS_EINVAL);
	char *ch = NULL, *msg = NULL;
	TH_RC(qless_events_next(&ch, &msg, NULL, 0), QLESS_EINVAL);
	qless_events_free(NULL);

	CU_ASSERT_EQUAL(qless_strlist_number(NULL, 0), 0);
	CU_ASSERT_PTR_NULL(qless_joblist_get(NULL, 0));
	CU_ASSERT_PTR_NULL(qless_joblist_take(NULL, 0));
	/* Nothing was written on failure. */
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT_PTR_NULL(sl);
	CU_ASSERT_PTR_NULL(jl);
	CU_ASSERT_PTR_NULL(job);
	CU_ASSERT_PTR_NULL(rec);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT_PTR_NULL(ev);
	CU_ASSERT_EQUAL(qless_error_last_code(), QLESS_EINVAL);
}

/* A job held by one worker cannot be completed, failed, retried or
 * heartbeated by another (a client with a different worker_name).
 * The script raises its errors with Lua's position in front, as the original
 * qless script did ("user_script:N: " under EVALSHA, "user_function:N: "
 * under FCALL; its Ruby client keys on it); libqless strips it, so messages
 * and codes are the same under both (the protocol suite checks the raw
 * replies). */
static void wrong_worker(void)
{
	qless_client *a = th_client("worker-a");
	qless_client *b = th_client("worker-b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	char *jid = th_put(a, "q", "K", NULL, NULL);
	qless_job *held = th_pop1(a, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(held);
	qless_job *other = th_get(b, jid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	TH_STREQ(qless_job_worker(other), "worker-a");
	TH_RC(qless_job_complete(other, NULL), QLESS_ELOCK);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "another worker"));
	CU_ASSERT_EQUAL(strncmp(qless_error_last_message(), "Complete(): Job ", 16), 0);
	qless_job *none = NULL;
	TH_RC(qless_client_get_job(&none, a, "x-history"), QLESS_EINVAL);
	CU_ASSERT_EQUAL(strncmp(qless_error_last_message(), "Get(): Arg \"jid\"", 16), 0);
	TH_RC(qless_job_fail(other, "g", "m"), QLESS_ELOCK);
	TH_RC(qless_job_heartbeat(NULL, other), QLESS_ELOCK);
	TH_RC(qless_job_retry(NULL, other, 0, NULL, NULL), QLESS_ELOCK);
	/* The owner still can. */
	TH_OK(qless_job_heartbeat(NULL, held));
	TH_OK(qless_job_complete(held, NULL));
	qless_job_free(held);
	qless_job_free(other);
	qless_free(jid);
	qless_client_free(a);
	qless_client_free(b);
}

static void test_wrong_worker(void)
{
	wrong_worker();
	setenv("QLESS_EVALSHA", "1", 1);
	wrong_worker();
	unsetenv("QLESS_EVALSHA");
}

/* Lost lock by expiry: worker B runs 2 minutes in the future, so A's lock
 * (60 s) has expired for it; with grace-period 0 B's pop takes the job. */
static void test_lost_lock_offset(void)
{
	qless_client *a = th_client("worker-a");
	qless_client *b = th_client("worker-b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	TH_OK(qless_client_config_set(a, "grace-period", "0"));
	char *jid = th_put(a, "q", "K", NULL, NULL);
	qless_job *held = th_pop1(a, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(held);
	/* Not yet expired for B at the real time. */
	CU_ASSERT_PTR_NULL(th_pop1(b, "q"));
	TH_OK(qless_client_set_time_offset(b, 120));
	qless_job *stolen = th_pop1(b, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(stolen);
	TH_STREQ(qless_job_jid(stolen), jid);
	TH_STREQ(qless_job_worker(stolen), "worker-b");
	CU_ASSERT_EQUAL(qless_job_remaining(stolen), 4);
	TH_RC(qless_job_heartbeat(NULL, held), QLESS_ELOCK);
	TH_RC(qless_job_complete(held, NULL), QLESS_ELOCK);
	TH_RC(qless_job_fail(held, "g", "m"), QLESS_ELOCK);
	TH_OK(qless_job_complete(stolen, NULL));
	qless_job_free(held);
	qless_job_free(stolen);
	qless_free(jid);
	qless_client_free(a);
	qless_client_free(b);
}

/* Lost lock with the default grace period: the first late pop only warns,
 * the owner may still finish during the grace period. */
static void test_lost_lock_grace(void)
{
	qless_client *a = th_client("worker-a");
	qless_client *b = th_client("worker-b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	char *jid = th_put(a, "q", "K", NULL, NULL);
	qless_job *held = th_pop1(a, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(held);
	TH_OK(qless_client_set_time_offset(b, 61));
	CU_ASSERT_PTR_NULL(th_pop1(b, "q")); /* notice only */
	TH_OK(qless_job_refresh(held));
	TH_STREQ(qless_job_history_what(held, qless_job_history_count(held) - 1), "timed-out");
	TH_OK(qless_client_set_time_offset(b, 90));
	qless_job *stolen = th_pop1(b, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(stolen);
	TH_STREQ(qless_job_jid(stolen), jid);
	TH_RC(qless_job_complete(held, NULL), QLESS_ELOCK);
	qless_job_free(held);
	qless_job_free(stolen);
	qless_free(jid);
	qless_client_free(a);
	qless_client_free(b);
}

/* Lost lock by configuration: a negative heartbeat makes every lock expire
 * at once. */
static void test_lost_lock_heartbeat_config(void)
{
	qless_client *a = th_client("worker-a");
	qless_client *b = th_client("worker-b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	TH_OK(qless_client_config_set(a, "heartbeat", "-10"));
	TH_OK(qless_client_config_set(a, "grace-period", "0"));
	char *jid = th_put(a, "q", "K", NULL, NULL);
	qless_job *held = th_pop1(a, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(held);
	qless_job *stolen = th_pop1(b, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(stolen);
	TH_STREQ(qless_job_jid(stolen), jid);
	TH_RC(qless_job_heartbeat(NULL, held), QLESS_ELOCK);
	CU_ASSERT(strlen(qless_error_last_message()) > 0);
	qless_job_free(held);
	qless_job_free(stolen);
	qless_free(jid);
	qless_client_free(a);
	qless_client_free(b);
}

/* qless_job_timeout: the holder loses the lock; the job pops first next. */
static void test_job_timeout(void)
{
	qless_client *a = th_client("worker-a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	char *jid = th_put(a, "q", "K", NULL, NULL);
	qless_put_options hi = QLESS_PUT_OPTIONS_INIT;
	hi.has_priority = 1;
	hi.priority = 100;
	qless_job *held = th_pop1(a, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(held);
	char *other = th_put(a, "q", "K", NULL, &hi);
	TH_OK(qless_job_timeout(held));
	TH_RC(qless_job_heartbeat(NULL, held), QLESS_ELOCK);
	TH_RC(qless_job_complete(held, NULL), QLESS_ELOCK);
	TH_OK(qless_job_refresh(held));
	TH_STREQ(qless_job_state(held), "stalled");
	qless_job *next = th_pop1(a, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(next);
	TH_STREQ(qless_job_jid(next), jid); /* before the priority-100 job */
	/* Timing out a job that is not running is refused. */
	qless_job *w = th_get(a, other);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	int rc = qless_job_timeout(w);
	if (rc != QLESS_ESTATE)
		fprintf(stderr, "\n  timeout of a waiting job: %d %s\n", rc, qless_error_last_message());
	CU_ASSERT_EQUAL(rc, QLESS_ESTATE);
	qless_job_free(w);
	qless_job_free(next);
	qless_job_free(held);
	qless_free(jid);
	qless_free(other);
	qless_client_free(a);
}

/* Tree-job state conflicts map to QLESS_ESTATE (jobtrees.md T5), their
 * argument errors to QLESS_EINVAL and a missing job to QLESS_ENOTFOUND. */
static void test_tree_conflicts(void)
{
	qless_client *a = th_client("worker-a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	char *out = NULL;
	char *plain = th_put(a, "q", "K", NULL, NULL);
	const char *run_plain[] = { plain };
	TH_RC(qless_client_call(&out, a, "job.run", run_plain, 1), QLESS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "is not a tree job"));
	const char *put_tree[] = { "w", "q", "tj", "K", "{}", "0", "tree", "1" };
	TH_OK(qless_client_call(&out, a, "put", put_tree, 8));
	qless_free(out);
	out = NULL;
	const char *put_bad[] = { "w", "q", "tj", "K", "{}", "0", "tree", "yes" };
	TH_RC(qless_client_call(&out, a, "put", put_bad, 8), QLESS_EINVAL);
	const char *run_none[] = { "no-such-job" };
	TH_RC(qless_client_call(&out, a, "job.run", run_none, 1), QLESS_ENOTFOUND);
	const char *suspend[] = { "tj", "w" };
	TH_RC(qless_client_call(&out, a, "job.suspend", suspend, 2), QLESS_ELOCK);
	CU_ASSERT_PTR_NULL(out);
	const char *tj[] = { "tj" };
	TH_RC(qless_client_cancel(a, tj, 1), QLESS_ESTATE);
	const char *child[] = { "w", "q", "tc", "K", "{}", "0", "parent", "tj", "name", "n" };
	TH_OK(qless_client_call(&out, a, "put", child, 10));
	qless_free(out);
	out = NULL;
	const char *cycle[] = { "tc", "up", "tj" };
	TH_RC(qless_client_call(&out, a, "job.adopt", cycle, 3), QLESS_ESTATE);
	const char *taken[] = { "w", "q", "tz", "K", "{}", "0", "parent", "tj", "name", "n" };
	TH_RC(qless_client_call(&out, a, "put", taken, 10), QLESS_ESTATE);
	const char *stepchild[] = { "tj", "m", "tc" };
	TH_RC(qless_client_call(&out, a, "job.adopt", stepchild, 3), QLESS_ESTATE);
	const char *alias[] = { "tj", "bad alias" };
	TH_RC(qless_client_call(&out, a, "alias.set", alias, 2), QLESS_EINVAL);
	/* K5: a reserved channel is an argument error, not a state conflict. */
	const char *reserved[] = { "/qless/log", "1" };
	TH_RC(qless_client_call(&out, a, "channel.publish", reserved, 2), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "is reserved"));
	const char *write[] = { "tj", "in", "nope", "1" };
	TH_RC(qless_client_call(&out, a, "port.write", write, 4), QLESS_ENOTFOUND);
	qless_free(plain);
	qless_client_free(a);
}

/* Operations on a job that no longer exists. */
static void test_unknown_jid(void)
{
	qless_client *a = th_client("worker-a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	char *jid = th_put(a, "q", "K", NULL, NULL);
	qless_job *job = th_pop1(a, "q");
	CU_ASSERT_PTR_NOT_NULL_FATAL(job);
	th_flush(); /* gone behind the library's back */
	int rc = qless_job_complete(job, NULL);
	CU_ASSERT(rc == QLESS_ENOTFOUND || rc == QLESS_ELOCK);
	TH_RC(qless_job_set_priority(job, 3), QLESS_ENOTFOUND);
	TH_RC(qless_job_log(job, "m", NULL), QLESS_ENOTFOUND);
	const char *t[] = { "x" };
	TH_RC(qless_job_tag_add(job, t, 1), QLESS_ENOTFOUND);
	TH_RC(qless_job_track(job), QLESS_ENOTFOUND);
	TH_RC(qless_job_refresh(job), QLESS_ENOTFOUND);
	TH_RC(qless_job_requeue(job, "q", NULL), QLESS_ENOTFOUND);
	/* Unknown jids are skipped by cancel; timeout refuses them. */
	const char *ids[] = { "nope" };
	TH_OK(qless_client_cancel(a, ids, 1));
	rc = qless_client_timeout(a, ids, 1);
	CU_ASSERT(rc == QLESS_ENOTFOUND);
	qless_job_free(job);
	qless_free(jid);
	qless_client_free(a);
}

/* Replies the library does not expect: a job key of the wrong Redis type
 * makes the script fail, which surfaces as QLESS_EPROTOCOL with Redis' text. */
static void test_odd_replies(void)
{
	qless_client *a = th_client("worker-a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	redisReply *r = th_cmd("SET ql:j:weird notahash");
	freeReplyObject(r);
	qless_job *job = NULL;
	int rc = qless_client_get_job(&job, a, "weird");
	TH_RC(rc, QLESS_EPROTOCOL);
	CU_ASSERT_PTR_NULL(job);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "WRONGTYPE"));
	char *jid = th_put(a, "q", "K", NULL, NULL);
	qless_queue *q = NULL;
	TH_OK(qless_queue_new(&q, a, "q"));
	/* The library stays usable afterwards. */
	qless_job *ok = th_pop1(a, "q");
	CU_ASSERT_PTR_NOT_NULL(ok);
	qless_job_free(ok);
	qless_queue_free(q);
	qless_free(jid);
	qless_client_free(a);
}

/* A random string that is not UTF-8: ASCII around one bad sequence (a lone
 * continuation byte, a lead byte cut short, an overlong, a surrogate, a
 * code point past U+10FFFF, or a byte never valid). */
static void bad_utf8(unsigned int *seed, char *out, size_t size)
{
	static const char *const bad[] = { "\x80", "\xc3", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80",
	                                   "\xf4\x90\x80\x80", "\xff", "\xf0\x9f\x98" };
	snprintf(out, size, "a%.*s%sz", (int)(rand_r(seed) % 4), "bcd", bad[rand_r(seed) % 8]);
}

/* Text that is not UTF-8 is refused in every string argument before
 * anything is sent: QLESS_EINVAL naming UTF-8 (it was ENOMEM "out of
 * memory" for a tag or group), and nothing written. Seeded. */
static void test_not_utf8(void)
{
	qless_client *c = th_client("utf8-worker");
	qless_queue *q = NULL, *badq = NULL;
	qless_joblist *l = NULL;
	unsigned int seed = 11;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	TH_OK(qless_queue_new(&q, c, "u"));
	char *jid = th_put(c, "u", "K", NULL, NULL);
	TH_OK(qless_queue_pop(&l, q, 1));
	CU_ASSERT_EQUAL_FATAL(qless_joblist_size(l), 1);
	qless_job *job = qless_joblist_get(l, 0);
	for (int round = 0; round < 60; round++) {
		char s[32], data[64];
		const char *tags[] = { "ok", s };
		qless_put_options o = QLESS_PUT_OPTIONS_INIT;
		qless_job *got = NULL;
		char *out = NULL;
		int rcs[7];
		bad_utf8(&seed, s, sizeof s);
		snprintf(data, sizeof data, "{\"k\": \"%s\"}", s);
		o.tags = tags;
		o.ntags = 2;
		rcs[0] = qless_queue_put(&out, q, s, "{}", NULL);       /* klass */
		qless_free(out), out = NULL;
		rcs[1] = qless_queue_put(&out, q, "K", "{}", &o);       /* a tag */
		qless_free(out), out = NULL;
		rcs[2] = qless_queue_put(&out, q, "K", data, NULL);     /* data */
		qless_free(out), out = NULL;
		rcs[3] = qless_job_fail(job, s, "m");                   /* group */
		rcs[4] = qless_job_tag_add(job, tags, 2);
		rcs[5] = qless_client_get_job(&got, c, s);              /* jid */
		qless_job_free(got);
		qless_joblist *none = NULL;
		rcs[6] = qless_queue_new(&badq, c, s) == QLESS_OK ? qless_queue_pop(&none, badq, 1) : QLESS_EINVAL;
		qless_joblist_free(none);
		qless_queue_free(badq), badq = NULL;
		for (int k = 0; k < 7; k++) {
			CU_ASSERT_EQUAL(rcs[k], QLESS_EINVAL);
			if (rcs[k] != QLESS_EINVAL)
				fprintf(stderr, "\n  call %d with %s -> %s", k, s, qless_error_name(rcs[k]));
		}
	}
	/* Nothing was written: one job in the queue, still running, untagged. */
	int64_t len = -1;
	TH_OK(qless_queue_length(&len, q));
	CU_ASSERT_EQUAL(len, 1);
	TH_OK(qless_job_refresh(job));
	TH_STREQ(qless_job_state(job), "running");
	CU_ASSERT_EQUAL(qless_job_tag_count(job), 0);
	qless_joblist_free(l);
	qless_free(jid);
	qless_queue_free(q);
	qless_client_free(c);
}

#ifdef QLESS_BUILDING
/* An error reply maps by its leading token only: "[Kind] " (each class name
 * of QLESS_ERRORS to its code, the token stripped from the message) or a
 * Redis error code; wording never decides (docs/errors.md). Sanitizer build
 * only: the mapping is internal. */
static void test_error_kind_tokens(void)
{
	const char *text = NULL;
#define CHECK_KIND(symbol, value, klass, meaning) \
	CU_ASSERT_EQUAL(qless__script_error_code("[" #klass "] Put(): x", &text), symbol); \
	TH_STREQ(text, "Put(): x");
	QLESS_ERRORS(CHECK_KIND)
#undef CHECK_KIND
	/* Unknown or malformed tokens, and the old wording without a token. */
	static const char *const protocol[] = {
		"[Bogus] Put(): x", "[NotFound]Put(): x", "[notfound] x", "NotFound x", "[NotFound",
		"Complete(): Job j does not exist", "Timeout(): Job j not running", "Put(): Arg \"x\" missing",
		"WRONGTYPE Operation against a key holding the wrong kind of value", "BUSYGROUP x", "",
	};
	size_t i;
	for (i = 0; i < sizeof protocol / sizeof protocol[0]; i++) {
		CU_ASSERT_EQUAL(qless__script_error_code(protocol[i], &text), QLESS_EPROTOCOL);
		CU_ASSERT_PTR_EQUAL(text, protocol[i]);
	}
	CU_ASSERT_EQUAL(qless__script_error_code("LOADING Redis is loading", &text), QLESS_EIO);
	CU_ASSERT_EQUAL(qless__script_error_code("BUSY Redis is busy running a script", &text), QLESS_EIO);
	CU_ASSERT_EQUAL(qless__script_error_code(NULL, &text), QLESS_EPROTOCOL);
}
#endif

/* Through a client: the message reads as before (no token), the code comes
 * from the token, whatever the wording. */
static void test_error_kind_reply(void)
{
	qless_client *a = th_client("worker-a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	char *out = NULL;
	const char *nope[] = { "nope", "w", "q", "{}" };
	TH_RC(qless_client_call(&out, a, "complete", nope, 4), QLESS_ENOTFOUND);
	TH_STREQ(qless_error_last_message(), "Complete(): Job nope does not exist");
	const char *bad[] = { "w", "q", "j", "K", "{}", "0", "tags", "[true]" };
	TH_RC(qless_client_call(&out, a, "put", bad, 8), QLESS_EINVAL);
	TH_STREQ(qless_error_last_message(), "Put(): Arg \"tags\" must be a JSON array of strings or numbers: [true]");
	CU_ASSERT_PTR_NULL(out);
	qless_client_free(a);
}

CU_TestInfo error_tests[] = {
	{ "not_utf8", test_not_utf8 },
	{ "null_handles", test_null_handles },
	{ "wrong_worker", test_wrong_worker },
	{ "lost_lock_offset", test_lost_lock_offset },
	{ "lost_lock_grace", test_lost_lock_grace },
	{ "lost_lock_heartbeat_config", test_lost_lock_heartbeat_config },
	{ "job_timeout", test_job_timeout },
	{ "unknown_jid", test_unknown_jid },
	{ "tree_conflicts", test_tree_conflicts },
	{ "odd_replies", test_odd_replies },
#ifdef QLESS_BUILDING
	{ "error_kind_tokens", test_error_kind_tokens },
#endif
	{ "error_kind_reply", test_error_kind_reply },
	CU_TEST_INFO_NULL,
};
