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

    def in = PortSide.new(@client, @jid, :in)
    def out = PortSide.new(@client, @jid, :out)
    alias input in
    alias output out
    def inspect = "#<Qless::Ports of #{@jid}>"
  end

  # The input or the output ports of one job; making one does no I/O.
  class PortSide
    DIRS = { in: Core::QLESS_PORT_IN, out: Core::QLESS_PORT_OUT }.freeze

    attr_reader :jid, :dir

    def initialize(client, jid, dir)
      @client = client
      @jid = jid
      @dir = dir
    end

    def [](name) = Convert.bind(@client, @client.port(@jid, DIRS.fetch(@dir), name.to_s))

    # Defines ports, or redefines them keeping their data: a Hash of name =>
    # options ({} or { "default" => value }), or names. Returns how many.
    def define(*ports)
      spec = ports.size == 1 && ports.first.is_a?(Hash) ? ports.first : ports.flatten
      text = Convert.ports(spec, "PortSide#define")
      @client.port_define(@jid, DIRS.fetch(@dir), text)
      JSON.parse(text).size
    end

    # Removes ports (their data and channel links; "*" too); returns how many existed.
    def remove(*names) = @client.port_remove(@jid, DIRS.fetch(@dir), Convert.strv(names))
    def inspect = "#<Qless::PortSide #{@dir} of #{@jid}>"
  end

  # One port of a job: the core's Port (jid, name) with Ruby values, sent
  # and read as JSON.
  Port = Core::Port
  class Port
    # Prepended, so super is the core's method of the same name.
    module Layer
      def dir = direction == Core::QLESS_PORT_IN ? :in : :out
      # Takes up to count (1-1000) values from the head; [] when none (or
      # [default] for a port that has one).
      def read(count = 1) = Convert.drain(super(Convert.count(count, "Port#read"))) { |l, i| JSON.parse(l.get(i)) }
      # As read, leaving the values in the port.
      def peek(count = 1) = Convert.drain(super(Convert.count(count, "Port#peek"))) { |l, i| JSON.parse(l.get(i)) }
      def length = size

      # Writes the values in order (to an input port: delivered to the job;
      # to an output port: published to its channels, else kept for a reader).
      # Returns how many.
      def write(*values)
        super(values.each_with_index.map { |v, i| Convert.value(v, "Port#write: value #{i + 1}") })
        values.size
      end

      # Links the port to channels; returns how many links are new.
      def connect(*channels) = super(Convert.strv(channels))
      # Unlinks channels; returns how many links there were.
      def disconnect(*channels) = super(Convert.strv(channels))

      # (Re)defines this port; default: the value read from it when empty.
      def define(**options)
        options.each_key do |k|
          raise ArgumentError, "Port#define: unknown option #{k.inspect} (only default:)" unless k == :default
        end
        side.define(name => options)
      end

      def remove = side.remove(name)
      def inspect = Convert.inspect(self, "Port") { "#{dir} #{name.inspect} of #{jid}" }

      private

      def side = PortSide.new(@client, jid, dir)
    end
    prepend Layer
  end
end
