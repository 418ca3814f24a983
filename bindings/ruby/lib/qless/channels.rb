# frozen_string_literal: true

module Qless
  # A channel of job trees (client.channels["/orders/eu"]): the core's
  # Channel. A publication reaches every input port subscribed to it or to
  # a level above it ("/orders", "/"), in one server call.
  Channel = Core::Channel
  class Channel
    # Prepended, so super is the core's method of the same name.
    module Layer
      # Publishes value (Ruby data, sent as JSON); from: the publishing job
      # (a jid, Job or Tree), for the log. Returns how many ports got it.
      def publish(value, from: nil) = super(Convert.value(value, "Channel#publish: value"), from && Convert.jid(from))

      # [jid, port] pairs of the input ports subscribed to exactly this channel.
      def subscribers = Convert.drain(super) { |l, i| [l.jid(i), l.port(i)] }

      def inspect = Convert.inspect(self, "Channel") { name }
    end
    prepend Layer
  end

  # client.channels: channels by name.
  class ClientChannels
    def initialize(client)
      @client = client
    end

    def [](name) = @client.channel(name.to_s)
  end
end
