# frozen_string_literal: true

module Qless
  # A tree job's own state (x.store): JSON values by String key, read and
  # written on the server at each call, like a Hash.
  #
  #   job.store["seen"] = (job.store["seen"] || 0) + 1
  class JobStore
    include Enumerable

    attr_reader :jid

    def initialize(client, jid)
      @client = client
      @jid = jid
    end

    # The value, or nil when the key is unset.
    def [](key) = Convert.load(@client.state_get(@jid, key.to_s))

    def []=(key, value)
      @client.state_set(@jid, key.to_s, Convert.value(value, "JobStore#[]=: value of #{key.to_s.inspect}"))
    end

    def key?(key) = !@client.state_get(@jid, key.to_s).nil?
    alias include? key?

    # Removes keys; returns how many were set.
    def delete(*keys) = @client.state_del(@jid, Convert.strv(keys))

    # Every key and value, keys sorted.
    def to_h = JSON.parse(@client.state_get(@jid, nil))
    def each(&block) = to_h.each(&block)
    def inspect = "#<Qless::JobStore of #{@jid}>"
  end
end
