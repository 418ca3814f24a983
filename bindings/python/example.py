import qless

client = qless.Client()  # $QLESS_URL, else redis://127.0.0.1:6379/0
queue = client.queues["example"]

jid = queue.put("example.Greet", {"name": "world"}, tags=["demo"])
job = queue.pop()
print(job.jid == jid, job.klass, job.data["name"])
job.complete()
print(client.jobs[jid].state)
