# frozen_string_literal: true

module Qless
  # A recurring job template (client.recurring[jid]); setters apply to the
  # instances spawned afterwards.
  class RecurringJob
    attr_reader :client, :handle

    def initialize(client, handle)
      @client = client
      @handle = handle
    end

    def jid = Core.qless_recur_jid(@handle)
    def klass_name = Core.qless_recur_klass(@handle)
    def queue_name = Core.qless_recur_queue(@handle)
    def data = Convert.parse(Core.qless_recur_data(@handle))
    def priority = Core.qless_recur_priority(@handle)
    def interval = Core.qless_recur_interval(@handle)
    def retries = Core.qless_recur_retries(@handle)
    def backlog = Core.qless_recur_backlog(@handle)
    # Instances spawned so far.
    def count = Core.qless_recur_count(@handle)
    def tags = Array.new(Core.qless_recur_tag_count(@handle)) { |i| Core.qless_recur_tag(@handle, i) }

    def priority=(value)
      Core.qless_recur_set_priority(@handle, value.to_f)
    end

    def retries=(value)
      Core.qless_recur_set_retries(@handle, Integer(value))
    end

    def interval=(value)
      Core.qless_recur_set_interval(@handle, value.to_f)
    end

    def backlog=(value)
      Core.qless_recur_set_backlog(@handle, Integer(value))
    end

    def data=(value)
      Core.qless_recur_set_data(@handle, Convert.dump(value) || "{}")
    end

    def klass_name=(value)
      Core.qless_recur_set_klass(@handle, value.to_s)
    end

    def queue_name=(value)
      Core.qless_recur_set_queue(@handle, value.to_s)
    end
    alias move queue_name=

    def tag(*tags) = Core.qless_recur_tag_add(@handle, Convert.strv(tags))
    def untag(*tags) = Core.qless_recur_tag_remove(@handle, Convert.strv(tags))
    def cancel = Core.qless_recur_cancel(@handle)

    def inspect = "#<Qless::RecurringJob #{klass_name} #{jid} every #{interval}s in #{queue_name.inspect}>"
  end
end
