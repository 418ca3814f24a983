# frozen_string_literal: true

module Qless
  # Raised from job code: the job is retried after the worker's backoff
  # delay instead of failed (until its retries are used up).
  class RetryableError < StandardError; end

  # The Ruby side of the worker (docs/workers.md, "Ruby"): finds a job's
  # class. The engine in libqless does the rest; the trampoline
  # (swig/worker.i) maps what Klass.perform(job) did to the outcome. Tree
  # classes loaded when the worker starts have their ports registered and
  # their hooks run; one looked up only later runs as a plain job class.
  module Worker
    module_function

    # Runs the worker program with command-line flags (--require FILE loads
    # job classes first; the rest: see --help); returns the exit status.
    # threads: N runs the jobs of "--pool threads --size N" on N Ruby
    # threads (the engine's pool threads cannot call Ruby); without it the
    # engine refuses thread pools.
    def main(argv, program: File.basename($PROGRAM_NAME), threads: 0)
      args = argv.map(&:to_s)
      _allow, files = Core.qless_worker_main_args(args)
      Convert.strings(files).each do |file|
        require File.expand_path(file)
      rescue LoadError => e
        warn "#{program}: --require #{file}: #{e.message}"
        return 2
      end
      # Children of a process pool leave through C's exit, past Ruby's
      # at-exit flushing: keep nothing in Ruby's buffers.
      $stdout.sync = true
      $stderr.sync = true
      Core.worker_main([program, *args], method(:run), threads, tree_options)
    end

    # The engine's tree-job options: the loaded tree classes.
    def tree_options
      classes = TreeClass.loaded
      { klasses: classes.map(&:first), configs: classes.map(&:last) }
    end

    # The trampoline's dispatcher: job and client are lent for this call;
    # what it raises is the job's outcome.
    def run(job, client, phase)
      Job.new(client, job)
      klass = job_class(job.klass_name)
      klass.public_send(phase, job) if phase == :perform || klass.respond_to?(phase)
    ensure
      # Data changed in Ruby goes out with the engine's settle.
      job.sync_data if job.respond_to?(:sync_data) && !job.finished?
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
  end
end
