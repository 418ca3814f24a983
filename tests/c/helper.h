/*
 * Shared helpers of the libqless CUnit suites: where the fixture redis-server
 * listens, a raw hiredis connection for arranging and inspecting state behind
 * the library's back, and small shortcuts for the common put/pop steps.
 */
#ifndef QLESS_TEST_HELPER_H
#define QLESS_TEST_HELPER_H

#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include <hiredis/hiredis.h>
#include <jansson.h>
#include <qless/qless.h>

/* Fixture location (from $QLESS_TEST_STATE/port and /socket). */
int th_port(void);
const char *th_socket(void);
/* redis://127.0.0.1:<port>/<db> into buf. */
const char *th_url_db(char *buf, size_t size, int db);
/* redis://127.0.0.1:<port>/0 (static). */
const char *th_url(void);

/* Raw hiredis connection to db 0 of the fixture (reconnects when broken). */
redisContext *th_raw(void);
/* Runs a command on the raw connection; the reply is owned by the caller
 * (freeReplyObject) and NULL on I/O error. */
redisReply *th_cmd(const char *fmt, ...);
/* Integer reply of a command, or -999999 when the reply is not an integer. */
long long th_int(const char *fmt, ...);
/* String (status or bulk) reply copied into a malloc'ed string, else NULL. */
char *th_str(const char *fmt, ...);
/* FLUSHALL on the fixture. */
void th_flush(void);

/* CUnit per-test setup/teardown: flush the server, clear the error state. */
void th_setup(void);
void th_teardown(void);

/* A client on th_url() with the given worker name (NULL: default name). */
qless_client *th_client(const char *worker);
/* Puts a job; returns its jid (owned, qless_free) or NULL. */
char *th_put(qless_client *c, const char *queue, const char *klass, const char *data,
             const qless_put_options *opts);
/* Pops one job from queue; owned job or NULL. */
qless_job *th_pop1(qless_client *c, const char *queue);
/* Gets a job by jid; owned job or NULL. */
qless_job *th_get(qless_client *c, const char *jid);
/* 1 when s is 32 lowercase hex digits. */
int th_is_jid(const char *s);
/* 1 when list contains s (at any index); index in *at when at != NULL. */
int th_strlist_has(const qless_strlist *list, const char *s, size_t *at);
/* Parses JSON text; NULL when it does not parse. */
json_t *th_json(const char *text);
/* A TCP port on 127.0.0.1 that nothing listens on (bound then closed). */
int th_closed_port(void);

/* Commands the fixture has processed (INFO stats; the INFO counts too). */
long long th_commands(void);
/* Moves the client's clock so that its now is t (to within the time the
 * next call takes to start). */
void th_clock_at(qless_client *c, double t);
/* Asserts rc is QLESS_EINVAL with a message naming func and arg, and that
 * the server saw no command since before = th_commands() except that INFO. */
void th_refused_unsent(int rc, long long before, const char *func, const char *arg);

/* The text of row i of schedules.md §5.6 (test_when.c), NULL past the end. */
const char *th_when_row_text(size_t i);

/* Assertion that shows the library's message when a call fails. */
#define TH_RC(expr, expected) do { \
	int th_rc_ = (expr); \
	if (th_rc_ != (expected)) \
		fprintf(stderr, "\n  %s:%d: %s returned %d (%s) \"%s\", expected %d\n", __FILE__, __LINE__, \
		        #expr, th_rc_, qless_error_name(th_rc_), qless_error_last_message(), (int)(expected)); \
	CU_ASSERT_EQUAL(th_rc_, (expected)); \
} while (0)
#define TH_OK(expr) TH_RC(expr, QLESS_OK)
/* String equality that tolerates NULL (NULL == NULL only). */
#define TH_STREQ(a, b) do { \
	const char *th_a_ = (a), *th_b_ = (b); \
	int th_eq_ = (th_a_ == NULL || th_b_ == NULL) ? th_a_ == th_b_ : strcmp(th_a_, th_b_) == 0; \
	if (!th_eq_) fprintf(stderr, "\n  %s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
	                     th_a_ ? th_a_ : "(null)", th_b_ ? th_b_ : "(null)"); \
	CU_ASSERT(th_eq_); \
} while (0)

/* qless_put_options as versions 1 and 2 declared them: what a program
 * built against an older header passes. */
struct put_options_v1 {
	unsigned int version;
	const char *jid;
	double delay;
	int has_priority;
	double priority;
	int retries;
	const char *const *tags;
	size_t ntags;
	const char *const *depends;
	size_t ndepends;
};
struct put_options_v2 {
	struct put_options_v1 v1;
	int unique;
	const char *unique_key;
};

/* Suite tables of each file, registered by main.c. */
extern CU_TestInfo client_tests[];
extern CU_TestInfo queue_tests[];
extern CU_TestInfo job_tests[];
extern CU_TestInfo error_tests[];
extern CU_TestInfo counts_tests[];
extern CU_TestInfo lifetime_tests[];
extern CU_TestInfo recur_tests[];
extern CU_TestInfo worker_tests[];
extern CU_TestInfo engine_tests[];
extern CU_TestInfo engine_tree_tests[];
extern CU_TestInfo event_tests[];
extern CU_TestInfo conn_tests[];
extern CU_TestInfo namespace_tests[];
extern CU_TestInfo restart_tests[];
extern CU_TestInfo validation_tests[];
extern CU_TestInfo heartbeater_tests[];
extern CU_TestInfo server_tests[];
extern CU_TestInfo unique_tests[];
extern CU_TestInfo when_tests[];
extern CU_TestInfo cron_tests[];
extern CU_TestInfo schedule_tests[];
extern CU_TestInfo recur_cron_tests[];
extern CU_TestInfo schedule_entry_tests[];
extern CU_TestInfo schedule_text_tests[];
extern CU_TestInfo tree_tests[];
extern CU_TestInfo tree_typed_tests[];
extern CU_TestInfo tree_arg_tests[];
extern CU_TestInfo tree_port_tests[];

/* Tests that ended with library handles still alive (see th_teardown). */
extern int th_handle_leaks;

#endif
