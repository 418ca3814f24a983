import qless

client = qless.Client()  # $QLESS_URL, else the embedded server
pipeline = client.queues["example-trees"]

root = pipeline.put("example.Pipeline", tree=True, aliases=["example-pipeline"])
src = pipeline.put("example.Source", parent=root, name="source", outports=["out"])
sink = pipeline.put("example.Sink", parent=root, name="sink", inports=["in"])
client.trees[sink].ports.in_["in"].connect("/example/data")
print(client.channels["/example/data"].publish({"n": 1}, **{"from": src}))  # ports reached
tree = client.trees[client.aliases["example-pipeline"]]
print(sorted(tree.children), client.trees[sink].ports.in_["in"].read(10))
client.trees[sink].store["seen"] = 1
tree.terminate(recursive=True)  # each job is terminating until its worker's shutdown ran
