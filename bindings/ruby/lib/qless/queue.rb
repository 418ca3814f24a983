# frozen_string_literal: true

module Qless
  # The jid a unique put (or recur: with cron or interval) gets, computed without a server.
  def self.unique_jid(queue, klass = nil, data = nil, key: nil, cron: nil, interval: 0)
    return Core.qless_unique_jid_for_key(queue.to_s, key.to_s) if key

    Core.qless_unique_jid(queue.to_s, klass&.to_s, Convert.dump(data), cron&.to_s,
                          Times.seconds(interval, "Qless.unique_jid: interval"))
  end

  # A named queue (client.queues[name]); making one does no I/O.
  class Queue
    def self.new(client, name) = Convert.bind(client, client.queue(name.to_s))

    module Layer
      attr_reader :client

      def handle = self

      # Returns the jid. Options left nil keep an existing job's value when
      # jid names one. unique: true (implied by key:) adds nothing while a
      # job with the jid is pending; report: true returns [jid, inserted].
      # tree:, parent: (a jid, Job or Tree) with name:, inports:/outports:
      # or aliases: make (or convert) a tree job; by: is its created_by.
      def put(klass, data = {}, priority: nil, tags: nil, delay: 0, retries: nil, depends: nil, jid: nil,
              unique: false, key: nil, report: false, tree: false, parent: nil, name: nil, inports: nil,
              outports: nil, aliases: nil, by: nil)
        opts = { jid:, delay:, priority:, retries:, tags:, depends:,
                 unique: unique || key || report ? 1 : nil, unique_key: key,
                 **Convert.tree_options("Queue#put", tree:, parent:, name:, inports:, outports:, aliases:, by:) }
        return put_unique(klass.to_s, Convert.dump(data), opts) if report

        super(klass.to_s, Convert.dump(data), opts)
      end

      # Without count: the next job or nil; with count: an Array. A block gets each job.
      def pop(count = nil, &block) = take(super(count || 1), count, &block)
      # Like pop, but the jobs are not locked.
      def peek(count = nil, &block) = take(super(count || 1), count, &block)
      def size = length

      def counts
        c = Core::QueueCounts.new
        counts_get(c)
        ClientQueues::COUNTS.to_h { |k| [k, c.send(k)] }.merge(paused: c.paused != 0)
      end

      def paused? = counts[:paused]
      # Moves up to count of the oldest jobs failed in group back here.
      def unfail(group, count = 25) = super(group.to_s, Integer(count))

      # Statistics of the UTC day containing date (a Time or epoch seconds).
      def stats(date = Time.now)
        s = Core::Stats.new
        super(date.to_f, s)
        { retries: s.retries, failed: s.failed, failures: s.failures, wait: timing(s.wait), run: timing(s.run) }
      end

      # Every interval seconds, or at the fire times of cron:; returns the
      # template's jid. unique: true (implied by key:) keeps an existing template.
      def recur(klass, data, interval = nil, offset: 0, priority: 0, retries: 0, backlog: 0, tags: nil, jid: nil,
                cron: nil, unique: false, key: nil)
        if interval.nil? == cron.nil?
          raise ArgumentError, "Queue#recur: give an interval or cron:, not #{interval.nil? ? "neither" : "both"}"
        end

        opts = { jid:, offset:, priority:, retries:, backlog:, tags:, unique: unique || key ? 1 : nil, unique_key: key }
        return recur_cron(klass.to_s, Convert.dump(data), cron, opts) if cron

        super(klass.to_s, Convert.dump(data), interval.to_f, opts)
      end

      # The worker registry of job trees: klass is a name, or a job class
      # whose inports/outports give the config when config is nil.
      def register_klass(klass, config = nil)
        if config.nil?
          config = TreeClass.config(klass) if klass.is_a?(Module)
          raise ArgumentError, "Queue#register_klass: #{klass} declares no ports: give a config" if config.nil?
        end
        super(TreeClass.name_of(klass), config.is_a?(String) ? config : Convert.value(config, "Queue#register_klass: config"))
      end

      # Without klass: { klass => config } of every registered class.
      def klass_config(klass = nil)
        config = Convert.load(super(klass && TreeClass.name_of(klass)))
        klass || config.is_a?(Hash) ? config : {}
      end

      def unregister_klass(klass) = super(TreeClass.name_of(klass))

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
