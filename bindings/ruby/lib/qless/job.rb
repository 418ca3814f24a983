# frozen_string_literal: true

module Qless
  # A job: a snapshot of its fields (refresh re-reads them) plus the
  # operations on it; most are the core's as they are. Changes to #data
  # (assigned or mutated in place) are sent with the next complete, fail,
  # retry or heartbeat.
  class Job
    def self.new(client, job) = Convert.bind(client, job)

    module Layer
      attr_reader :client

      def handle = self
      def klass = Object.const_get(klass_name)
      def queue = @client.queues[queue_name]
      def tracked? = tracked != 0
      def tags = Array.new(tag_count) { |i| tag_at(i) }
      def dependencies = Array.new(dependency_count) { |i| dependency(i) }
      def dependents = Array.new(dependent_count) { |i| dependent(i) }
      def history = Array.new(history_count) { |i| JSON.parse(history_json(i)) }
      def ttl = expires_at - @client.now

      def failure
        failure_group && { "group" => failure_group, "message" => failure_message,
                           "when" => failure_when, "worker" => failure_worker }
      end

      def data = @data.nil? ? @data = Convert.parse(@data_sent = super) : @data
      attr_writer :data

      # True once this handle completed, failed, retried, requeued or canceled the job.
      def finished? = !!@finished
      # In job code: true once the engine's heartbeat found the lock gone.
      def lock_lost? = lock_lost != 0

      def complete(next_queue = nil, delay: 0, depends: nil)
        finish { super({ next: next_queue, delay:, depends: }) }
        state
      end

      def fail(group, message)
        finish { super(group.to_s, message.to_s) }
        jid
      end

      # Returns the retries left (-1: none were left and the job failed).
      def retry(delay = 0, group = nil, message = nil)
        finish { super(delay.to_f, group&.to_s, message&.to_s) }
      end

      def heartbeat
        sync_data
        super
      end

      def cancel
        super
        @finished = true
        nil
      end

      # Puts the job (in any state) into queue; the job-tree options are put's.
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

      # The core sends data with the next operation (the engine's settle
      # too). Compared as JSON so in-place mutation is noticed.
      def sync_data
        return if @data.nil?

        text = JSON.generate(@data)
        set_data(text) unless text == @data_sent
        @data_sent = text
      end

      private

      def finish
        sync_data
        yield.tap { @finished = true }
      end
    end
    prepend Layer
  end
end
