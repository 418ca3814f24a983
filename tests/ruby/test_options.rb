# frozen_string_literal: true

require "helper"

# The QLESS_OPTIONS typemap (swig/ruby.i) called directly: a Hash of option
# name -> value becomes qless_put_options; nil means "not given".
class TestOptions < QlessTest::Test
  WRONG = { jid: 5, delay: "soon", priority: "high", retries: 1.5, tags: "a", depends: 7 }.freeze

  def put(opts) = Qless::Core.qless_queue_put(@queue.handle, "K", nil, opts)

  def test_given_options_reach_the_job
    job = @client.jobs[put({ priority: 2.5, "tags" => [:a, "b"], retries: 3, depends: nil, jid: :j1 })]
    assert_equal ["j1", 2.5, %w[a b], 3], [job.jid, job.priority, job.tags.sort, job.retries]
    job = @client.jobs[put(nil)]
    assert_equal [0, [], 5], [job.priority, job.tags, job.retries]
  end

  def test_unknown_names_and_wrong_types_name_the_option
    e = assert_raises(Qless::InvalidArgument) { put({ priorty: 1 }) }
    assert_match(/'priorty'.*priority/, e.message)
    WRONG.each do |name, value|
      e = assert_raises(TypeError) { put({ name => value }) }
      assert_match(/'#{name}'/, e.message)
    end
    assert_raises(Qless::InvalidArgument) { put({ retries: 2**40 }) }
    assert_equal 0, @queue.length
  end

  def test_namespace_client_option
    ns = Qless::Client.new(QlessTest::URL, namespace: "rb")
    assert_equal "rb", ns.namespace
    jid = ns.queues["q"].put("K", {})
    assert_equal "q", Qless::Client.new("#{QlessTest::URL}?namespace=rb").jobs[jid].queue.name
    assert_nil @client.jobs[jid]
    assert_raises(Qless::InvalidArgument) { Qless::Client.new(QlessTest::URL, namespace: "a/b") }
  end
end
