# frozen_string_literal: true

module Qless
  # The jid a unique put (or recur: with cron or interval) of this entry
  # gets: the SHA-1 of its identity (queue with key, or queue, klass, data
  # and the schedule), computed by libqless without a server.
  def self.unique_jid(queue, klass = nil, data = nil, key: nil, cron: nil, interval: 0)
    return Core.qless_unique_jid_for_key(queue.to_s, key.to_s) if key

    Core.qless_unique_jid(queue.to_s, klass&.to_s, Convert.dump(data), cron&.to_s,
                          Times.seconds(interval, "Qless.unique_jid: interval"))
  end

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
      #
      # unique: true (implied by key:): nothing happens while a job with the
      # jid is waiting, scheduled, running or failed; without jid: the jid
      # is derived from queue, klass and data (or from key). report: true
      # returns [jid, inserted] instead of the jid.
      #
      # Job trees: tree: true, or any of parent: (a jid, Job or Tree) with
      # name:, inports:/outports: (Hash of port => options, names, or JSON
      # text), aliases: makes (or converts) a tree job; by: is its
      # created_by.
      def put(klass, data = {}, priority: nil, tags: nil, delay: 0, retries: nil, depends: nil, jid: nil,
              unique: false, key: nil, report: false, tree: false, parent: nil, name: nil, inports: nil,
              outports: nil, aliases: nil, by: nil)
        opts = { jid:, delay:, priority:, retries:, tags:, depends:,
                 unique: unique || key || report ? 1 : nil, unique_key: key,
                 **Convert.tree_options("Queue#put", tree:, parent:, name:, inports:, outports:, aliases:, by:) }
        return put_unique(klass.to_s, Convert.dump(data), opts) if report

        super(klass.to_s, Convert.dump(data), opts)
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

      # Puts a job of klass every interval seconds, or at the fire times of
      # the cron expression cron: (then without interval and offset);
      # returns the template's jid. unique: true (implied by key:) keeps a
      # template that exists with that jid.
      def recur(klass, data, interval = nil, offset: 0, priority: 0, retries: 0, backlog: 0, tags: nil, jid: nil,
                cron: nil, unique: false, key: nil)
        if interval.nil? == cron.nil?
          raise ArgumentError, "Queue#recur: give an interval or cron:, not #{interval.nil? ? "neither" : "both"}"
        end

        opts = { jid:, offset:, priority:, retries:, backlog:, tags:, unique: unique || key ? 1 : nil, unique_key: key }
        return recur_cron(klass.to_s, Convert.dump(data), cron, opts) if cron

        super(klass.to_s, Convert.dump(data), interval.to_f, opts)
      end

      # The worker registry of job trees: registers klass (a name, or a job
      # class whose inports/outports give the config when config is nil)
      # with config (a Hash or JSON text; its inports/outports are copied
      # into new tree jobs of klass here). Returns true when it is new.
      def register_klass(klass, config = nil)
        if config.nil?
          config = TreeClass.config(klass) if klass.is_a?(Module)
          raise ArgumentError, "Queue#register_klass: #{klass} declares no ports: give a config" if config.nil?
        end
        super(TreeClass.name_of(klass), config.is_a?(String) ? config : Convert.value(config, "Queue#register_klass: config"))
      end

      # The registered config of klass (a Hash, nil when none), or without
      # klass { klass => config } of every registered class.
      def klass_config(klass = nil)
        text = super(klass && TreeClass.name_of(klass))
        return Convert.load(text) if klass

        config = Convert.load(text)
        config.is_a?(Hash) ? config : {}
      end

      # Removes klass from the registry; true when it was there.
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
