/*
 * qless-cworker: the C worker of the worker conformance suite
 * (tests/worker/test_conformance.py). The whole program is a table of job
 * classes and qless_worker_main: everything else (flags, pools, heartbeats,
 * signals, settling) is the engine, which is what the suite checks.
 *
 * Job classes (data is a JSON object), as every language defines them:
 *   Noop   appends "start <jid> <time> <pid>" to data.log (if set), sleeps
 *          data.sleep seconds (if set), appends "end <jid> <time> <pid>"
 *   Boom   fails: group "ConformanceError", message "boom <jid>"
 *   Flaky  asks for a retry: group "ConformanceRetry", message "flaky <jid>",
 *          after the backoff policy's delay
 * and Forbidden, which the allow-list scenario never lets run (below).
 * Tree is the tree job of test_tree_conformance.py (its docstring says what
 * startup, perform and shutdown do): the engine registers its ports and
 * calls the hooks; the class only reads, writes and suspends.
 * Sink is the consumer of the tree fault test (tree_soak.py): it drains
 * input port "in" and logs what it took so that the test can account for
 * every value exactly, crashes included (see sink() below).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <qless/qless.h>

/* One line in ONE write(2) on an O_APPEND descriptor: lines of concurrent
 * processes and threads never interleave, which the suite relies on. */
static void log_line(const char *path, const char *what, const char *jid)
{
	struct timespec now;
	char line[256];
	clock_gettime(CLOCK_REALTIME, &now);
	int n = snprintf(line, sizeof line, "%s %s %.6f %ld\n", what, jid,
	                 (double)now.tv_sec + (double)now.tv_nsec / 1e9, (long)getpid());
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0 || n <= 0 || (size_t)n >= sizeof line || write(fd, line, (size_t)n) != n)
		fprintf(stderr, "qless-cworker: cannot log to %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void noop(qless_job *job, qless_result *result)
{
	(void)result;
	json_t *data = json_loads(qless_job_data(job), 0, NULL);
	const char *log = json_string_value(json_object_get(data, "log"));
	double seconds = json_number_value(json_object_get(data, "sleep"));  /* 0 when absent */
	if (log)
		log_line(log, "start", qless_job_jid(job));
	/* A signal (the graceful stop's SIGTERM) interrupts nanosleep: keep
	 * sleeping for what is left, the job must run to its end. No sleep
	 * at all without data.sleep: even nanosleep(0) waits for the timer
	 * slack, which would halve the rate of bench/'s no-op jobs. */
	struct timespec left = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
	while (seconds > 0 && nanosleep(&left, &left) != 0 && errno == EINTR)
		;
	if (log)
		log_line(log, "end", qless_job_jid(job));
	json_decref(data);
}

static void boom(qless_job *job, qless_result *result)
{
	char message[128];
	snprintf(message, sizeof message, "boom %s", qless_job_jid(job));
	qless_result_fail(result, "ConformanceError", message);
}

static void flaky(qless_job *job, qless_result *result)
{
	char message[128];
	snprintf(message, sizeof message, "flaky %s", qless_job_jid(job));
	qless_result_retry(result, "ConformanceRetry", message, -1);  /* -1: the backoff policy */
}

/* Outside every allow-list of the suite (test_class_not_allowed): leaves a
 * mark in $QLESS_CONF_MARKER and ends the worker, so that a worker that
 * performed it cannot pass. */
static void forbidden(qless_job *job, qless_result *result)
{
	const char *marker = getenv("QLESS_CONF_MARKER");
	(void)result;
	if (marker)
		log_line(marker, "forbidden", qless_job_jid(job));
	_exit(3);
}

/* ---- Tree ---- */

static const char TREE_CONFIG[] = "{\"inports\": {\"in\": {}}, \"outports\": {\"out\": {}}}";
static const char SINK_CONFIG[] = "{\"inports\": {\"in\": {}}}";

static int is_tree_class(const char *klass)
{
	return strcmp(klass, "Tree") == 0 || strcmp(klass, "Sink") == 0;
}

/* Appends `what` to data.log, if the job has one. */
static void tree_log(qless_job *job, const char *what)
{
	json_t *data = json_loads(qless_job_data(job), 0, NULL);
	const char *log = json_string_value(json_object_get(data, "log"));
	if (log)
		log_line(log, what, qless_job_jid(job));
	json_decref(data);
}

static void tree_startup(void *ctx, qless_job *job, qless_result *result)
{
	(void)ctx;
	(void)result;
	if (!is_tree_class(qless_job_klass(job)))
		return;
	tree_log(job, "startup");
	json_t *data = json_loads(qless_job_data(job), 0, NULL);
	const char *crash = json_string_value(json_object_get(data, "crash"));
	int fd = crash ? open(crash, O_WRONLY | O_CREAT | O_EXCL, 0644) : -1;
	if (fd >= 0)
		_exit(3); /* as a crash would: nothing settled, job.started never sent */
	json_decref(data);
}

static void tree_shutdown(void *ctx, qless_job *job, qless_result *result)
{
	(void)ctx;
	(void)result;
	if (is_tree_class(qless_job_klass(job)))
		tree_log(job, "shutdown");
}

static void tree_failed(qless_result *result, const char *what)
{
	char message[512];
	snprintf(message, sizeof message, "%s: %s", what, qless_error_last_message());
	qless_result_fail(result, "qless.Error", message);
}

/* state "seen" += n. */
static int add_seen(qless_client *c, const char *jid, size_t n)
{
	char *seen = NULL, text[32];
	int rc = qless_state_get(&seen, c, jid, "seen");
	if (rc == QLESS_OK) {
		snprintf(text, sizeof text, "%lld", (seen ? atoll(seen) : 0) + (long long)n);
		rc = qless_state_set(c, jid, "seen", text);
	}
	qless_free(seen);
	return rc;
}

/* Up to 10 values of "in": none, suspend; else each doubled to "out" and
 * their count added to state "seen". */
static void tree(qless_job *job, qless_result *result)
{
	qless_client *c = qless_job_client(job);
	const char *jid = qless_job_jid(job);
	char *in = NULL, doubled[10][32];
	const char *values[10];
	tree_log(job, "perform");
	if (qless_port_read(&in, c, jid, QLESS_PORT_IN, "in", 10) != QLESS_OK) {
		tree_failed(result, "port.read");
		return;
	}
	json_t *read = json_loads(in, 0, NULL);
	size_t n = json_array_size(read);
	for (size_t i = 0; i < n; i++) {
		snprintf(doubled[i], sizeof doubled[i], "%lld", 2 * (long long)json_integer_value(json_array_get(read, i)));
		values[i] = doubled[i];
	}
	if (n == 0)
		qless_result_suspend(result);
	else if (qless_port_write(c, jid, QLESS_PORT_OUT, "out", values, n) != QLESS_OK)
		tree_failed(result, "port.write");
	else if (add_seen(c, jid, n) != QLESS_OK)
		tree_failed(result, "state");
	json_decref(read);
	qless_free(in);
}

/* ---- Sink ---- */

/* "<what> <jid> <time> <pid> <values>" in one write, as log_line. */
static void sink_log(const char *path, const char *what, const char *jid, const char *values)
{
	json_t *parsed = json_loads(values, 0, NULL);
	char *compact = parsed ? json_dumps(parsed, JSON_COMPACT) : NULL;
	struct timespec now;
	char line[1024];
	clock_gettime(CLOCK_REALTIME, &now);
	int n = snprintf(line, sizeof line, "%s %s %.6f %ld %s\n", what, jid,
	                 (double)now.tv_sec + (double)now.tv_nsec / 1e9, (long)getpid(), compact ? compact : "?");
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0 || n <= 0 || (size_t)n >= sizeof line || write(fd, line, (size_t)n) != n)
		fprintf(stderr, "qless-cworker: cannot log to %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(compact);
	json_decref(parsed);
}

/* Whether a failed call should be made again: the fault test restarts
 * Redis under running jobs, and a sink that failed on that would stay
 * failed (failed jobs are not woken by input), which is not what the test
 * is about. Waits 0.1 s, for at most 60 s in all. */
static int sink_again(int rc, int *tries)
{
	static const struct timespec pause = { 0, 100000000L };
	int loading = rc == QLESS_EPROTOCOL && strstr(qless_error_last_message(), "LOADING") != NULL;
	if ((rc != QLESS_EIO && !loading) || ++*tries > 600)
		return 0;
	nanosleep(&pause, NULL);
	return 1;
}

/* Reads the n values just peeked. When Redis went away during the read
 * (killed after the script ran, or before), peeks again: the batch still at
 * the head means the read did not happen (the values are unique), so it is
 * made again; anything else means it did: then 1 and *out_json NULL. */
static int sink_read(qless_client *c, const char *jid, const char *peeked, size_t n, char **out_json)
{
	int rc, tries = 0;
	while ((rc = qless_port_read(out_json, c, jid, QLESS_PORT_IN, "in", (int64_t)n)) != QLESS_OK &&
	       sink_again(rc, &tries)) {
		char *head = NULL;
		while ((rc = qless_port_peek(&head, c, jid, QLESS_PORT_IN, "in", (int64_t)n)) != QLESS_OK &&
		       sink_again(rc, &tries))
			;
		if (rc != QLESS_OK)
			return rc;
		int same = strcmp(head, peeked) == 0;
		qless_free(head);
		if (!same) {
			*out_json = NULL;
			return 1;
		}
	}
	return rc;
}

/* Drains "in" 8 values at a time, each batch as peek, log "take", read,
 * log "took": only this job reads its port, so a read removes exactly the
 * values peeked, and a run killed between the two logs leaves either the
 * values still at the head of the port (the read did not happen) or gone
 * (it did), which the test can tell apart. Suspends when "in" is empty. */
static void sink(qless_job *job, qless_result *result)
{
	qless_client *c = qless_job_client(job);
	const char *jid = qless_job_jid(job);
	json_t *data = json_loads(qless_job_data(job), 0, NULL);
	const char *log = json_string_value(json_object_get(data, "log"));
	tree_log(job, "perform");
	for (;;) {
		char *peeked = NULL, *read = NULL;
		int rc, tries = 0;
		while ((rc = qless_port_peek(&peeked, c, jid, QLESS_PORT_IN, "in", 8)) != QLESS_OK &&
		       sink_again(rc, &tries))
			;
		if (rc != QLESS_OK) {
			tree_failed(result, "port.peek");
			break;
		}
		json_t *values = json_loads(peeked, 0, NULL);
		size_t n = json_array_size(values);
		json_decref(values);
		if (n == 0) {
			qless_free(peeked);
			qless_result_suspend(result);
			break;
		}
		if (log)
			sink_log(log, "take", jid, peeked);
		rc = sink_read(c, jid, peeked, n, &read);
		if (rc >= 0 && log)
			sink_log(log, "took", jid, read ? read : peeked);
		qless_free(peeked);
		qless_free(read);
		if (rc < 0) {
			tree_failed(result, "port.read");
			break;
		}
	}
	json_decref(data);
}

static const struct {
	const char *klass;
	void (*run)(qless_job *job, qless_result *result);
} classes[] = {
	{ "Noop", noop },
	{ "Boom", boom },
	{ "Flaky", flaky },
	{ "Forbidden", forbidden },
	{ "Tree", tree },
	{ "Sink", sink },
};

static void perform(void *ctx, qless_job *job, qless_result *result)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
		if (strcmp(qless_job_klass(job), classes[i].klass) == 0) {
			classes[i].run(job, result);
			return;
		}
	}
	char message[256];
	snprintf(message, sizeof message, "no job class %s in qless-cworker", qless_job_klass(job));
	qless_result_fail(result, "qless.UnknownClass", message);
}

int main(int argc, char **argv)
{
	static const char *const tree_klasses[] = { "Tree", "Sink" };
	static const char *const tree_configs[] = { TREE_CONFIG, SINK_CONFIG };
	qless_worker_run_options run = QLESS_WORKER_RUN_OPTIONS_INIT;
	run.perform = perform;
	run.tree_klasses = tree_klasses;
	run.tree_configs = tree_configs;
	run.ntree = 2;
	run.startup = tree_startup;
	run.shutdown = tree_shutdown;
	return qless_worker_main(argc, (const char *const *)argv, &run);
}
