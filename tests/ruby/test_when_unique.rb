# frozen_string_literal: true

require "helper"

# Qless.when, Qless.unique_jid, client.cron_next, cron templates and unique
# puts (schedules.md §3.7, §5, §6.1-6.3).
class TestWhenUnique < QlessTest::SpecNowTest

  def test_when_reads_text_relative_to_now
    at = Qless.when("7pm tomorrow", now: N)
    assert_equal [:at, 1_772_737_200.0], [at.kind, at.at]
    assert_equal Time.utc(2026, 3, 5, 19), at.time
    assert_equal 1_772_737_200.0, Qless.when("7pm tomorrow", now: Time.at(N)).at
    assert_equal [:cron, "0 9 * * 1"], Qless.when("every monday 9am").then { |w| [w.kind, w.cron] }
    every = Qless.when("every 2 days at 9am", now: N)
    assert_equal [:interval, 172_800.0, 1_772_701_200.0], [every.kind, every.interval, every.at]
    error = assert_raises(Qless::InvalidArgument) { Qless.when("tomorow") }
    assert_match(/unknown word "tomorow" at column 1/, error.message)
    assert_raises(TypeError) { Qless.when(5) }
    assert_raises(TypeError) { Qless.when("now", now: "soon") }
  end

  def test_when_day_first_and_warning
    assert_equal 1_804_118_400.0, Qless.when("3/4/2027", now: N).at
    assert_equal 1_806_710_400.0, Qless.when("3/4/2027", now: N, day_first: true).at
    assert_equal "", Qless.when("3/4/2027", now: N).warning
    w = Qless.when("Thu Aug 10", now: N)
    assert_equal [:at, 1_786_320_000.0], [w.kind, w.at]
    assert_equal "2026-08-10 is a Monday, not a Thursday (it is in 2028); the date is used", w.warning
    assert_equal "", Qless.when("Mon Aug 10", now: N).warning
    assert_raises(TypeError) { Qless.when("3/4/2027", now: N, day_first: 1) }
  end

  def test_cron_next_and_cron_templates
    assert_equal [1_772_701_200, 1_772_787_600, 1_773_046_800], @client.cron_next("0 9 * * 1-5", 3)
    assert_raises(Qless::InvalidArgument) { @client.cron_next("0 24 * * *", 3) }
    jid = @queue.recur("K", { "r" => 1 }, cron: "@daily")
    recur = @client.recurring[jid]
    assert_equal "@daily", recur.cron
    assert_equal [1_772_668_800, 1_772_755_200], recur.next(2)
    assert_match(/cron @daily/, recur.inspect)
    assert_nil @client.recurring[@queue.recur("K", {}, 60)].cron
    assert_raises(ArgumentError) { @queue.recur("K", {}) }
    assert_raises(ArgumentError) { @queue.recur("K", {}, 60, cron: "@daily") }
  end

  def test_unique_put
    jid = @queue.put("K", { "a" => 1 }, unique: true)
    assert_equal Qless.unique_jid("testing", "K", { "a" => 1 }), jid
    assert_equal jid, @queue.put("K", '{ "a": 1 }', unique: true)
    assert_equal 1, @client.jobs[jid].history.count { |h| h["what"] == "put" }
    keyed = @queue.put("K", { "b" => 1 }, key: "only-one", report: true)
    assert_equal [Qless.unique_jid("testing", key: "only-one"), true], keyed
    assert_equal [keyed.first, false], @queue.put("K", { "b" => 2 }, key: "only-one", report: true)
    refute_equal @queue.put("K", { "a" => 1 }), @queue.put("K", { "a" => 1 }), "plain puts stay new jobs"
  end
end
