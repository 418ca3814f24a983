# frozen_string_literal: true

module Qless
  # The ports of a tree job (tree.ports, job.ports): ports.in and ports.out
  # (also input and output: `in` is a keyword, usable only after a dot).
  class Ports
    def initialize(client, jid) = (@client, @jid = client, jid)

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

    def initialize(client, jid, dir) = (@client, @jid, @dir = client, jid, dir)

    def [](name) = Convert.bind(@client, @client.port(@jid, DIRS.fetch(@dir), name.to_s))

    # Redefining a port keeps its data. Returns how many.
    def define(*ports)
      spec = ports.size == 1 && ports.first.is_a?(Hash) ? ports.first : ports.flatten
      text = Convert.ports(spec, "PortSide#define")
      @client.port_define(@jid, DIRS.fetch(@dir), text)
      JSON.parse(text).size
    end

    # Removes ports (their data and channel links; "*" too).
    def remove(*names) = @client.port_remove(@jid, DIRS.fetch(@dir), Convert.strv(names))
    def inspect = "#<Qless::PortSide #{@dir} of #{@jid}>"
  end

  # One port of a job: the core's Port with Ruby values, sent and read as JSON.
  Port = Core::Port
  class Port
    module Layer
      def dir = direction == Core::QLESS_PORT_IN ? :in : :out
      # Up to count (1-1000) values from the head; [] when none (or [default]).
      def read(count = 1) = values(super(Convert.count(count, "Port#read")))
      def peek(count = 1) = values(super(Convert.count(count, "Port#peek")))
      def length = size

      # To an output port: published to its channels, else kept for a reader.
      def write(*values)
        super(values.each_with_index.map { |v, i| Convert.value(v, "Port#write: value #{i + 1}") })
        values.size
      end

      def connect(*channels) = super(Convert.strv(channels))
      def disconnect(*channels) = super(Convert.strv(channels))

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
      def values(list) = Convert.drain(list) { |l, i| JSON.parse(l.get(i)) }
    end
    prepend Layer
  end
end
