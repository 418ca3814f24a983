# frozen_string_literal: true

# Job classes for the worker tests (loaded with qless-worker --require).
module TestJobs
  # Completes normally; records where it ran in its data.
  class Succeed
    def self.perform(job)
      job.data["ran_in"] = Process.pid
    end
  end

  # Raises, so the worker fails the job with group "TestJobs::Boom".
  class Boom < StandardError; end

  class Raise
    def self.perform(_job)
      raise Boom, "boom from the job"
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
end
