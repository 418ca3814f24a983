# frozen_string_literal: true

module Qless
  class Job
    # What a job offers as a tree job (jobtrees.md §9): its ports, state
    # store, children and parent, and suspend.
    module TreeLayer
      include TreeParts

      def tree = Tree.get(@client, jid)
      def read(port, count = 1) = ports.in[port].read(count)
      def write(port, *values) = ports.out[port].write(*values)
      def children = Children.new(self)

      # nil for a root.
      def parent
        up = tree&.parent
        up && Tree.get(@client, up)
      end

      # In the worker's perform: the job sleeps once perform returns, until
      # input or Tree#run wakes it; nil. Otherwise suspends it now; true when
      # input that came during the run requeued it.
      def suspend
        return nil if Core.qless_swig_worker_suspend(handle) # the worker's perform of this job

        super.tap { @finished = true }
      end
    end
    prepend TreeLayer
  end

  # A tree job's children (job.children): { name => jid } read at each call.
  class Children
    include Enumerable

    def initialize(job) = @job = job

    def to_h = @job.tree&.children || {}
    def [](name) = to_h[name.to_s]
    def each(&block) = to_h.each(&block)

    # Into queue (default: the parent's), created by "job:<parent jid>";
    # other options are Queue#put's.
    def put(name, klass, data = {}, queue: nil, **options)
      taken = options.keys & %i[parent name by]
      raise ArgumentError, "Children#put: #{taken.map { |k| "#{k}:" }.join(", ")} are set by put" unless taken.empty?

      @job.client.queues[queue || @job.queue_name].put(klass, data, parent: @job.jid, name: name.to_s,
                                                                    by: "job:#{@job.jid}", **options)
    end

    def inspect = "#<Qless::Children of #{@job.jid}>"
  end
end
