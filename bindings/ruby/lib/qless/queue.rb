# frozen_string_literal: true

module Qless
  # A named queue (client.queues[name]); making one does no I/O. The core's
  # class carries name, length, pause, unpause, forget, heartbeat= (the
  # lock duration of its jobs, in seconds) and max_concurrency= as they are.
  class Queue
    def self.new(client, name) = Convert.bind(client, client.queue(name.to_s))

    # Prepended, so super is the core's method of the same name.
    module Layer
      attr_reader :client

      def handle = self

      # Puts a job of klass (a Class or its name) with data (a Hash or other
      # JSON-able value, or a String of JSON); returns its jid. Options left
      # nil keep an existing job's value when jid names one.
      def put(klass, data = {}, priority: nil, tags: nil, delay: 0, retries: nil, depends: nil, jid: nil)
        super(klass.to_s, Convert.dump(data), { jid:, delay:, priority:, retries:, tags:, depends: })
      end

      # Without count: the next job (locked for this client's worker) or nil.
      # With count: an Array of up to count jobs. A block gets each job.
      def pop(count = nil, &block) = take(super(count || 1), count, &block)
      # Like pop, but the jobs are not locked.
      def peek(count = nil, &block) = take(super(count || 1), count, &block)
      def size = length

      # {waiting:, running:, stalled:, scheduled:, depends:, recurring:, paused:}
      def counts
        c = Core::QueueCounts.new
        counts_get(c)
        { waiting: c.waiting, running: c.running, stalled: c.stalled, scheduled: c.scheduled,
          depends: c.depends, recurring: c.recurring, paused: c.paused != 0 }
      end

      def paused? = counts[:paused]
      # Moves up to count of the oldest jobs failed in group back here;
      # returns how many moved.
      def unfail(group, count = 25) = super(group.to_s, Integer(count))

      # Statistics of the UTC day containing date (a Time or epoch seconds):
      # {retries:, failed:, failures:, wait: {...}, run: {...}} where wait and
      # run are {count:, mean:, std:, histogram: [148 bucket counts]}.
      def stats(date = Time.now)
        s = Core::Stats.new
        super(date.to_f, s)
        { retries: s.retries, failed: s.failed, failures: s.failures, wait: timing(s.wait), run: timing(s.run) }
      end

      # Puts a job of klass every interval seconds; returns the template's jid.
      def recur(klass, data, interval, offset: 0, priority: 0, retries: 0, backlog: 0, tags: nil, jid: nil)
        super(klass.to_s, Convert.dump(data), interval.to_f, { jid:, offset:, priority:, retries:, backlog:, tags: })
      end

      def ==(other) = other.is_a?(Queue) && other.name == name
      def inspect = Convert.inspect(self, "Queue") { name }

      private

      def take(list, count, &block)
        jobs = Convert.jobs(@client, list)
        jobs.each(&block) if block
        count ? jobs : jobs.first
      end

      def timing(t)
        { count: t.count, mean: t.mean, std: t.std,
          histogram: Array.new(Core::QLESS_STATS_BUCKETS) { |i| t.bucket(i) } }
      end
    end
    prepend Layer
  end
end
