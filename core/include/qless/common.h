/*
 * libqless — common definitions: export macro, versions, error codes,
 * memory ownership and the list handles shared by every other header.
 *
 * Ownership conventions used throughout the API:
 *   owned     the caller must release it: strings with qless_free(), handles
 *             with their own *_free() function.
 *   borrowed  owned by the library; valid until the named event (usually the
 *             free of the handle it came from). Never free a borrowed value.
 * Every function that can fail returns an int: QLESS_OK (0) or a negative
 * qless_error_code; the message of the last failure on the calling thread is
 * available from qless_error_last_message(). Out-parameters are only written
 * on success (and set to NULL/0 on failure where documented).
 *
 * Parameter order, in every function: out-parameters first, then the handle,
 * then the inputs (qless_client_get_job(&job, client, jid)); the full rules,
 * and what may change in a minor or a major release: docs/conventions.md.
 *
 * Parameter types carry their role, and the bindings rely on it (swig/):
 *   T **          (a handle or char) always an owned out-parameter
 *   int64_t *, double *               always a numeric out-parameter
 *   QLESS_STRV(list, n)               a list of strings in (below)
 *   int result    a status; results that are values have their own types
 *                 (qless_bool, qless_error_code, int64_t, ...), except the int of
 *                 qless_version_number, kept for ABI (swig/qless.i wraps it).
 *
 * Lifetimes: a client is reference counted. Every handle made from it (queue,
 * job, recurring job, events, worker, and each job in a joblist) holds a
 * reference, so handles may be freed in any order: qless_client_free() drops
 * the caller's reference, and the connection closes when the last handle
 * made from the client is freed. A borrowed client (qless_job_client) lives
 * as long as the handle it came from. String and count lists hold no
 * reference and may outlive the client.
 *
 * Thread safety: a client and every handle made from it share one
 * connection: use them (any call that talks to the server, and any call on
 * the same handle) from one thread at a time. Freeing is the exception: the
 * reference count is atomic, so a handle no other thread is using may be
 * freed on any thread, even while other handles of the same client are in
 * use elsewhere. Different clients may be used from different threads at
 * once; the worker engine gives each pool thread a connection of its own.
 * qless_error_* keep a message per thread; qless_worker_stop and
 * qless_handle_count are safe from any thread.
 */
#ifndef QLESS_COMMON_H
#define QLESS_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(QLESS_BUILDING) && defined(__GNUC__)
#  define QLESS_EXTERN(type) __attribute__((visibility("default"))) type
#else
#  define QLESS_EXTERN(type) extern type
#endif

/* A list of strings in, as two parameters: `n` strings at `list` (NULL and
 * 0: none). Bindings see the fixed names QLESS_STRV and QLESS_STRC instead of
 * the C names, so how a header names them cannot change a binding. */
#ifdef SWIG
#  define QLESS_STRV(list, n) const char *const *QLESS_STRV, size_t QLESS_STRC
#else
#  define QLESS_STRV(list, n) const char *const *list, size_t n
#endif

/* The library's version; the SONAME is libqless.so.<MAJOR> and what may
 * change in a minor or a major release is in docs/conventions.md. */
#define QLESS_VERSION_MAJOR 1
#define QLESS_VERSION_MINOR 0
#define QLESS_VERSION_PATCH 0
#define QLESS_VERSION "1.0.0"
/* Comparable integer form, e.g. 1.0.0 -> 10000. */
#define QLESS_VERSION_NUMBER (QLESS_VERSION_MAJOR * 10000 + QLESS_VERSION_MINOR * 100 + QLESS_VERSION_PATCH)

/* Version of the library actually loaded; may differ from QLESS_VERSION when
 * a program runs against a newer shared library. Borrowed, static. */
QLESS_EXTERN(const char *) qless_version(void);
/* QLESS_VERSION_NUMBER of the loaded library. */
QLESS_EXTERN(int) qless_version_number(void);

/*
 * The failure codes, once: X(SYMBOL, value, ExceptionClass, "meaning").
 * The enum, qless_error_name() and every binding's exception classes (the
 * class is named ExceptionClass under the language's base Error) are all
 * generated from this list, so a new code is added here and nowhere else.
 */
#define QLESS_ERRORS(X) \
	X(QLESS_EINVAL, -1, InvalidArgument, "invalid argument: NULL, empty, malformed JSON, bad option") \
	X(QLESS_ENOTFOUND, -2, NotFound, "the job, recurring job or other object does not exist") \
	X(QLESS_ELOCK, -3, LockLost, "lock lost / not owner: the job is not running for this worker") \
	X(QLESS_ESTATE, -4, StateError, "the object is in a state that forbids the operation") \
	X(QLESS_EPROTOCOL, -5, ProtocolError, "script error or a reply of unexpected shape") \
	X(QLESS_EIO, -6, ConnectionError, "connection failure or timeout; the next call reconnects") \
	X(QLESS_ENOMEM, -7, OutOfMemory, "out of memory")

#define QLESS__ERROR_ENUM(symbol, value, klass, meaning) symbol = value,
typedef enum qless_error_code {
	QLESS_OK = 0,
	QLESS_ERRORS(QLESS__ERROR_ENUM)
} qless_error_code;
#undef QLESS__ERROR_ENUM

/* The type of a yes/no result (1 or 0), never a status: bindings return it
 * as a value instead of raising on it. An int, so the ABI is unchanged. */
typedef int qless_bool;

/* Code of the last failure on this thread (QLESS_OK if none since clear). */
QLESS_EXTERN(qless_error_code) qless_error_last_code(void);
/* Message of the last failure on this thread, "" if none. Borrowed: valid
 * until the next libqless call on this thread. */
QLESS_EXTERN(const char *) qless_error_last_message(void);
/* Forget the last failure on this thread. */
QLESS_EXTERN(void) qless_error_clear(void);
/* Stable name of a code ("QLESS_ENOTFOUND"); borrowed, static. */
QLESS_EXTERN(const char *) qless_error_name(int code);

/* Frees a string (or other memory) the library returned as owned. NULL is a no-op. */
QLESS_EXTERN(void) qless_free(void *ptr);

/*
 * qless_strlist: an immutable list of strings, each optionally paired with a
 * number (for example failure groups with their job counts).
 */
typedef struct qless_strlist qless_strlist;

QLESS_EXTERN(size_t) qless_strlist_size(const qless_strlist *list);
/* Borrowed: valid until the list is freed. NULL when index is out of range. */
QLESS_EXTERN(const char *) qless_strlist_get(const qless_strlist *list, size_t index);
/* The number paired with item index (0 when the list carries none). */
QLESS_EXTERN(int64_t) qless_strlist_number(const qless_strlist *list, size_t index);
QLESS_EXTERN(void) qless_strlist_free(qless_strlist *list);

/* Number of live handles of every kind (clients, queues, jobs, lists, ...)
 * in this process. For leak checks in binding test suites. */
QLESS_EXTERN(int64_t) qless_handle_count(void);

/* Forward declarations of the handles; see their own headers. */
typedef struct qless_client qless_client;
typedef struct qless_queue qless_queue;
typedef struct qless_job qless_job;
typedef struct qless_recur qless_recur;
typedef struct qless_worker qless_worker;
typedef struct qless_events qless_events;
typedef struct qless_heartbeater qless_heartbeater;
typedef struct qless_queue_countlist qless_queue_countlist;

/*
 * qless_joblist: the jobs a pop, peek, multiget or tracked listing returned.
 */
typedef struct qless_joblist qless_joblist;

QLESS_EXTERN(size_t) qless_joblist_size(const qless_joblist *list);
/* Borrowed: valid until the list is freed (or the slot is taken). */
QLESS_EXTERN(qless_job *) qless_joblist_get(const qless_joblist *list, size_t index);
/* Transfers ownership of the job at index to the caller (free it with
 * qless_job_free); the slot then holds NULL. */
QLESS_EXTERN(qless_job *) qless_joblist_take(qless_joblist *list, size_t index);
/* Frees the list and every job still in it. */
QLESS_EXTERN(void) qless_joblist_free(qless_joblist *list);

#ifdef __cplusplus
}
#endif
#endif
