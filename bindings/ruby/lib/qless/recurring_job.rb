# frozen_string_literal: true

module Qless
  # A recurring job template (client.recurring[jid]); setters apply to the
  # instances spawned afterwards. The core's class carries jid, klass_name,
  # queue_name, priority, priority=, interval, interval=, retries, backlog,
  # count (instances spawned so far) and cancel as they are.
  class RecurringJob
    def self.new(client, recur) = recur.tap { recur.instance_variable_set(:@client, client) }

    # Prepended, so super is the core's method of the same name.
    module Layer
      attr_reader :client

      def handle = self
      def data = Convert.parse(super)
      def tags = Array.new(tag_count) { |i| tag_at(i) }

      def retries=(value)
        set_retries(Integer(value))
      end

      def backlog=(value)
        set_backlog(Integer(value))
      end

      def data=(value)
        set_data(Convert.dump(value) || "{}")
      end

      def klass_name=(value)
        set_klass(value.to_s)
      end

      def queue_name=(value)
        set_queue(value.to_s)
      end

      def move(queue) = set_queue(queue.to_s)
      def tag(*tags) = tag_add(Convert.strv(tags))
      def untag(*tags) = tag_remove(Convert.strv(tags))
      def inspect = Convert.inspect(self, "RecurringJob") { "#{klass_name} #{jid} every #{interval}s in #{queue_name.inspect}" }
    end
    prepend Layer
  end
end
