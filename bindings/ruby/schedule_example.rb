require "qless"

client = Qless::Client.new(ENV["QLESS_URL"])       # nil: the embedded server
tasks = client.schedules["example-tasks"]

jid = tasks.add("Example::Report", { "to" => "ops" }, cron: "0 9 * * mon-fri")
again = tasks.add("Example::Report", { "to" => "ops" }, cron: "0 9 * * MON-FRI", report: true)
puts again == [jid, false]                          # adds are unique: not added twice
tasks.add("Example::Mail", { "to" => "a@b" }, at: "7pm tomorrow")
tasks.add("Example::Ping", every: "5 minutes")
tasks.entries.each { |entry| puts "#{entry["kind"]} #{entry["klass"]}" }
puts Qless.when("every monday 9am").cron
# tasks.listen(pool: 4, allow: ["Example::*"])      # runs due entries until SIGTERM
