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
QLESS_EXTERN(int) qless_client_features(char **out_json, qless_client *client);

/* ---- trees ---- */

/* The job's tree record (jobtrees.md §5.3) as JSON: jid, klass, queue,
 * state, parent, name, children, aliases, created_by, started, runs, rerun,
 * inports, outports, inchannels, outchannels, sizes. *out owned.
 * QLESS_ENOTFOUND when there is no such job, QLESS_ESTATE for a plain job. */
QLESS_EXTERN(int) qless_client_tree_get(char **out_json, qless_client *client, const char *jid);
/* Makes child (a root) the child `name` of parent. */
QLESS_EXTERN(int) qless_client_job_adopt(qless_client *client, const char *parent, const char *name,
                                         const char *child);
/* Detaches parent's child `name`, which becomes a root; *out_child (may be
 * NULL) its jid, owned. QLESS_ENOTFOUND when parent has no such child. */
QLESS_EXTERN(int) qless_client_job_disown(char **out_child, qless_client *client, const char *parent,
                                          const char *name);

/* ---- life cycle ---- */

/* By the worker holding the job (its client's worker name): startup
 * completed, so termination will run the job's shutdown. */
QLESS_EXTERN(int) qless_job_started(qless_job *job);
/* Ends the held job's run without completing it: it sleeps until input
 * arrives or qless_client_job_run. *out_requeued (may be NULL) is 1 when
 * input arrived during the run, so the job is waiting again at once. The
 * job's state, worker and expires are updated. */
QLESS_EXTERN(int) qless_job_suspend(int *out_requeued, qless_job *job);
/* Ends the held terminating job's shutdown run: it is terminated. */
QLESS_EXTERN(int) qless_job_terminated(qless_job *job);
/* Wakes the job (suspended, complete, failed, terminated: a restart) after
 * delay seconds (0: now); a running job runs again after this run.
 * *out_state (may be NULL) the state it is in, owned. */
QLESS_EXTERN(int) qless_client_job_run(char **out_state, qless_client *client, const char *jid, double delay);
/* Terminates the job and, with recursive non-zero, its descendants.
 * *out_changed (may be NULL): the jobs whose state changed. */
QLESS_EXTERN(int) qless_client_job_terminate(int64_t *out_changed, qless_client *client, const char *jid,
                                             int recursive);
/* Deletes the terminated job and its descendants (all terminated) with
 * every key they hold. *out_deleted (may be NULL): the jobs deleted. */
QLESS_EXTERN(int) qless_client_job_delete(int64_t *out_deleted, qless_client *client, const char *jid);

/* ---- aliases: global names of jobs ---- */

/* *out_added (may be NULL): aliases that were not the job's already. */
QLESS_EXTERN(int) qless_client_alias_set(int64_t *out_added, qless_client *client, const char *jid,
                                         QLESS_STRV(aliases, n));
/* *out_jid owned; NULL (with QLESS_OK) when the alias names no job. */
QLESS_EXTERN(int) qless_client_alias_get(char **out_jid, qless_client *client, const char *alias);
QLESS_EXTERN(int) qless_client_alias_del(int64_t *out_removed, qless_client *client, QLESS_STRV(aliases, n));

/* ---- ports ---- */

/* Defines (or redefines, keeping their data) the ports of ports_json, a
 * JSON object {port: {} or {"default": value}}; "*" matches any name. */
QLESS_EXTERN(int) qless_port_define(qless_client *client, const char *jid, qless_port_dir dir,
                                    const char *ports_json);
/* Removes the ports with their data and channel links. *out_removed (may
 * be NULL): the ports that were defined. */
QLESS_EXTERN(int) qless_port_remove(int64_t *out_removed, qless_client *client, const char *jid,
                                    qless_port_dir dir, QLESS_STRV(ports, n));
/* Writes the n JSON values, in order (n >= 1): into an input port (waking
 * a suspended or complete job), or out of an output port (published to its
 * channels, else kept for a reader). */
QLESS_EXTERN(int) qless_port_write(qless_client *client, const char *jid, qless_port_dir dir, const char *port,
                                   QLESS_STRV(values, n));
/* Removes up to count (1-1000) values from the head of the port: *out_json
 * their JSON array, owned ("[]" when empty, "[<default>]" for an empty
 * port with a default). */
QLESS_EXTERN(int) qless_port_read(char **out_json, qless_client *client, const char *jid, qless_port_dir dir,
                                  const char *port, int64_t count);
/* As qless_port_read, without removing anything. */
QLESS_EXTERN(int) qless_port_peek(char **out_json, qless_client *client, const char *jid, qless_port_dir dir,
                                  const char *port, int64_t count);
/* The number of unread values of the port. */
QLESS_EXTERN(int) qless_port_size(int64_t *out, qless_client *client, const char *jid, qless_port_dir dir,
                                  const char *port);
/* Links the port to channels ("/a/b"): an input port receives what is
 * published to them or below them; an output port publishes to them.
 * *out_added (may be NULL): links that were new. */
QLESS_EXTERN(int) qless_port_connect(int64_t *out_added, qless_client *client, const char *jid, qless_port_dir dir,
                                     const char *port, QLESS_STRV(channels, n));
QLESS_EXTERN(int) qless_port_disconnect(int64_t *out_removed, qless_client *client, const char *jid,
                                        qless_port_dir dir, const char *port, QLESS_STRV(channels, n));

/* ---- channels ---- */

/* Delivers the JSON value to every input port subscribed to channel or one
 * of its ancestors, in one call; from_jid (may be NULL) names the publisher
 * in the log. *out_delivered (may be NULL): the ports it reached. */
QLESS_EXTERN(int) qless_channel_publish(int64_t *out_delivered, qless_client *client, const char *channel,
                                        const char *json, const char *from_jid);
/* The input ports subscribed to exactly this channel: a JSON array of
 * [jid, port] pairs, sorted. *out_json owned. */
QLESS_EXTERN(int) qless_channel_subscribers(char **out_json, qless_client *client, const char *channel);

/* ---- per-job state ---- */

/* With key: its JSON text, or NULL (with QLESS_OK) when unset. key NULL:
 * a JSON object of every key. *out_json owned. */
QLESS_EXTERN(int) qless_state_get(char **out_json, qless_client *client, const char *jid, const char *key);
QLESS_EXTERN(int) qless_state_set(qless_client *client, const char *jid, const char *key, const char *json);
/* *out_removed (may be NULL): keys that were set. */
QLESS_EXTERN(int) qless_state_del(int64_t *out_removed, qless_client *client, const char *jid,
                                  QLESS_STRV(keys, n));

/* ---- worker registry: the ports a job class's new tree jobs get ---- */

/* config_json: a JSON object, with "inports" / "outports" as in put.
 * *out_new (may be NULL) is 1 when klass was not registered yet. */
QLESS_EXTERN(int) qless_queue_register_klass(int *out_new, qless_queue *queue, const char *klass,
                                             const char *config_json);
/* With klass: its configuration as registered, or NULL (with QLESS_OK) when
 * none; klass NULL: a JSON object klass -> configuration. *out_json owned. */
QLESS_EXTERN(int) qless_queue_klass_config(char **out_json, qless_queue *queue, const char *klass);
/* *out_removed (may be NULL) is 1 when klass was registered. */
QLESS_EXTERN(int) qless_queue_unregister_klass(int *out_removed, qless_queue *queue, const char *klass);

/* ==== typed results (out-parameters first) ====
 *
 * The calls above answer in JSON text; these give the same answers as
 * handles with accessors, so no caller parses JSON to use them. Every
 * handle is owned by the caller (free it with its *_free, which accepts
 * NULL); every string an accessor returns is borrowed from the handle and
 * valid until it is freed; JSON texts among them are values as written
 * (decode them to use them). Accessors given NULL or an index out of range
 * return NULL / 0 and never fail. Errors as for the calls above.
 */

/* ---- a tree job's record: tree.get plus its per-job state (store) ---- */

typedef struct qless_tree qless_tree;
typedef struct qless_store qless_store;

/* Reads the record of tree job jid and then its store (two calls: each is
 * a snapshot of its moment). *out owned (qless_tree_free); it does not keep
 * the client. QLESS_ENOTFOUND when there is no such job, QLESS_ESTATE for a
 * plain job. */
QLESS_EXTERN(int) qless_tree_get(qless_tree **out, qless_client *client, const char *jid);
QLESS_EXTERN(void) qless_tree_free(qless_tree *tree);
/* The record as tree.get sent it (jobtrees.md §5.3), for callers that want
 * JSON. Borrowed. */
QLESS_EXTERN(const char *) qless_tree_json(const qless_tree *tree);
/* Borrowed strings; parent and name are NULL for a root, created_by "" when
 * unknown. status is the job's qless state ("running", "suspended", ...). */
QLESS_EXTERN(const char *) qless_tree_jid(const qless_tree *tree);
QLESS_EXTERN(const char *) qless_tree_klass(const qless_tree *tree);
QLESS_EXTERN(const char *) qless_tree_queue(const qless_tree *tree);
QLESS_EXTERN(const char *) qless_tree_status(const qless_tree *tree);
QLESS_EXTERN(const char *) qless_tree_parent(const qless_tree *tree);
QLESS_EXTERN(const char *) qless_tree_name(const qless_tree *tree);
QLESS_EXTERN(const char *) qless_tree_created_by(const qless_tree *tree);
/* When this life's startup completed (epoch seconds), 0 when it has not. */
QLESS_EXTERN(double) qless_tree_started(const qless_tree *tree);
QLESS_EXTERN(int64_t) qless_tree_runs(const qless_tree *tree);
/* 1 when input arrived during the current run. */
QLESS_EXTERN(int) qless_tree_rerun(const qless_tree *tree);
/* Children by name, sorted by name (byte order). */
QLESS_EXTERN(size_t) qless_tree_child_count(const qless_tree *tree);
QLESS_EXTERN(const char *) qless_tree_child_name(const qless_tree *tree, size_t index);
QLESS_EXTERN(const char *) qless_tree_child_jid(const qless_tree *tree, size_t index);
/* The jid of child `name`, NULL when there is none. Borrowed. */
QLESS_EXTERN(const char *) qless_tree_child(const qless_tree *tree, const char *name);
/* Aliases, sorted. */
QLESS_EXTERN(size_t) qless_tree_alias_count(const qless_tree *tree);
QLESS_EXTERN(const char *) qless_tree_alias(const qless_tree *tree, size_t index);
/* The ports of one direction, sorted by name ("*" included, if defined). */
QLESS_EXTERN(size_t) qless_tree_port_count(const qless_tree *tree, qless_port_dir dir);
QLESS_EXTERN(const char *) qless_tree_port_name(const qless_tree *tree, qless_port_dir dir, size_t index);
/* Unread values of the port; -1 for "*", which holds none. */
QLESS_EXTERN(int64_t) qless_tree_port_size(const qless_tree *tree, qless_port_dir dir, size_t index);
/* The port's default value as JSON text, NULL when it has none. */
QLESS_EXTERN(const char *) qless_tree_port_default(const qless_tree *tree, qless_port_dir dir, size_t index);
/* The channels the port is linked to, sorted. */
QLESS_EXTERN(size_t) qless_tree_port_channel_count(const qless_tree *tree, qless_port_dir dir, size_t index);
QLESS_EXTERN(const char *) qless_tree_port_channel(const qless_tree *tree, qless_port_dir dir, size_t index,
                                                   size_t channel);
/* The job's store as read with the record. Borrowed: valid until the tree
 * is freed. */
QLESS_EXTERN(const qless_store *) qless_tree_store(const qless_tree *tree);

/* ---- the per-job state map (store) ---- */

/* Every key of jid's store, sorted, with its JSON value. *out owned
 * (qless_store_free). */
QLESS_EXTERN(int) qless_store_get(qless_store **out, qless_client *client, const char *jid);
QLESS_EXTERN(void) qless_store_free(qless_store *store);
QLESS_EXTERN(size_t) qless_store_size(const qless_store *store);
QLESS_EXTERN(const char *) qless_store_key(const qless_store *store, size_t index);
/* JSON text of the value at index. Borrowed. */
QLESS_EXTERN(const char *) qless_store_value(const qless_store *store, size_t index);
/* JSON text of key's value, NULL when key is unset. Borrowed. */
QLESS_EXTERN(const char *) qless_store_find(const qless_store *store, const char *key);
/* The whole store as one JSON object text. Borrowed. */
QLESS_EXTERN(const char *) qless_store_json(const qless_store *store);

/* ---- port values ---- */

/* As qless_port_read / qless_port_peek, the values one per item of *out
 * (owned: qless_strlist_free), each a JSON text, oldest first. */
QLESS_EXTERN(int) qless_port_read_values(qless_strlist **out, qless_client *client, const char *jid,
                                         qless_port_dir dir, const char *port, int64_t count);
QLESS_EXTERN(int) qless_port_peek_values(qless_strlist **out, qless_client *client, const char *jid,
                                         qless_port_dir dir, const char *port, int64_t count);

/* ---- channel subscribers ---- */

typedef struct qless_subscribers qless_subscribers;

/* The input ports subscribed to exactly `channel`, sorted by jid then
 * port. *out owned (qless_subscribers_free). */
QLESS_EXTERN(int) qless_subscribers_get(qless_subscribers **out, qless_client *client, const char *channel);
QLESS_EXTERN(void) qless_subscribers_free(qless_subscribers *subscribers);
QLESS_EXTERN(size_t) qless_subscribers_size(const qless_subscribers *subscribers);
QLESS_EXTERN(const char *) qless_subscribers_jid(const qless_subscribers *subscribers, size_t index);
QLESS_EXTERN(const char *) qless_subscribers_port(const qless_subscribers *subscribers, size_t index);

/* ---- bound handles: one port, one channel ----
 * For callers that hand a port or a channel around as an object (the
 * language bindings): each names its client, which it keeps alive, and
 * does no I/O until it is used with the calls above. *out owned (*_free);
 * strings borrowed from the handle. */

typedef struct qless_port qless_port;
typedef struct qless_channel qless_channel;

/* jid and port non-empty UTF-8, copied; dir QLESS_PORT_IN or _OUT. */
QLESS_EXTERN(int) qless_port_open(qless_port **out, qless_client *client, const char *jid, qless_port_dir dir,
                                  const char *port);
QLESS_EXTERN(void) qless_port_free(qless_port *port);
/* Borrowed: the client, valid while the handle is. */
QLESS_EXTERN(qless_client *) qless_port_client(const qless_port *port);
QLESS_EXTERN(const char *) qless_port_jid(const qless_port *port);
QLESS_EXTERN(const char *) qless_port_name(const qless_port *port);
QLESS_EXTERN(qless_port_dir) qless_port_direction(const qless_port *port);

/* name non-empty UTF-8, copied (the server checks its syntax when used). */
QLESS_EXTERN(int) qless_channel_open(qless_channel **out, qless_client *client, const char *name);
QLESS_EXTERN(void) qless_channel_free(qless_channel *channel);
QLESS_EXTERN(qless_client *) qless_channel_client(const qless_channel *channel);
QLESS_EXTERN(const char *) qless_channel_name(const qless_channel *channel);

/* ---- aliases ---- */

/* The jid `alias` names: *out owned (qless_free), NULL (with QLESS_OK) when
 * it names no job. The out-first form of qless_client_alias_get. */
QLESS_EXTERN(int) qless_alias_resolve(char **out, qless_client *client, const char *alias);

#ifdef __cplusplus
}
#endif
#endif
