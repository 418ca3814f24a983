# The demo's Ruby job class (klass "Demo::Work", run by bin/qless-worker).
# Like demo_jobs.py: records who ran it and the attempt, sleeps
# data["sleep"], and raises on its first attempt when data["fail_once"].
module Demo
  class Work
    def self.perform(job)
      attempt = job.history.count { |h| h["what"] == "popped" }
      job.data["ran_in"] = "ruby"
      job.data["attempt"] = attempt
      raise "simulated failure on attempt 1" if job.data["fail_once"] && attempt == 1

      sleep(job.data.fetch("sleep", 0))
    end
  end
end
