# frozen_string_literal: true

require "helper"
require "tmpdir"

# bin/qless-worker end to end, as a subprocess, with the jobs in jobs/jobs.rb.
class TestWorker < QlessTest::Test
  WORKER = File.join(QlessTest::RUBY_DIR, "bin", "qless-worker")
  JOBS = File.join(QlessTest::HERE, "jobs", "jobs.rb")

  def teardown
    @workers&.each do |pid, _|
      Process.kill(:KILL, pid)
      Process.wait(pid)
    rescue Errno::ESRCH, Errno::ECHILD
      nil
    end
  end

  # Starts the worker; returns [pid, path of its stderr log].
  def start_worker(*args, queues: ["testing"])
    log = File.join(Dir.mktmpdir("qless-worker"), "stderr")
    cmd = QlessTest.ruby_command(WORKER, "--url", QlessTest::URL, "--require", JOBS, "--interval", "0.1",
                                 *queues.flat_map { |q| ["--queue", q] }, *args)
    pid = Process.spawn(*cmd, err: log, out: File::NULL)
    (@workers ||= []) << pid
    [pid, log]
  end

  # Waits for the worker to exit; returns its Process::Status.
  def finish(pid, timeout = 20)
    status = eventually(timeout, "worker exit") { Process.wait2(pid, Process::WNOHANG)&.last }
    @workers.delete(pid)
    status
  end

  def run_worker(*args, **kw)
    pid, log = start_worker(*args, **kw)
    status = finish(pid)
    [status, File.read(log)]
  end

  def started_file
    File.join(Dir.mktmpdir("qless-started"), "started")
  end

  %w[serial fork].each do |mode|
    define_method("test_success_and_exception_#{mode}") do
      ok = @queue.put("TestJobs::Succeed", { "n" => 1 })
      bad = @queue.put("TestJobs::Raise", {})
      status, log = run_worker("--mode", mode, "--max-jobs", "2")
      assert status.success?, log
      done = @client.jobs[ok]
      assert_equal "complete", done.state, log
      assert_kind_of Integer, done.data["ran_in"]
      assert_equal(mode == "fork", done.data["ran_in"] != status.pid, "ran in the #{mode} process")
      failed = @client.jobs[bad]
      assert_equal "failed", failed.state
      assert_equal "TestJobs::Boom", failed.failure["group"]
      assert_match(/boom from the job/, failed.failure["message"])
      assert_match(%r{jobs/jobs\.rb:\d+:in `perform'}, failed.failure["message"], "traceback")
      assert_match(/#{ok} TestJobs::Succeed .*completed/, log)
      assert_match(/#{bad} TestJobs::Raise .*failed/, log)
    end
  end

  # The queue's locks last 2 s (no grace), the job runs 4 s while this test
  # keeps trying to pop it: only the heartbeater keeps it with the worker.
  %w[serial fork].each do |mode|
    define_method("test_long_job_is_heartbeated_#{mode}") do
      @queue.heartbeat = 2
      @client.config["grace-period"] = 0
      file = started_file
      jid = @queue.put("TestJobs::Sleep", { "seconds" => 4, "started_file" => file })
      # QLESS_TEST_WORKER_ARGS="--heartbeat-interval 100" shows this test failing.
      pid, log = start_worker("--mode", mode, "--max-jobs", "1", *ENV.fetch("QLESS_TEST_WORKER_ARGS", "").split)
      eventually(10, "job start") { File.exist?(file) }
      stolen = nil
      until (status = Process.wait2(pid, Process::WNOHANG)&.last)
        stolen ||= @queue.pop
        sleep 0.2
      end
      @workers.delete(pid)
      assert_nil stolen, "the lock expired and the job was handed out again\n#{File.read(log)}"
      assert status.success?, File.read(log)
      job = @client.jobs[jid]
      assert_equal "complete", job.state, File.read(log)
      assert job.data["slept"]
      assert_equal %w[put popped done], job.history.map { |h| h["what"] }
    end
  end

  # The lock is taken away while the job runs: it is dropped, not completed.
  def test_timed_out_job_is_dropped_serial
    file = started_file
    jid = @queue.put("TestJobs::Sleep", { "seconds" => 2, "started_file" => file })
    pid, log = start_worker("--mode", "serial", "--max-jobs", "1", "--heartbeat-interval", "0.5")
    eventually(10, "job start") { File.exist?(file) }
    @client.jobs[jid].timeout
    assert finish(pid).success?
    job = @client.jobs[jid]
    refute_equal "complete", job.state, File.read(log)
    refute_includes job.history.map { |h| h["what"] }, "done"
    assert_match(/#{jid} .*dropped/, File.read(log))
  end

  def test_reput_job_is_dropped_fork
    file = started_file
    jid = @queue.put("TestJobs::Sleep", { "seconds" => 2, "started_file" => file })
    pid, log = start_worker("--mode", "fork", "--max-jobs", "1", "--heartbeat-interval", "0.5")
    eventually(10, "job start") { File.exist?(file) }
    @client.queues["elsewhere"].put("TestJobs::Sleep", {}, jid: jid)
    assert finish(pid).success?
    job = @client.jobs[jid]
    assert_equal "waiting", job.state, File.read(log)
    assert_equal "elsewhere", job.queue_name
    assert_match(/#{jid} .*(dropped|lock lost)/, File.read(log))
  end

  # SIGTERM: the running job is finished, the next one is not started.
  %w[serial fork].each do |mode|
    define_method("test_sigterm_finishes_current_job_#{mode}") do
      file = started_file
      first = @queue.put("TestJobs::Sleep", { "seconds" => 1.5, "started_file" => file }, priority: 10)
      second = @queue.put("TestJobs::Succeed", {})
      pid, log = start_worker("--mode", mode)
      eventually(10, "job start") { File.exist?(file) }
      Process.kill(:TERM, pid)
      status = finish(pid)
      assert status.success?, File.read(log)
      assert_equal "complete", @client.jobs[first].state, File.read(log)
      assert_equal "waiting", @client.jobs[second].state
    end
  end

  def test_sigquit_exits_at_once
    file = started_file
    jid = @queue.put("TestJobs::Sleep", { "seconds" => 10, "started_file" => file })
    pid, = start_worker("--mode", "serial")
    eventually(10, "job start") { File.exist?(file) }
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    Process.kill(:QUIT, pid)
    refute finish(pid, 3).success?
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0, :<, 3
    assert_equal "running", @client.jobs[jid].state
  end

  def test_job_that_completes_itself_is_not_completed_again
    jid = @queue.put("TestJobs::Advance", { "next" => "stage-two" })
    status, log = run_worker("--max-jobs", "1")
    assert status.success?, log
    job = @client.jobs[jid]
    assert_equal "waiting", job.state, log
    assert_equal "stage-two", job.queue_name
  end

  def test_ordered_and_round_robin
    2.times { @client.queues["first"].put("TestJobs::Succeed", {}) }
    2.times { @client.queues["second"].put("TestJobs::Succeed", {}) }
    status, log = run_worker("--max-jobs", "2", "--order", "ordered", queues: %w[first second])
    assert status.success?, log
    assert_equal [0, 2], [@client.queues["first"].length, @client.queues["second"].length]
    2.times { @client.queues["first"].put("TestJobs::Succeed", {}) }
    status, log = run_worker("--max-jobs", "2", "--order", "round-robin", queues: %w[first second])
    assert status.success?, log
    assert_equal [1, 1], [@client.queues["first"].length, @client.queues["second"].length]
  end
end
