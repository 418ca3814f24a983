# frozen_string_literal: true

module Qless
  # Conversions between Ruby values and what the C core takes and gives:
  # JSON text, list handles (read once, then freed at once), milliseconds.
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

    # The handle (nil stays nil) with its back-reference to the client it
    # was made from: the core's handles keep their client alive in C, but
    # Ruby's views (job.queue, job.client) need the Ruby object.
    def bind(client, handle) = handle&.tap { handle.instance_variable_set(:@client, client) }

    # Items of a list handle (size + an item per index), which is freed.
    def drain(list)
      Array.new(list.size) { |i| yield list, i }
    ensure
      Core.release(list)
    end

    def strings(list) = drain(list) { |l, i| l.get(i) }
    # Due times of a TimeList (cron_next, recur next), epoch seconds: it
    # reads like a StrList.
    def times(list) = strings(list)
    # [string, number] pairs of a StrList (e.g. group => count).
    def pairs(list) = drain(list) { |l, i| [l.get(i), l.number(i)] }
    # Each job is taken out of the list, so it outlives it.
    def jobs(client, list) = drain(list) { |l, i| Job.new(client, l.take(i)) }
    # Items as Strings, the way the Ruby API always took lists.
    def strv(values) = values.flatten.map(&:to_s)

    # "#<Qless::label details>"; a released handle shows no details (SWIG's
    # type errors inspect the object, and its getters would raise again).
    def inspect(handle, label)
      "#<Qless::#{label} #{Core.released?(handle) ? "(released)" : yield}>"
    end

    # Seconds (Numeric, or nil: the library's default) to milliseconds.
    def ms(seconds) = seconds && (seconds * 1000).round
  end
end
