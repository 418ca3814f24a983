# frozen_string_literal: true

module Qless
  class Job
    # What a job offers as a tree job (jobtrees.md §9): its ports, state
    # store, children and parent, and suspend. Job code run by the worker
    # uses these in perform:
    #
    #   values = job.read("in", 10)
    #   return job.suspend if values.empty?
    #   job.write("out", *values.map { |v| v * 2 })
    #   job.store["seen"] = (job.store["seen"] || 0) + values.size
    module TreeLayer
      include TreeParts

      # The job's tree record (a Tree), nil once the job is gone.
      def tree = Tree.get(@client, jid)
      # Takes up to count values from input port `port`.
      def read(port, count = 1) = ports.in[port].read(count)
      # Writes values to output port `port`; returns how many.
      def write(port, *values) = ports.out[port].write(*values)
      # The job's children by name; children.put creates one.
      def children = Children.new(self)

      # The parent's Tree (with its ports and store), or nil for a root.
      def parent
        up = tree&.parent
        up && Tree.get(@client, up)
      end

      # Run by the worker (in perform): the job sleeps once perform returns,
      # until input or Tree#run wakes it (at once if input came during the
      # run); nil. StateError at the call when the worker does not run the
      # job as a tree job. Otherwise, for a job this client holds: suspends
      # it now; true when input that came during the run requeued it.
      def suspend
        return nil if Core.qless_swig_worker_suspend(handle) # the worker's perform of this job

        super.tap { @finished = true }
      end
    end
    prepend TreeLayer
  end

  # A tree job's children (job.children): { name => jid } read from the
  # server at each call, and put, which creates one.
  class Children
    include Enumerable

    def initialize(job)
      @job = job
    end

    def to_h = @job.tree&.children || {}
    def [](name) = to_h[name.to_s]
    def each(&block) = to_h.each(&block)

    # Puts the child `name` of klass with data into queue (default: the
    # parent's), created by "job:<parent jid>"; returns its jid. Other
    # options are Queue#put's (inports:, outports:, aliases:, priority:, ...).
    def put(name, klass, data = {}, queue: nil, **options)
      taken = options.keys & %i[parent name by]
      raise ArgumentError, "Children#put: #{taken.map { |k| "#{k}:" }.join(", ")} are set by put" unless taken.empty?

      @job.client.queues[queue || @job.queue_name].put(klass, data, parent: @job.jid, name: name.to_s,
                                                                    by: "job:#{@job.jid}", **options)
    end

    def inspect = "#<Qless::Children of #{@job.jid}>"
  end
end
