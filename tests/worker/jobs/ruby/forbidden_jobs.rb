# frozen_string_literal: true

# Not a conformance job class: the allow-list scenario (test_class_not_allowed)
# puts jobs of ForbiddenJobs::Forbidden that no worker may run. Loading this
# file (autoloaded by conformance_jobs.rb when the constant is first looked
# up) appends a line to $QLESS_CONF_MARKER, and running the job ends the
# worker process, so a worker that looked it up cannot pass the scenario.
marker = ENV.fetch("QLESS_CONF_MARKER", nil)
File.write(marker, "loaded forbidden_jobs.rb in #{Process.pid}\n", mode: "a") if marker

module ForbiddenJobs
  class Forbidden
    def self.perform(_job)
      exit!(3)
    end
  end
end
