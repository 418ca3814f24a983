# frozen_string_literal: true

module Qless
  # The ports of a tree job (tree.ports, job.ports): ports.in and ports.out
  # (also input and output: `in` is a keyword, usable only after a dot).
  #
  #   tree.ports.in["items"].write(1, { "a" => 2 })
  #   tree.ports.out["result"].read(10)          # => [2, 4]
  #   tree.ports.in.define("items" => {}, "limit" => { "default" => 5 })
  class Ports
    def initialize(client, jid)
      @client = client
      @jid = jid
    end

    def in = PortSet.new(@client, @jid, :in)
    def out = PortSet.new(@client, @jid, :out)
    alias input in
    alias output out
    def inspect = "#<Qless::Ports of #{@jid}>"
  end

  # The input or the output ports of one job; making one does no I/O.
  class PortSet
    DIRS = { in: Core::QLESS_PORT_IN, out: Core::QLESS_PORT_OUT }.freeze

    attr_reader :jid, :dir

    def initialize(client, jid, dir)
      @client = client
      @jid = jid
      @dir = dir
    end

    def [](name) = Port.new(@client, @jid, @dir, name.to_s)

    # Defines ports, or redefines them keeping their data: a Hash of name =>
    # options ({} or { "default" => value }), or names. Returns how many.
    def define(*ports)
      spec = ports.size == 1 && ports.first.is_a?(Hash) ? ports.first : ports.flatten
      text = Convert.ports(spec, "PortSet#define")
      @client.port_define(@jid, DIRS.fetch(@dir), text)
      JSON.parse(text).size
    end

    # Removes ports (their data and channel links; "*" too); returns how many existed.
    def remove(*names) = @client.port_remove(@jid, DIRS.fetch(@dir), Convert.strv(names))
    def inspect = "#<Qless::PortSet #{@dir} of #{@jid}>"
  end

  # One port of a job. Values are Ruby data, sent and read as JSON.
  class Port
    attr_reader :jid, :dir, :name

    def initialize(client, jid, dir, name)
      @client = client
      @jid = jid
      @dir = dir
      @name = name
    end

    # Takes up to count (1-1000) values from the head; [] when none (or
    # [default] for a port that has one).
    def read(count = 1) = JSON.parse(@client.port_read(@jid, code, @name, Convert.count(count, "Port#read")))
    # As read, leaving the values in the port.
    def peek(count = 1) = JSON.parse(@client.port_peek(@jid, code, @name, Convert.count(count, "Port#peek")))
    # Values waiting in the port.
    def size = @client.port_size(@jid, code, @name)
    alias length size

    # Writes the values in order (to an input port: delivered to the job;
    # to an output port: published to its channels, else kept for a reader).
    # Returns how many.
    def write(*values)
      texts = values.each_with_index.map { |v, i| Convert.value(v, "Port#write: value #{i + 1}") }
      @client.port_write(@jid, code, @name, texts)
      texts.size
    end

    # Links the port to channels; returns how many links are new.
    def connect(*channels) = @client.port_connect(@jid, code, @name, Convert.strv(channels))
    # Unlinks channels; returns how many links there were.
    def disconnect(*channels) = @client.port_disconnect(@jid, code, @name, Convert.strv(channels))

    # (Re)defines this port; default: the value read from it when empty.
    def define(**options)
      options.each_key do |k|
        raise ArgumentError, "Port#define: unknown option #{k.inspect} (only default:)" unless k == :default
      end
      PortSet.new(@client, @jid, @dir).define(@name => options)
    end

    def remove = PortSet.new(@client, @jid, @dir).remove(@name)
    def inspect = "#<Qless::Port #{@dir} #{@name.inspect} of #{@jid}>"

    private

    def code = PortSet::DIRS.fetch(@dir)
  end
end
