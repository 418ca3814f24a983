# frozen_string_literal: true

# libqless for Ruby. Qless::Core is the generated SWIG module (the object
# model of swig/objects.i); Qless::Client, Queue, Job, ... ARE its classes,
# reopened in lib/qless/ for what SWIG cannot express (JSON data, keyword
# arguments, the client back-reference, iterators): each prepends a Layer
# module, so super is the core's method of the same name. Errors are
# Qless::Error and its subclasses (defined by the extension).
require "forwardable"
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

  def self.handle_count = Core.qless_handle_count

  # The client's views (client.queues, client.jobs, ...): no I/O until used.
  class View
    def initialize(client) = @client = client
  end
end

%w[convert ports store tree channels tree_class job job_tree
   recurring_job times schedule queue events client worker].each { |part| require "qless/#{part}" }
