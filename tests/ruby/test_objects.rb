# frozen_string_literal: true

require "helper"

# The layer over the object model of swig/objects.i: Qless's classes are
# the core's classes, reopened; the members ruby.i renames still reach the
# C getters; queue counts come from the typed list, and agree with the
# server's `queues` reply. Seeded: QLESS_TEST_SEED replays a run.
class TestObjects < QlessTest::Test
  SEED = Integer(ENV.fetch("QLESS_TEST_SEED") { rand(2**31) })

  def rng
    @rng ||= Random.new(SEED)
  end

  def seeded(msg) = "#{msg} (QLESS_TEST_SEED=#{SEED})"

  def test_classes_are_the_cores_and_handles_themselves
    { Client: :Client, Queue: :Queue, Job: :Job, RecurringJob: :Recur, Events: :Events }.each do |ours, core|
      assert_same Qless::Core.const_get(core), Qless.const_get(ours)
    end
    job = @client.jobs[@queue.put("K", {})]
    assert_same job, job.handle
    assert_same @client, job.client
    assert_same @client, job.queue.client
    assert_same @client, @client.handle
  end

  # Each Ruby name ruby.i gives a core member reads what the flat C getter
  # reads, over jobs in random states.
  def test_renamed_members_read_their_getters
    getters = { klass_name: :klass, queue_name: :queue, worker_name: :worker, expires_at: :expires,
                to_json_text: :json, jid: :jid, state: :state, priority: :priority, retries: :retries }
    8.times do |i|
      q = @client.queues["q#{rng.rand(3)}"]
      q.put("Klass#{i}", { "i" => i }, priority: rng.rand(10), retries: rng.rand(5), tags: ["t#{i}"])
      q.pop if rng.rand(2).zero?
    end
    %w[q0 q1 q2].flat_map { |q| @client.queues[q].peek(10) + @client.jobs.running(q).map { |j| @client.jobs[j] } }
                .each do |job|
      getters.each do |ours, c|
        assert_equal Qless::Core.send("qless_job_#{c}", job), job.send(ours), seeded("#{ours} of #{job.jid}")
      end
      assert_equal [Qless::Core.qless_job_tag(job, 0)], job.tags
    end
    rec = @client.recurring[@queue.recur("R", {}, 60, tags: %w[x y])]
    %i[klass queue].each { |c| assert_equal Qless::Core.send("qless_recur_#{c}", rec), rec.send("#{c}_name") }
    assert_equal %w[x y], rec.tags
  end

  # Random queues in random states (waiting, scheduled, depends, running,
  # recurring, paused), seen by a client whose clock may be an hour ahead
  # (its running jobs are then stalled): the typed counts are the `queues`
  # reply, queue by queue.
  def test_queue_counts_match_the_protocol_reply
    assert_equal [], @client.queues.counts
    names = Array.new(rng.rand(2..5)) { |i| "counts-#{i}" }
    names.each { |n| fill(@client.queues[n]) }
    names.sample(rng.rand(names.size + 1), random: rng).each { |n| @client.queues[n].pause }
    viewer = Qless::Client.new(QlessTest::URL, worker_name: "viewer")
    viewer.time_offset = rng.rand(2) * 3600
    typed = viewer.queues.counts
    assert_equal JSON.parse(viewer.call("queues")), typed, seeded("counts")
    assert_equal names.sort, typed.map { |c| c["name"] }.sort
  end

  # A released handle (or one the worker engine lent for a finished call)
  # inspects without touching C; SWIG's errors about it inspect it too.
  def test_released_handles_inspect
    job = @client.jobs[@queue.put("K", {})]
    client = Qless::Client.new(QlessTest::URL)
    assert_match(/\A#<Qless::Job K \h{32} \(waiting in "testing"\)>\z/, job.inspect)
    [job, client, client.queues["x"]].each do |handle|
      Qless::Core.release(handle)
      assert_match(/\A#<Qless::\w+ \(released\)>\z/, handle.inspect)
    end
    e = assert_raises(RuntimeError) { job.state }
    assert_equal "ObjectPreviouslyDeleted", e.class.name
    assert_raises(RuntimeError) { client.worker_name }
  end

  private

  def fill(queue)
    jids = Array.new(rng.rand(1..6)) { |i| queue.put("K", {}, delay: i.zero? ? 0 : rng.rand(2) * 600) }
    rng.rand(3).times { queue.put("K", {}, depends: [jids.first]) }
    queue.recur("K", {}, 3600, offset: 3600) if rng.rand(2).zero?
    queue.pop(rng.rand(1..3))   # at least one job running (or, an hour on, stalled)
  end
end
