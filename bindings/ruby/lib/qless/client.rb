# frozen_string_literal: true

module Qless
  # One connection to a qless server. url nil means ENV["QLESS_URL"], else
  # the embedded server (started on demand); worker_name nil means "<hostname>-<pid>";
  # timeouts are in seconds (nil: the library defaults, 5 s and 30 s).
  class Client
    attr_reader :handle, :url, :queues, :jobs, :config, :workers, :recurring

    def initialize(url = nil, worker_name: nil, connect_timeout: nil, command_timeout: nil)
      @url = url
      adopt(Core.qless_swig_client_new(url, Convert.ms(connect_timeout), Convert.ms(command_timeout),
                                       worker_name&.to_s))
    end

    # A Client over a connection someone else owns (the worker engine's,
    # given to a job during perform): valid only as long as that owner says;
    # its proxy frees nothing, and raises once the owner has revoked it.
    def self.borrowed(handle)
      allocate.tap { |client| client.send(:adopt, handle) }
    end

    private def adopt(handle)
      @handle = handle
      @queues = ClientQueues.new(self)
      @jobs = ClientJobs.new(self)
      @config = Config.new(self)
      @workers = ClientWorkers.new(self)
      @recurring = ClientRecurring.new(self)
    end

    def worker_name = Core.qless_client_worker_name(@handle)
    # The time sent to the server as `now` (epoch seconds).
    def now = Core.qless_client_now(@handle)

    # Shifts the client's clock by seconds (to correct a known skew).
    def time_offset=(seconds)
      Core.qless_client_set_time_offset(@handle, seconds.to_f)
    end

    # Raw protocol command; the reply as text (arrays as JSON) or nil.
    def call(command, *args)
      Core.qless_client_call(@handle, command.to_s, args.map(&:to_s))
    end

    # Subscribes to channels. With a block, yields channel, message for every
    # message until the block breaks (or timeout seconds pass without one)
    # and closes the subscription (the value is the break value, else nil);
    # without a block, returns the Events.
    def events(*channels, timeout: nil, &block)
      ev = Events.new(self, channels.flatten)
      return ev unless block

      begin
        ev.each(timeout: timeout, &block)
        nil
      ensure
        ev.close
      end
    end

    # Drops this client's handle now (queues and jobs made from it keep the
    # connection alive until they are collected).
    def close = Core.release(@handle)
    def inspect = "#<Qless::Client #{worker_name}>"
  end

  # client.queues: queues by name.
  class ClientQueues
    def initialize(client)
      @client = client
    end

    def [](name) = Queue.new(@client, name)
    # Names of the known queues, oldest first.
    def names = Convert.strings(Core.qless_client_queue_names(@client.handle))
    # The server's per-queue counts (Array of Hashes with String keys).
    def counts = JSON.parse(Core.qless_client_queues_json(@client.handle))
  end

  # client.jobs: jobs by jid and the listings by state, tag, tracking, failure.
  class ClientJobs
    def initialize(client)
      @client = client
    end

    # The job, or nil when there is no such job.
    def [](jid)
      Job.new(@client, Core.qless_client_get_job(@client.handle, jid.to_s))
    rescue NotFound
      nil
    end
    alias get []

    # Jobs that exist among jids, in argument order.
    def multiget(*jids)
      Convert.jobs(@client, Core.qless_client_get_jobs(@client.handle, Convert.strv(jids.flatten)))
    end

    def complete(offset: 0, count: 25) = by_state("complete", nil, offset, count)
    def running(queue, offset: 0, count: 25) = by_state("running", queue, offset, count)
    def stalled(queue, offset: 0, count: 25) = by_state("stalled", queue, offset, count)
    def scheduled(queue, offset: 0, count: 25) = by_state("scheduled", queue, offset, count)
    def depends(queue, offset: 0, count: 25) = by_state("depends", queue, offset, count)
    def recurring(queue, offset: 0, count: 25) = by_state("recurring", queue, offset, count)

    # {total:, jobs: [jids]} of the jobs carrying tag, oldest tagging first.
    def tagged(tag, offset: 0, count: 25)
      list, total = Core.qless_client_tagged(@client.handle, tag.to_s, Integer(offset), Integer(count))
      { total: total, jobs: Convert.strings(list) }
    end

    # Tags used by at least two jobs: { tag => count }, most used first.
    def top_tags(offset: 0, count: 25)
      Convert.pairs(Core.qless_client_top_tags(@client.handle, Integer(offset), Integer(count))).to_h
    end

    # {jobs: [Job], expired: [jids]} of the tracked jobs.
    def tracked
      jobs, expired = Core.qless_client_tracked(@client.handle)
      { jobs: Convert.jobs(@client, jobs), expired: Convert.strings(expired) }
    end

    # Without group: { group => number of failed jobs }. With group:
    # {total:, jobs: [Job]} of its failed jobs, newest first.
    def failed(group = nil, start: 0, limit: 25)
      return Convert.pairs(Core.qless_client_failed_groups(@client.handle)).to_h if group.nil?

      list, total = Core.qless_client_failed(@client.handle, group.to_s, Integer(start), Integer(limit))
      { total: total, jobs: multiget(Convert.strings(list)) }
    end

    # Cancels the jobs (a job others depend on only together with them).
    def cancel(*jids) = Core.qless_client_cancel(@client.handle, Convert.strv(jids.flatten))
    # Expires the running jobs' locks now.
    def timeout(*jids) = Core.qless_client_timeout(@client.handle, Convert.strv(jids.flatten))

    private

    def by_state(state, queue, offset, count)
      Convert.strings(Core.qless_client_jobs(@client.handle, state, queue&.to_s, Integer(offset), Integer(count)))
    end
  end

  # client.config: the server-wide options, like a Hash.
  class Config
    include Enumerable

    def initialize(client)
      @client = client
    end

    # The value (Integer or Float when it reads as a number), or nil.
    def [](key)
      text = Core.qless_client_config_get(@client.handle, key.to_s)
      text && number(text)
    end

    def []=(key, value)
      Core.qless_client_config_set(@client.handle, key.to_s, value.to_s)
    end

    def delete(key) = Core.qless_client_config_unset(@client.handle, key.to_s)
    # Every option: defaults overlaid by stored values (which the server
    # keeps as text; numbers are read back as numbers, as in #[]).
    def to_h = JSON.parse(Core.qless_client_config_all(@client.handle)).transform_values { |v| number(v) }
    alias all to_h
    def each(&block) = to_h.each(&block)

    private

    def number(value)
      return value unless value.is_a?(String)

      Integer(value, exception: false) || Float(value, exception: false) || value
    end
  end

  # client.workers: workers seen recently and the jobs they hold.
  class ClientWorkers
    def initialize(client)
      @client = client
    end

    # { worker name => number of jobs it runs }, most recent first.
    def counts = Convert.pairs(Core.qless_client_workers(@client.handle)).to_h
    alias all counts

    # {jobs: [jids], stalled: [jids]} of worker.
    def [](name)
      jobs, stalled = Core.qless_client_worker_jobs(@client.handle, name.to_s)
      { jobs: Convert.strings(jobs), stalled: Convert.strings(stalled) }
    end

    def deregister(*names) = Core.qless_client_deregister_workers(@client.handle, Convert.strv(names.flatten))
  end

  # client.recurring: recurring templates by jid.
  class ClientRecurring
    def initialize(client)
      @client = client
    end

    # The template, or nil when there is none.
    def [](jid)
      RecurringJob.new(@client, Core.qless_client_get_recur(@client.handle, jid.to_s))
    rescue NotFound
      nil
    end
  end
end
