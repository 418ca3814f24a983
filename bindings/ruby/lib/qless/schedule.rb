# frozen_string_literal: true

module Qless
  # A named queue seen as a schedule of one-off jobs and recurring
  # templates (client.schedules[name]; making one does no I/O). Every add
  # is unique by default: an identical pending entry is not added again.
  #
  #   tasks = client.schedules["app-tasks"]
  #   tasks.add("App::Report", { "to" => "ops" }, cron: "0 9 * * mon-fri")
  #   tasks.add("App::Mail", at: "7pm tomorrow")
  #   tasks.listen(pool: 4, allow: ["App::*"])
  #
  # Times (at:) are Times, epoch seconds or text (Qless.when); durations
  # (in:, every:) are seconds or text. The core's class carries name.
  class Schedule
    def self.new(client, name) = Convert.bind(client, client.schedule(name.to_s))

    # Prepended, so super is the core's method of the same name.
    module Layer
      attr_reader :client

      def handle = self

      # Adds an entry running at (once), in (once, after a duration), every
      # (a template: seconds, or text such as "2 days at 9am") or at the
      # times of cron: exactly one of them (ArgumentError otherwise;
      # add_now runs at once). Returns the jid, whether or not an identical
      # entry was pending; report: true gives [jid, inserted].
      def add(klass, data = nil, at: nil, in: nil, cron: nil, every: nil, unique: true, key: nil, jid: nil,
              priority: nil, retries: nil, tags: nil, backlog: nil, report: false)
        whens = { at: at, in: binding.local_variable_get(:in), cron: cron, every: every }.compact
        unless whens.size == 1
          given = whens.empty? ? "none" : whens.keys.map { |k| "#{k}:" }.join(", ")
          raise ArgumentError, "Schedule#add: give exactly one of at:, in:, cron:, every: (got #{given}); " \
                               "add_now runs at once"
        end
        args = [klass.to_s, Convert.dump(data), options(unique, key, jid, priority, retries, tags, backlog)]
        found = send(:"add_#{whens.keys.first}_value", whens.values.first, args)
        report ? found : found.first
      end

      # Adds a one-off entry that may run at once; returns as add.
      def add_now(klass, data = nil, unique: true, key: nil, jid: nil, priority: nil, retries: nil, tags: nil,
                  report: false)
        found = super(klass.to_s, Convert.dump(data), options(unique, key, jid, priority, retries, tags, nil))
        report ? found : found.first
      end

      # Removes a template or a scheduled job of this schedule; false when
      # there was none (a job already waiting, running or done stays).
      def remove(jid) = super(jid.to_s)

      # The pending entries: templates by next due time, then scheduled
      # jobs, each a Hash {"jid", "klass", "kind" => "cron" | "interval" |
      # "at", "cron" or "interval", "next", "priority", "tags"}.
      def entries = JSON.parse(list)

      # The next n due times of entry jid (epoch seconds): a template's from
      # the server, a scheduled job's one time. NotFound when jid is no
      # pending entry of this schedule.
      def next(jid, n = 5)
        recur = @client.recurring[jid]
        return recur.next(n) if recur && recur.queue_name == name

        entry = entries.find { |e| e["jid"] == jid.to_s }
        raise NotFound, "Schedule#next: #{jid} is no pending entry of #{name}" unless entry

        [entry["next"]]
      end

      # Runs the schedule's due jobs with the Ruby worker (Qless::Worker on
      # the engine: class resolution, heartbeats, SIGTERM/SIGINT finish the
      # running jobs) in pool threads or forked processes until stopped or
      # max_jobs jobs are done; returns the worker's exit status (0 after a
      # graceful stop). allow: the job classes it may run (default
      # $QLESS_WORKER_ALLOW); the worker refuses to run without one.
      def listen(pool: 1, mode: :thread, max_jobs: nil, allow: nil, interval: nil)
        kind = { thread: "threads", fork: "processes" }.fetch(mode) do
          raise ArgumentError, "Schedule#listen: mode must be :thread or :fork, not #{mode.inspect}"
        end
        unless pool.is_a?(Integer) && pool.positive?
          raise ArgumentError, "Schedule#listen: pool must be a positive Integer, not #{pool.inspect}"
        end

        argv = ["--queue", name, "--pool", kind, "--size", pool.to_s, "--name", @client.worker_name]
        argv += ["--url", @client.url] if @client.url
        argv += ["--max-jobs", max_jobs.to_s] if max_jobs
        argv += ["--interval", interval.to_s] if interval
        Array(allow).each { |pattern| argv += ["--allow", pattern.to_s] }
        Worker.main(argv, threads: mode == :thread ? pool : 0)
      end

      def inspect = Convert.inspect(self, "Schedule") { name }

      private

      def options(unique, key, jid, priority, retries, tags, backlog)
        { unique: unique ? 1 : 0, key: key, jid: jid, priority: priority, retries: retries, tags: tags,
          backlog: backlog }
      end

      # Text goes to the core, which reads it as each keyword means it.
      def add_at_value(at, args)
        at.is_a?(String) ? add_at_text(at, *args) : add_at(Times.epoch(at, "Schedule#add: at"), *args)
      end

      def add_in_value(delay, args)
        delay.is_a?(String) ? add_in_text(delay, *args) : add_in(Times.seconds(delay, "Schedule#add: in"), *args)
      end

      def add_every_value(every, args)
        return add_every_text(every, *args) if every.is_a?(String)

        add_every(Times.seconds(every, "Schedule#add: every"), 0, *args)
      end

      def add_cron_value(cron, args)
        raise TypeError, "Schedule#add: cron must be a String, not #{cron.class}" unless cron.is_a?(String)

        add_cron(cron, *args)
      end
    end
    prepend Layer
  end

  # client.schedules: schedules by name.
  class ClientSchedules
    def initialize(client)
      @client = client
    end

    def [](name) = Schedule.new(@client, name)
  end
end
