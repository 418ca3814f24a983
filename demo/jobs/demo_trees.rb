# The pipeline of jobtrees.md §11 as Ruby tree classes (demo/trees.py,
# tests/cross): Demo::Pipeline, the parent, and Demo::Producer, its child
# that publishes on a channel; the consumer is Lua's (demo_consumer.lua).
# Each hook records in the job's state the language that ran it.
module Demo
  # Waits (suspended) for the consumer's running total on input port
  # "result" and keeps the latest as state "total".
  class Pipeline
    def self.inports = { "result" => {} }

    def self.startup(job)
      job.store["startup"] = "ruby"
    end

    def self.perform(job)
      job.store["perform"] = "ruby"
      results = job.read("result", 10)
      return job.suspend if results.empty?

      job.store["total"] = results.last
    end

    def self.shutdown(job)
      job.store["shutdown"] = "ruby"
    end
  end

  # Publishes data["values"] through output port "out", connected in
  # startup (once per life, before any write) to data["channel"].
  class Producer
    def self.outports = { "out" => {} }

    def self.startup(job)
      job.ports.out["out"].connect(job.data["channel"])
      job.store["startup"] = "ruby"
    end

    def self.perform(job)
      job.store["perform"] = "ruby"
      job.write("out", *job.data["values"])
    end

    def self.shutdown(job)
      job.store["shutdown"] = "ruby"
    end
  end
end
