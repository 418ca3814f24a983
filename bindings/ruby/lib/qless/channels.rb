# frozen_string_literal: true

module Qless
  # A channel of job trees (client.channels["/orders/eu"]): a publication
  # reaches every input port subscribed to it or to a level above it
  # ("/orders", "/"), in one server call.
  class Channel
    attr_reader :name

    def initialize(client, name)
      @client = client
      @name = name
    end

    # Publishes value (Ruby data, sent as JSON); from: the publishing job
    # (a jid, Job or Tree), for the log. Returns how many ports got it.
    def publish(value, from: nil)
      @client.channel_publish(@name, Convert.value(value, "Channel#publish: value"), from && Convert.jid(from))
    end

    # [jid, port] pairs of the input ports subscribed to exactly this channel.
    def subscribers = JSON.parse(@client.channel_subscribers(@name))

    def inspect = "#<Qless::Channel #{@name}>"
  end

  # client.channels: channels by name.
  class ClientChannels
    def initialize(client)
      @client = client
    end

    def [](name) = Channel.new(@client, name.to_s)
  end
end
