"""Which primary serves a hash slot, from CLUSTER SHARDS (Redis 7), for the
suites that run on the cluster of tests/cluster-fixture.sh."""


def _pairs(flat):
    return dict(zip(flat[::2], flat[1::2]))


def primary_port(client, slot):
    """Port of the online primary serving slot, as client's node sees the
    map, or None when no shard lists one (the map is changing)."""
    for shard in client.execute_command("CLUSTER", "SHARDS"):
        shard = _pairs(shard)
        ranges = shard["slots"]
        if any(int(a) <= slot <= int(b) for a, b in zip(ranges[::2], ranges[1::2])):
            for node in shard["nodes"]:
                node = _pairs(node)
                if node["role"] == "master" and node["health"] == "online":
                    return int(node["port"])
    return None
