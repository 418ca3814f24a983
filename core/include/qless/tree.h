/*
 * Job trees (../shared/spec/jobtrees.md): long-running tree jobs with named
 * input and output ports, reliable hierarchical channels, private JSON
 * state, aliases and named parent/child links. A tree job is a qless job
 * (qless_job works on it); it is made by a put whose qless_put_options
 * (version 3, queue.h) set tree, parent/name, inports/outports or aliases.
 *
 * Each function below is one protocol call, so each either happens whole or
 * not at all. Arguments the library can check alone are checked before any
 * I/O: NULL or empty names, a dir that is neither QLESS_PORT_IN nor
 * QLESS_PORT_OUT, a count outside 1-1000, text that is not JSON where JSON
 * is asked for (an object where an object is), text that is not UTF-8;
 * each is QLESS_EINVAL with a message naming the function and the argument.
 * The server checks the rest (name syntax, reserved channels: QLESS_EINVAL).
 * Errors besides: QLESS_ENOTFOUND when a job, port or child does not exist;
 * QLESS_ESTATE when the job is not a tree job or its state forbids the
 * operation (a transition the spec's table refuses, a terminated job, a
 * taken name or alias, a cycle); QLESS_ELOCK when the worker does not hold
 * the job. JSON texts passed in are stored verbatim; JSON texts returned are
 * owned (qless_free).
 *
 * Older scripts on the same database (jobtrees.md K2): every client that
 * serves a database holding tree jobs must run a script that implements job
 * trees, since an older one blanks their queue on complete, purges them with
 * completed jobs and cancels them. The script records what it stores in the
 * hash ql:features (feature -> script version: "cron", "tree"). libqless
 * reads ql:features each time it connects; a database that records a
 * feature this library does not implement (written by a newer libqless) is
 * refused: every call fails with QLESS_ESTATE naming the feature, before the
 * call's command is sent, until this library is upgraded.
 */
#ifndef QLESS_TREE_H
#define QLESS_TREE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qless_port_dir { QLESS_PORT_IN = 0, QLESS_PORT_OUT = 1 } qless_port_dir;

/* The features the database records, as read when the client last
 * connected (connecting first if it is not): a JSON object
 * {"cron": "<script version>", "tree": ...}, "{}" when none. *out owned. */
QLESS_EXTERN(int) qless_client_features(qless_client *client, char **out_json);

/* ---- trees ---- */

/* The job's tree record (jobtrees.md §5.3) as JSON: jid, klass, queue,
 * state, parent, name, children, aliases, created_by, started, runs, rerun,
 * inports, outports, inchannels, outchannels, sizes. *out owned.
 * QLESS_ENOTFOUND when there is no such job, QLESS_ESTATE for a plain job. */
QLESS_EXTERN(int) qless_client_tree_get(qless_client *client, const char *jid, char **out_json);
/* Makes child (a root) the child `name` of parent. */
QLESS_EXTERN(int) qless_client_job_adopt(qless_client *client, const char *parent, const char *name,
                                         const char *child);
/* Detaches parent's child `name`, which becomes a root; *out_child (may be
 * NULL) its jid, owned. QLESS_ENOTFOUND when parent has no such child. */
QLESS_EXTERN(int) qless_client_job_disown(qless_client *client, const char *parent, const char *name,
                                          char **out_child);

/* ---- life cycle ---- */

/* By the worker holding the job (its client's worker name): startup
 * completed, so termination will run the job's shutdown. */
QLESS_EXTERN(int) qless_job_started(qless_job *job);
/* Ends the held job's run without completing it: it sleeps until input
 * arrives or qless_client_job_run. *out_requeued (may be NULL) is 1 when
 * input arrived during the run, so the job is waiting again at once. The
 * job's state, worker and expires are updated. */
QLESS_EXTERN(int) qless_job_suspend(qless_job *job, int *out_requeued);
/* Ends the held terminating job's shutdown run: it is terminated. */
QLESS_EXTERN(int) qless_job_terminated(qless_job *job);
/* Wakes the job (suspended, complete, failed, terminated: a restart) after
 * delay seconds (0: now); a running job runs again after this run.
 * *out_state (may be NULL) the state it is in, owned. */
QLESS_EXTERN(int) qless_client_job_run(qless_client *client, const char *jid, double delay, char **out_state);
/* Terminates the job and, with recursive non-zero, its descendants.
 * *out_changed (may be NULL): the jobs whose state changed. */
QLESS_EXTERN(int) qless_client_job_terminate(qless_client *client, const char *jid, int recursive,
                                             int64_t *out_changed);
/* Deletes the terminated job and its descendants (all terminated) with
 * every key they hold. *out_deleted (may be NULL): the jobs deleted. */
QLESS_EXTERN(int) qless_client_job_delete(qless_client *client, const char *jid, int64_t *out_deleted);

/* ---- aliases: global names of jobs ---- */

/* *out_added (may be NULL): aliases that were not the job's already. */
QLESS_EXTERN(int) qless_client_alias_set(qless_client *client, const char *jid, QLESS_STRV(aliases, n),
                                         int64_t *out_added);
/* *out_jid owned; NULL (with QLESS_OK) when the alias names no job. */
QLESS_EXTERN(int) qless_client_alias_get(qless_client *client, const char *alias, char **out_jid);
QLESS_EXTERN(int) qless_client_alias_del(qless_client *client, QLESS_STRV(aliases, n), int64_t *out_removed);

/* ---- ports ---- */

/* Defines (or redefines, keeping their data) the ports of ports_json, a
 * JSON object {port: {} or {"default": value}}; "*" matches any name. */
QLESS_EXTERN(int) qless_port_define(qless_client *client, const char *jid, qless_port_dir dir,
                                    const char *ports_json);
/* Removes the ports with their data and channel links. *out_removed (may
 * be NULL): the ports that were defined. */
QLESS_EXTERN(int) qless_port_remove(qless_client *client, const char *jid, qless_port_dir dir,
                                    QLESS_STRV(ports, n), int64_t *out_removed);
/* Writes the n JSON values, in order (n >= 1): into an input port (waking
 * a suspended or complete job), or out of an output port (published to its
 * channels, else kept for a reader). */
QLESS_EXTERN(int) qless_port_write(qless_client *client, const char *jid, qless_port_dir dir, const char *port,
                                   QLESS_STRV(values, n));
/* Removes up to count (1-1000) values from the head of the port: *out_json
 * their JSON array, owned ("[]" when empty, "[<default>]" for an empty
 * port with a default). */
QLESS_EXTERN(int) qless_port_read(qless_client *client, const char *jid, qless_port_dir dir, const char *port,
                                  int64_t count, char **out_json);
/* As qless_port_read, without removing anything. */
QLESS_EXTERN(int) qless_port_peek(qless_client *client, const char *jid, qless_port_dir dir, const char *port,
                                  int64_t count, char **out_json);
/* The number of unread values of the port. */
QLESS_EXTERN(int) qless_port_size(qless_client *client, const char *jid, qless_port_dir dir, const char *port,
                                  int64_t *out);
/* Links the port to channels ("/a/b"): an input port receives what is
 * published to them or below them; an output port publishes to them.
 * *out_added (may be NULL): links that were new. */
QLESS_EXTERN(int) qless_port_connect(qless_client *client, const char *jid, qless_port_dir dir, const char *port,
                                     QLESS_STRV(channels, n), int64_t *out_added);
QLESS_EXTERN(int) qless_port_disconnect(qless_client *client, const char *jid, qless_port_dir dir,
                                        const char *port, QLESS_STRV(channels, n), int64_t *out_removed);

/* ---- channels ---- */

/* Delivers the JSON value to every input port subscribed to channel or one
 * of its ancestors, in one call; from_jid (may be NULL) names the publisher
 * in the log. *out_delivered (may be NULL): the ports it reached. */
QLESS_EXTERN(int) qless_channel_publish(qless_client *client, const char *channel, const char *json,
                                        const char *from_jid, int64_t *out_delivered);
/* The input ports subscribed to exactly this channel: a JSON array of
 * [jid, port] pairs, sorted. *out_json owned. */
QLESS_EXTERN(int) qless_channel_subscribers(qless_client *client, const char *channel, char **out_json);

/* ---- per-job state ---- */

/* With key: its JSON text, or NULL (with QLESS_OK) when unset. key NULL:
 * a JSON object of every key. *out_json owned. */
QLESS_EXTERN(int) qless_state_get(qless_client *client, const char *jid, const char *key, char **out_json);
QLESS_EXTERN(int) qless_state_set(qless_client *client, const char *jid, const char *key, const char *json);
/* *out_removed (may be NULL): keys that were set. */
QLESS_EXTERN(int) qless_state_del(qless_client *client, const char *jid, QLESS_STRV(keys, n),
                                  int64_t *out_removed);

/* ---- worker registry: the ports a job class's new tree jobs get ---- */

/* config_json: a JSON object, with "inports" / "outports" as in put.
 * *out_new (may be NULL) is 1 when klass was not registered yet. */
QLESS_EXTERN(int) qless_queue_register_klass(qless_queue *queue, const char *klass, const char *config_json,
                                             int *out_new);
/* With klass: its configuration as registered, or NULL (with QLESS_OK) when
 * none; klass NULL: a JSON object klass -> configuration. *out_json owned. */
QLESS_EXTERN(int) qless_queue_klass_config(qless_queue *queue, const char *klass, char **out_json);
/* *out_removed (may be NULL) is 1 when klass was registered. */
QLESS_EXTERN(int) qless_queue_unregister_klass(qless_queue *queue, const char *klass, int *out_removed);

#ifdef __cplusplus
}
#endif
#endif
