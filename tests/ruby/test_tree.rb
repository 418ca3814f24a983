# frozen_string_literal: true

require "helper"

# Job trees through the Ruby layer (jobtrees.md; the protocol itself is
# tested by tests/protocol): values go in and come out as Ruby data, names
# and jids are converted, and errors arrive as Qless::Error subclasses.
class TestTree < QlessTest::Test
  # A class whose declaration gives the registry its config.
  class Ported
    def self.inports = { "in" => {}, "limit" => { "default" => 3 } }
    def self.outports = %w[out]
    def self.perform(_job) = nil
  end

  def put_tree(klass = "K", **opts) = @queue.put(klass, {}, tree: true, **opts)

  def test_tree_fields_are_native_values
    parent = put_tree(aliases: %w[zeta alpha], inports: { "in" => { "default" => 0 } }, outports: ["out"], by: "me")
    child = @queue.put("C", {}, parent: parent, name: "kid")
    tree = @client.trees[parent]
    assert_equal [parent, "K", "testing", "waiting"], [tree.jid, tree.klass_name, tree.queue_name, tree.state]
    assert_nil tree.parent
    assert_nil tree.name
    assert_nil tree.started
    assert_equal false, tree.rerun?
    assert_equal 0, tree.runs
    assert_equal "me", tree.created_by
    assert_equal({ "kid" => child }, tree.children)
    assert_equal %w[alpha zeta], tree.aliases
    assert_equal({ "in" => { "default" => 0 } }, tree.inports)
    assert_equal({ "out" => {} }, tree.outports)
    assert_equal({}, tree.inchannels)
    assert_equal({ "in" => { "in" => 0 }, "out" => { "out" => 0 } }, tree.sizes)
    assert_equal tree.children, tree.to_h["children"]

    kid = @client.trees[child]
    assert_equal [parent, "kid", "ruby-test"], [kid.parent, kid.name, kid.created_by]
    assert_equal %w[], kid.aliases
    assert_equal({ "in" => {}, "out" => {} }, kid.sizes)
  end

  def test_unknown_and_plain_jobs
    assert_nil @client.trees["no-such-jid"]
    plain = @queue.put("K", {})
    e = assert_raises(Qless::StateError) { @client.trees[plain] }
    assert_match(/is not a tree job/, e.message)
  end

  # Seeded random Ruby data through an input port and the store: what comes
  # out equals what went in, in order.
  def test_values_round_trip
    seed = Integer(ENV.fetch("QLESS_TEST_SEED", Random.new_seed % 100_000))
    rng = Random.new(seed)
    jid = put_tree(inports: ["in"])
    port = @client.trees[jid].ports.in["in"]
    values = Array.new(40) { random_value(rng, 3) }
    values.each_slice(7) { |slice| assert_equal slice.size, port.write(*slice) }
    assert_equal values.size, port.size, "seed #{seed}"
    assert_equal values.first(3), port.peek(3), "seed #{seed}"
    got = []
    got.concat(port.read(rng.rand(1..10))) while got.size < values.size
    assert_equal values, got, "seed #{seed}"
    assert_equal [], port.read(5)

    store = @client.trees[jid].store
    values.first(10).each_with_index { |v, i| store["k#{i}"] = v }
    assert_equal values.first(10), Array.new(10) { |i| store["k#{i}"] }, "seed #{seed}"
  end

  def random_value(rng, depth)
    case depth.zero? ? rng.rand(6) : rng.rand(8)
    when 0 then rng.rand(-10**18..10**18)
    when 1 then rng.rand.round(6)
    when 2 then Array.new(rng.rand(1..8)) { [*"a".."z", "é", "\"", "/", " "].sample(random: rng) }.join
    when 3 then [true, false].sample(random: rng)
    when 4 then nil
    when 5 then ""
    when 6 then Array.new(rng.rand(4)) { random_value(rng, depth - 1) }
    else Array.new(rng.rand(4)) { |i| ["k#{i}", random_value(rng, depth - 1)] }.to_h
    end
  end

  def test_ports
    jid = put_tree(inports: { "in" => {}, "n" => { "default" => 5 } })
    tree = @client.trees[jid]
    assert_equal [5], tree.ports.in["n"].read, "a default when empty"
    assert_equal 2, tree.ports.out.define("out", "log")
    assert_equal 1, tree.ports.out["result"].define(default: "none")
    assert_equal({ "out" => {}, "log" => {}, "result" => { "default" => "none" } }, tree.refresh.outports)
    assert_equal 2, tree.ports.out["out"].write("text", { "a" => [1] })
    assert_equal ["text", { "a" => [1] }], tree.ports.output["out"].read(10), "an output port without channels keeps values"
    assert_equal 1, tree.ports.out.remove("log", "nope")
    assert_equal 1, tree.ports.out["result"].remove
    assert_equal({ "out" => {} }, tree.refresh.outports)

    e = assert_raises(Qless::NotFound) { tree.ports.in["missing"].read }
    assert_match(/does not exist/, e.message)
    assert_raises(Qless::InvalidArgument) { tree.ports.in["a-b"].write(1) }
    assert_raises(Qless::InvalidArgument) { tree.ports.in["in"].read(0) }
    e = assert_raises(TypeError) { tree.ports.in["in"].read("2") }
    assert_match(/Port#read: count/, e.message)
    e = assert_raises(ArgumentError) { tree.ports.in["in"].write(1, Float::NAN) }
    assert_match(/Port#write: value 2/, e.message)
    assert_equal 0, tree.ports.in["in"].size, "nothing written"
    e = assert_raises(ArgumentError) { tree.ports.in["in"].define(defualt: 1) }
    assert_match(/Port#define: unknown option :defualt/, e.message)
    e = assert_raises(TypeError) { @queue.put("K", {}, inports: 5) }
    assert_match(/Queue#put: inports/, e.message)
  end

  def test_channels
    a = put_tree(inports: ["in"])
    b = put_tree(inports: ["in"])
    assert_equal 1, @client.trees[a].ports.in["in"].connect("/orders/eu")
    assert_equal 0, @client.trees[a].ports.in["in"].connect("/orders/eu"), "already linked"
    assert_equal 1, @client.trees[b].ports.in["in"].connect("/orders")
    assert_equal({ "in" => ["/orders/eu"] }, @client.trees[a].inchannels)
    assert_equal [[a, "in"]], @client.channels["/orders/eu"].subscribers
    assert_equal [], @client.channels["/nobody"].subscribers

    assert_equal 2, @client.channels["/orders/eu"].publish({ "id" => 7 }, from: @client.trees[a])
    assert_equal 1, @client.channels["/orders"].publish("x")
    assert_equal [{ "id" => 7 }], @client.trees[a].ports.in["in"].read(5)
    assert_equal [{ "id" => 7 }, "x"], @client.trees[b].ports.in["in"].read(5)

    assert_equal 1, @client.trees[a].ports.in["in"].disconnect("/orders/eu", "/never")
    assert_equal [], @client.channels["/orders/eu"].subscribers
    e = assert_raises(Qless::InvalidArgument) { @client.channels["/qless/x"].publish(1) }
    assert_match(/is reserved/, e.message)
    assert_raises(Qless::InvalidArgument) { @client.channels["no-slash"].publish(1) }
  end

  def test_store
    jid = put_tree
    store = @client.trees[jid].store
    assert_nil store["missing"]
    refute store.key?("a")
    store["a"] = 1
    store[:b] = { "c" => [2] }
    assert store.key?("b")
    assert_equal({ "a" => 1, "b" => { "c" => [2] } }, store.to_h)
    assert_equal [%w[a b], [1, { "c" => [2] }]], [store.map(&:first), store.map(&:last)]
    assert_equal 1, store.delete("a", "zzz")
    assert_equal({ "b" => { "c" => [2] } }, store.to_h)
    assert_raises(ArgumentError) { store["x"] = Float::INFINITY }
    assert_nil store["x"]
    assert_raises(Qless::StateError) { @client.jobs[@queue.put("K", {})].store["a"] = 1 }
  end

  def test_hierarchy_and_aliases
    root = put_tree
    other = put_tree
    tree = @client.trees[root]
    assert tree.adopt("b", @client.trees[other])
    assert_equal({ "b" => other }, tree.refresh.children)
    assert_raises(Qless::StateError) { @client.trees[other].adopt("up", root) }   # a cycle
    assert_raises(Qless::StateError) { tree.adopt("b", put_tree) }                 # name taken
    assert_equal other, tree.disown("b")
    assert_nil @client.trees[other].parent
    assert_raises(Qless::NotFound) { tree.disown("b") }

    assert_equal 2, tree.add_aliases("nightly", "n2")
    assert_equal 0, tree.add_aliases("nightly")
    assert_equal root, @client.aliases["nightly"]
    assert_raises(Qless::StateError) { @client.trees[other].add_aliases("nightly") }
    @client.aliases["third"] = @client.trees[other]
    assert_equal other, @client.aliases["third"]
    assert_equal 1, tree.remove_aliases("n2")
    assert_equal 1, @client.aliases.delete("third", "never")
    assert_nil @client.aliases["third"]
    assert_equal %w[nightly], tree.refresh.aliases
  end

  def test_run_terminate_delete
    root = put_tree
    kid = @queue.put("C", {}, parent: root, name: "kid")
    tree = @client.trees[root]
    assert_equal "waiting", tree.run
    assert_equal 2, tree.terminate(recursive: true)
    assert_equal 0, tree.terminate
    assert_equal %w[terminated terminated], [tree.refresh.state, @client.trees[kid].state]
    assert_equal "scheduled", @client.trees[kid].run(30), "a restart"
    assert_raises(Qless::StateError) { tree.delete }
    assert_equal 1, @client.trees[kid].terminate
    assert_equal 2, tree.delete
    assert_nil @client.trees[root]
    assert_raises(TypeError) { tree.run("soon") }
  end

  def test_klass_registry
    assert @queue.register_klass(Ported)
    refute @queue.register_klass(Ported), "replaced"
    config = { "inports" => { "in" => {}, "limit" => { "default" => 3 } }, "outports" => { "out" => {} } }
    assert_equal config, @queue.klass_config(Ported)
    assert @queue.register_klass("Other", { "inports" => ["x"].to_h { |p| [p, {}] }, "note" => 1 })
    assert_equal({ "TestTree::Ported" => config, "Other" => { "inports" => { "x" => {} }, "note" => 1 } },
                 @queue.klass_config)
    jid = @queue.put(Ported, {}, tree: true)
    assert_equal config["inports"], @client.trees[jid].inports, "a new tree job gets its class's ports"
    assert @queue.unregister_klass(Ported)
    refute @queue.unregister_klass(Ported)
    assert_nil @queue.klass_config("TestTree::Ported")
    assert_equal({}, @client.queues["empty"].klass_config)
    e = assert_raises(ArgumentError) { @queue.register_klass(Class.new { def self.perform(_) = nil }) }
    assert_match(/anonymous|declares no ports/, e.message)
    assert_raises(Qless::InvalidArgument) { @queue.register_klass("K", "[1]") }
  end

  # The perform side, by a client that holds the job itself.
  def test_job_children_parent_read_write_suspend
    root = put_tree(inports: ["in"], outports: ["out"])
    @client.trees[root].ports.in["in"].write(1, 2)
    job = @queue.pop
    assert_equal [1, 2], job.read("in", 5)
    assert_equal 1, job.write("out", "r")
    child = job.children.put("worker.1", "C", { "n" => 1 }, inports: ["in"], queue: "kids")
    assert_equal({ "worker.1" => child }, job.children.to_h)
    assert_equal child, job.children["worker.1"]
    kid = @client.trees[child]
    assert_equal [root, "worker.1", "job:#{root}", "kids"], [kid.parent, kid.name, kid.created_by, kid.queue_name]
    assert_equal({ "in" => {} }, kid.inports)
    e = assert_raises(ArgumentError) { job.children.put("x", "C", {}, by: "me") }
    assert_match(/Children#put: by:/, e.message)
    job.store["seen"] = 2
    assert_equal 2, @client.trees[root].store["seen"]
    assert_nil job.parent
    job.started
    assert_equal "running", @client.trees[root].run
    assert_equal true, @client.trees[root].rerun?
    assert_equal true, job.suspend, "asked to run again during the run: requeued"
    assert_equal "waiting", @client.trees[root].state
    job = @queue.pop
    assert_equal false, job.suspend
    assert_equal "suspended", @client.trees[root].state
    assert_equal root, @client.jobs[child].then { |j| j.parent.jid }
    assert_equal ["r"], @client.trees[root].ports.out["out"].read
  end

  def test_requeue_takes_the_tree_options
    root = @client.queues["q"].put("Root", {}, tree: true)
    jid = @client.queues["q"].put("Plain", {})
    @client.jobs[jid].requeue("q2", priority: 3, parent: root, name: "moved", inports: ["in"], by: "ops")
    tree = @client.trees[jid]
    assert_equal ["q2", root, "moved", { "in" => {} }], [tree.queue.name, tree.parent, tree.name, tree.inports]
    assert_equal({ "moved" => jid }, @client.trees[root].children)
    assert_raises(ArgumentError) { @client.jobs[jid].requeue("q", colour: "red") }
  end
end
