# frozen_string_literal: true

require "helper"
require "tmpdir"
require "fileutils"

# Tree jobs in bin/qless-worker (the conformance scenarios are in
# tests/worker/test_tree_conformance.py): which classes the worker takes
# for tree classes, suspend refused at the call for a plain job, children
# put from perform, a failing shutdown kept in the history.
class TestWorkerTree < QlessTest::Test
  include QlessTest::Children
  WORKER = File.join(QlessTest::RUBY_DIR, "bin", "qless-worker")
  JOBS = File.join(QlessTest::HERE, "jobs", "jobs.rb")

  module Jobs
    class Ported
      def self.inports = { "in" => { "default" => 1 } }
      def self.outports = "{\"out\": {}}"
      def self.perform(_job) = nil
    end

    class Hooked
      def self.perform(_job) = nil
      def self.startup(_job) = nil
    end

    class Plain
      def self.perform(_job) = nil
    end

    # Not a job class: no perform.
    module Helper
      def self.startup = nil
    end
  end

  def setup
    super
    @dir = Dir.mktmpdir("qless-worker-tree")
  end

  def teardown
    kill_children
    FileUtils.rm_rf(@dir)
  end

  def test_tree_classes_are_the_loaded_job_classes_with_ports_or_hooks
    found = Qless::TreeClass.loaded.to_h
    assert_equal '{"inports":{"in":{"default":1}},"outports":{"out": {}}}', found["TestWorkerTree::Jobs::Ported"]
    assert_includes found.keys, "TestWorkerTree::Jobs::Hooked"
    assert_nil found["TestWorkerTree::Jobs::Hooked"], "hooks without ports: no config"
    refute_includes found.keys, "TestWorkerTree::Jobs::Plain"
    refute_includes found.keys, "TestWorkerTree::Jobs::Helper"
    refute_includes found.keys, "Qless::Worker", "the worker's own callbacks make it no tree class"
    options = Qless::Worker.tree_options
    assert_equal found.keys, options[:klasses]
    assert_equal found.values, options[:configs]
    e = assert_raises(TypeError) { Qless::TreeClass.config(Class.new { def self.inports = 5 }) }
    assert_match(/inports: ports must be/, e.message)
  end

  def run_worker(max_jobs)
    log = File.join(@dir, "stderr-#{(@children || []).size}")
    cmd = QlessTest.ruby_command(WORKER, "--url", QlessTest::URL, "--require", JOBS, "--interval", "0.1",
                                 "--allow", "TestJobs::*", "--queue", "testing", "--max-jobs", max_jobs.to_s)
    status = finish(spawn_child(cmd, log))
    assert_equal 0, status.exitstatus, File.read(log)
    File.read(log)
  end

  def test_suspend_children_and_shutdown
    plain = @queue.put("TestJobs::SuspendPlain", {})
    family = @queue.put("TestJobs::Family", {}, tree: true)
    log = run_worker(3)

    failed = @client.jobs[plain]
    assert_equal ["failed", "Qless::StateError"], [failed.state, failed.failure["group"]], log
    assert_match(/\AQless::StateError: qless_result_suspend: job #{plain} is not run as a tree job/,
                 failed.failure["message"])
    assert_match(%r{jobs/jobs\.rb:\d+:in `perform'\z}, failed.failure["message"], "the worker's own frames are cut")

    tree = @client.trees[family]
    assert_equal "suspended", tree.state, log
    kid = @client.trees[tree.children.fetch("kid")]
    assert_equal ["complete", "job:#{family}"], [kid.state, kid.created_by], log
    assert_equal [1], tree.ports.out["out"].read(5), "the class's outports, registered"

    assert_equal 1, tree.terminate
    log = run_worker(1)
    assert_equal "terminated", tree.refresh.state, log
    entry = @client.jobs[family].history.find { |h| h["what"] == "shutdown-error" }
    assert entry, log
    assert_match(/\AArgumentError: ArgumentError: cannot shut down\n/, entry["error"])
  end
end
