# frozen_string_literal: true

module Qless
  # Runs jobs from queues: reserves them (qless_worker: ordered or
  # round-robin), resolves job.klass_name with Object.const_get and calls
  # Klass.perform(job). On return the job is completed unless the code
  # already completed, failed, retried, requeued or canceled it; on an
  # exception it is failed with group = the exception's class name and
  # message = message + backtrace. A job whose lock was lost is dropped
  # (logged, neither completed nor failed). Long jobs are kept alive by the
  # core's heartbeater thread.
  #
  # mode :serial runs jobs in this process; :fork runs each in a child (on a
  # connection of its own) while this process heartbeats and waits.
  # #stop finishes the current job and returns from #run; #stop(now: true)
  # leaves at once (the job's lock then just expires).
  class Worker
    attr_reader :client, :jobs_done

    def initialize(client, queues, order: :ordered, mode: :serial, interval: 5.0, max_jobs: nil,
                   heartbeat_interval: nil, log: $stderr)
      @client = client
      @queues = Array(queues).map(&:to_s)
      @mode = mode.to_sym
      raise ArgumentError, "mode must be :serial or :fork" unless %i[serial fork].include?(@mode)

      @interval = interval.to_f
      @max_jobs = max_jobs
      @heartbeat_interval = heartbeat_interval
      @log = log
      @jobs_done = 0
      @stopping = false
      round_robin = { ordered: 0, "round-robin": 1, round_robin: 1 }.fetch(order.to_sym) do
        raise ArgumentError, "order must be ordered or round-robin"
      end
      @reserver = Core.qless_swig_worker_new(client.handle, @queues, round_robin, 1)
    end

    def name = Core.qless_worker_name(@reserver)

    # Asks #run to return after the current job (safe from a trap handler).
    def stop(now: false)
      @stopping = true
      return unless now

      Process.kill(:KILL, @child) if @child
      exit!(1)
    end

    def stopping? = @stopping

    # Processes jobs until stopped or max_jobs were processed; returns the
    # number of jobs processed.
    def run
      until @stopping || (@max_jobs && @jobs_done >= @max_jobs)
        job = reserve
        if job
          @mode == :fork ? perform_forked(job) : perform_serial(job)
          @jobs_done += 1
        else
          nap(@interval)
        end
      end
      @jobs_done
    end

    # Runs one job here: the code, then complete or fail (public so that
    # job code and tests can reuse the worker's rules).
    def perform(job, heartbeater = nil)
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      error = nil
      begin
        job.klass.perform(job)
      rescue StandardError, ScriptError => e
        error = e
      end
      took = format("%.2fs", Process.clock_gettime(Process::CLOCK_MONOTONIC) - started)
      if lost?(job, heartbeater)
        say(job, "lock lost after #{took}: dropped")
      elsif job.finished?
        say(job, "#{job.state} by the job after #{took}")
      elsif error
        finish(job) { job.fail(error.class.name, failure_message(error)) } &&
          say(job, "failed after #{took}: #{error.class.name}: #{error.message}")
      elsif finish(job) { job.complete }
        say(job, "completed in #{took}")
      end
    end

    private

    def reserve
      handle = Core.qless_worker_reserve(@reserver) or return nil
      # Lost-lock notices still queued are about earlier jobs; forget them
      # so that a rerun of one of those jids is not dropped by mistake.
      Core.release(Core.qless_worker_lost_locks(@reserver, 0))
      Job.new(@client, handle)
    end

    def perform_serial(job)
      heartbeater = start_heartbeater(job)
      begin
        perform(job, heartbeater)
      ensure
        Core.release(heartbeater)
      end
    end

    # The child connects again (a forked connection must not be shared) under
    # the same worker name, fetches the job and performs it. The parent only
    # heartbeats, and kills the child if the lock is lost.
    def perform_forked(job)
      jid = job.jid
      @child = Process.fork { exit!(run_child(jid)) }
      heartbeater = start_heartbeater(job)
      status = nil
      begin
        until (status = Process.wait2(@child, Process::WNOHANG)&.last)
          if Core.qless_heartbeater_lost(heartbeater) != 0
            say(job, "lock lost: killing child #{@child}, job dropped")
            Process.kill(:KILL, @child)
            Process.wait(@child)
            return
          end
          sleep 0.05
        end
        @child = nil   # reaped: its pid may be reused, never signal it again
      ensure
        Core.release(heartbeater)
        @child = nil
      end
      return if status.success?

      # The child died without reporting: fail the job if it is still ours.
      finish(job) { job.fail("Qless::Worker::ChildDied", "child process #{status.inspect} while running #{jid}") }
      say(job, "child died (#{status.inspect})")
    end

    def run_child(jid)
      trap("TERM", "IGNORE")   # the parent decides; the job is finished first
      trap("INT", "IGNORE")
      trap("QUIT") { exit!(1) }
      @reserver = nil   # its connection belongs to the parent
      client = Client.new(@client.url, worker_name: @client.worker_name)
      job = client.jobs[jid]
      return 0 unless job   # canceled meanwhile: nothing to do

      perform(job)
      $stdout.flush
      0
    rescue Exception => e # rubocop:disable Lint/RescueException -- report anything, then exit! below
      @log&.puts("qless-worker: child for #{jid}: #{e.class}: #{e.message}")
      1
    end

    def start_heartbeater(job)
      Core.qless_heartbeater_new(job.handle, heartbeat_interval(job))
    end

    # A third of the lock time the job got, unless configured.
    def heartbeat_interval(job)
      return @heartbeat_interval.to_f if @heartbeat_interval

      [(job.expires_at - @client.now) / 3.0, 0.1].max
    end

    def lost?(job, heartbeater)
      return true if heartbeater && Core.qless_heartbeater_lost(heartbeater) != 0
      return false unless @reserver

      Convert.strings(Core.qless_worker_lost_locks(@reserver, 0)).include?(job.jid)
    rescue Error
      false
    end

    # Runs the completing call; a lost lock there means another worker has
    # the job now: drop it.
    def finish(job)
      yield
      true
    rescue LockLost => e
      say(job, "lock lost (#{e.message}): dropped")
      false
    end

    def failure_message(error)
      "#{error.class}: #{error.message}\n#{(error.backtrace || []).join("\n")}"
    end

    def nap(seconds)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
      sleep 0.1 while !@stopping && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    end

    def say(job, what)
      @log&.puts("qless-worker[#{Process.pid}]: #{job.jid} #{job.klass_name} (#{@queues.join(",")}): #{what}")
    end
  end
end
