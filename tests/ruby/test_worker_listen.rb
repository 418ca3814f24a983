# frozen_string_literal: true

require "helper"
require "tmpdir"
require "fileutils"

# Schedule#listen (schedules.md §7, checklist BND-2): the Ruby worker on
# the engine in a pool of Ruby threads or forked processes, in a child
# ruby running the listener; job classes in jobs/jobs.rb.
class TestWorkerListen < QlessTest::Test
  include QlessTest::Children
  JOBS = File.join(QlessTest::HERE, "jobs", "jobs.rb")

  def setup
    super
    @dir = Dir.mktmpdir("qless-listen")
    @sched = @client.schedules["tasks"]
  end

  def teardown
    kill_children
    FileUtils.rm_rf(@dir)
  end

  # Starts schedules["tasks"].listen(**args) in a child ruby; returns
  # [pid, path of its stderr].
  def start_listener(allow: ["TestJobs::*"], **args)
    log = File.join(@dir, "stderr-#{(@children || []).size}")
    code = <<~RUBY
      require "qless"
      require #{JOBS.inspect}
      client = Qless::Client.new(#{QlessTest::URL.inspect}, worker_name: "lsn")
      exit client.schedules["tasks"].listen(**#{args.inspect}, allow: #{allow.inspect}, interval: 0.05)
    RUBY
    # Only allow: names the classes, whatever the environment says.
    [spawn_child(QlessTest.ruby_command("-e", code), log, env: { "QLESS_WORKER_ALLOW" => nil }), log]
  end

  # BND-2: pool 3 completes 50 jobs; SIGTERM lets the running job finish
  # (complete) and the listener exit 0.
  def check_pool(mode)
    jids = Array.new(50) { |i| @sched.add_now("TestJobs::Succeed", { "n" => i, "sleep" => 0.01 }) }
    pid, log = start_listener(pool: 3, mode: mode)
    eventually(30, "50 jobs complete") { jids.all? { |j| @client.jobs[j].state == "complete" } }
    jobs = jids.map { |j| @client.jobs[j] }
    poppers = jobs.flat_map { |j| j.history.select { |h| h["what"] == "popped" }.map { |h| h["worker"] } }.uniq
    assert poppers.all? { |w| w.start_with?("lsn") }, poppers.inspect
    started = File.join(@dir, "started")
    slow = @sched.add_now("TestJobs::Sleep", { "seconds" => 1, "started_file" => started })
    eventually(20, "slow job start") { File.exist?(started) }
    Process.kill(:TERM, pid)
    assert_equal 0, finish(pid).exitstatus, File.read(log)
    assert_equal "complete", @client.jobs[slow].state, File.read(log)
    assert_equal true, @client.jobs[slow].data["slept"]
    [pid, jobs.map(&:data)]
  end

  def test_thread_pool_completes_jobs_and_stops_gracefully
    pid, data = check_pool(:thread)
    assert_equal [pid], data.map { |d| d["ran_in"] }.uniq, "threads of the listener itself"
    assert_operator data.map { |d| d["thread"] }.uniq.size, :>=, 2, "jobs ran on several Ruby threads"
  end

  def test_process_pool_completes_jobs_and_stops_gracefully
    pid, data = check_pool(:fork)
    refute_includes data.map { |d| d["ran_in"] }, pid, "jobs ran in forked children"
  end

  def test_max_jobs_counts_every_thread
    jids = Array.new(5) { |i| @sched.add_now("TestJobs::Succeed", { "n" => i }) }
    pid, log = start_listener(pool: 2, mode: :thread, max_jobs: 3)
    assert_equal 0, finish(pid).exitstatus, File.read(log)
    assert_equal %w[complete complete complete waiting waiting], jids.map { |j| @client.jobs[j].state }.sort
  end

  # The classes a listener may run come from allow: or
  # $QLESS_WORKER_ALLOW; with neither it refuses to start (usage error).
  def test_listen_needs_an_allow_list
    jid = @sched.add_now("TestJobs::Succeed", {})
    pid, log = start_listener(allow: nil, pool: 2, mode: :thread)
    assert_equal 2, finish(pid).exitstatus, File.read(log)
    assert_match(/allow/, File.read(log))
    assert_equal "waiting", @client.jobs[jid].state
  end

  # listen runs qless_schedule_listen_run with typed options, not the
  # worker command: it works with the command's entry (Core.worker_main,
  # whose argv qless_worker_main parses) gone, and its pool threads reserve
  # as "<worker name>-<i>", which only the typed listen names them.
  def test_listen_hands_the_core_typed_options_not_a_command_line
    jids = Array.new(4) { |i| @sched.add_now("TestJobs::Succeed", { "n" => i }) }
    log = File.join(@dir, "stderr-typed")
    code = <<~RUBY
      require "qless"
      require #{JOBS.inspect}
      Qless::Core.singleton_class.send(:remove_method, :worker_main)
      client = Qless::Client.new(#{QlessTest::URL.inspect}, worker_name: "lsn")
      exit client.schedules["tasks"].listen(pool: 2, mode: :thread, max_jobs: 4, allow: "TestJobs::*", interval: 0.05)
    RUBY
    pid = spawn_child(QlessTest.ruby_command("-e", code), log, env: { "QLESS_WORKER_ALLOW" => nil })
    assert_equal 0, finish(pid).exitstatus, File.read(log)
    assert_equal %w[complete] * 4, jids.map { |j| @client.jobs[j].state }
    poppers = jids.flat_map { |j| @client.jobs[j].history.select { |h| h["what"] == "popped" }.map { |h| h["worker"] } }
    refute_empty poppers
    assert_empty poppers.uniq - %w[lsn-1 lsn-2], poppers.inspect
  end

  def test_listen_arguments_are_checked
    assert_raises(ArgumentError) { @sched.listen(mode: :green) }
    [0, -1, 1.5, "3"].each { |pool| assert_raises(ArgumentError, pool.inspect) { @sched.listen(pool: pool) } }
    assert_raises(ArgumentError) { Qless::Core.worker_main(["w"], ->(*) {}, 129) }
    # The typed entry itself: its options Hash is checked before anything runs.
    run = Qless::Worker.method(:run)
    e = assert_raises(Qless::InvalidArgument) { Qless::Core.schedule_listen(@sched, run, { threads: 2 }) }
    assert_match(/unknown option 'threads'/, e.message)
    assert_raises(TypeError) { Qless::Core.schedule_listen(@sched, run, { max_jobs: "3" }) }
    assert_raises(TypeError) { Qless::Core.schedule_listen("tasks", run, {}) }
    assert_raises(TypeError) { Qless::Core.schedule_listen(@sched, nil, {}) }
  end
end
