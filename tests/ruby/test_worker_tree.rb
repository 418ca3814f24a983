# frozen_string_literal: true

require "worker_test"

# Tree jobs in bin/qless-worker (the conformance scenarios are in
# tests/worker/test_tree_conformance.py): which classes the worker takes
# for tree classes, suspend refused at the call for a plain job, children
# put from perform, a failing shutdown kept in the history.
class TestWorkerTree < QlessTest::WorkerTest

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

  # The tree options reach C only whole and well-formed.
  def test_worker_main_refuses_bad_tree_options
    perform = proc {}
    main = ->(tree) { Qless::Core.worker_main(["qless-worker"], perform, 0, tree) }
    e = assert_raises(ArgumentError) { main.call({ klasses: ["A"], configs: ["{}", "{}"] }) }
    assert_match(/worker_main: tree\[:configs\] must have one entry per class/, e.message)
    e = assert_raises(TypeError) { main.call({ klasses: ["A", 1] }) }
    assert_match(/worker_main: tree\[1\] is not a String/, e.message)
    assert_raises(ArgumentError) { main.call({ klasses: ["A\0B"] }) }
    e = assert_raises(TypeError) { main.call({ klasses: "A" }) }
    assert_match(/tree\[:klasses\] must be an Array/, e.message)
    assert_raises(TypeError) { main.call([]) }
  end

  # Runs a worker until it has done max_jobs jobs; its log.
  def work(max_jobs)
    status, log = run_worker("--max-jobs", max_jobs.to_s)
    assert_equal 0, status.exitstatus, log
    log
  end

  def test_suspend_children_and_shutdown
    plain = @queue.put("TestJobs::SuspendPlain", {})
    family = @queue.put("TestJobs::Family", {}, tree: true)
    log = work(3)

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
    log = work(1)
    assert_equal "terminated", tree.refresh.state, log
    entry = @client.jobs[family].history.find { |h| h["what"] == "shutdown-error" }
    assert entry, log
    assert_match(/\AArgumentError: ArgumentError: cannot shut down\n/, entry["error"])
  end
end
