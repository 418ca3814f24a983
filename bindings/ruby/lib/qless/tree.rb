# frozen_string_literal: true

module Qless
  # What tree jobs and Trees share: their ports and their per-job state,
  # which is `store` because `state` is the job's state name in Ruby.
  module TreeParts
    def ports = Ports.new(client, jid)
    def store = Store.new(client, jid)
  end

  # A tree job as the core's Tree snapshot shows it (client.trees[jid];
  # refresh re-reads it) plus the operations on the tree. Unset fields are
  # nil; to_h has them all under tree.get's names.
  class Tree
    include TreeParts
    extend Forwardable

    DIRS = { "in" => Core::QLESS_PORT_IN, "out" => Core::QLESS_PORT_OUT }.freeze

    attr_reader :client

    # nil when there is no such job (StateError for a plain job).
    def self.get(client, jid)
      new(client, client.tree(Convert.jid(jid)))
    rescue NotFound
      nil
    end

    def initialize(client, handle) = (@client, @h = client, handle)

    def_delegators :@h, :jid, :parent, :name, :created_by, :runs
    def klass_name = @h.klass
    def queue_name = @h.queue
    def state = @h.status
    def started = @h.started.zero? ? nil : @h.started
    def rerun? = @h.rerun == 1
    alias rerun rerun?
    def aliases = Array.new(@h.alias_count) { |i| @h.alias(i) }
    def children = Array.new(@h.child_count) { |i| [@h.child_name(i), @h.child_jid(i)] }.to_h
    def inports = options_of("in")
    def outports = options_of("out")
    def inchannels = channels_of("in")
    def outchannels = channels_of("out")
    def sizes = DIRS.keys.to_h { |side| [side, ports_of(side) { |d, i| @h.port_size(d, i) }.reject { |_, n| n.negative? }] }
    def to_h = JSON.parse(@h.json).transform_values { |v| v == false ? nil : v }

    def klass = Object.const_get(klass_name)
    def queue = @client.queues[queue_name]
    def job = @client.jobs[jid]

    def refresh
      @h = @client.tree(jid)
      self
    end

    # Wakes the job after delay seconds (a restart when terminated).
    def run(delay = 0) = @client.job_run(jid, Times.seconds(delay, "Tree#run: delay"))
    def terminate(recursive: false) = @client.job_terminate(jid, recursive ? 1 : 0)
    # Deletes the terminated tree below and with this job.
    def delete = @client.job_delete(jid)

    # child: a root (a jid, Job or Tree).
    def adopt(name, child)
      @client.job_adopt(jid, name.to_s, Convert.jid(child))
      true
    end

    def disown(name) = @client.job_disown(jid, name.to_s)
    def add_aliases(*aliases) = @client.alias_set(jid, Convert.strv(aliases))
    # Removes aliases, whichever job has them.
    def remove_aliases(*aliases) = @client.alias_del(Convert.strv(aliases))

    def ==(other) = other.is_a?(Tree) && other.jid == jid
    def inspect = "#<Qless::Tree #{klass_name} #{jid} (#{state} in #{queue_name.inspect})>"

    private

    def ports_of(side)
      d = DIRS.fetch(side)
      Array.new(@h.port_count(d)) { |i| [@h.port_name(d, i), yield(d, i)] }.to_h
    end

    def options_of(side) = ports_of(side) { |d, i| (v = @h.port_default(d, i)) ? { "default" => JSON.parse(v) } : {} }

    def channels_of(side)
      ports_of(side) { |d, i| Array.new(@h.port_channel_count(d, i)) { |j| @h.port_channel(d, i, j) } }
        .reject { |_, links| links.empty? }
    end
  end

  class ClientTrees < View
    def [](jid) = Tree.get(@client, jid)
  end

  # client.aliases: the global aliases of tree jobs.
  class ClientAliases < View
    def [](name) = @client.alias(name.to_s)

    def []=(name, job)
      @client.alias_set(Convert.jid(job), [name.to_s])
    end

    def delete(*names) = @client.alias_del(Convert.strv(names))
  end
end
