# Sequential put -> pop -> complete through the Ruby binding.
require "qless"

n = Integer(ARGV[0])
queue = Qless::Client.new(ENV["QLESS_URL"]).queues["bench-ruby"]
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
n.times do
  queue.put("Bench", { "i" => 1 })
  queue.pop.complete
end
secs = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
printf("%-8s %d jobs %.3f s %.0f jobs/s\n", "ruby", n, secs, n / secs)
