# frozen_string_literal: true

module Qless
  # What tree jobs and Trees share: their ports and their per-job state,
  # which is `store` because `state` is the job's state name in Ruby.
  module TreeParts
    # tree.ports.in["p"], tree.ports.out["p"] (see Ports).
    def ports = Ports.new(client, jid)
    # The job's own JSON state: tree.store["k"], tree.store["k"] = v.
    def store = JobStore.new(client, jid)
  end

  # A tree job as tree.get shows it (client.trees[jid]): a snapshot
  # (refresh re-reads it) plus the operations on the tree. klass_name,
  # queue_name and state are Strings, as on Job; parent (a jid) and name
  # are nil for a root; started is the time startup completed, or nil;
  # children is { name => jid }; aliases sorted; inports/outports { port
  # => options }; inchannels/outchannels { port => [channel] }; sizes
  # { "in" => { port => n }, "out" => {...} }. to_h has them all under
  # tree.get's names.
  class Tree
    include TreeParts

    attr_reader :client

    # The tree, or nil when there is no such job (StateError for a plain job).
    def self.get(client, jid)
      text = client.tree_get(Convert.jid(jid))
      new(client, JSON.parse(text))
    rescue NotFound
      nil
    end

    def initialize(client, fields)
      @client = client
      @fields = native(fields)
    end

    def jid = @fields["jid"]
    def klass_name = @fields["klass"]
    def queue_name = @fields["queue"]
    def state = @fields["state"]
    def parent = @fields["parent"]
    def name = @fields["name"]
    def started = @fields["started"]
    def rerun? = @fields["rerun"]
    alias rerun rerun?
    def created_by = @fields["created_by"]
    def runs = @fields["runs"]
    def aliases = @fields["aliases"]
    def children = @fields["children"]
    def inports = @fields["inports"]
    def outports = @fields["outports"]
    def inchannels = @fields["inchannels"]
    def outchannels = @fields["outchannels"]
    def sizes = @fields["sizes"]
    def to_h = @fields.dup

    # The Ruby class named by klass_name, as Job#klass.
    def klass = Object.const_get(klass_name)
    def queue = @client.queues[queue_name]
    def job = @client.jobs[jid]

    # Re-reads the tree (NotFound once the job is gone).
    def refresh
      @fields = native(JSON.parse(@client.tree_get(jid)))
      self
    end

    # Wakes the job after delay seconds (a restart when terminated);
    # returns the state it is in.
    def run(delay = 0) = @client.job_run(jid, Times.seconds(delay, "Tree#run: delay"))
    # Terminates the job (recursive: and its descendants); returns how
    # many changed state.
    def terminate(recursive: false) = @client.job_terminate(jid, recursive ? 1 : 0)
    # Deletes the terminated tree below and with this job; returns how many jobs.
    def delete = @client.job_delete(jid)

    # Makes child (a root: a jid, Job or Tree) this job's child `name`.
    def adopt(name, child)
      @client.job_adopt(jid, name.to_s, Convert.jid(child))
      true
    end

    # Detaches the child `name`, which becomes a root; returns its jid.
    def disown(name) = @client.job_disown(jid, name.to_s)
    # Gives the job aliases (global names); returns how many are new.
    def add_aliases(*aliases) = @client.alias_set(jid, Convert.strv(aliases))
    # Removes aliases (whichever job has them); returns how many existed.
    def remove_aliases(*aliases) = @client.alias_del(Convert.strv(aliases))

    def ==(other) = other.is_a?(Tree) && other.jid == jid
    def inspect = "#<Qless::Tree #{klass_name} #{jid} (#{state} in #{queue_name.inspect})>"

    private

    # tree.get's false for "none" is nil here; an empty list of aliases
    # comes as {} from the server's JSON encoder (jobtrees.md K3).
    def native(fields)
      fields = fields.transform_values { |v| v == false ? nil : v }
      fields["rerun"] = !fields["rerun"].nil?
      fields["aliases"] = [] unless fields["aliases"].is_a?(Array)
      fields
    end
  end

  # client.trees: tree jobs by jid.
  class ClientTrees
    def initialize(client)
      @client = client
    end

    def [](jid) = Tree.get(@client, jid)
  end

  # client.aliases: the global aliases of tree jobs.
  class ClientAliases
    def initialize(client)
      @client = client
    end

    # The jid the alias names, or nil.
    def [](name) = @client.alias_get(name.to_s)

    def []=(name, job)
      @client.alias_set(Convert.jid(job), [name.to_s])
    end

    # Removes aliases; returns how many existed.
    def delete(*names) = @client.alias_del(Convert.strv(names))
  end
end
