# frozen_string_literal: true

module Qless
  # A subscription to qless channels on a connection of its own
  # (client.events). Messages are [channel, message] pairs of Strings.
  class Events
    include Enumerable

    # Waits are cut into slices this long so that signals and Thread#raise
    # are handled promptly (the wait runs without the GVL).
    SLICE = 0.25

    # nil when none came within timeout seconds (nil: wait for ever).
    def next_message(timeout = nil)
      deadline = timeout && Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      loop do
        left = deadline ? deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC) : SLICE
        wait = [[left, SLICE].min, 0].max
        channel, message = self.next((wait * 1000).round)
        return [channel, message] if channel
        return nil if deadline && left <= wait
      end
    end

    # With timeout: stops after timeout seconds without a message.
    def each(timeout: nil)
      return enum_for(:each, timeout: timeout) unless block_given?

      while (msg = next_message(timeout))
        yield(*msg)
      end
      self
    end

    def close = Core.release(self)
  end
end
