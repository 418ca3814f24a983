# frozen_string_literal: true

module Qless
  # A job: a snapshot of its fields (refresh re-reads them) plus the
  # operations on it. Changes to #data (assigned or mutated in place) are
  # sent with the next complete, fail, retry or heartbeat.
  class Job
    # client: the Client the job was read with; for a job given to perform
    # by the worker engine, the engine's connection (Client.borrowed), usable
    # during perform only, like the job's handle itself.
    attr_reader :client, :handle

    def initialize(client, handle)
      @client = client
      @handle = handle
      @data = nil
    end

    def jid = Core.qless_job_jid(@handle)
    def klass_name = Core.qless_job_klass(@handle)
    # The Ruby class named by klass_name (qless convention: it has .perform(job)).
    def klass = Object.const_get(klass_name)
    def queue_name = Core.qless_job_queue(@handle)
    def queue = @client.queues[queue_name]
    def state = Core.qless_job_state(@handle)
    def worker_name = Core.qless_job_worker(@handle)
    def priority = Core.qless_job_priority(@handle)
    def expires_at = Core.qless_job_expires(@handle)
    def retries = Core.qless_job_retries(@handle)
    def remaining = Core.qless_job_remaining(@handle)
    def tracked? = Core.qless_job_tracked(@handle) != 0
    def spawned_from_jid = Core.qless_job_spawned_from_jid(@handle)
    def tags = Array.new(Core.qless_job_tag_count(@handle)) { |i| Core.qless_job_tag(@handle, i) }
    def dependencies = Array.new(Core.qless_job_dependency_count(@handle)) { |i| Core.qless_job_dependency(@handle, i) }
    def dependents = Array.new(Core.qless_job_dependent_count(@handle)) { |i| Core.qless_job_dependent(@handle, i) }
    def history = Array.new(Core.qless_job_history_count(@handle)) { |i| JSON.parse(Core.qless_job_history_json(@handle, i)) }
    def to_json_text = Core.qless_job_json(@handle)
    # Seconds until the lock expires (negative once it has).
    def ttl = expires_at - @client.now

    # nil, or {"group", "message", "when", "worker"} of the last failure.
    def failure
      group = Core.qless_job_failure_group(@handle)
      group && { "group" => group, "message" => Core.qless_job_failure_message(@handle),
                 "when" => Core.qless_job_failure_when(@handle), "worker" => Core.qless_job_failure_worker(@handle) }
    end

    # The job's data, parsed from JSON (usually a Hash with String keys).
    def data
      if @data.nil?
        @data_sent = Core.qless_job_data(@handle)
        @data = Convert.parse(@data_sent)
      end
      @data
    end

    def data=(value)
      @data = value
    end

    # True once this handle completed, failed, retried, requeued or canceled the job.
    def finished? = !!@finished
    # For job code run by the worker engine: true once its heartbeat found
    # the lock gone (timed out, canceled, handed to another worker). The
    # engine will not settle the job; the code may stop early.
    def lock_lost? = Core.qless_job_lock_lost(@handle) != 0

    def priority=(value)
      Core.qless_job_set_priority(@handle, value.to_f)
    end

    # Completes the job, or advances it to next_queue.
    def complete(next_queue = nil, delay: 0, depends: nil)
      sync_data
      Core.qless_job_complete(@handle, { next: next_queue, delay:, depends: })
      @finished = true
      state
    end

    def fail(group, message)
      sync_data
      Core.qless_job_fail(@handle, group.to_s, message.to_s)
      @finished = true
      jid
    end

    # Gives the job back to its queue; returns the retries left (-1: none
    # were left and the job failed).
    def retry(delay = 0, group = nil, message = nil)
      sync_data
      remaining = Core.qless_job_retry(@handle, delay.to_f, group&.to_s, message&.to_s)
      @finished = true
      remaining
    end

    # Renews the lock; returns the new expiry time.
    def heartbeat
      sync_data
      Core.qless_job_heartbeat(@handle)
    end

    def cancel
      Core.qless_job_cancel(@handle)
      @finished = true
      nil
    end

    # Puts the job (in any state) into queue.
    def requeue(queue, delay: 0, priority: nil, tags: nil, retries: nil, depends: nil)
      Core.qless_job_requeue(@handle, queue.to_s, { delay:, priority:, retries:, tags:, depends: })
      @finished = true
      jid
    end
    alias move requeue

    def timeout = Core.qless_job_timeout(@handle)
    def track = Core.qless_job_track(@handle)
    def untrack = Core.qless_job_untrack(@handle)
    def tag(*tags) = Core.qless_job_tag_add(@handle, Convert.strv(tags))
    def untag(*tags) = Core.qless_job_tag_remove(@handle, Convert.strv(tags))
    def depend(*jids) = Core.qless_job_depends_add(@handle, Convert.strv(jids))
    def undepend(*jids) = Core.qless_job_depends_remove(@handle, Convert.strv(jids))
    def undepend_all = Core.qless_job_depends_clear(@handle)

    def log(message, data = nil)
      Core.qless_job_log(@handle, message.to_s, data && Convert.dump(data))
    end

    # Re-reads every field from the server (NotFound if the job is gone).
    def refresh
      Core.qless_job_refresh(@handle)
      @data = nil
      self
    end
    alias reload refresh

    def ==(other) = other.is_a?(Job) && other.jid == jid
    alias eql? ==
    def hash = jid.hash
    def inspect = "#<Qless::Job #{klass_name} #{jid} (#{state} in #{queue_name.inspect})>"
    alias to_s inspect

    # Hands data changed in Ruby to the core, which sends it with the next
    # operation (the worker engine's settle included). Compared as JSON so
    # in-place mutation is noticed too.
    def sync_data
      return if @data.nil?

      text = JSON.generate(@data)
      Core.qless_job_set_data(@handle, text) unless text == @data_sent
      @data_sent = text
    end
  end
end
