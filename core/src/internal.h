/* libqless private declarations shared by the core sources. */
#ifndef QLESS_INTERNAL_H
#define QLESS_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <hiredis/hiredis.h>
#include <jansson.h>

#include "qless/qless.h"

#if defined(__GNUC__)
#  define QLESS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#  define QLESS_PRINTF(a, b)
#endif

/* ---- embedded script (generated) ---- */
extern const char qless_script_lua[];
extern const size_t qless_script_lua_len;
extern const char qless_script_lua_sha1[];

/* ---- errors (error.c) ---- */
/* Records code + printf-style message as this thread's last error; returns code. */
int qless__err(int code, const char *fmt, ...) QLESS_PRINTF(2, 3);
int qless__err_nomem(const char *func);
/* Standard NULL / empty argument complaints. */
int qless__err_null(const char *func, const char *arg);
int qless__err_empty(const char *func, const char *arg);
/* Maps an error reply's text (Redis's "ERR " and Lua's position already
 * stripped) to a qless_error_code by its leading token only: "[Kind] " of the
 * protocol (lua/ Q.raise; Kind from QLESS_ERRORS) or a Redis error code.
 * *text is set to msg past a "[Kind] " token (borrowed from msg). */
int qless__script_error_code(const char *msg, const char **text);
/* Marks the last error (just recorded) as the protocol script's own reply;
 * qless__err and qless_error_clear unmark it. */
void qless__err_from_script(void);
int qless__err_is_from_script(void);

/* Argument checks: return non-zero (after recording QLESS_EINVAL) when bad. */
#define QLESS_CHECK_NULL(func, x) \
	do { if ((x) == NULL) return qless__err_null(func, #x); } while (0)
#define QLESS_CHECK_STR(func, x) \
	do { if ((x) == NULL) return qless__err_null(func, #x); \
	     if (*(x) == '\0') return qless__err_empty(func, #x); } while (0)

/* ---- memory and JSON helpers (util.c) ---- */
char *qless__strdup(const char *s);
char *qless__strndup(const char *s, size_t n);
/* The deepest nesting of arrays and objects the protocol's JSON decoder
 * (Redis' cjson) accepts. */
#define QLESS_JSON_MAX_DEPTH 1000
/* QLESS_OK if text is any JSON value the protocol can decode, else
 * QLESS_EINVAL naming func and arg (the argument as the caller knows it). */
int qless__check_json(const char *func, const char *arg, const char *text);
/* QLESS_OK if v is finite, else QLESS_EINVAL naming func and arg. */
int qless__check_finite(const char *func, const char *arg, double v);
/* Non-zero if s is valid UTF-8 (RFC 3629: no overlongs, surrogates or code
 * points past U+10FFFF). The protocol's text is UTF-8: the script stores it
 * in JSON, which every client must be able to read back. */
int qless__utf8_valid(const char *s);
/* A failure's group and message: both, group non-empty (or, when optional,
 * neither). QLESS_EINVAL naming what is wrong otherwise. */
int qless__check_failure(const char *func, const char *group, const char *message, int optional);
/* Checks strs[0..n) are non-NULL, valid UTF-8 (and non-empty when nonempty); on failure
 * records QLESS_EINVAL naming func/arg and returns it. */
int qless__check_strv(const char *func, const char *arg, const char *const *strs, size_t n, int nonempty);
/* JSON array text of n strings (owned) or NULL on OOM. */
char *qless__json_strv(const char *const *strs, size_t n);
/* Number of a JSON number (integer or real); 0 otherwise. */
double qless__jnum(const json_t *v);
int64_t qless__jint(const json_t *v);
/* Formats a double so it round-trips; integers without exponent. */
void qless__fmt_num(char *buf, size_t size, double v);
int qless__finite(double v);

/* ---- string and job lists (strlist.c, joblist.c) ---- */
struct qless_strlist {
	size_t size, cap;
	char **items;
	int64_t *numbers;
};
qless_strlist *qless__strlist_new(size_t cap);
/* For optional out-parameters: hands l to *out when out is not NULL, else frees it. */
void qless__strlist_give(qless_strlist *l, qless_strlist **out);
void qless__joblist_give(qless_joblist *l, qless_joblist **out);
int qless__strlist_push(qless_strlist *l, const char *s, size_t len, int64_t number);
/* Strings from a Redis array reply; NULL on bad shape (EPROTOCOL) or OOM. */
int qless__strlist_from_reply(const redisReply *r, qless_strlist **out, const char *func);
/* Strings from a JSON array (or empty object); EPROTOCOL on bad shape. */
int qless__strlist_from_json(const json_t *v, qless_strlist **out, const char *func);

struct qless_joblist {
	size_t size;
	qless_job **jobs;
};

/* ---- URL (url.c) ---- */
typedef struct qless_url {
	char *host;      /* TCP host, or NULL for a unix socket */
	int port;
	char *path;      /* unix socket path */
	int db;
	char *user;
	char *password;
} qless_url;
int qless__url_parse(const char *url, qless_url *out);
void qless__url_free(qless_url *u);

/* ---- heartbeat threads (bgthread.c) ----
 * Starts fn(arg) with every signal blocked, after initialising mu and a
 * CLOCK_MONOTONIC cv for it; returns 0, or an errno with mu and cv
 * destroyed again. qless__bg_stop sets *stop under mu, wakes the thread,
 * joins it and destroys mu and cv. */
#include <pthread.h>
int qless__bg_start(pthread_t *thread, pthread_mutex_t *mu, pthread_cond_t *cv, void *(*fn)(void *), void *arg);
void qless__bg_stop(pthread_t thread, pthread_mutex_t *mu, pthread_cond_t *cv, int *stop);

/* ---- SIGPIPE guard (conn.c) ----
 * hiredis 0.14 writes with write(2): a write to a connection the server
 * closed would raise SIGPIPE and kill the program. Around our I/O the
 * signal is blocked on the calling thread and a SIGPIPE it caused is
 * consumed, so the failure surfaces as QLESS_EIO instead. */
#include <signal.h>
typedef struct qless_sigpipe_guard {
	sigset_t old;
	int was_blocked;
} qless_sigpipe_guard;
void qless__sigpipe_block(qless_sigpipe_guard *g);
/* failed: the guarded operation failed (then a SIGPIPE it raised is taken). */
void qless__sigpipe_restore(qless_sigpipe_guard *g, int failed);

/* ---- argument vectors (call.c) ---- */
#define QLESS_ARGS_PREFIX 5   /* EVALSHA sha 0 command now */
#define QLESS_ARGS_STACK 32
#define QLESS_ARGS_NUMS 10
typedef struct qless_args {
	const char **v;
	size_t n, cap;
	const char *stack[QLESS_ARGS_STACK];
	char nums[QLESS_ARGS_NUMS][40];
	size_t nnums;
	char **owned;
	size_t nowned, ownedcap;
	int oom;
	int bad_utf8;   /* 1 + index of the first argument that is not UTF-8, else 0 */
} qless_args;
void qless__args_init(qless_args *a);
void qless__args_add(qless_args *a, const char *s);
void qless__args_addv(qless_args *a, const char *const *strs, size_t n);
void qless__args_num(qless_args *a, double v);
void qless__args_int(qless_args *a, int64_t v);
/* Takes ownership of s (NULL marks the vector out of memory). */
void qless__args_own(qless_args *a, char *s);
void qless__args_free(qless_args *a);

/* ---- client (client.c, conn.c) ---- */
struct qless_client {
	int refs;   /* atomic (qless__client_ref); 1 for the caller + 1 per handle made from it */
	redisContext *ctx;
	qless_url url;
	int connect_timeout_ms;
	int command_timeout_ms;
	char *worker_name;
	double offset;
	/* Non-zero: the now every call sends until unpinned (qless__pin_now). */
	double pinned_now;
	char sha[48];
	/* FCALL target when the server took libqless' function library
	 * (qless__ensure), else "" and calls go by EVALSHA of sha. */
	char fn[48];
	/* Set from QLESS_EVALSHA when the client is made: never use FCALL. */
	int evalsha_only;
	char nowbuf[48];
	/* Set while ensure connects and loads the protocol: errors then name
	 * the connect timeout, which bounds those steps. */
	int handshake;
	/* ql:features as read at the last connect: JSON object text, owned. */
	char *features;
};
void qless__client_ref(qless_client *c);
void qless__client_unref(qless_client *c);
double qless__now(const qless_client *c);
/* Fixes the now the client's calls send to the current one, rounded to the
 * microsecond as sent, and returns it: a time computed as now + d on the
 * server is then exactly the one the caller meant. Until qless__unpin_now. */
double qless__pin_now(qless_client *c);
void qless__unpin_now(qless_client *c);
/* Opens a hiredis connection as configured (AUTH and SELECT done).
 * Returns NULL after recording an error. */
redisContext *qless__connect(qless_client *c, int select_db);
/* Bounds each later read and write on ctx by ms (<= 0: unbounded); which
 * ("connect", "command") names the timeout in the error. */
int qless__conn_bound(redisContext *ctx, int ms, const char *which);
/* ctx's error as text for a message; a read or write that ran out of its
 * ms names the timeout instead of "Resource temporarily unavailable". */
const char *qless__io_reason(const redisContext *ctx, const char *which, int ms, char *buf, size_t size);
/* 1 when ctx, idle (no reply owed), cannot carry a command: the server
 * closed it or it failed. Checked before anything is sent on a kept
 * connection, so that a restart of Redis costs a reconnect, not a failed
 * call (and no command is ever sent twice). One system call. */
int qless__conn_stale(const redisContext *ctx);
/* Ensures c->ctx is connected with the protocol loaded: the function
 * library (FCALL) where the server has Functions, else the script (EVALSHA).
 * Inside the SIGPIPE guard: a server that closes the connection while the
 * protocol is being loaded is QLESS_EIO, not a dead process. */
int qless__ensure(qless_client *c);
/* Reads ql:features into c->features on a new connection (features.c);
 * QLESS_ESTATE when the database holds a feature this library lacks. */
int qless__features_read(qless_client *c, const char *func);
/* Non-zero when QLESS_EVALSHA asks clients to stay on EVALSHA. */
int qless__evalsha_env(void);
/* Writes t as "%.6f" into buf (at least 48 bytes). */
void qless__fmt_now(char *buf, double t);
/* Drops the connection after an I/O error; records QLESS_EIO. */
int qless__io_error(qless_client *c, const char *what);

/*
 * Runs the protocol command with the arguments gathered in a (a is freed).
 * On success *out is the reply (never an error reply); free with
 * freeReplyObject. Script errors are mapped to codes.
 */
int qless__call(qless_client *c, const char *func, const char *cmd, qless_args *a, redisReply **out);
/*
 * n calls in one round trip (pipelined, the same `now`; each as[i] freed).
 * replies[i] is the reply (may be an error reply; rcs[i] then holds its
 * code), or NULL for all on an I/O or memory error, whose code is returned
 * and stored in every rcs[i]. Else returns QLESS_OK or the first failed
 * call's code (its message is the last error).
 */
int qless__call_many(qless_client *c, const char *func, size_t n, const char *const *cmds, qless_args *as,
                     redisReply **replies, int *rcs);
/* The `queues` reply for every queue as a JSON array (an empty one for the
 * protocol's "{}"); EPROTOCOL naming F on another shape. */
int qless__queues_reply(qless_client *client, const char *F, json_t **out);
/* One queue's entry of `queues` into out (every field or none) and *name
 * (borrowed from obj); EPROTOCOL naming F on a bad shape. */
int qless__queue_counts_parse(const json_t *obj, qless_queue_counts *out, const char **name, const char *F);

/* call + the reply as parsed JSON / integer / ignored. */
int qless__call_json(qless_client *c, const char *func, const char *cmd, qless_args *a, json_t **out);
/* Like qless__call_json, but a nil reply is QLESS_ENOTFOUND ("<what> <id> does not exist"). */
int qless__call_json_found(qless_client *c, const char *func, const char *cmd, qless_args *a, json_t **out,
                           const char *what, const char *id);
int qless__call_int(qless_client *c, const char *func, const char *cmd, qless_args *a, int64_t *out);
int qless__call_void(qless_client *c, const char *func, const char *cmd, qless_args *a);
/* call + a text reply (string or status) copied into *out (owned). A nil
 * reply: *out NULL with QLESS_OK when what is NULL, else QLESS_ENOTFOUND
 * ("<what> <id> does not exist"). */
int qless__call_str(qless_client *c, const char *func, const char *cmd, qless_args *a, char **out,
                    const char *what, const char *id);
/* Helpers checking a reply's shape (EPROTOCOL otherwise). */
int qless__reply_json(redisReply *r, const char *func, json_t **out);
int qless__reply_int(redisReply *r, const char *func, int64_t *out);

/* ---- jobs (job.c) ---- */
/* Takes the reference of obj; normalises it. EPROTOCOL on a bad shape. */
int qless__job_from_json(qless_client *c, json_t *obj, qless_job **out, const char *func);
/* Jobs from a JSON array reply text (or "{}"). */
int qless__joblist_from_reply(qless_client *c, redisReply *r, qless_joblist **out, const char *func);
int qless__joblist_from_json(qless_client *c, json_t *arr, qless_joblist **out, const char *func);
qless_joblist *qless__joblist_empty(void);

/* Puts for queue_put, queue_put_unique and job_requeue. opts: as read by
 * qless__options_read (never NULL). unique: NULL, "1" or "report"; with
 * "report", *out_inserted (may be NULL) is set. */
int qless__put(qless_client *c, const char *func, const char *cmd, const char *queue, char **out_jid,
               int *out_inserted, const char *klass, const char *data, const qless_put_options *opts,
               const char *unique);

/* *_options_init of a struct whose version 1 was v1_size bytes and whose
 * current version `current` is size bytes; init is the current *_INIT. */
int qless__options_init(const char *func, void *opts, unsigned int version, const void *init, size_t v1_size,
                        size_t size, unsigned int current);
/* Reads a caller's versioned options struct (opts may be NULL: init) into o,
 * a struct of the current version `current` (size bytes): a version-1
 * struct (v1_size bytes) is copied only that far, the rest comes from init. */
int qless__options_read(const char *func, const void *opts, void *o, const void *init, size_t v1_size,
                        size_t size, unsigned int current);

/* The same for structs with more than two versions: sizes[v - 1] is the
 * size of version v, for v = 1..current. */
int qless__options_init_sizes(const char *func, void *opts, unsigned int version, const void *init,
                              const size_t *sizes, unsigned int current);
int qless__options_read_sizes(const char *func, const void *opts, void *o, const void *init, const size_t *sizes,
                              unsigned int current);

/* The jid a put or recur sends: *jid = given (the caller's jid) if not NULL,
 * else buf holding the unique jid (unique set; the key form when key is not
 * NULL) or a new one. cron (NULL for none) and interval as qless_unique_jid. */
int qless__entry_jid(const char *func, char buf[QLESS_UNIQUE_JID_SIZE], const char **jid, const char *given,
                     int unique, const char *key, const char *queue, const char *klass, const char *data,
                     const char *cron, double interval);

/* The reply of a put or recur with `unique report`: {"jid", "inserted", ...}.
 * Takes r. *out_jid (may be NULL) owned; *out_inserted may be NULL. */
int qless__reply_report(const char *func, redisReply *r, char **out_jid, int *out_inserted);

/* recur (qless_queue_recur, qless_queue_recur_cron, the schedule facade):
 * an interval template when expr is NULL, else a cron template of expr
 * (already checked). o: a current-version struct, whose priority, retries,
 * backlog and tags are sent only when send_opts is set (else the protocol's
 * defaults apply). unique: NULL, "1" or "report" (then *out_inserted, which
 * may be NULL, is set). *out_jid (may be NULL) owned. */
int qless__recur(qless_queue *queue, const char *func, char **out_jid, int *out_inserted, const char *klass,
                 const char *data, double interval, const char *expr, const qless_recur_options *o,
                 int send_opts, const char *unique);

/* The out arguments of a call returning times (recur.next, cron.next):
 * checked and cleared. */
int qless__times_out(const char *func, double **out, size_t *n);
/* Runs `cmd <now> <first> <count>` (count checked first), whose reply is a
 * JSON array of times: *out owned (qless_free; NULL when *n is 0). */
int qless__next_times(qless_client *c, const char *func, const char *cmd, const char *first, int64_t count,
                      double **out, size_t *n);
/* A reply that is a JSON array, which cjson writes as {} when empty:
 * turns {} into [], anything else but an array into QLESS_EPROTOCOL
 * ("expected a JSON array of <what>"; *j then freed and NULL). */
int qless__json_list(const char *func, json_t **j, const char *what);

/* The caller's put options (opts may be NULL) as a current-version struct. */
int qless__put_options(const char *func, const qless_put_options *opts, qless_put_options *o);

/* qless_unique_jid and qless_unique_jid_for_key with messages naming func. */
int qless__unique_jid(const char *func, char out[QLESS_UNIQUE_JID_SIZE], const char *queue, const char *klass,
                      const char *data, const char *cron, double interval);
int qless__unique_jid_for_key(const char *func, char out[QLESS_UNIQUE_JID_SIZE], const char *queue,
                              const char *key);

/* The `settle` command (settle.lua): qless__settle_args starts the
 * arguments (worker, queues JSON list, count to pop), qless__settle_job_args
 * adds `how` ("complete", "fail" or "retry") with the job's jid, queue and
 * data, then retry's delay and fail's or retry's group and message (group
 * NULL: none); complete's options, if any, the caller adds after. qless__settle runs it: job (if not NULL) takes its fields from
 * the reply (its state from a string result when state_from_result: complete),
 * *out_result the integer result (retry's remaining), *out_next
 * (if not NULL) the jobs popped. */
void qless__settle_args(qless_args *a, const char *worker, const char *queues_json, int count);
void qless__settle_job_args(qless_args *a, const qless_job *job, const char *how, double delay, const char *group,
                            const char *message);
int qless__settle(qless_client *c, const char *func, qless_args *a, qless_job *job, int state_from_result,
                  int64_t *out_result, qless_joblist **out_next);
void qless__job_set_lock_lost(qless_job *job);

qless_client *qless__queue_client(const qless_queue *queue);
qless_client *qless__job_client(const qless_job *job);
/* A new connected client with src's settings (for another thread). */
int qless__client_clone(const qless_client *src, qless_client **out);

/* ---- job trees (tree_args.c) ---- */
/* QLESS_OK when s is non-NULL, non-empty UTF-8, else QLESS_EINVAL naming func and arg. */
int qless__check_text(const char *func, const char *arg, const char *s);
/* Checks client and the name value (as qless__check_text), then starts a
 * with it: the calls whose first argument is a jid, alias or channel. */
int qless__first_arg(const char *func, qless_client *client, const char *arg, const char *value, qless_args *a);
/* JSON text (not NULL); an object for the second. */
int qless__check_json_arg(const char *func, const char *arg, const char *json);
int qless__check_json_object(const char *func, const char *arg, const char *json);
int qless__check_dir(const char *func, qless_port_dir dir);
/* "in" or "out" (static). */
const char *qless__dir_name(qless_port_dir dir);
/* At least one string, each non-empty UTF-8. */
int qless__check_list(const char *func, const char *arg, const char *const *strs, size_t n);
/* The version-3 fields of put options: checked, then added to a put's arguments. */
int qless__check_tree_put(const char *func, const qless_put_options *o);
void qless__tree_put_args(qless_args *a, const qless_put_options *o);
/* The job's state after a call that ended its run: worker "", expires 0. */
int qless__job_released(qless_job *job, const char *state, const char *func);

/* ---- live handle count (util.c) ---- */
void qless__handle_add(int delta);

/* ---- misc ---- */
int qless__make_jid(char out[QLESS_JID_SIZE]);
char *qless__default_worker_name(void);

#endif
