# frozen_string_literal: true

# Shared by the Ruby test files: the fixture server's URL, a FLUSHALL before
# each test and small polling helpers. Run through run.rb (see CMakeLists.txt).
require "minitest/autorun"
require "socket"
require "rbconfig"
require "qless"

module QlessTest
  STATE = ENV.fetch("QLESS_TEST_STATE") { abort "QLESS_TEST_STATE is not set (run through ctest)" }
  PORT = File.read(File.join(STATE, "port")).strip
  SOCKET = File.read(File.join(STATE, "socket")).strip
  URL = "redis://127.0.0.1:#{PORT}/0"
  UNIX_URL = "unix://#{SOCKET}"
  HERE = __dir__
  RUBY_DIR = File.expand_path("../../bindings/ruby", HERE)
  # -I flags that load this build's layer and extension in a child ruby.
  LOAD_PATH = ENV.fetch("QLESS_RUBY_LOAD_PATH").split(File::PATH_SEPARATOR)

  # Plain RESP over the unix socket: the qless protocol has no FLUSHALL.
  def self.redis(*args)
    UNIXSocket.open(SOCKET) do |s|
      command(s, args)
      s.gets
    end
  end

  # One command's reply as a Ruby value: status and error lines as
  # Strings, integers, bulk strings (nil when absent) and arrays of them.
  def self.query(*args)
    UNIXSocket.open(SOCKET) do |s|
      command(s, args)
      reply(s)
    end
  end

  def self.command(sock, args)
    sock.write("*#{args.size}\r\n" + args.map { |a| "$#{a.to_s.bytesize}\r\n#{a}\r\n" }.join)
  end

  def self.reply(sock)
    line = sock.gets.chomp
    case line[0]
    when ":" then line[1..].to_i
    when "$" then line == "$-1" ? nil : sock.read(line[1..].to_i + 2)[0...-2]
    when "*" then Array.new(line[1..].to_i) { reply(sock) }
    else line
    end
  end

  def self.ruby_command(*args)
    [RbConfig.ruby, *LOAD_PATH.flat_map { |d| ["-I", d] }, *args]
  end

  class Test < Minitest::Test
    def setup
      assert_equal "+OK\r\n", QlessTest.redis("FLUSHALL")
      @client = Qless::Client.new(URL, worker_name: "ruby-test")
      @queue = @client.queues["testing"]
    end

    # Waits until the block is truthy (fails after timeout seconds).
    def eventually(timeout = 5, what = "condition")
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      loop do
        result = yield
        return result if result

        flunk "timed out waiting for #{what}" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
        sleep 0.05
      end
    end
  end

  # Tests of schedules.md, whose examples are at its `now`: the client's
  # clock is shifted there.
  class SpecNowTest < Test
    N = 1_772_619_330 # 2026-03-04T10:15:30Z, a Wednesday

    def setup
      super
      @client.time_offset = N - Time.now.to_f
    end
  end

  # Child processes of a test (workers, listeners), each leading its own
  # process group, so that what a pool forked goes with it: killed at
  # teardown when still running.
  module Children
    # Starts cmd with stderr to log; returns its pid.
    def spawn_child(cmd, log, env: {})
      pid = Process.spawn(env, *cmd, err: log, out: File::NULL, pgroup: true)
      (@children ||= []) << pid
      pid
    end

    # Waits for the child to exit; returns its Process::Status.
    def finish(pid, timeout = 20)
      status = eventually(timeout, "exit of #{pid}") { Process.wait2(pid, Process::WNOHANG)&.last }
      @children.delete(pid)
      status
    end

    def kill_children
      @children&.each do |pid|
        Process.kill(:KILL, -pid)
        Process.wait(pid)
      rescue Errno::ESRCH, Errno::ECHILD
        nil
      end
    end
  end
end
