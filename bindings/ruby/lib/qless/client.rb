# frozen_string_literal: true

module Qless
  # One connection to a qless server. url nil means ENV["QLESS_URL"], else
  # the embedded server (started on demand); worker_name nil means
  # "<hostname>-<pid>"; timeouts in seconds (nil: 5 s and 30 s); namespace:
  # the client's namespace (docs/cluster.md), as the URL's ?namespace=.
  class Client
    def self.new(url = nil, worker_name: nil, connect_timeout: nil, command_timeout: nil, namespace: nil)
      opts = { worker_name: worker_name&.to_s, connect_timeout_ms: Convert.ms(connect_timeout),
               command_timeout_ms: Convert.ms(command_timeout), namespace: namespace&.to_s }
      Core.qless_client_new(url, opts).tap { |c| c.instance_variable_set(:@url, url) }
    end

    module Layer
      attr_reader :url

      def handle = self
      def queues = @queues ||= ClientQueues.new(self)
      def jobs = @jobs ||= ClientJobs.new(self)
      def config = @config ||= Config.new(self)
      def workers = @workers ||= ClientWorkers.new(self)
      def recurring = @recurring ||= ClientRecurring.new(self)
      def schedules = @schedules ||= ClientSchedules.new(self)
      def trees = @trees ||= ClientTrees.new(self)
      def aliases = @aliases ||= ClientAliases.new(self)
      def channels = @channels ||= ClientChannels.new(self)

      # The next n (1-1000) fire times of a cron expression, epoch seconds.
      def cron_next(expr, n = 5) = Convert.strings(super(expr.to_s, Integer(n)))
      # Raw protocol command; the reply as text (arrays as JSON) or nil.
      def call(command, *args) = super(command.to_s, args.map(&:to_s))

      # With a block: yields channel, message until the block breaks (or
      # timeout seconds pass without one), then closes the subscription.
      def events(*channels, timeout: nil, &block)
        ev = super(Convert.strv(channels))
        return ev unless block

        ev.each(timeout: timeout, &block) && nil
      ensure
        ev&.close if block
      end

      # Queues and jobs made from this client keep the connection until collected.
      def close = Core.release(self)
      def inspect = Convert.inspect(self, "Client") { worker_name }
    end
    prepend Layer
  end

  class ClientQueues < View
    COUNTS = %i[waiting running stalled scheduled depends recurring].freeze

    def [](name) = Queue.new(@client, name)
    def names = Convert.strings(@client.queue_names)

    # Hashes with the String keys of the protocol's `queues` reply, oldest queue first.
    def counts
      Convert.drain(@client.queue_counts) do |list, i|
        c = Core::QueueCounts.new
        list.get(i, c)
        { "name" => list.name(i), "paused" => c.paused != 0 }.merge(COUNTS.to_h { |k| [k.to_s, c.send(k)] })
      end
    end
  end

  # client.jobs: jobs by jid and the listings by state, tag, tracking, failure.
  class ClientJobs < View
    def [](jid)
      Job.new(@client, @client.get_job(jid.to_s))
    rescue NotFound
      nil
    end
    alias get []

    def multiget(*jids) = Convert.jobs(@client, @client.get_jobs(Convert.strv(jids)))

    def complete(offset: 0, count: 25) = by_state("complete", nil, offset, count)

    %w[running stalled scheduled depends recurring].each do |state|
      define_method(state) { |queue, offset: 0, count: 25| by_state(state, queue, offset, count) }
    end

    # {total:, jobs: [jids]}, oldest tagging first.
    def tagged(tag, offset: 0, count: 25)
      list, total = @client.tagged(tag.to_s, Integer(offset), Integer(count))
      { total: total, jobs: Convert.strings(list) }
    end

    # Tags used by at least two jobs: { tag => count }, most used first.
    def top_tags(offset: 0, count: 25) = Convert.pairs(@client.top_tags(Integer(offset), Integer(count))).to_h

    def tracked
      jobs, expired = @client.tracked
      { jobs: Convert.jobs(@client, jobs), expired: Convert.strings(expired) }
    end

    # Without group: { group => count }. With group: {total:, jobs: [Job]}, newest first.
    def failed(group = nil, start: 0, limit: 25)
      return Convert.pairs(@client.failed_groups).to_h if group.nil?

      list, total = @client.failed(group.to_s, Integer(start), Integer(limit))
      { total: total, jobs: multiget(Convert.strings(list)) }
    end

    def cancel(*jids) = @client.cancel(Convert.strv(jids))
    # Expires the running jobs' locks now.
    def timeout(*jids) = @client.timeout(Convert.strv(jids))

    private

    def by_state(state, queue, offset, count)
      Convert.strings(@client.job_ids(state, queue&.to_s, Integer(offset), Integer(count)))
    end
  end

  # client.config: the server-wide options, like a Hash. The server keeps
  # values as text; those that read as numbers are given as numbers.
  class Config < View
    include Enumerable

    def [](key)
      text = @client.config_get(key.to_s)
      text && number(text)
    end

    def []=(key, value)
      @client.config_set(key.to_s, value.to_s)
    end

    def delete(key) = @client.config_unset(key.to_s)
    def to_h = JSON.parse(@client.config_all).transform_values { |v| number(v) }
    alias all to_h
    def each(&block) = to_h.each(&block)

    private

    def number(value)
      return value unless value.is_a?(String)

      Integer(value, exception: false) || Float(value, exception: false) || value
    end
  end

  class ClientWorkers < View
    # { worker name => number of jobs it runs }, most recent first.
    def counts = Convert.pairs(@client.worker_counts).to_h
    alias all counts

    def [](name)
      jobs, stalled = @client.worker_jobs(name.to_s)
      { jobs: Convert.strings(jobs), stalled: Convert.strings(stalled) }
    end

    def deregister(*names) = @client.deregister_workers(Convert.strv(names))
  end

  # client.recurring: recurring templates by jid (nil: none).
  class ClientRecurring < View
    def [](jid)
      RecurringJob.new(@client, @client.get_recur(jid.to_s))
    rescue NotFound
      nil
    end
  end
end
