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

/* Methods whose C function takes out-parameters before the handle
 * have a body, named <method>_impl so that SWIG's emitted
 * qless_<type>_<method> does not collide with the real function; they
 * keep their language name. A named %rename (e.g. in ruby.i) wins. */
%rename("%(regex:/^(.*)_impl$/\\1/)s", %$ismember) "";

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
#ifdef SWIGPHP
/* `namespace` is a PHP keyword. */
%rename(namespace_name) qless_client::namespace;
#endif
QLESS_ATTR(qless_client, const char *, namespace)
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
		int rc = t ? qless_client_cron_next(&t->v, &t->n, $self, expr, count) : QLESS_ENOMEM;
		return qless_swig_times_done(out, t, rc);
	}
	int set_time_offset(double seconds);
	int call_impl(char **out, const char *command, QLESS_STRV(argv, argc))
	{
		return qless_client_call(out, $self, command, QLESS_STRV, QLESS_STRC);
	}
	int get_job_impl(qless_job **out, const char *jid)
	{
		return qless_client_get_job(out, $self, jid);
	}
	int get_jobs_impl(qless_joblist **out, QLESS_STRV(jids, njids))
	{
		return qless_client_get_jobs(out, $self, QLESS_STRV, QLESS_STRC);
	}
	int get_recur_impl(qless_recur **out, const char *jid)
	{
		return qless_client_get_recur(out, $self, jid);
	}
	int cancel(QLESS_STRV(jids, njids));
	int timeout(QLESS_STRV(jids, njids));
	int jobs_impl(qless_strlist **out, const char *state, const char *queue, int64_t offset, int64_t count)
	{
		return qless_client_jobs(out, $self, state, queue, offset, count);
	}
	int tagged_impl(qless_strlist **out, int64_t *total, const char *tag, int64_t offset, int64_t count)
	{
		return qless_client_tagged(out, total, $self, tag, offset, count);
	}
	int top_tags_impl(qless_strlist **out, int64_t offset, int64_t count)
	{
		return qless_client_top_tags(out, $self, offset, count);
	}
	int tracked_impl(qless_joblist **jobs, qless_strlist **expired)
	{
		return qless_client_tracked(jobs, expired, $self);
	}
	int failed_groups_impl(qless_strlist **out)
	{
		return qless_client_failed_groups(out, $self);
	}
	int failed_impl(qless_strlist **out, int64_t *total, const char *group, int64_t start, int64_t limit)
	{
		return qless_client_failed(out, total, $self, group, start, limit);
	}
	int queue_names_impl(qless_strlist **out)
	{
		return qless_client_queue_names(out, $self);
	}
	int queue_counts_impl(qless_queue_countlist **out)
	{
		return qless_client_queue_counts(out, $self);
	}
	int workers_impl(qless_strlist **out)
	{
		return qless_client_workers(out, $self);
	}
	int worker_jobs_impl(const char *worker, qless_strlist **jobs, qless_strlist **stalled)
	{
		return qless_client_worker_jobs(jobs, stalled, $self, worker);
	}
	int deregister_workers(QLESS_STRV(workers, n));
	int config_get_impl(char **out, const char *key)
	{
		return qless_client_config_get(out, $self, key);
	}
	int config_all_impl(char **out)
	{
		return qless_client_config_all(out, $self);
	}
	int config_set(const char *key, const char *value);
	int config_unset(const char *key);

	/* Job trees (qless/tree.h); the port, channel and state calls take the
	 * client as their handle in C, so they are methods here with the C
	 * prefix kept as the method's (client.port_write(jid, dir, port, values)). */
	int features_impl(char **out_json)
	{
		return qless_client_features(out_json, $self);
	}
	int tree_get_impl(const char *jid, char **out_json)
	{
		return qless_client_tree_get(out_json, $self, jid);
	}
	int job_adopt(const char *parent, const char *name, const char *child);
	int job_disown_impl(const char *parent, const char *name, char **out_child)
	{
		return qless_client_job_disown(out_child, $self, parent, name);
	}
	int job_run_impl(const char *jid, double delay, char **out_state)
	{
		return qless_client_job_run(out_state, $self, jid, delay);
	}
	int job_terminate_impl(const char *jid, int recursive, int64_t *out_changed)
	{
		return qless_client_job_terminate(out_changed, $self, jid, recursive);
	}
	int job_delete_impl(const char *jid, int64_t *out_deleted)
	{
		return qless_client_job_delete(out_deleted, $self, jid);
	}
	int alias_set_impl(const char *jid, QLESS_STRV(aliases, n), int64_t *out_added)
	{
		return qless_client_alias_set(out_added, $self, jid, QLESS_STRV, QLESS_STRC);
	}
	int alias_get_impl(const char *alias, char **out_jid)
	{
		return qless_client_alias_get(out_jid, $self, alias);
	}
	int alias_del_impl(QLESS_STRV(aliases, n), int64_t *out_removed)
	{
		return qless_client_alias_del(out_removed, $self, QLESS_STRV, QLESS_STRC);
	}
	int port_define(const char *jid, qless_port_dir dir, const char *ports_json)
	{
		return qless_port_define($self, jid, dir, ports_json);
	}
	int port_remove(const char *jid, qless_port_dir dir, QLESS_STRV(ports, n), int64_t *out_removed)
	{
		return qless_port_remove(out_removed, $self, jid, dir, QLESS_STRV, QLESS_STRC);
	}
	int port_write(const char *jid, qless_port_dir dir, const char *port, QLESS_STRV(values, n))
	{
		return qless_port_write($self, jid, dir, port, QLESS_STRV, QLESS_STRC);
	}
	int port_read(const char *jid, qless_port_dir dir, const char *port, int64_t count, char **out_json)
	{
		return qless_port_read(out_json, $self, jid, dir, port, count);
	}
	int port_peek(const char *jid, qless_port_dir dir, const char *port, int64_t count, char **out_json)
	{
		return qless_port_peek(out_json, $self, jid, dir, port, count);
	}
	int port_size(const char *jid, qless_port_dir dir, const char *port, int64_t *out)
	{
		return qless_port_size(out, $self, jid, dir, port);
	}
	int port_connect(const char *jid, qless_port_dir dir, const char *port, QLESS_STRV(channels, n),
	                 int64_t *out_added)
	{
		return qless_port_connect(out_added, $self, jid, dir, port, QLESS_STRV, QLESS_STRC);
	}
	int port_disconnect(const char *jid, qless_port_dir dir, const char *port, QLESS_STRV(channels, n),
	                    int64_t *out_removed)
	{
		return qless_port_disconnect(out_removed, $self, jid, dir, port, QLESS_STRV, QLESS_STRC);
	}
	int channel_publish(const char *channel, const char *json, const char *from_jid, int64_t *out_delivered)
	{
		return qless_channel_publish(out_delivered, $self, channel, json, from_jid);
	}
	int channel_subscribers(const char *channel, char **out_json)
	{
		return qless_channel_subscribers(out_json, $self, channel);
	}
	int state_get(const char *jid, const char *key, char **out_json)
	{
		return qless_state_get(out_json, $self, jid, key);
	}
	int state_set(const char *jid, const char *key, const char *json)
	{
		return qless_state_set($self, jid, key, json);
	}
	int state_del(const char *jid, QLESS_STRV(keys, n), int64_t *out_removed)
	{
		return qless_state_del(out_removed, $self, jid, QLESS_STRV, QLESS_STRC);
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
	int put_impl(char **out_jid, const char *klass, const char *data, const qless_put_options *opts)
	{
		return qless_queue_put(out_jid, $self, klass, data, opts);
	}
	int put_unique_impl(char **out_jid, int *out_inserted, const char *klass, const char *data,
	               const qless_put_options *opts)
	{
		return qless_queue_put_unique(out_jid, out_inserted, $self, klass, data, opts);
	}
	int recur_impl(char **out_jid, const char *klass, const char *data, double interval, const qless_recur_options *opts)
	{
		return qless_queue_recur(out_jid, $self, klass, data, interval, opts);
	}
	int recur_cron_impl(char **out_jid, const char *klass, const char *data, const char *expr,
	               const qless_recur_options *opts)
	{
		return qless_queue_recur_cron(out_jid, $self, klass, data, expr, opts);
	}
	int pop_impl(qless_joblist **out, int64_t count)
	{
		return qless_queue_pop(out, $self, count);
	}
	int peek_impl(qless_joblist **out, int64_t count)
	{
		return qless_queue_peek(out, $self, count);
	}
	int length_impl(int64_t *out)
	{
		return qless_queue_length(out, $self);
	}
	/* Output structs are the caller's, as in C: QueueCounts(), Stats(). */
	int counts_get_impl(qless_queue_counts *out)
	{
		return qless_queue_counts_get(out, $self);
	}
	int stats_impl(double date, qless_stats *out)
	{
		return qless_queue_stats(out, $self, date);
	}
	int pause();
	int unpause();
	int forget();
	int unfail_impl(const char *group, int64_t count, int64_t *out_moved)
	{
		return qless_queue_unfail(out_moved, $self, group, count);
	}
	int set_heartbeat(int64_t seconds);
	int set_max_concurrency(int64_t max);
	/* The worker registry of job trees (qless/tree.h). */
	int register_klass_impl(const char *klass, const char *config_json, int *out_new)
	{
		return qless_queue_register_klass(out_new, $self, klass, config_json);
	}
	int klass_config_impl(const char *klass, char **out_json)
	{
		return qless_queue_klass_config(out_json, $self, klass);
	}
	int unregister_klass_impl(const char *klass, int *out_removed)
	{
		return qless_queue_unregister_klass(out_removed, $self, klass);
	}
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
	int retry_impl(double delay, const char *group, const char *message, int64_t *out_remaining)
	{
		return qless_job_retry(out_remaining, $self, delay, group, message);
	}
	int heartbeat_impl(double *out_expires)
	{
		return qless_job_heartbeat(out_expires, $self);
	}
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
	int suspend_impl(int *out_requeued)
	{
		return qless_job_suspend(out_requeued, $self);
	}
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
		int rc = t ? qless_recur_next(&t->v, &t->n, $self, count) : QLESS_ENOMEM;
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
	int reserve_impl(qless_job **out)
	{
		return qless_worker_reserve(out, $self);
	}
	int lost_locks_impl(int timeout_ms, qless_strlist **out)
	{
		return qless_worker_lost_locks(out, $self, timeout_ms);
	}
	int set_backoff(const char *klass, const char *queue, const qless_backoff *backoff);
	double backoff_delay(const char *klass, const char *queue, int64_t retry);
	/* Safe from any thread: asks a running engine to stop. */
	void stop(int immediate);
}

/* ---- events: next gives (channel, message), both nil on timeout ---- */
%extend qless_events {
	int next_impl(int timeout_ms, char **channel, char **message)
	{
		return qless_events_next(channel, message, $self, timeout_ms);
	}
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
	int add_now_impl(char **out_jid, int *out_inserted, const char *klass, const char *data,
	            const qless_schedule_options *opts)
	{
		return qless_schedule_add_now(out_jid, out_inserted, $self, klass, data, opts);
	}
	int add_at_impl(char **out_jid, int *out_inserted, double when, const char *klass, const char *data,
	           const qless_schedule_options *opts)
	{
		return qless_schedule_add_at(out_jid, out_inserted, $self, when, klass, data, opts);
	}
	int add_in_impl(char **out_jid, int *out_inserted, double seconds, const char *klass, const char *data,
	           const qless_schedule_options *opts)
	{
		return qless_schedule_add_in(out_jid, out_inserted, $self, seconds, klass, data, opts);
	}
	int add_every_impl(char **out_jid, int *out_inserted, double interval, double first, const char *klass,
	              const char *data, const qless_schedule_options *opts)
	{
		return qless_schedule_add_every(out_jid, out_inserted, $self, interval, first, klass, data, opts);
	}
	int add_cron_impl(char **out_jid, int *out_inserted, const char *expr, const char *klass, const char *data,
	             const qless_schedule_options *opts)
	{
		return qless_schedule_add_cron(out_jid, out_inserted, $self, expr, klass, data, opts);
	}
	int add_impl(char **out_jid, int *out_inserted, const char *when_text, const char *klass, const char *data,
	        const qless_schedule_options *opts)
	{
		return qless_schedule_add(out_jid, out_inserted, $self, when_text, klass, data, opts);
	}
	/* Time text as at=, in= and every= mean it (the policy is the core's). */
	int add_at_text_impl(char **out_jid, int *out_inserted, const char *at_text, const char *klass, const char *data,
	                const qless_schedule_options *opts)
	{
		return qless_schedule_add_at_text(out_jid, out_inserted, $self, at_text, klass, data, opts);
	}
	int add_in_text_impl(char **out_jid, int *out_inserted, const char *in_text, const char *klass, const char *data,
	                const qless_schedule_options *opts)
	{
		return qless_schedule_add_in_text(out_jid, out_inserted, $self, in_text, klass, data, opts);
	}
	int add_every_text_impl(char **out_jid, int *out_inserted, const char *every_text, const char *klass,
	                   const char *data, const qless_schedule_options *opts)
	{
		return qless_schedule_add_every_text(out_jid, out_inserted, $self, every_text, klass, data, opts);
	}
	int remove_impl(const char *jid, int *out_removed)
	{
		return qless_schedule_remove(out_removed, $self, jid);
	}
	/* The pending entries as JSON text. */
	int list_impl(char **out_json)
	{
		return qless_schedule_list(out_json, $self);
	}
	/* The one add: (jid, inserted) for a map with exactly one of at,
	 * at_text, in, in_text, every (+ first), every_text, cron, and the
	 * entry's options (unique, key, jid, priority, retries, backlog, tags,
	 * day_first); qless_when_warning() afterwards is its text's. */
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
		return qless_port_size(out, qless_port_client($self), qless_port_jid($self),
		                       qless_port_direction($self), qless_port_name($self));
	}
	int put(QLESS_STRV(values, n))
	{
		return qless_port_write(qless_port_client($self), qless_port_jid($self), qless_port_direction($self),
		                        qless_port_name($self), QLESS_STRV, QLESS_STRC);
	}
	int link(QLESS_STRV(channels, n), int64_t *out_added)
	{
		return qless_port_connect(out_added, qless_port_client($self), qless_port_jid($self),
		                          qless_port_direction($self), qless_port_name($self), QLESS_STRV, QLESS_STRC);
	}
	int unlink(QLESS_STRV(channels, n), int64_t *out_removed)
	{
		return qless_port_disconnect(out_removed, qless_port_client($self),
		                             qless_port_jid($self), qless_port_direction($self), qless_port_name($self), QLESS_STRV,
		                             QLESS_STRC);
	}
}

/* Channel: bound to its client; publish(json, from_jid) -> ports reached. */
QLESS_ATTR(qless_channel, const char *, name)
%extend qless_channel {
	int post(const char *json, const char *from_jid, int64_t *out_delivered)
	{
		return qless_channel_publish(out_delivered, qless_channel_client($self), qless_channel_name($self), json,
		                             from_jid);
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
	int get_impl(size_t index, qless_queue_counts *out)
	{
		return qless_queue_countlist_get(out, $self, index);
	}
}
