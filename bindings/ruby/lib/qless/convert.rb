# frozen_string_literal: true

module Qless
  # Conversions between Ruby values and what the C core takes and gives:
  # JSON text, strlist/joblist handles, milliseconds.
  module Convert
    module_function

    # Job data for the core: a String is taken to be JSON already (the core
    # rejects it with InvalidArgument if it is not); nil means "{}".
    def dump(data)
      case data
      when nil, String then data
      else JSON.generate(data)
      end
    end

    def parse(text)
      text.nil? || text.empty? ? nil : JSON.parse(text)
    end

    # Strings of a strlist handle, which is freed at once.
    def strings(list)
      Array.new(Core.qless_strlist_size(list)) { |i| Core.qless_strlist_get(list, i) }
    ensure
      Core.release(list)
    end

    # [string, number] pairs of a strlist handle (e.g. group => count).
    def pairs(list)
      Array.new(Core.qless_strlist_size(list)) do |i|
        [Core.qless_strlist_get(list, i), Core.qless_strlist_number(list, i)]
      end
    ensure
      Core.release(list)
    end

    # Jobs of a joblist handle: each job handle is taken out of the list
    # (so it outlives it) and the list is freed at once.
    def jobs(client, list)
      Array.new(Core.qless_joblist_size(list)) { |i| Job.new(client, Core.qless_joblist_take(list, i)) }
    ensure
      Core.release(list)
    end

    # A list of strings for the core: nil stays nil ("not given"); any
    # Array (even empty) is sent, its items as Strings.
    def strv(values)
      return nil if values.nil?

      Array.try_convert(values)&.map(&:to_s) or raise TypeError, "expected an Array, got #{values.class}"
    end

    # Seconds (Numeric or nil) to the core's milliseconds (0 = default).
    def ms(seconds)
      seconds.nil? ? 0 : (seconds * 1000).round
    end
  end
end
