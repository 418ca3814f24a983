# frozen_string_literal: true

module Qless
  # What a time text means (Qless.when): kind :at, :interval or :cron;
  # warning: "" or what the text was read as that it may not mean (a
  # weekday that is not the date's: the date is used).
  When = Struct.new(:kind, :at, :interval, :cron, :warning) do
    def time = Time.at(at).utc
  end

  # Reads English time text relative to now (a Time or epoch seconds;
  # nil: the clock), without a server; day_first: 27/5/1979 is day/month/year.
  def self.when(text, now: nil, day_first: false)
    raise TypeError, "Qless.when: text must be a String, not #{text.class}" unless text.is_a?(String)
    unless [true, false].include?(day_first)
      raise TypeError, "Qless.when: day_first must be true or false, not #{day_first.class}"
    end

    parsed = Core::When.new
    parsed.flags = day_first ? Core::QLESS_WHEN_DAY_FIRST : 0
    Core.qless_when_parse(text, now.nil? ? Time.now.to_f : Times.epoch(now, "Qless.when: now"), parsed)
    When.new(Times::KINDS.fetch(parsed.kind), parsed.at, parsed.interval, parsed.cron, Core.qless_when_warning)
  end

  module Times
    KINDS = { Core::QLESS_WHEN_AT => :at, Core::QLESS_WHEN_INTERVAL => :interval,
              Core::QLESS_WHEN_CRON => :cron }.freeze

    module_function

    def epoch(value, what)
      value.is_a?(Time) ? value.to_f : seconds(value, what, "a time must be a Time, a number or text")
    end

    def seconds(value, what, need = "a duration must be a number of seconds or text")
      value.is_a?(Numeric) ? value.to_f : raise(TypeError, "#{what}: #{need}, not #{value.class}")
    end
  end
end
