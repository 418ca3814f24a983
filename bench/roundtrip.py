"""Sequential put -> pop -> complete through the Python binding."""
import sys
import time

import qless

n = int(sys.argv[1])
queue = qless.Client().queues["bench-python"]
t0 = time.monotonic()
for _ in range(n):
    queue.put("Bench", {"i": 1})
    queue.pop().complete()
secs = time.monotonic() - t0
print("%-8s %d jobs %.3f s %.0f jobs/s" % ("python", n, secs, n / secs))
