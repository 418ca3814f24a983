# Puts the jobs described by the JSON list in ARGV[0] with the Ruby binding
# (QLESS_URL names the server); prints each jid. Run by demo.py.
require "json"
require "qless"

client = Qless::Client.new(ENV["QLESS_URL"])
JSON.parse(ARGV.fetch(0)).each do |s|
  queue = client.queues[s["queue"]]
  if s["recur"]
    puts queue.recur(s["klass"], s["data"], s["recur"], tags: s["tags"], jid: s["jid"])
  else
    puts queue.put(s["klass"], s["data"], priority: s["priority"], tags: s["tags"], delay: s.fetch("delay", 0),
                                          depends: s["depends"], jid: s["jid"])
  end
end
