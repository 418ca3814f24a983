# frozen_string_literal: true

module Qless
  # A job: a snapshot of its fields (refresh re-reads them) plus the
  # operations on it. The core's class carries jid, state, priority,
  # priority=, retries, remaining, spawned_from_jid, klass_name,
  # queue_name, worker_name, expires_at, to_json_text, timeout, track,
  # untrack and undepend_all as they are. Changes to #data (assigned or
  # mutated in place) are sent with the next complete, fail, retry or
  # heartbeat.
  class Job
    # The core's job handle, bound to the client it was read with; for a
    # job given to perform by the worker engine, the engine's connection,
    # usable during perform only, like the job itself.
    def self.new(client, job) = Convert.bind(client, job)

    # Prepended, so super is the core's method of the same name.
    module Layer
      attr_reader :client

      def handle = self
      # The Ruby class named by klass_name (qless convention: it has .perform(job)).
      def klass = Object.const_get(klass_name)
      def queue = @client.queues[queue_name]
      def tracked? = tracked != 0
      def tags = Array.new(tag_count) { |i| tag_at(i) }
      def dependencies = Array.new(dependency_count) { |i| dependency(i) }
      def dependents = Array.new(dependent_count) { |i| dependent(i) }
      def history = Array.new(history_count) { |i| JSON.parse(history_json(i)) }
      # Seconds until the lock expires (negative once it has).
      def ttl = expires_at - @client.now

      # nil, or {"group", "message", "when", "worker"} of the last failure.
      def failure
        failure_group && { "group" => failure_group, "message" => failure_message,
                           "when" => failure_when, "worker" => failure_worker }
      end

      # The job's data, parsed from JSON (usually a Hash with String keys).
      def data
        if @data.nil?
          @data_sent = super
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
      def lock_lost? = lock_lost != 0

      # Completes the job, or advances it to next_queue.
      def complete(next_queue = nil, delay: 0, depends: nil)
        finish { super({ next: next_queue, delay:, depends: }) }
        state
      end

      def fail(group, message)
        finish { super(group.to_s, message.to_s) }
        jid
      end

      # Gives the job back to its queue; returns the retries left (-1: none
      # were left and the job failed).
      def retry(delay = 0, group = nil, message = nil)
        finish { super(delay.to_f, group&.to_s, message&.to_s) }
      end

      # Renews the lock; returns the new expiry time.
      def heartbeat
        sync_data
        super
      end

      def cancel
        super
        @finished = true
        nil
      end

      # Puts the job (in any state) into queue. The job-tree options are
      # put's (tree:, parent:, name:, inports:, outports:, aliases:, by:):
      # they convert or attach the job.
      def requeue(queue, delay: 0, priority: nil, tags: nil, retries: nil, depends: nil, **tree)
        super(queue.to_s, { delay:, priority:, retries:, tags:, depends:, **Convert.tree_options("Job#requeue", **tree) })
        @finished = true
        jid
      end

      def move(...) = requeue(...)
      def tag(*tags) = tag_add(Convert.strv(tags))
      def untag(*tags) = tag_remove(Convert.strv(tags))
      def depend(*jids) = depends_add(Convert.strv(jids))
      def undepend(*jids) = depends_remove(Convert.strv(jids))
      def log(message, data = nil) = super(message.to_s, data && Convert.dump(data))

      # Re-reads every field from the server (NotFound if the job is gone).
      def refresh
        super
        @data = nil
        self
      end

      def reload = refresh
      def ==(other) = other.is_a?(Job) && other.jid == jid
      def eql?(other) = self == other
      def hash = jid.hash
      def inspect = Convert.inspect(self, "Job") { "#{klass_name} #{jid} (#{state} in #{queue_name.inspect})" }
      def to_s = inspect

      # Hands data changed in Ruby to the core, which sends it with the next
      # operation (the worker engine's settle included). Compared as JSON so
      # in-place mutation is noticed too.
      def sync_data
        return if @data.nil?

        text = JSON.generate(@data)
        set_data(text) unless text == @data_sent
        @data_sent = text
      end

      private

      # Settles the job with data changed in Ruby; the block's value.
      def finish
        sync_data
        yield.tap { @finished = true }
      end
    end
    prepend Layer
  end
end
