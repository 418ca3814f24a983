import qless

client = qless.Client()  # $QLESS_URL, else the embedded server
queue = client.queues["example"]

jid = queue.put("example.Greet", {"name": "world"}, tags=["demo"])
job = queue.pop()
print(job.jid == jid, job.klass, job.data["name"])
job.complete()
print(client.jobs[jid].state)
