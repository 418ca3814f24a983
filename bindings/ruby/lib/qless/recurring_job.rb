# frozen_string_literal: true

module Qless
  # A recurring job template (client.recurring[jid]); setters apply to the
  # instances spawned afterwards.
  class RecurringJob
    def self.new(client, recur) = Convert.bind(client, recur)

    module Layer
      attr_reader :client

      def handle = self
      def data = Convert.parse(super)
      def tags = Array.new(tag_count) { |i| tag_at(i) }

      def data=(value)
        set_data(Convert.dump(value) || "{}")
      end

      def klass_name=(value)
        set_klass(value.to_s)
      end

      def move(queue) = set_queue(queue.to_s)
      alias queue_name= move
      def tag(*tags) = tag_add(Convert.strv(tags))
      def untag(*tags) = tag_remove(Convert.strv(tags))
      # [] once it fires no more.
      def next(n = 5) = Convert.strings(super(Integer(n)))

      def inspect
        Convert.inspect(self, "RecurringJob") do
          "#{klass_name} #{jid} #{cron ? "cron #{cron}" : "every #{interval}s"} in #{queue_name.inspect}"
        end
      end
    end
    prepend Layer
  end
end
