require "qless"

client = Qless::Client.new(ENV["QLESS_URL"])       # nil: the embedded server
queue = client.queues["example"]

jid = queue.put("Greeter", { "name" => "world" }, priority: 10, tags: ["demo"])
job = queue.pop                                     # locked for this client's worker
puts "popped #{job.klass_name} #{job.jid} with #{job.data.inspect}"

job.data["greeting"] = "hello, #{job.data["name"]}"
job.complete

puts "#{jid} is #{client.jobs[jid].state}"          # => complete
