# The pipeline of jobtrees.md §11 as Ruby tree classes, one per role
# (demo/trees.py, tests/cross/test_cross_tree.py): Demo::Pipeline, the
# parent; Demo::Producer, which publishes data["values"] on a channel;
# Demo::Consumer, whose input port subscribes to one. demo_trees.py,
# demo_trees.php and demo_trees/ hold the same roles in Python, PHP and Lua.
module Demo
  # What every role does beside its work: each hook records in the job's
  # state that Ruby ran it, which the demo and tests/cross check.
  module TreeRole
    def startup(job)
      start(job)
      job.store["startup"] = "ruby"
    end

    def perform(job)
      job.store["perform"] = "ruby"
      work(job)
    end

    def shutdown(job)
      job.store["shutdown"] = "ruby"
    end

    def start(_job) = nil
  end

  # Waits (suspended) for the consumer's running total on input port
  # "result" and keeps the latest as state "total".
  class Pipeline
    extend TreeRole
    def self.inports = { "result" => {} }

    def self.work(job)
      results = job.read("result", 10)
      return job.suspend if results.empty?

      job.store["total"] = results.last
    end
  end

  # Its output port is connected in startup (once per life, before
  # anything is written) to data["channel"].
  class Producer
    extend TreeRole
    def self.outports = { "out" => {} }
    def self.start(job) = job.ports.out["out"].connect(job.data["channel"])
    def self.work(job) = job.write("out", *job.data["values"])
  end

  # Subscribes in startup; each run adds what arrived to state "total" and
  # writes the running total to the parent's input port "result", so the
  # parent is right however the values were split over runs. No input:
  # it suspends until the channel delivers some.
  class Consumer
    extend TreeRole
    def self.inports = { "in" => {} }
    def self.start(job) = job.ports.in["in"].connect(job.data["channel"])

    def self.work(job)
      values = job.read("in", 100)
      return job.suspend if values.empty?

      job.store["total"] = (job.store["total"] || 0) + values.sum
      job.store["received"] = (job.store["received"] || 0) + values.size
      job.parent.ports.in["result"].write(job.store["total"])
    end
  end
end
