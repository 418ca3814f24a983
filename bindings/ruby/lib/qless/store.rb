# frozen_string_literal: true

module Qless
  # A tree job's per-job state (x.store): JSON values by String key, read
  # and written on the server at each call, like a Hash.
  class Store
    include Enumerable

    attr_reader :jid

    def initialize(client, jid) = (@client, @jid = client, jid)

    def [](key) = Convert.load(@client.state_get(@jid, key.to_s))

    def []=(key, value)
      @client.state_set(@jid, key.to_s, Convert.value(value, "Store#[]=: value of #{key.to_s.inspect}"))
    end

    def key?(key) = !@client.state_get(@jid, key.to_s).nil?
    alias include? key?

    def delete(*keys) = @client.state_del(@jid, Convert.strv(keys))

    # Keys sorted.
    def to_h = @client.store(@jid).then { |h| Array.new(h.size) { |i| [h.key(i), JSON.parse(h.value(i))] }.to_h }
    def each(&block) = to_h.each(&block)
    def inspect = "#<Qless::Store of #{@jid}>"
  end
end
