# frozen_string_literal: true

require "helper"

# Every C status code arrives as its Qless::Error subclass, with the code,
# the code's name and the library's message; each is provoked for real.
class TestErrors < QlessTest::Test
  def assert_qless_error(klass, code)
    error = assert_raises(klass) { yield }
    assert_kind_of Qless::Error, error
    assert_kind_of StandardError, error
    assert_equal code, error.code
    assert_equal Qless::Core.qless_error_name(code), error.name
    refute_empty error.message
    error
  end

  def test_hierarchy
    names = %w[InvalidArgument NotFound LockLost StateError ProtocolError ConnectionError OutOfMemory]
    names.each { |n| assert_equal Qless::Error, Qless.const_get(n).superclass }
    assert_equal StandardError, Qless::Error.superclass
  end

  def test_invalid_argument
    e = assert_qless_error(Qless::InvalidArgument, Qless::Core::QLESS_EINVAL) { @queue.put("K", "{not json") }
    assert_match(/JSON/i, e.message)
    assert_qless_error(Qless::InvalidArgument, Qless::Core::QLESS_EINVAL) { @client.queues[""] }
  end

  def test_not_found
    jid = @queue.put("K", {})
    job = @client.jobs[jid]
    @client.jobs.cancel(jid)
    assert_qless_error(Qless::NotFound, Qless::Core::QLESS_ENOTFOUND) { job.refresh }
    assert_qless_error(Qless::NotFound, Qless::Core::QLESS_ENOTFOUND) { job.requeue("other") }
  end

  def test_lock_lost_other_worker
    jid = @queue.put("K", {})
    @queue.pop
    intruder = Qless::Client.new(QlessTest::URL, worker_name: "intruder")
    assert_qless_error(Qless::LockLost, Qless::Core::QLESS_ELOCK) { intruder.jobs[jid].complete }
    assert_equal "running", @client.jobs[jid].state
  end

  def test_lock_lost_after_timeout
    @queue.put("K", {})
    job = @queue.pop
    job.timeout
    assert_qless_error(Qless::LockLost, Qless::Core::QLESS_ELOCK) { job.heartbeat }
    assert_qless_error(Qless::LockLost, Qless::Core::QLESS_ELOCK) { job.complete }
  end

  def test_state_error
    a = @queue.put("K", {})
    b = @queue.put("K", {}, depends: [a])
    assert_qless_error(Qless::StateError, Qless::Core::QLESS_ESTATE) { @client.jobs[a].depend(b) }
    assert_qless_error(Qless::StateError, Qless::Core::QLESS_ESTATE) { @client.jobs.cancel(a) }
    assert @client.jobs[a]
  end

  # A script error the core cannot classify: the config hash replaced by a
  # plain string makes the script's HGET fail with WRONGTYPE.
  def test_protocol_error
    assert_equal "+OK\r\n", QlessTest.redis("SET", "ql:config", "not a hash")
    e = assert_qless_error(Qless::ProtocolError, Qless::Core::QLESS_EPROTOCOL) { @client.config["heartbeat"] }
    assert_match(/WRONGTYPE/, e.message)
  end

  # The core classifies the script's "Unknown command" as an invalid argument.
  def test_unknown_command
    e = assert_qless_error(Qless::InvalidArgument, Qless::Core::QLESS_EINVAL) { @client.call("no-such-command") }
    assert_match(/no-such-command/, e.message)
  end

  def test_connection_error
    server = TCPServer.new("127.0.0.1", 0)
    port = server.addr[1]
    server.close
    assert_qless_error(Qless::ConnectionError, Qless::Core::QLESS_EIO) do
      client = Qless::Client.new("redis://127.0.0.1:#{port}/0", connect_timeout: 1)
      client.queues["q"].length
    end
  end

  def test_released_handle_refuses_use
    job = @client.jobs[@queue.put("K", {})]
    Qless::Core.release(job.handle)
    Qless::Core.release(job.handle)   # twice: no-op
    e = assert_raises(RuntimeError) { job.jid }
    assert_equal "ObjectPreviouslyDeleted", e.class.name
    assert_raises(TypeError) { Qless::Core.release("not a handle") }
  end
end
