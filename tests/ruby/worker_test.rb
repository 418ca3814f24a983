# frozen_string_literal: true

require "helper"
require "tmpdir"
require "fileutils"

module QlessTest
  # Tests that run bin/qless-worker as a child process against the test
  # server, with the job classes of jobs/jobs.rb (allow-list TestJobs::*).
  class WorkerTest < Test
    include Children
    WORKER = File.join(RUBY_DIR, "bin", "qless-worker")
    JOBS = File.join(HERE, "jobs", "jobs.rb")

    def setup
      super
      @dir = Dir.mktmpdir("qless-worker")
    end

    def teardown
      kill_children
      FileUtils.rm_rf(@dir)
    end

    def path(name) = File.join(@dir, name)

    # Starts the worker; returns [pid, path of its stderr log].
    def start_worker(*args, queues: ["testing"], env: {})
      log = path("stderr-#{(@children || []).size}")
      cmd = QlessTest.ruby_command(WORKER, "--url", URL, "--require", JOBS, "--interval", "0.1",
                                   "--allow", "TestJobs::*",
                                   *queues.flat_map { |q| ["--queue", q] }, *args)
      [spawn_child(cmd, log, env: env), log]
    end

    def run_worker(*args, **kw)
      pid, log = start_worker(*args, **kw)
      status = finish(pid)
      [status, File.read(log)]
    end
  end
end
