# frozen_string_literal: true

# libqless for Ruby: the qless job queue through the shared C core.
#
#   require "qless"
#   client = Qless::Client.new(ENV["QLESS_URL"])
#   jid = client.queues["work"].put("MyJob", { "n" => 1 })
#
# Qless::Core is the generated SWIG module: the object model of
# swig/objects.i (classes whose methods are the qless_<type>_* functions)
# plus the flat functions. Qless::Client, Queue, Job, RecurringJob and
# Events ARE those classes, reopened in lib/qless/ for what SWIG cannot
# express (JSON data, keyword arguments, the client back-reference,
# iterators; Schedule; job trees: Tree, Ports, Store, Channel). Errors
# are Qless::Error and its subclasses (defined by the extension):
# InvalidArgument, NotFound, LockLost, StateError, ProtocolError,
# ConnectionError, OutOfMemory; each has #code and #name.
require "json"
require "qless/core"

module Qless
  VERSION = Core.qless_version
  Client = Core::Client
  Queue = Core::Queue
  Job = Core::Job
  RecurringJob = Core::Recur
  Events = Core::Events
  Schedule = Core::Schedule

  # Live libqless handles in this process (leak checks).
  def self.handle_count = Core.qless_handle_count
end

require "qless/convert"
require "qless/ports"
require "qless/store"
require "qless/tree"
require "qless/channels"
require "qless/tree_class"
require "qless/job"
require "qless/job_tree"
require "qless/recurring_job"
require "qless/times"
require "qless/schedule"
require "qless/queue"
require "qless/events"
require "qless/client"
require "qless/worker"
