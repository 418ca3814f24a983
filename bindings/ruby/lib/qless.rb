# frozen_string_literal: true

# libqless for Ruby: the qless job queue through the shared C core.
#
#   require "qless"
#   client = Qless::Client.new(ENV["QLESS_URL"])
#   jid = client.queues["work"].put("MyJob", { "n" => 1 })
#
# Qless::Core is the generated SWIG module (flat qless_* functions over
# handles); the classes in lib/qless/ only adapt types and Ruby idiom.
# Errors are Qless::Error and its subclasses (defined by the extension):
# InvalidArgument, NotFound, LockLost, StateError, ProtocolError,
# ConnectionError, OutOfMemory; each has #code and #name.
require "json"
require "qless/core"
require "qless/convert"
require "qless/job"
require "qless/recurring_job"
require "qless/queue"
require "qless/events"
require "qless/client"
require "qless/worker"

module Qless
  VERSION = Core.qless_version

  # Live libqless handles in this process (leak checks).
  def self.handle_count
    Core.qless_handle_count
  end
end
