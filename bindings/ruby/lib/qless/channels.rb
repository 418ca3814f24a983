# frozen_string_literal: true

module Qless
  # A channel of job trees (client.channels["/orders/eu"]): the core's
  # Channel. A publication reaches every input port subscribed to it or to
  # a level above it ("/orders", "/"), in one server call.
  Channel = Core::Channel
  class Channel
    module Layer
      # from: the publishing job (a jid, Job or Tree), for the log.
      def publish(value, from: nil) = super(Convert.value(value, "Channel#publish: value"), from && Convert.jid(from))

      def subscribers = Convert.drain(super) { |l, i| [l.jid(i), l.port(i)] }

      def inspect = Convert.inspect(self, "Channel") { name }
    end
    prepend Layer
  end

  class ClientChannels < View
    def [](name) = @client.channel(name.to_s)
  end
end
