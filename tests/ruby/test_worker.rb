# frozen_string_literal: true

require "helper"
require "worker_test"
require "open3"

# bin/qless-worker (Qless::Worker over the core's worker engine) end to end:
# real worker processes against the test server, job classes in jobs/jobs.rb.
class TestWorker < QlessTest::WorkerTest
  def test_success_exception_and_retry
    ok = @queue.put("TestJobs::Succeed", { "n" => 1 }, priority: 30)
    bad = @queue.put("TestJobs::Raise", {}, priority: 20)
    again = @queue.put("TestJobs::Retry", {}, priority: 10, retries: 2)
    status, log = run_worker("--max-jobs", "3", "--backoff-class", "TestJobs::Retry=fixed:60")
    assert_equal 0, status.exitstatus, log

    done = @client.jobs[ok]
    assert_equal "complete", done.state, log
    assert_equal status.pid, done.data["ran_in"], "data changed by the job is saved, serial runs in the worker"

    failed = @client.jobs[bad]
    assert_equal "failed", failed.state, log
    assert_equal "TestJobs::Boom", failed.failure["group"]
    assert_match(/\ATestJobs::Boom: boom from the job\n/, failed.failure["message"])
    assert_match(%r{jobs/jobs\.rb:\d+:in `perform'}, failed.failure["message"], "backtrace")

    retried = @client.jobs[again]
    assert_equal "scheduled", retried.state, "retried after the class's 60 s backoff\n#{log}"
    assert_equal 1, retried.remaining
    assert_equal "TestJobs::Again", retried.failure["group"]
    assert_match(/\ATestJobs::Again: not yet\n/, retried.failure["message"])
  end

  def test_retryable_error_until_retries_are_used_up
    jid = @queue.put("TestJobs::Retry", {}, retries: 1)
    status, log = run_worker("--max-jobs", "2")
    assert_equal 0, status.exitstatus, log
    job = @client.jobs[jid]
    assert_equal "failed", job.state, log
    assert_equal "TestJobs::Again", job.failure["group"]
    assert_equal %w[popped popped], job.history.map { |h| h["what"] }.grep("popped")
  end

  def test_job_client_and_lock_lost_while_held
    jid = @queue.put("TestJobs::Spawn", { "queue" => "spawned" })
    status, log = run_worker("--max-jobs", "1", "--name", "rb-engine")
    assert_equal 0, status.exitstatus, log
    data = @client.jobs[jid].data
    assert_equal "rb-engine", data["worker"]
    assert_equal false, data["lock_lost"]
    assert_equal "waiting", @client.jobs[data["child"]].state
    assert_equal "spawned", @client.jobs[data["child"]].queue_name
  end

  # The lock is taken away while the job runs: job.lock_lost? turns true,
  # and the engine drops the job instead of completing it.
  def test_lock_lost_is_seen_and_job_dropped
    started, seen = path("started"), path("seen")
    jid = @queue.put("TestJobs::WatchLock", { "seconds" => 10, "started_file" => started, "seen_file" => seen })
    pid, log = start_worker("--max-jobs", "1", "--heartbeat", "0.2")
    eventually(10, "job start") { File.exist?(started) }
    @client.jobs[jid].timeout
    assert_equal 0, finish(pid).exitstatus, File.read(log)
    assert_equal "lost", File.read(seen)
    job = @client.jobs[jid]
    refute_equal "complete", job.state, File.read(log)
    refute_includes job.history.map { |h| h["what"] }, "done"
  end

  def test_borrowed_handles_do_not_outlive_perform
    @queue.put("TestJobs::Keep", {}, priority: 2)
    second = @queue.put("TestJobs::Keep", {}, priority: 1)
    status, log = run_worker("--max-jobs", "2")
    assert_equal 0, status.exitstatus, log
    data = @client.jobs[second].data
    assert_equal "ObjectPreviouslyDeleted", data["stale_job"]
    assert_equal "ObjectPreviouslyDeleted", data["stale_client"]
  end

  def test_job_that_completes_itself_is_not_completed_again
    jid = @queue.put("TestJobs::Advance", { "next" => "stage-two" })
    status, log = run_worker("--max-jobs", "1")
    assert_equal 0, status.exitstatus, log
    job = @client.jobs[jid]
    assert_equal "waiting", job.state, log
    assert_equal "stage-two", job.queue_name
  end

  # SIGTERM: the running job is finished, the next one is not started.
  def test_sigterm_finishes_current_job
    started = path("started")
    first = @queue.put("TestJobs::Sleep", { "seconds" => 1.5, "started_file" => started }, priority: 10)
    second = @queue.put("TestJobs::Succeed", {})
    pid, log = start_worker
    eventually(10, "job start") { File.exist?(started) }
    Process.kill(:TERM, pid)
    assert_equal 0, finish(pid).exitstatus, File.read(log)
    assert_equal "complete", @client.jobs[first].state, File.read(log)
    assert_equal "waiting", @client.jobs[second].state
  end

  # Children are forked with Ruby's Process.fork (its _fork hook runs in
  # each), run the jobs, and stop with the parent on SIGTERM.
  def test_process_pool
    fork_log = path("forks")
    jids = 8.times.map { @queue.put("TestJobs::Succeed", { "sleep" => 0.2 }) }
    pid, log = start_worker("--pool", "processes", "--size", "2", env: { "QLESS_TEST_FORK_LOG" => fork_log })
    eventually(20, "all jobs complete") { jids.all? { |j| @client.jobs[j].state == "complete" } }
    Process.kill(:TERM, pid)
    assert_equal 0, finish(pid).exitstatus, File.read(log)
    children = File.readlines(fork_log).map(&:to_i)
    assert_operator children.size, :>=, 2, File.read(log)
    ran_in = jids.map { |j| @client.jobs[j].data["ran_in"] }
    refute_includes ran_in, pid
    assert_empty ran_in - children, "every job ran in a child forked through Process.fork"
  end

  def test_thread_pool_is_refused
    jid = @queue.put("TestJobs::Succeed", {})
    status, log = run_worker("--pool", "threads", "--size", "2")
    assert_equal 2, status.exitstatus, log
    assert_match(/thread/, log)
    assert_equal "waiting", @client.jobs[jid].state
  end

  def test_require_errors_are_usage_errors
    status, log = run_worker("--require", path("missing.rb"))
    assert_equal 2, status.exitstatus, log
    assert_match(/--require .*missing\.rb/, log)
  end

  class AllowBase
    Inherited = Kernel
  end

  class AllowSub < AllowBase; end

  # The engine matched the name against the allow-list: the lookup follows
  # it constant by constant, never into ancestors (AllowSub::Inherited is
  # AllowBase's) or the top level.
  def test_job_class_stays_within_the_name
    assert_equal Qless::RetryableError, Qless::Worker.job_class("Qless::RetryableError")
    assert_equal Kernel, Object.const_get("TestWorker::AllowSub::Inherited") # what is avoided
    assert_raises(NameError) { Qless::Worker.job_class("TestWorker::AllowSub::Inherited") }
    ["::Qless", "qless", "Qless::", "Qless::Worker::String", "Qless/../X"].each do |name|
      assert_raises(NameError, name) { Qless::Worker.job_class(name) }
    end
  end

  # The trampoline (swig/worker.i with ruby.i's hooks) under the layer:
  # what the dispatcher raises is the outcome (group and message described
  # in C, the frames under the call cut), what it returns is ignored, and
  # it gets the job, its client and the phase.
  def test_core_worker_main_maps_what_run_raises
    raising = @queue.put("K", {}, priority: 3)
    anon = @queue.put("K", {}, priority: 2)
    value = @queue.put("K", {}, priority: 1)
    code = <<~'RUBY'
      require "qless"
      run = lambda do |job, client, phase|
        jid = Qless::Core.qless_job_jid(job)
        raise "escaped from #{jid} #{phase} #{client.worker_name}" if jid == ARGV[0]
        raise Class.new(ArgumentError), "anonymous" if jid == ARGV[2]
        :ignored
      end
      exit Qless::Core.worker_main(["w", "--url", ARGV[1], "--queue", "testing", "--max-jobs", "3", "--allow", "K",
                                    "--name", "raw-w"], run)
    RUBY
    _out, err, status = Open3.capture3(*QlessTest.ruby_command("-e", code, raising, QlessTest::URL, anon))
    assert_equal 0, status.exitstatus, err
    failure = @client.jobs[raising].failure
    assert_equal "RuntimeError", failure["group"], err
    # The dispatcher's own frames (here all of them: its file, -e) are cut.
    assert_equal "RuntimeError: escaped from #{raising} perform raw-w", failure["message"]
    assert_equal "ArgumentError", @client.jobs[anon].failure["group"], "an anonymous class: its named ancestor"
    assert_equal "complete", @client.jobs[value].state
  end
end
