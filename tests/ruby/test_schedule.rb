# frozen_string_literal: true

require "helper"

# client.schedules (schedules.md §6.4, §7; checklist BND-1, the Ruby half
# of UNQ-10), checked against what lands in Redis. Listening is in
# test_worker_listen.rb.
class TestSchedule < QlessTest::SpecNowTest
  def setup
    super
    @sched = @client.schedules["tasks"]
  end

  def q(*args) = QlessTest.query(*args)
  def scheduled_at(jid) = q("ZSCORE", "ql:q:tasks-scheduled", jid)&.to_f
  def state(jid) = q("HGET", "ql:j:#{jid}", "state")

  def test_at_takes_text_numbers_and_times
    cases = [["7pm tomorrow", 1_772_737_200], [1_772_737_260, 1_772_737_260],
             [Time.new(2026, 3, 5, 21, 2, 0, "+02:00"), 1_772_737_320], [Time.at(1_772_737_380).utc, 1_772_737_380]]
    cases.each_with_index do |(at, want), i|
      jid = @sched.add("K", { "i" => i }, at: at)
      assert_equal "scheduled", state(jid), at.inspect
      assert_in_delta want, scheduled_at(jid), 0.5, at.inspect
    end
    error = assert_raises(Qless::InvalidArgument) { @sched.add("K", { "past" => 1 }, at: "today at 9am") }
    assert_match(/at_text 2026-03-04T09:00:00Z is in the past/, error.message)
    assert_equal "waiting", state(@sched.add("K", { "now" => 1 }, at: "now")), "now runs at once"
  end

  def test_day_first_and_the_weekday_warning
    assert_equal 1_775_379_600, scheduled_at(@sched.add("M", at: "4/5/2026 9am"))            # 2026-04-05T09:00Z
    assert_equal 1_777_885_200, scheduled_at(@sched.add("D", at: "4/5/2026 9am", day_first: true)) # 05-04
    assert_raises(TypeError) { @sched.add("D", at: "4/5/2026 9am", day_first: 1) }
    jid = nil
    assert_output(nil, "Qless::Schedule#add: warning: 2026-08-10 is a Monday, not a Thursday; " \
                       "the date is used\n") { jid = @sched.add("W", at: "Thu Aug 10 2026 9am") }
    assert_equal 1_786_352_400, scheduled_at(jid), "added at the date"
    assert_output(nil, "") do
      Qless.when("Thu Aug 10 2026", now: 1_772_619_330) # leaves a warning on the thread ...
      @sched.add("N", in: 60)                             # ... that an add without text does not repeat
      @sched.add("A", at: "Mon Aug 10 2026 10am")         # a weekday that agrees: none
    end
  end

  def test_in_takes_seconds_and_text
    [300, 300.0, "5 minutes", "in 5 minutes"].each_with_index do |delay, i|
      assert_in_delta N + 300, scheduled_at(@sched.add("K", { "i" => i }, in: delay)), 5, delay.inspect
    end
  end

  # BND-1: each of every: and cron: makes its kind of template.
  def test_every_and_cron_make_templates
    every = @sched.add("K", { "e" => 1 }, every: 300)
    assert_equal %w[interval 300], q("HMGET", "ql:r:#{every}", "type", "interval")
    later = @sched.add("K", { "e" => 2 }, every: "2 days at 9am")
    assert_in_delta 1_772_701_200, q("ZSCORE", "ql:q:tasks-recur", later).to_f, 0.5
    assert_equal "172800", q("HGET", "ql:r:#{later}", "interval")
    weekly = @sched.add("K", { "e" => 3 }, every: "every monday 9am")
    assert_equal ["cron", "0 9 * * 1"], q("HMGET", "ql:r:#{weekly}", "type", "cron")
    cron = @sched.add("K", { "c" => 1 }, cron: "0 9 * * mon-fri")
    assert_equal ["cron", "0 9 * * MON-FRI"], q("HMGET", "ql:r:#{cron}", "type", "cron")
    assert_equal 1_772_701_200, q("ZSCORE", "ql:q:tasks-cron", cron).to_f
    assert_equal [1_772_701_200, 1_772_787_600, 1_773_046_800], @sched.next(cron, 3)
    kinds = @sched.entries.to_h { |e| [e["jid"], e["kind"]] }
    assert_equal({ every => "interval", later => "interval", weekly => "cron", cron => "cron" }, kinds)
  end

  # BND-1: two, four or none of at:/in:/cron:/every: is refused (by the
  # core, which makes the choice for every binding: InvalidArgument).
  def test_exactly_one_time_or_argument_error
    [{}, { at: N + 60, in: 60 }, { cron: "* * * * *", every: 60 },
     { at: N, in: 1, cron: "* * * * *", every: 1 }].each do |given|
      error = assert_raises(Qless::InvalidArgument, given.inspect) { @sched.add("K", {}, **given) }
      assert_match(/give exactly one of at, in, every and cron/, error.message)
    end
    assert_empty q("KEYS", "ql:*")
  end

  BAD_TEXTS = ["", "tomorow", "in 5 parsecs", "in 1.5 months", "13pm", "feb 30", "at 25:00", "tomorrow tomorrow",
               "in 5 minutes ago"].freeze
  BAD_CRONS = ["0 24 * * *", "61 * * * *", "* * 32 * *", "* * * 13 *", "* * * * 8", "* *", "x * * * *",
               "0 0 * * 1#6", "@weekly-ish"].freeze
  BAD_VALUES = [[1], { "at" => 1 }, :soon, true, Object.new, 1..2].freeze
  # Option strings may be Symbols and tags anything with to_s, as the
  # Ruby API always took them.
  BAD_OPTIONS = { retries: ["many", 1.5, [1]], priority: ["high", [1], true], backlog: ["x", 2.5],
                  tags: ["x", 5, { "a" => 1 }], jid: [[1], 5, true] }.freeze

  # Seeded: bad time text, bad cron expressions and values of the wrong
  # type (for the time and for the options) are the language's argument
  # errors, and nothing is written.
  def test_bad_inputs_are_argument_errors_and_write_nothing
    rng = Random.new(1414)
    60.times do |i|
      kind = %i[at in every cron option].sample(random: rng)
      given = case kind
              when :cron then { cron: [BAD_CRONS.sample(random: rng), BAD_VALUES.sample(random: rng)].sample(random: rng) }
              when :option
                name, values = BAD_OPTIONS.to_a.sample(random: rng)
                { in: 60, name => values.sample(random: rng) }
              else { kind => [BAD_TEXTS.sample(random: rng), "zq#{rng.rand(36**5).to_s(36)}", BAD_VALUES.sample(random: rng)].sample(random: rng) }
              end
      assert_raises(ArgumentError, TypeError, Qless::InvalidArgument, "#{i}: #{given.inspect}") do
        @sched.add("K", { "i" => i }, **given)
      end
    end
    error = assert_raises(Qless::InvalidArgument) { @sched.add("K", at: "every monday") }
    assert_match(/at_text "every monday" is a cron schedule, not a one-off time; use .*every.* or .*cron/, error.message)
    assert_equal Qless::Core::QLESS_EINVAL, error.code
    assert_match(/hour/, assert_raises(Qless::InvalidArgument) { @sched.add("K", cron: "0 24 * * *") }.message)
    assert_match(/unknown word "fortnightly"/,
                 assert_raises(Qless::InvalidArgument) { @sched.add("K", every: "fortnightly") }.message)
    assert_empty q("KEYS", "ql:*")
  end

  def test_adds_are_unique_unless_told_otherwise
    jid, inserted = @sched.add("K", { "a" => 1 }, in: 60, report: true)
    assert_equal true, inserted
    assert_equal [jid, false], @sched.add("K", { "a" => 1 }, at: "7pm tomorrow", report: true)
    assert_equal [jid, false], @sched.add_now("K", { "a" => 1 }, report: true)
    assert_in_delta N + 60, scheduled_at(jid), 5, "the first time stands"
    other = @sched.add("K", { "a" => 1 }, in: 60, unique: false)
    refute_equal jid, other
    refute_equal other, @sched.add("K", { "a" => 1 }, in: 60, unique: false)
    keyed = @sched.add("K", { "a" => 2 }, cron: "@daily", key: "nightly", priority: 5, tags: ["x"], backlog: 2)
    assert_equal Qless.unique_jid("tasks", key: "nightly"), keyed
    assert_equal ["5", "2", '["x"]'], q("HMGET", "ql:r:#{keyed}", "priority", "backlog", "tags")
    assert_equal "mine", @sched.add("K", { "a" => 2 }, jid: "mine", in: 1)
  end

  def test_remove_entries_and_next
    one = @sched.add("K", { "o" => 1 }, at: "7pm tomorrow")
    tpl = @sched.add("K", { "t" => 1 }, cron: "0 * * * *")
    now = @sched.add_now("K", { "n" => 1 })
    assert_in_delta 1_772_737_200, @sched.next(one, 3).first, 0.5
    assert_equal 1, @sched.next(one, 3).size
    assert_equal [one, tpl].sort, @sched.entries.map { |e| e["jid"] }.sort, "waiting jobs are no entries"
    assert_raises(Qless::NotFound) { @sched.next(now) }
    assert @sched.remove(one)
    assert @sched.remove(tpl)
    [one, now, "nope"].each { |jid| refute @sched.remove(jid), jid }
    assert_empty @sched.entries
    assert_equal "waiting", state(now)
  end

  # UNQ-10, Ruby half, seeded: whatever the kind and spelling of an entry,
  # its jid is the C library's qless_unique_jid for its identity, and
  # adding it again inserts nothing.
  def test_entry_jids_are_the_c_unique_jids
    rng = Random.new(1410)
    crons = [["@daily", "0 0 * * *"], ["0 9 * * mon-fri", "0 9 * * 1-5"], ["0 0 * * 7", "0 0 * * 0"]]
    30.times do |i|
      data = { "i" => i, "v" => [1, 1.5, "x", nil, [1, 2]].sample(random: rng) }
      kind = %i[now at in every cron].sample(random: rng)
      opts, want = case kind
                   when :now then [nil, Qless.unique_jid("tasks", "K", data)]
                   when :at then [{ at: N + rng.rand(60..9999) }, Qless.unique_jid("tasks", "K", data)]
                   when :in then [{ in: rng.rand(1..999) }, Qless.unique_jid("tasks", "K", data)]
                   when :every
                     seconds = rng.rand(1..9999)
                     [{ every: seconds }, Qless.unique_jid("tasks", "K", data, interval: seconds)]
                   else
                     written, identity = crons.sample(random: rng)
                     [{ cron: written }, Qless.unique_jid("tasks", "K", data, cron: identity)]
                   end
      add = -> { opts ? @sched.add("K", data, **opts, report: true) : @sched.add_now("K", data, report: true) }
      assert_equal [want, true], add.call, "#{kind} #{data}"
      assert_equal [want, false], add.call, "#{kind} #{data}"
    end
  end
end
