# frozen_string_literal: true

require "helper"

# The client/queue/job surface through the layer.
class TestApi < QlessTest::Test
  def test_life_cycle
    jid = @queue.put("TestJobs::Succeed", { "n" => 1 }, priority: 10, tags: %w[a b], retries: 3)
    assert_match(/\A\h{32}\z/, jid)
    peeked = @queue.peek
    assert_equal jid, peeked.jid
    assert_equal "waiting", peeked.state

    job = @queue.pop
    assert_equal jid, job.jid
    assert_equal "TestJobs::Succeed", job.klass_name
    assert_equal "testing", job.queue_name
    assert_equal "testing", job.queue.name
    assert_equal "running", job.state
    assert_equal "ruby-test", job.worker_name
    assert_equal({ "n" => 1 }, job.data)
    assert_equal 10, job.priority
    assert_equal %w[a b], job.tags
    assert_kind_of Integer, job.retries
    assert_equal 3, job.retries
    assert_equal 3, job.remaining
    assert_operator job.expires_at, :>, @client.now
    assert_operator job.ttl, :>, 0
    refute job.tracked?
    assert_nil job.failure
    assert_empty job.dependencies

    expires = job.heartbeat
    assert_kind_of Float, expires
    assert_equal "complete", job.complete
    done = @client.jobs[jid]
    assert_equal "complete", done.state
    assert_equal %w[put popped done], done.history.map { |h| h["what"] }
    assert_includes @client.jobs.complete, jid
    assert_nil @queue.pop
    assert_equal [], @queue.pop(3)
  end

  def test_pop_and_peek_with_count_and_block
    jids = 3.times.map { |i| @queue.put("K", { "i" => i }) }
    assert_equal 3, @queue.length
    assert_equal jids.sort, @queue.peek(5).map(&:jid).sort
    seen = []
    popped = @queue.pop(2) { |job| seen << job.jid }
    assert_equal 2, popped.size
    assert_equal popped.map(&:jid), seen
    assert_equal({ waiting: 1, running: 2, stalled: 0, scheduled: 0, depends: 0, recurring: 0, paused: false },
                 @queue.counts)
  end

  def test_data_changes_are_sent
    jid = @queue.put("K", '{"given":"as json"}')
    job = @queue.pop
    assert_equal({ "given" => "as json" }, job.data)
    job.data["progress"] = 50                 # mutated in place
    job.heartbeat
    assert_equal 50, @client.jobs[jid].data["progress"]
    job.data = { "replaced" => true }
    job.complete
    assert_equal({ "replaced" => true }, @client.jobs[jid].data)
  end

  def test_states_from_put_options
    a = @queue.put("K", {})
    b = @queue.put("K", {}, depends: [a])
    c = @queue.put("K", {}, delay: 60)
    assert_equal "depends", @client.jobs[b].state
    assert_equal [a], @client.jobs[b].dependencies
    assert_equal [b], @client.jobs[a].dependents
    assert_equal "scheduled", @client.jobs[c].state
    assert_equal [b], @client.jobs.depends("testing")
    assert_equal [c], @client.jobs.scheduled("testing")
    @client.jobs[b].undepend(a)
    assert_equal "waiting", @client.jobs[b].state
  end

  # nil means "not given" (keep), [] is sent (clear).
  def test_string_lists_nil_versus_empty
    jid = @queue.put("K", {}, tags: ["keep"])
    @queue.put("K", {}, jid: jid)
    assert_equal ["keep"], @client.jobs[jid].tags
    @queue.put("K", {}, jid: jid, tags: [])
    assert_equal [], @client.jobs[jid].tags
    assert_raises(TypeError) { @queue.put("K", {}, tags: "not a list") }
    assert_raises(TypeError) { Qless::Core.qless_client_get_jobs(@client.handle, [1]) }
    assert_raises(TypeError) { Qless::Core.qless_client_get_jobs(@client.handle, "x") }
  end

  def test_fail_retry_unfail
    jid = @queue.put("K", {}, retries: 1)
    job = @queue.pop
    assert_equal 0, job.retry(0, "oops", "first try")
    job = @queue.pop
    assert_equal jid, job.fail("Some::Error", "broke\nline 2")
    failed = @client.jobs[jid]
    assert_equal "failed", failed.state
    assert_equal "Some::Error", failed.failure["group"]
    assert_equal "broke\nline 2", failed.failure["message"]
    assert_equal "ruby-test", failed.failure["worker"]
    assert_equal({ "Some::Error" => 1 }, @client.jobs.failed)
    listing = @client.jobs.failed("Some::Error")
    assert_equal 1, listing[:total]
    assert_equal [jid], listing[:jobs].map(&:jid)
    assert_equal 1, @queue.unfail("Some::Error")
    assert_equal "waiting", @client.jobs[jid].state
  end

  def test_complete_to_next_queue
    jid = @queue.put("K", {})
    assert_equal "waiting", @queue.pop.complete("next-step")
    assert_equal "next-step", @client.jobs[jid].queue_name
    assert_includes @client.queues.names, "next-step"
  end

  def test_tags_tracking_priority_requeue_cancel
    jid = @queue.put("K", {})
    job = @client.jobs[jid]
    job.tag("red", "blue")
    @queue.put("K", {}, tags: ["red"])
    assert_equal %w[red blue], job.tags
    assert_equal 2, @client.jobs.tagged("red")[:total]
    assert_equal({ "red" => 2 }, @client.jobs.top_tags)
    job.untag("blue")
    assert_equal ["red"], @client.jobs[jid].tags
    job.track
    assert @client.jobs[jid].tracked?
    assert_equal [jid], @client.jobs.tracked[:jobs].map(&:jid)
    job.untrack
    job.priority = 7
    assert_equal 7, @client.jobs[jid].priority
    job.requeue("elsewhere", priority: 3)
    assert_equal "elsewhere", @client.jobs[jid].queue_name
    @client.jobs[jid].cancel
    assert_nil @client.jobs[jid]
  end

  def test_config
    assert_equal 60, @client.config["heartbeat"]
    @client.config["heartbeat"] = 90
    assert_equal 90, @client.config["heartbeat"]
    assert_equal 90, @client.config.to_h["heartbeat"]
    @client.config.delete("heartbeat")
    assert_equal 60, @client.config["heartbeat"]
    assert_nil @client.config["no-such-option"]
  end

  def test_queue_controls_and_stats
    @queue.put("K", {})
    @queue.pause
    assert @queue.paused?
    assert_nil @queue.pop
    @queue.unpause
    @queue.heartbeat = 10
    assert_equal 10, @client.config["testing-heartbeat"]
    @queue.max_concurrency = 2
    @queue.pop.complete
    stats = @queue.stats
    assert_equal 1, stats[:run][:count]
    assert_equal 148, stats[:wait][:histogram].size
    assert_equal 1, stats[:wait][:histogram].sum
    assert_equal "testing", @client.queues.counts.first["name"]
  end

  def test_recurring
    jid = @queue.recur("K", { "r" => 1 }, 60, priority: 2, tags: ["rec"], retries: 2)
    rec = @client.recurring[jid]
    assert_equal "K", rec.klass_name
    assert_equal 60, rec.interval
    assert_equal({ "r" => 1 }, rec.data)
    assert_equal ["rec"], rec.tags
    assert_equal 2, rec.retries
    job = @queue.pop                           # the first instance spawns now
    assert_equal "#{jid}-1", job.jid
    assert_equal jid, job.spawned_from_jid
    rec.interval = 30
    rec.data = { "r" => 2 }
    assert_equal 30, @client.recurring[jid].interval
    assert_equal 1, @client.recurring[jid].count
    rec.cancel
    assert_nil @client.recurring[jid]
  end

  def test_workers_listing
    jid = @queue.put("K", {})
    @queue.pop
    assert_equal({ "ruby-test" => 1 }, @client.workers.counts)
    assert_equal({ jobs: [jid], stalled: [] }, @client.workers["ruby-test"])
    @client.workers.deregister("ruby-test")
    assert_empty @client.workers.counts
  end

  def test_events
    events = @client.events("log")
    jid = @queue.put("K", {})
    channel, message = events.next_message(5)
    assert_equal "log", channel
    assert_equal({ "jid" => jid, "event" => "put", "queue" => "testing" }, JSON.parse(message))
    assert_nil events.next_message(0.1)
    events.close

    # Block form: the wait runs without the GVL, so this thread (with a
    # client of its own) publishes while the main thread waits.
    other = Qless::Client.new(QlessTest::URL)
    publisher = Thread.new { sleep 0.3; other.config["color"] = "blue" }
    got = @client.events("log", timeout: 5) { |ch, msg| break [ch, JSON.parse(msg)] }
    publisher.join
    assert_equal ["log", { "option" => "color", "event" => "config_set", "value" => "blue" }], got
    assert_nil(@client.events("log", timeout: 0.2) { |*| flunk "no message expected" })
  end

  def test_strings_are_utf8_and_integers_integers
    jid = @queue.put("Größe", { "wert" => "ünïcödé" })
    job = @client.jobs[jid]
    assert_equal Encoding::UTF_8, job.klass_name.encoding
    assert_equal "Größe", job.klass_name
    assert_equal "ünïcödé", job.data["wert"]
    assert_kind_of Integer, @queue.length
    assert_kind_of Integer, Qless.handle_count
    assert_equal Encoding::UTF_8, jid.encoding
  end

  def test_unix_socket_url_and_raw_call
    client = Qless::Client.new(QlessTest::UNIX_URL)
    jid = client.queues["unix"].put("K", {})
    assert_equal "waiting", JSON.parse(client.call("get", jid))["state"]
    assert_nil client.call("get", "no-such-jid")
  end
end
