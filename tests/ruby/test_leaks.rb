# frozen_string_literal: true

require "helper"

# Every handle the layer makes (clients, queues, jobs, lists, events,
# heartbeaters, recurring templates, workers) is freed: the live handle
# count returns to where it started once the Ruby objects are collected.
class TestLeaks < QlessTest::Test
  def exercise
    client = Qless::Client.new(QlessTest::URL, worker_name: "leaky")
    queue = client.queues["leaks"]
    20.times { |i| queue.put("K", { "i" => i }, tags: ["t"]) }
    queue.peek(5)
    queue.pop(10).each_with_index do |job, i|
      job.data
      job.history
      i.even? ? job.complete : job.fail("grp", "msg")
    end
    client.jobs.failed
    client.jobs.failed("grp")
    client.jobs.tagged("t")
    client.jobs.tracked
    client.jobs.multiget(*client.jobs.complete)
    client.workers.counts
    client.workers["leaky"]
    queue.counts
    queue.stats
    rec = client.recurring[queue.recur("K", {}, 60)]
    rec.tags
    events = client.events("log")
    events.next_message(0)
    events.close
    worker = client.worker(["leaks"], { order: Qless::Core::QLESS_RESERVE_ORDERED, watch_locks: 1 })
    job = Qless::Job.new(client, Qless::Core.qless_worker_reserve(worker))
    Qless::Core.qless_worker_lost_locks(worker, 0)
    hb = Qless::Core.qless_heartbeater_new(job.handle, 10)
    Qless::Core.release(hb)
    5.times do
      queue.put("K", "{bad")
    rescue Qless::InvalidArgument
      nil
    end
    client.jobs["missing"]
    nil
  end

  def test_handle_count_returns_to_start
    GC.start
    before = Qless.handle_count
    # In a thread, so no reference lingers on this stack for the
    # conservative collector to find.
    Thread.new { exercise }.join
    3.times { GC.start(full_mark: true, immediate_sweep: true) }
    assert_equal before, Qless.handle_count
  end

  def test_handles_are_counted
    before = Qless.handle_count
    jobs = Thread.new { 3.times.map { @client.jobs[@queue.put("K", {})] } }.value
    assert_equal before + 3, Qless.handle_count
    jobs.each { |j| Qless::Core.release(j.handle) }
    assert_equal before, Qless.handle_count
  end
end
