# frozen_string_literal: true

# Job classes of the worker conformance suite (tests/worker), loaded with
#   qless-worker --require tests/worker/jobs/ruby/conformance_jobs.rb
# Their behaviour is the same in every language; see the suite.
require "qless"

# A plain, non-retryable error: the job fails in group "ConformanceError".
class ConformanceError < StandardError; end

# A retryable error: the job is retried (group "ConformanceRetry").
class ConformanceRetry < Qless::RetryableError; end

# Outside ConformanceJobs, so outside the suite's allow-list: a lookup of
# ForbiddenJobs (which only the engine's allow-list check prevents) loads
# the file and leaves a mark; ConformanceExit would end the worker.
autoload :ForbiddenJobs, File.join(__dir__, "forbidden_jobs.rb")
class ConformanceExit
  def self.perform(_job)
    exit!(3)
  end
end

module ConformanceJobs
  # Appends one line to path in a single write(2) on an O_APPEND descriptor,
  # so lines of concurrent workers never interleave.
  def self.record(path, what, job)
    line = format("%s %s %.6f %d\n", what, job.jid, Time.now.to_f, Process.pid)
    File.open(path, File::WRONLY | File::APPEND | File::CREAT, 0o644) { |f| f.syswrite(line) }
  end

  # Notes its start and end in data["log"] (if set), sleeping data["sleep"]
  # seconds (default 0) in between; completes.
  class Noop
    def self.perform(job)
      log = job.data["log"]
      ConformanceJobs.record(log, "start", job) if log
      sleep(job.data["sleep"].to_f) if job.data["sleep"]
      ConformanceJobs.record(log, "end", job) if log
    end
  end

  class Boom
    def self.perform(job)
      raise ConformanceError, "boom #{job.jid}"
    end
  end

  class Flaky
    def self.perform(job)
      raise ConformanceRetry, "flaky #{job.jid}"
    end
  end

  # The tree job of tests/worker/test_tree_conformance.py (its docstring
  # says what each hook does); the worker registers its ports.
  class Tree
    def self.inports = { "in" => {} }
    def self.outports = { "out" => {} }

    def self.startup(job)
      ConformanceJobs.record(job.data["log"], "startup", job)
      crash = job.data["crash"]
      return unless crash

      begin
        File.open(crash, File::WRONLY | File::CREAT | File::EXCL) { nil }
      rescue Errno::EEXIST
        return
      end
      exit!(3)
    end

    def self.perform(job)
      ConformanceJobs.record(job.data["log"], "perform", job)
      values = job.read("in", 10)
      return job.suspend if values.empty?

      job.write("out", *values.map { |v| v * 2 })
      job.store["seen"] = (job.store["seen"] || 0) + values.size
    end

    def self.shutdown(job)
      ConformanceJobs.record(job.data["log"], "shutdown", job)
    end
  end
end
