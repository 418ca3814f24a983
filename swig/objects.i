/*
 * swig/objects.i — the object model every language shares, included at the
 * end of qless.i (after the headers, so QLESS_STRV and the types are known).
 *
 * Each opaque handle becomes a class (named here once, for every language)
 * whose methods are the C functions of its prefix with the prefix dropped:
 * job.complete(opts) is qless_job_complete(job, opts). A method whose C
 * function takes the handle first is declared without a body, so SWIG calls
 * the real qless_<type>_<method>. A C function with out-parameters takes
 * them before the handle (docs/conventions.md): its method has a body
 * calling it, under the C-level name <method>_impl (a body is emitted as
 * qless_<type>_<method>, which would collide with the real function), and
 * one regex %rename gives every *_impl its language name back; the
 * method's parameters stay in the order the languages have always seen.
 * The type-keyed typemaps of qless.i apply as to the flat functions (status
 * -> exception, T ** / char ** / int64_t * / double * -> return values,
 * QLESS_STRV -> a native list, QLESS_OPTIONS -> a native map). Read-only
 * attributes (QLESS_ATTR) read the handle's snapshot; setters are methods
 * (set_priority): they talk to the server and may fail.
 *
 * SWIG names a method's wrapper <class>_<method>; a class named like its C
 * type would collide with the flat qless_<type>_<method> wrappers, which
 * stay for the layers that still call them. Hence each class's own name
 * (Client, Queue, Job, Recur, Worker, Events, StrList, JobList,
 * QueueCountList, Heartbeater, Schedule, Tree, Store, Port, Channel,
 * Subscribers, ScheduleEntries), given by QLESS_HANDLE in qless.i.
 *
 * A language adds its sugar on top (iterators, properties over the
 * attributes, JSON, keyword arguments) in swig/<lang>.i or its layer.
 */

/* A read-only attribute NAME of TYPE read by qless_<type>_<NAME>(self):
 * SWIG reads an %extend attribute through TYPE_NAME_get, made here. */
%define QLESS_ATTR(TYPE, CTYPE, NAME)
%{
static CTYPE TYPE##_##NAME##_get(const TYPE *self)
{
	return TYPE##_##NAME(self);
}
%}
%immutable TYPE::NAME;
%extend TYPE { CTYPE NAME; }
%enddef

/* Methods with a body are emitted as qless_<type>_<method>, so the ones
 * named like a C function get another name here and their own in the
 * languages. */
%rename(cron_next) qless_client::cron_times;
%rename(next) qless_recur::due_times;
%rename(read) qless_port::take;
%rename(peek) qless_port::look;
%rename(size) qless_port::length;
%rename(write) qless_port::put;
%rename(connect) qless_port::link;
%rename(disconnect) qless_port::unlink;
%rename(publish) qless_channel::post;
%rename(subscribers) qless_channel::listeners;
%rename(kind) qless_entries::kind_name;
%rename(next) qless_schedule::due_times;

/* ---- client ---- */
QLESS_ATTR(qless_client, const char *, worker_name)
QLESS_ATTR(qless_client, double, now)
%extend qless_client {
	/* Factories with their parent first; the out-handle is the result. */
	int queue(qless_queue **out, const char *name) { return qless_queue_new(out, $self, name); }
	int events(qless_events **out, QLESS_STRV(channels, n))
	{
		return qless_events_new(out, $self, QLESS_STRV, QLESS_STRC);
	}
	int worker(qless_worker **out, QLESS_STRV(queues, n), const qless_worker_options *opts)
	{
		return qless_worker_new(out, $self, QLESS_STRV, QLESS_STRC, opts);
	}
	int schedule(qless_schedule **out, const char *name) { return qless_schedule_new(out, $self, name); }

	/* The next count fire times of a cron expression (cron.next): a TimeList. */
	int cron_times(qless_swig_times **out, const char *expr, int64_t count)
	{
		qless_swig_times *t = (qless_swig_times *)calloc(1, sizeof *t);
		int rc = t ? qless_client_cron_next($self, expr, count, &t->v, &t->n) : QLESS_ENOMEM;
		return qless_swig_times_done(out, t, rc);
	}
	int set_time_offset(double seconds);
	int call(char **out, const char *command, QLESS_STRV(argv, argc));
	int get_job(qless_job **out, const char *jid);
	int get_jobs(qless_joblist **out, QLESS_STRV(jids, njids));
	int get_recur(qless_recur **out, const char *jid);
	int cancel(QLESS_STRV(jids, njids));
	int timeout(QLESS_STRV(jids, njids));
	int jobs(qless_strlist **out, const char *state, const char *queue, int64_t offset, int64_t count);
	int tagged(qless_strlist **out, int64_t *total, const char *tag, int64_t offset, int64_t count);
	int top_tags(qless_strlist **out, int64_t offset, int64_t count);
	int tracked(qless_joblist **jobs, qless_strlist **expired);
	int failed_groups(qless_strlist **out);
	int failed(qless_strlist **out, int64_t *total, const char *group, int64_t start, int64_t limit);
	int queue_names(qless_strlist **out);
	int queue_counts(qless_queue_countlist **out);
	int workers(qless_strlist **out);
	int worker_jobs(const char *worker, qless_strlist **jobs, qless_strlist **stalled);
	int deregister_workers(QLESS_STRV(workers, n));
	int config_get(char **out, const char *key);
	int config_all(char **out);
	int config_set(const char *key, const char *value);
	int config_unset(const char *key);

	/* Job trees (qless/tree.h); the port, channel and state calls take the
	 * client first in C, so they are methods here with the C prefix kept
	 * as the method's (client.port_write(jid, dir, port, values)). */
	int features(char **out_json);
	int tree_get(const char *jid, char **out_json);
	int job_adopt(const char *parent, const char *name, const char *child);
	int job_disown(const char *parent, const char *name, char **out_child);
	int job_run(const char *jid, double delay, char **out_state);
	int job_terminate(const char *jid, int recursive, int64_t *out_changed);
	int job_delete(const char *jid, int64_t *out_deleted);
	int alias_set(const char *jid, QLESS_STRV(aliases, n), int64_t *out_added);
	int alias_get(const char *alias, char **out_jid);
	int alias_del(QLESS_STRV(aliases, n), int64_t *out_removed);
	int port_define(const char *jid, qless_port_dir dir, const char *ports_json)
	{
		return qless_port_define($self, jid, dir, ports_json);
	}
	int port_remove(const char *jid, qless_port_dir dir, QLESS_STRV(ports, n), int64_t *out_removed)
	{
		return qless_port_remove($self, jid, dir, QLESS_STRV, QLESS_STRC, out_removed);
	}
	int port_write(const char *jid, qless_port_dir dir, const char *port, QLESS_STRV(values, n))
	{
		return qless_port_write($self, jid, dir, port, QLESS_STRV, QLESS_STRC);
	}
	int port_read(const char *jid, qless_port_dir dir, const char *port, int64_t count, char **out_json)
	{
		return qless_port_read($self, jid, dir, port, count, out_json);
	}
	int port_peek(const char *jid, qless_port_dir dir, const char *port, int64_t count, char **out_json)
	{
		return qless_port_peek($self, jid, dir, port, count, out_json);
	}
	int port_size(const char *jid, qless_port_dir dir, const char *port, int64_t *out)
	{
		return qless_port_size($self, jid, dir, port, out);
	}
	int port_connect(const char *jid, qless_port_dir dir, const char *port, QLESS_STRV(channels, n),
	                 int64_t *out_added)
	{
		return qless_port_connect($self, jid, dir, port, QLESS_STRV, QLESS_STRC, out_added);
	}
	int port_disconnect(const char *jid, qless_port_dir dir, const char *port, QLESS_STRV(channels, n),
	                    int64_t *out_removed)
	{
		return qless_port_disconnect($self, jid, dir, port, QLESS_STRV, QLESS_STRC, out_removed);
	}
	int channel_publish(const char *channel, const char *json, const char *from_jid, int64_t *out_delivered)
	{
		return qless_channel_publish($self, channel, json, from_jid, out_delivered);
	}
	int channel_subscribers(const char *channel, char **out_json)
	{
		return qless_channel_subscribers($self, channel, out_json);
	}
	int state_get(const char *jid, const char *key, char **out_json)
	{
		return qless_state_get($self, jid, key, out_json);
	}
	int state_set(const char *jid, const char *key, const char *json)
	{
		return qless_state_set($self, jid, key, json);
	}
	int state_del(const char *jid, QLESS_STRV(keys, n), int64_t *out_removed)
	{
		return qless_state_del($self, jid, QLESS_STRV, QLESS_STRC, out_removed);
	}

	/* Typed job trees: a Tree snapshot (nil for no such job is the
	 * language's choice: NotFound here), a Store snapshot, a Port or a
	 * Channel bound to this client (no I/O), the jid an alias names. */
	int tree(qless_tree **out, const char *jid) { return qless_tree_get(out, $self, jid); }
	int store(qless_store **out, const char *jid) { return qless_store_get(out, $self, jid); }
	int port(qless_port **out, const char *jid, qless_port_dir dir, const char *name)
	{
		return qless_port_open(out, $self, jid, dir, name);
	}
	int channel(qless_channel **out, const char *name) { return qless_channel_open(out, $self, name); }
	int alias(char **out, const char *alias) { return qless_alias_resolve(out, $self, alias); }
}

/* ---- queue ---- */
QLESS_ATTR(qless_queue, const char *, name)
%extend qless_queue {
	int put(char **out_jid, const char *klass, const char *data, const qless_put_options *opts);
	int put_unique(char **out_jid, int *out_inserted, const char *klass, const char *data,
	               const qless_put_options *opts);
	int recur(char **out_jid, const char *klass, const char *data, double interval, const qless_recur_options *opts);
	int recur_cron(char **out_jid, const char *klass, const char *data, const char *expr,
	               const qless_recur_options *opts);
	int pop(qless_joblist **out, int64_t count);
	int peek(qless_joblist **out, int64_t count);
	int length(int64_t *out);
	/* Output structs are the caller's, as in C: QueueCounts(), Stats(). */
	int counts_get(qless_queue_counts *out);
	int stats(double date, qless_stats *out);
	int pause();
	int unpause();
	int forget();
	int unfail(const char *group, int64_t count, int64_t *out_moved);
	int set_heartbeat(int64_t seconds);
	int set_max_concurrency(int64_t max);
	/* The worker registry of job trees (qless/tree.h). */
	int register_klass(const char *klass, const char *config_json, int *out_new);
	int klass_config(const char *klass, char **out_json);
	int unregister_klass(const char *klass, int *out_removed);
}

/* ---- job ---- */
QLESS_ATTR(qless_job, const char *, jid)
QLESS_ATTR(qless_job, const char *, klass)
QLESS_ATTR(qless_job, const char *, queue)
QLESS_ATTR(qless_job, const char *, state)
QLESS_ATTR(qless_job, const char *, worker)
QLESS_ATTR(qless_job, const char *, data)
QLESS_ATTR(qless_job, const char *, json)
QLESS_ATTR(qless_job, const char *, spawned_from_jid)
QLESS_ATTR(qless_job, const char *, failure_group)
QLESS_ATTR(qless_job, const char *, failure_message)
QLESS_ATTR(qless_job, const char *, failure_worker)
QLESS_ATTR(qless_job, double, failure_when)
QLESS_ATTR(qless_job, double, priority)
QLESS_ATTR(qless_job, double, expires)
QLESS_ATTR(qless_job, int64_t, retries)
QLESS_ATTR(qless_job, int64_t, remaining)
QLESS_ATTR(qless_job, qless_bool, lock_lost)
QLESS_ATTR(qless_job, qless_bool, tracked)
QLESS_ATTR(qless_job, size_t, tag_count)
QLESS_ATTR(qless_job, size_t, dependency_count)
QLESS_ATTR(qless_job, size_t, dependent_count)
QLESS_ATTR(qless_job, size_t, history_count)
%extend qless_job {
	const char *tag(size_t index);
	const char *dependency(size_t index);
	const char *dependent(size_t index);
	const char *history_what(size_t index);
	double history_when(size_t index);
	const char *history_json(size_t index);

	int refresh();
	int set_data(const char *data);
	int set_priority(double priority);
	int complete(const qless_complete_options *opts);
	int fail(const char *group, const char *message);
	int retry(double delay, const char *group, const char *message, int64_t *out_remaining);
	int heartbeat(double *out_expires);
	int cancel();
	int requeue(const char *queue, const qless_put_options *opts);
	int timeout();
	int log(const char *message, const char *data);
	int tag_add(QLESS_STRV(tags, ntags));
	int tag_remove(QLESS_STRV(tags, ntags));
	int track();
	int untrack();
	int depends_add(QLESS_STRV(jids, njids));
	int depends_remove(QLESS_STRV(jids, njids));
	int depends_clear();
	int heartbeater(qless_heartbeater **out, double interval) { return qless_heartbeater_new(out, $self, interval); }
	/* Tree jobs held by this client's worker (qless/tree.h). */
	int started();
	int suspend(int *out_requeued);
	int terminated();
}

/* ---- recurring job ---- */
QLESS_ATTR(qless_recur, const char *, jid)
QLESS_ATTR(qless_recur, const char *, klass)
QLESS_ATTR(qless_recur, const char *, queue)
QLESS_ATTR(qless_recur, const char *, data)
QLESS_ATTR(qless_recur, double, priority)
QLESS_ATTR(qless_recur, double, interval)
QLESS_ATTR(qless_recur, const char *, cron)
QLESS_ATTR(qless_recur, int64_t, retries)
QLESS_ATTR(qless_recur, int64_t, backlog)
QLESS_ATTR(qless_recur, int64_t, count)
QLESS_ATTR(qless_recur, size_t, tag_count)
%extend qless_recur {
	const char *tag(size_t index);
	int set_priority(double priority);
	int set_retries(int64_t retries);
	int set_interval(double interval);
	int set_cron(const char *expr);
	/* The template's next count due times (recur.next): a TimeList. */
	int due_times(qless_swig_times **out, int64_t count)
	{
		qless_swig_times *t = (qless_swig_times *)calloc(1, sizeof *t);
		int rc = t ? qless_recur_next($self, count, &t->v, &t->n) : QLESS_ENOMEM;
		return qless_swig_times_done(out, t, rc);
	}
	int set_backlog(int64_t backlog);
	int set_data(const char *data);
	int set_klass(const char *klass);
	int set_queue(const char *queue);
	int tag_add(QLESS_STRV(tags, ntags));
	int tag_remove(QLESS_STRV(tags, ntags));
	int cancel();
}

/* ---- worker (the engine itself is reached through each language's
 * trampoline around qless_worker_main) ---- */
QLESS_ATTR(qless_worker, const char *, name)
QLESS_ATTR(qless_worker, int64_t, jobs_done)
%extend qless_worker {
	int reserve(qless_job **out);
	int lost_locks(int timeout_ms, qless_strlist **out);
	int set_backoff(const char *klass, const char *queue, const qless_backoff *backoff);
	double backoff_delay(const char *klass, const char *queue, int64_t retry);
	/* Safe from any thread: asks a running engine to stop. */
	void stop(int immediate);
}

/* ---- events: next gives (channel, message), both nil on timeout ---- */
%extend qless_events {
	int next(int timeout_ms, char **channel, char **message);
}

/* ---- heartbeater: beats until collected ---- */
QLESS_ATTR(qless_heartbeater, qless_bool, lost)
QLESS_ATTR(qless_heartbeater, int64_t, beats)

/* ---- schedule: a named queue seen as a schedule (its adds and listing
 * are qless_schedule_*; listening is each language's worker) ---- */
QLESS_ATTR(qless_schedule, const char *, name)
%extend qless_schedule {
	/* Each gives (jid, inserted): inserted is false when an identical
	 * entry was pending (unique adds, the default). */
	int add_now(char **out_jid, int *out_inserted, const char *klass, const char *data,
	            const qless_schedule_options *opts);
	int add_at(char **out_jid, int *out_inserted, double when, const char *klass, const char *data,
	           const qless_schedule_options *opts);
	int add_in(char **out_jid, int *out_inserted, double seconds, const char *klass, const char *data,
	           const qless_schedule_options *opts);
	int add_every(char **out_jid, int *out_inserted, double interval, double first, const char *klass,
	              const char *data, const qless_schedule_options *opts);
	int add_cron(char **out_jid, int *out_inserted, const char *expr, const char *klass, const char *data,
	             const qless_schedule_options *opts);
	int add(char **out_jid, int *out_inserted, const char *when_text, const char *klass, const char *data,
	        const qless_schedule_options *opts);
	/* Time text as at=, in= and every= mean it (the policy is the core's). */
	int add_at_text(char **out_jid, int *out_inserted, const char *at_text, const char *klass, const char *data,
	                const qless_schedule_options *opts);
	int add_in_text(char **out_jid, int *out_inserted, const char *in_text, const char *klass, const char *data,
	                const qless_schedule_options *opts);
	int add_every_text(char **out_jid, int *out_inserted, const char *every_text, const char *klass,
	                   const char *data, const qless_schedule_options *opts);
	int remove(const char *jid, int *out_removed);
	/* The pending entries as JSON text. */
	int list(char **out_json);
	/* The one add: (jid, inserted) for a map with exactly one of at,
	 * at_text, in, in_text, every (+ first), every_text, cron, and the
	 * entry's options (unique, key, jid, priority, retries, backlog, tags). */
	int add_entry(char **out_jid, int *out_inserted, const char *klass, const char *data,
	              const qless_schedule_add_options *opts)
	{
		return qless_schedule_put(out_jid, out_inserted, $self, klass, data, opts);
	}
	/* The pending entries as ScheduleEntries. */
	int entries(qless_entries **out) { return qless_entries_get(out, $self); }
	/* next(jid, count): an entry's next due times as a TimeList. */
	int due_times(qless_swig_times **out, const char *jid, int64_t count)
	{
		qless_swig_times *t = (qless_swig_times *)calloc(1, sizeof *t);
		int rc = t ? qless_schedule_next_times(&t->v, &t->n, $self, jid, count) : QLESS_ENOMEM;
		return qless_swig_times_done(out, t, rc);
	}
}

/* ---- job trees (qless/tree.h): one class per concept, for every language ---- */

/* Tree: a snapshot of a tree job's record and its store, read by
 * Client.tree(jid). Children, aliases and ports by index, sorted. */
QLESS_ATTR(qless_tree, const char *, jid)
QLESS_ATTR(qless_tree, const char *, klass)
QLESS_ATTR(qless_tree, const char *, queue)
QLESS_ATTR(qless_tree, const char *, status)
QLESS_ATTR(qless_tree, const char *, parent)
QLESS_ATTR(qless_tree, const char *, name)
QLESS_ATTR(qless_tree, const char *, created_by)
QLESS_ATTR(qless_tree, const char *, json)
QLESS_ATTR(qless_tree, double, started)
QLESS_ATTR(qless_tree, int64_t, runs)
QLESS_ATTR(qless_tree, qless_bool, rerun)
%extend qless_tree {
	size_t child_count();
	const char *child_name(size_t index);
	const char *child_jid(size_t index);
	const char *child(const char *name);
	size_t alias_count();
	const char *alias(size_t index);
	size_t port_count(qless_port_dir dir);
	const char *port_name(qless_port_dir dir, size_t index);
	int64_t port_size(qless_port_dir dir, size_t index);
	const char *port_default(qless_port_dir dir, size_t index);
	size_t port_channel_count(qless_port_dir dir, size_t index);
	const char *port_channel(qless_port_dir dir, size_t index, size_t channel);
	/* The store read with the record (a Store of its own would borrow it). */
	size_t store_size() { return qless_store_size(qless_tree_store($self)); }
	const char *store_key(size_t index) { return qless_store_key(qless_tree_store($self), index); }
	const char *store_value(size_t index) { return qless_store_value(qless_tree_store($self), index); }
	const char *store_find(const char *key) { return qless_store_find(qless_tree_store($self), key); }
	const char *store_json() { return qless_store_json(qless_tree_store($self)); }
}

/* Store: a snapshot of a job's per-job state map; values are JSON texts. */
QLESS_ATTR(qless_store, const char *, json)
%extend qless_store {
	size_t size();
	const char *key(size_t index);
	const char *value(size_t index);
	const char *find(const char *key);
}

/* Port: one port of a job, bound to its client; values are JSON texts. */
QLESS_ATTR(qless_port, const char *, jid)
QLESS_ATTR(qless_port, const char *, name)
QLESS_ATTR(qless_port, qless_port_dir, direction)
%extend qless_port {
	/* read(count) and peek(count): a StrList of JSON texts, oldest first. */
	int take(qless_strlist **out, int64_t count)
	{
		return qless_port_read_values(out, qless_port_client($self), qless_port_jid($self),
		                              qless_port_direction($self), qless_port_name($self), count);
	}
	int look(qless_strlist **out, int64_t count)
	{
		return qless_port_peek_values(out, qless_port_client($self), qless_port_jid($self),
		                              qless_port_direction($self), qless_port_name($self), count);
	}
	int length(int64_t *out)
	{
		return qless_port_size(qless_port_client($self), qless_port_jid($self), qless_port_direction($self),
		                       qless_port_name($self), out);
	}
	int put(QLESS_STRV(values, n))
	{
		return qless_port_write(qless_port_client($self), qless_port_jid($self), qless_port_direction($self),
		                        qless_port_name($self), QLESS_STRV, QLESS_STRC);
	}
	int link(QLESS_STRV(channels, n), int64_t *out_added)
	{
		return qless_port_connect(qless_port_client($self), qless_port_jid($self), qless_port_direction($self),
		                          qless_port_name($self), QLESS_STRV, QLESS_STRC, out_added);
	}
	int unlink(QLESS_STRV(channels, n), int64_t *out_removed)
	{
		return qless_port_disconnect(qless_port_client($self), qless_port_jid($self),
		                             qless_port_direction($self), qless_port_name($self), QLESS_STRV, QLESS_STRC,
		                             out_removed);
	}
}

/* Channel: bound to its client; publish(json, from_jid) -> ports reached. */
QLESS_ATTR(qless_channel, const char *, name)
%extend qless_channel {
	int post(const char *json, const char *from_jid, int64_t *out_delivered)
	{
		return qless_channel_publish(qless_channel_client($self), qless_channel_name($self), json, from_jid,
		                             out_delivered);
	}
	int listeners(qless_subscribers **out)
	{
		return qless_subscribers_get(out, qless_channel_client($self), qless_channel_name($self));
	}
}

/* Subscribers: (jid, port) pairs by index. */
%extend qless_subscribers {
	size_t size();
	const char *jid(size_t index);
	const char *port(size_t index);
}

/* ScheduleEntries: a schedule's pending entries by index; kind is "at",
 * "interval" or "cron". */
%extend qless_entries {
	size_t size();
	const char *jid(size_t index);
	const char *klass(size_t index);
	const char *kind_name(size_t index);
	const char *cron(size_t index);
	double interval(size_t index);
	double next(size_t index);
	double priority(size_t index);
	size_t tag_count(size_t index);
	const char *tag(size_t index, size_t tag);
	const char *description(size_t index);
	const char *json(size_t index);
}

/* ---- lists: items are copied out; take moves a job out of its list ---- */
%extend qless_swig_times {
	size_t size();
	double get(size_t index);
}
%extend qless_strlist {
	size_t size();
	const char *get(size_t index);
	int64_t number(size_t index);
}
%newobject qless_joblist::take;
%extend qless_joblist {
	size_t size();
	qless_job *take(size_t index);
}
%extend qless_queue_countlist {
	size_t size();
	const char *name(size_t index);
	int get(size_t index, qless_queue_counts *out);
}
