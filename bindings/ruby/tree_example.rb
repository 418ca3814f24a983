require "qless"

module Example
  class Consumer                                    # a tree class: ports and hooks beside perform
    def self.inports = { "in" => {} }
    def self.outports = %w[total]
    def self.startup(job) = job.store["sum"] = 0
    def self.shutdown(job) = puts("sum was #{job.store["sum"]}")

    def self.perform(job)
      values = job.read("in", 10)
      return job.suspend if values.empty?           # sleeps until input arrives

      job.store["sum"] += values.sum { |v| v["n"] }
      job.write("total", job.store["sum"])
    end
  end
end

client = Qless::Client.new(ENV["QLESS_URL"])       # nil: the embedded server
queue = client.queues["example-trees"]
queue.register_klass(Example::Consumer)            # what its worker does at start

root = queue.put("Example::Pipeline", {}, tree: true, aliases: ["nightly"])
jid = queue.put(Example::Consumer, {}, parent: root, name: "consumer")
consumer = client.trees[jid]
consumer.ports.in["in"].connect("/demo/items")
puts client.channels["/demo/items"].publish({ "n" => 5 })     # ports reached: 1
puts consumer.ports.in["in"].peek(10).inspect
consumer.store["note"] = "seen"
puts client.trees[client.aliases["nightly"]].children.keys.inspect
puts client.trees[root].terminate(recursive: true)           # never started: terminated at once
puts client.trees[root].delete                                # jobs deleted: 2
