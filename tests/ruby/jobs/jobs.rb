# frozen_string_literal: true

# Job classes for the worker tests (loaded with qless-worker --require).
module TestJobs
  # Completes normally; records where it ran (process, Ruby thread) in its data.
  class Succeed
    def self.perform(job)
      job.data["ran_in"] = Process.pid
      job.data["thread"] = Thread.current.object_id
      sleep(job.data["sleep"]) if job.data["sleep"]
    end
  end

  # Suspends a job the worker does not run as a tree job: StateError at the call.
  class SuspendPlain
    def self.perform(job) = job.suspend
  end

  # A tree class (test_worker_tree.rb): its first run puts the child "kid"
  # (a TestJobs::Succeed); each run writes its run count to "out" and
  # suspends; its shutdown fails.
  class Family
    def self.outports = %w[out]

    def self.perform(job)
      job.children.put("kid", "TestJobs::Succeed") unless job.children["kid"]
      job.write("out", job.tree.runs)
      job.suspend
    end

    def self.shutdown(_job) = raise(ArgumentError, "cannot shut down")
  end

  # Raises, so the worker fails the job with group "TestJobs::Boom".
  class Boom < StandardError; end

  class Raise
    def self.perform(_job)
      raise Boom, "boom from the job"
    end
  end

  # Raises a retryable error: the job is retried in group "TestJobs::Again".
  class Again < Qless::RetryableError; end

  class Retry
    def self.perform(_job)
      raise Again, "not yet"
    end
  end

  # Sleeps data["seconds"], noting the start in a file the test watches.
  class Sleep
    def self.perform(job)
      File.write(job.data["started_file"], Process.pid.to_s) if job.data["started_file"]
      sleep job.data.fetch("seconds", 1)
      job.data["slept"] = true
    end
  end

  # Advances itself to another queue: the worker must not complete it again.
  class Advance
    def self.perform(job)
      job.complete(job.data.fetch("next"))
    end
  end

  # Uses job.client (the engine's connection) to put a job, and notes what
  # lock_lost? says while the lock is held.
  class Spawn
    def self.perform(job)
      job.data["child"] = job.client.queues[job.data.fetch("queue")].put("TestJobs::Succeed", {})
      job.data["worker"] = job.client.worker_name
      job.data["lock_lost"] = job.lock_lost?
    end
  end

  # Waits up to data["seconds"] for lock_lost? to turn true, then writes
  # what it saw ("lost" or "held") to data["seen_file"].
  class WatchLock
    def self.perform(job)
      File.write(job.data["started_file"], Process.pid.to_s)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + job.data.fetch("seconds")
      sleep 0.05 until job.lock_lost? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      File.write(job.data["seen_file"], job.lock_lost? ? "lost" : "held")
    end
  end

  # Keeps its job (and the job's client) past perform; the next Keep job
  # records what using the kept ones raised: the engine's handles are only
  # lent for one perform call.
  class Keep
    def self.perform(job)
      if (old = $kept_job) # rubocop:disable Style/GlobalVars
        job.data["stale_job"] = attempt { old.jid }
        job.data["stale_client"] = attempt { old.client.worker_name }
      end
      $kept_job = job # rubocop:disable Style/GlobalVars
    end

    def self.attempt
      yield
      "no error"
    rescue StandardError => e
      e.class.name
    end
  end
end

# Ruby >= 3.1 runs Process._fork for every Process.fork: with
# QLESS_TEST_FORK_LOG set, each forked child appends its pid there, which
# shows that the engine's process pool forks through Ruby.
if (fork_log = ENV["QLESS_TEST_FORK_LOG"])
  Process.singleton_class.prepend(Module.new do
    define_method(:_fork) do
      super().tap { |pid| File.open(fork_log, "a") { |f| f.syswrite("#{Process.pid}\n") } if pid.zero? }
    end
  end)
end
