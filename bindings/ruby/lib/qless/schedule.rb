# frozen_string_literal: true

module Qless
  # A named queue seen as a schedule of one-off jobs and recurring
  # templates (client.schedules[name]; making one does no I/O). Every add
  # is unique by default: an identical pending entry is not added again.
  # Times (at:) are Times, epoch seconds or text (Qless.when); durations
  # (in:, every:) are seconds or text.
  class Schedule
    def self.new(client, name) = Convert.bind(client, client.schedule(name.to_s))

    module Layer
      attr_reader :client

      def handle = self

      # Exactly one of at:, in:, every: and cron: (the core checks);
      # day_first: 27/5/1979 in the texts is day/month/year. Returns the
      # jid, whether or not an identical entry was pending; report: true
      # gives [jid, inserted]. A text read in a way it may not mean (a
      # weekday that is not the date's: the date is used) is added all the
      # same, and Kernel#warn says so.
      def add(klass, data = nil, at: nil, in: nil, cron: nil, every: nil, unique: true, key: nil, jid: nil,
              priority: nil, retries: nil, tags: nil, backlog: nil, report: false, day_first: false)
        unless [true, false].include?(day_first)
          raise TypeError, "Schedule#add: day_first must be true or false, not #{day_first.class}"
        end
        opts = options(unique, key, jid, priority, retries, tags, backlog).merge(cron: cron,
                                                                                 day_first: day_first ? 1 : 0)
        # Text goes to the core as text, which reads it as each keyword means it.
        { at: :epoch, in: :seconds, every: :seconds }.each do |kw, convert|
          value = binding.local_variable_get(kw)
          opts[:"#{kw}_text"] = value if value.is_a?(String)
          opts[kw] = Times.send(convert, value, "Schedule#add: #{kw}") unless value.nil? || value.is_a?(String)
        end
        found = add_entry(klass.to_s, Convert.dump(data), opts)
        # this thread's, left by the add's own parse ("" without text)
        warning = Core.qless_when_warning
        Kernel.warn("Qless::Schedule#add: warning: #{warning}") unless warning.empty?
        report ? found : found.first
      end

      def add_now(klass, data = nil, unique: true, key: nil, jid: nil, priority: nil, retries: nil, tags: nil,
                  report: false)
        found = super(klass.to_s, Convert.dump(data), options(unique, key, jid, priority, retries, tags, nil))
        report ? found : found.first
      end

      # False when there was none (a job already waiting, running or done stays).
      def remove(jid) = super(jid.to_s)

      # Templates by next due time, then scheduled jobs, as Hashes.
      def entries = Convert.drain(super) { |e, i| entry(e, i) }

      # NotFound when jid is no pending entry.
      def next(jid, n = 5) = Convert.strings(super(jid.to_s, Integer(n)))

      # Runs the schedule's due jobs with the Ruby worker (Qless::Worker on
      # the engine: class resolution, heartbeats, SIGTERM/SIGINT finish the
      # running jobs) in pool threads or forked processes until stopped or
      # max_jobs jobs are done; returns the worker's exit status (0 after a
      # graceful stop). allow: the job classes it may run (default
      # $QLESS_WORKER_ALLOW); the worker refuses to run without one.
      def listen(pool: 1, mode: :thread, max_jobs: nil, allow: nil, interval: nil)
        kind = { thread: Core::QLESS_POOL_THREADS, fork: Core::QLESS_POOL_PROCESSES }.fetch(mode) do
          raise ArgumentError, "Schedule#listen: mode must be :thread or :fork, not #{mode.inspect}"
        end
        unless pool.is_a?(Integer) && pool.positive?
          raise ArgumentError, "Schedule#listen: pool must be a positive Integer, not #{pool.inspect}"
        end

        # Children of a process pool leave through C's exit, past Ruby's
        # at-exit flushing: keep nothing in Ruby's buffers.
        $stdout.sync = true
        $stderr.sync = true
        opts = { size: pool, pool: kind, max_jobs: max_jobs, interval: interval, allow: allow && Array(allow),
                 signals: 1 }
        Core.schedule_listen(self, Worker.method(:run), opts, mode == :thread ? pool : 0, Worker.tree_options)
      end

      def inspect = Convert.inspect(self, "Schedule") { name }

      private

      def options(unique, key, jid, priority, retries, tags, backlog)
        { unique: unique ? 1 : 0, key:, jid:, priority:, retries:, tags:, backlog: }
      end

      def entry(e, i)
        kind = e.kind(i)
        h = { "jid" => e.jid(i), "klass" => e.klass(i), "kind" => kind, "next" => e.next(i),
              "priority" => e.priority(i), "tags" => Array.new(e.tag_count(i)) { |j| e.tag(i, j) },
              "description" => e.description(i) }
        h[kind] = kind == "cron" ? e.cron(i) : e.interval(i) unless kind == "at"
        h
      end
    end
    prepend Layer
  end

  class ClientSchedules < View
    def [](name) = Schedule.new(@client, name)
  end
end
