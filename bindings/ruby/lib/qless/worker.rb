# frozen_string_literal: true

module Qless
  # Raise it (or a subclass) from job code to have the job retried after
  # the worker's backoff delay instead of failed; the group recorded is the
  # exception's class name. The protocol fails the job once its retries are
  # used up.
  class RetryableError < StandardError; end

  # The Ruby side of the worker engine in libqless (qless_worker_main).
  # The engine reserves jobs, heartbeats them from a C thread, settles
  # them, runs pools of processes (forked with Ruby's Process.fork), stops
  # on signals and reconnects; this module only finds and calls the code of
  # a job and turns what happened into the engine's outcome:
  #   Klass.perform(job) returns              -> complete
  #   it raises a Qless::RetryableError       -> retry (group = class name)
  #   it raises anything else                 -> fail, group = class name,
  #                                              message = "Class: message\n" + backtrace
  # Job code may settle the job itself (job.complete("next-queue"), ...);
  # the engine then leaves it alone. job.lock_lost? turns true when the
  # engine finds the lock gone; job.client is the engine's connection.
  #
  # Tree jobs (jobtrees.md §9): the tree classes (TreeClass) loaded when
  # the worker starts, by --require or before main, are its tree classes:
  # the engine registers their ports on the worker's queues (those the
  # allow-list admits), runs Klass.startup(job) once before a job's first
  # perform, Klass.shutdown(job) when it is terminated, and suspends a job
  # whose perform called job.suspend. A class looked up only later (e.g.
  # by autoload) runs as a plain job class.
  module Worker
    # Ruby's own flags, taken out of argv before the rest goes to the engine.
    USAGE = <<~TEXT
      Ruby's flags (the other flags are the engine's, listed below):
        --require FILE, -r FILE   load job classes from FILE first (repeatable);
                                  the tree classes among them (.inports, .outports,
                                  .startup or .shutdown beside .perform) run tree jobs
      The allow-list (--allow 'MyApp::Jobs::*', or QLESS_WORKER_ALLOW) is required.
    TEXT

    module_function

    # Runs the worker program with command-line flags; returns the exit
    # status (0 after a graceful stop, 1 on a failure, 2 on a usage error).
    # threads: N runs the jobs of "--pool threads --size N" on N Ruby
    # threads (the engine's pool threads cannot call Ruby); without it the
    # engine refuses thread pools.
    def main(argv, program: File.basename($PROGRAM_NAME), threads: 0)
      rest = take_requires(argv.map(&:to_s)) or return 2
      $stdout.puts USAGE if rest.include?("--help") || rest.include?("-h")
      # Children of a process pool leave through C's exit, past Ruby's
      # at-exit flushing: keep nothing in Ruby's buffers.
      $stdout.sync = true
      $stderr.sync = true
      Core.worker_main([program, *rest], method(:perform), threads, tree_options)
    end

    # The engine's tree-job options: the loaded tree classes and the hooks.
    def tree_options
      classes = TreeClass.loaded
      { klasses: classes.map(&:first), configs: classes.map(&:last),
        startup: classes.empty? ? nil : method(:startup_hook), shutdown: method(:shutdown_hook) }
    end

    # The engine's callbacks: job and client are the engine's, borrowed for
    # this call (their proxies go dead after it). Each returns nil
    # (complete) or [:fail | :retry, group, message]. The hooks are named
    # so that this module is no tree class itself.
    def perform(job, client) = call(job, client, :perform)
    def startup_hook(job, client) = call(job, client, :startup)
    def shutdown_hook(job, client) = call(job, client, :shutdown)

    # Runs Klass.perform, or the hook when the class has it.
    def call(job, client, hook)
      Job.new(client, job)
      begin
        klass = job_class(job.klass_name)
        case hook
        when :perform then klass.perform(job)
        when :startup then klass.startup(job) if klass.respond_to?(:startup)
        when :shutdown then klass.shutdown(job) if klass.respond_to?(:shutdown)
        end
      ensure
        # Data changed in Ruby goes out with the engine's settle.
        job.sync_data unless job.finished?
      end
      nil
    rescue Exception => e # rubocop:disable Lint/RescueException -- anything the job raises is its outcome
      outcome(e, caller(2)) # 2: past "rescue in call" and call; the callback's frame and those under it
    end

    # The class named "A::B::C", looked up one constant at a time and
    # without inheritance: Object.const_get("MyApp::Jobs::File") would
    # give ::File, a class outside the allow-list's MyApp::Jobs::* that
    # the engine matched the name against.
    def job_class(name)
      parts = name.split("::", -1)
      unless parts.all? { |part| part.match?(/\A[[:upper:]]\w*\z/) }
        raise NameError, "job class #{name.inspect} is not a constant path such as MyApp::Jobs::Name"
      end
      parts.reduce(Object) do |scope, part|
        raise TypeError, "job class #{name}: #{scope} is not a module" unless scope.is_a?(Module)

        scope.const_get(part, false)
      end
    end

    # [:fail | :retry, group, message] for an exception from job code;
    # `below` (the callback's frame and those under it) and #call's own
    # frame are cut from the backtrace: they are the worker's, the same
    # for every job.
    def outcome(error, below = [])
      # An anonymous class has no name: the nearest named ancestor class.
      group = error.class.ancestors.grep(Class).find(&:name).name
      trace = error.backtrace || []
      trace = trace[0...-(below.size + 1)] if trace.size > below.size && trace.last(below.size) == below
      message = ["#{group}: #{error.message}", *trace].join("\n")
      [error.is_a?(RetryableError) ? :retry : :fail, group, message]
    end

    # Loads the --require files; returns the other arguments, or nil after
    # a usage error (explained on stderr).
    def take_requires(args)
      rest = []
      while (arg = args.shift)
        file = arg.start_with?("--require=") ? arg.delete_prefix("--require=") : nil
        unless file || %w[--require -r].include?(arg)
          rest << arg
          next
        end
        file ||= args.shift or return usage_error("#{arg} needs a FILE")
        begin
          require File.expand_path(file)
        rescue LoadError => e
          return usage_error("--require #{file}: #{e.message}")
        end
      end
      rest
    end

    def usage_error(text)
      warn "qless-worker: #{text}"
      nil
    end
  end
end
