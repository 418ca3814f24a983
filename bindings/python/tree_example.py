import qless


class Consumer:  # a tree class: ports and hooks beside process
    inports = {"in": {}}
    outports = ["total"]

    @staticmethod
    def startup(job):
        job.store["sum"] = 0

    @staticmethod
    def process(job):
        values = job.read("in", 10)
        if not values:
            return job.suspend()  # sleeps until input arrives
        job.store["sum"] += sum(v["n"] for v in values)
        job.write("total", job.store["sum"])


client = qless.Client()  # $QLESS_URL, else the embedded server
pipeline = client.queues["example-trees"]
pipeline.register_klass("example.Consumer", Consumer.inports, Consumer.outports)  # as its worker does

root = pipeline.put("example.Pipeline", tree=True, aliases=["example-pipeline"])
src = pipeline.put("example.Source", parent=root, name="source", outports=["out"])
sink = pipeline.put("example.Consumer", parent=root, name="sink")  # gets the registered ports
client.trees[sink].ports.in_["in"].connect("/example/data")
print(client.channels["/example/data"].publish({"n": 1}, **{"from": src}))  # ports reached
tree = client.trees[client.aliases["example-pipeline"]]
print(sorted(tree.children), client.trees[sink].ports.in_["in"].read(10))
client.trees[sink].store["seen"] = 1
tree.terminate(recursive=True)  # each job is terminating until its worker's shutdown ran
