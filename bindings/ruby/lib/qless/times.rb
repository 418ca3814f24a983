# frozen_string_literal: true

module Qless
  # What a time text means (Qless.when): kind :at, :interval or :cron.
  When = Struct.new(:kind, :at, :interval, :cron) do
    def time = Time.at(at).utc
  end

  # Reads English time text relative to now (a Time or epoch seconds;
  # nil: the clock), without a server.
  def self.when(text, now: nil)
    raise TypeError, "Qless.when: text must be a String, not #{text.class}" unless text.is_a?(String)

    parsed = Core::When.new
    Core.qless_when_parse(text, now.nil? ? Time.now.to_f : Times.epoch(now, "Qless.when: now"), parsed)
    When.new(Times::KINDS.fetch(parsed.kind), parsed.at, parsed.interval, parsed.cron)
  end

  module Times
    KINDS = { Core::QLESS_WHEN_AT => :at, Core::QLESS_WHEN_INTERVAL => :interval,
              Core::QLESS_WHEN_CRON => :cron }.freeze

    module_function

    def epoch(value, what)
      return value.to_f if value.is_a?(Time) || value.is_a?(Numeric)

      raise TypeError, "#{what}: a time must be a Time, a number or text, not #{value.class}"
    end

    def seconds(value, what)
      return value.to_f if value.is_a?(Numeric)

      raise TypeError, "#{what}: a duration must be a number of seconds or text, not #{value.class}"
    end
  end
end
