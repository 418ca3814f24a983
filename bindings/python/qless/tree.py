"""Job trees (jobtrees.md) over the core's Port and Channel objects and the
client's tree calls: values are native data (JSON on the wire)."""
import json
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, MutableMapping, Optional

from . import _core
from ._util import Handle, Listing, encode, varargs

if TYPE_CHECKING:
    from .client import Client

def _ports_json(ports: Any) -> Optional[str]:
    """inports/outports as put and port.define take them: a dict
    {port: {} or {"default": v}}, or a list of names (no defaults)."""
    if ports is None or isinstance(ports, str):
        return ports
    return encode(ports if isinstance(ports, dict) else {name: {} for name in ports})


def tree_options(tree: bool = False, parent: Optional[str] = None, name: Optional[str] = None,
                 inports: Any = None, outports: Any = None, aliases: Optional[Iterable[str]] = None,
                 by: Optional[str] = None) -> Dict[str, Any]:
    return dict(tree=1 if tree else None, parent=parent, name=name, inports=_ports_json(inports),
                outports=_ports_json(outports), aliases=aliases, by=by)


def encode_value(value: Any) -> str:
    # Unlike job data, a str here is a value (a JSON string), never JSON text.
    return json.dumps(value, separators=(",", ":"))


def _on_jid(method: str) -> Any:
    """A method of the object with a jid: the client's `method`(jid, ...)."""
    return lambda self, *args: getattr(self.client._h, method)(self.jid, *args)


def _values(strlist: Any) -> List[Any]:
    return [json.loads(strlist.get(i)) for i in range(strlist.size())]


class Port(Handle):
    """One input or output port of a job (the core's Port: jid, name and
    size() are its); no I/O until a method is called."""
    __slots__ = ("_h",)

    def __init__(self, client: "Client", jid: str, dir: int, name: str) -> None:
        self._h = client._h.port(jid, dir, name)

    dir = property(lambda self: self._h.direction)

    def __repr__(self) -> str:
        return "<qless.Port %s %s %s>" % (self.jid, "in" if self.dir == _core.QLESS_PORT_IN else "out", self.name)

    def read(self, n: int = 1) -> List[Any]:
        """Removes and returns up to n values, oldest first."""
        return _values(self._h.read(n))

    def peek(self, n: int = 1) -> List[Any]:
        return _values(self._h.peek(n))

    size = property(lambda self: self._h.size())

    def write(self, *values: Any) -> None:
        self._h.write([encode_value(v) for v in values])

    # connect(*channels) returns the links that were new
    connect, disconnect = varargs("connect"), varargs("disconnect")


class PortSide:
    """x.ports.in_ / x.ports.out: port[name] -> Port; define and remove."""

    def __init__(self, client: "Client", jid: str, dir: int) -> None:
        self.client, self.jid, self.dir = client, jid, dir

    def __getitem__(self, name: str) -> Port:
        return Port(self.client, self.jid, self.dir, name)

    def define(self, ports: Any) -> None:
        self.client._h.port_define(self.jid, self.dir, _ports_json(ports))

    def remove(self, *names: str) -> int:
        return self.client._h.port_remove(self.jid, self.dir, names)


class Ports:
    """The ports of a job: .in_ (also reachable as getattr(x, "in")) and .out."""

    def __init__(self, client: "Client", jid: str) -> None:
        self.in_ = PortSide(client, jid, _core.QLESS_PORT_IN)
        self.out = PortSide(client, jid, _core.QLESS_PORT_OUT)
        setattr(self, "in", self.in_)


class Store(Listing, MutableMapping[str, Any]):
    """A job's per-job state map: store[key] get/set/del, dict(store) the whole map."""

    def __init__(self, client: "Client", jid: str) -> None:
        self.client, self.jid = client, jid

    def __getitem__(self, key: str) -> Any:
        text = self.client._h.state_get(self.jid, key)
        if text is None:
            raise KeyError(key)
        return json.loads(text)

    def __setitem__(self, key: str, value: Any) -> None:
        self.client._h.state_set(self.jid, key, encode_value(value))

    def __delitem__(self, key: str) -> None:
        if self.client._h.state_del(self.jid, [key]) == 0:
            raise KeyError(key)

    def all(self) -> Dict[str, Any]:
        h = self.client._h.store(self.jid)
        return {h.key(i): json.loads(h.value(i)) for i in range(h.size())}


class Tree:
    """A snapshot of a tree job's record (its fields as attributes under tree.get's names) with the operations
    on it; `state` is the job's qless state, `store` its per-job map."""

    def __init__(self, client: "Client", jid: str) -> None:
        self.client = client
        self.record = json.loads(client._h.tree_get(jid))
        # The protocol's JSON has false for an absent parent or name and {} for no aliases.
        self.record.update({k: self.record[k] or empty for k, empty in (("parent", None), ("name", None),
                                                                         ("aliases", []))})
        self.__dict__.update(self.record)
        self.ports = Ports(client, self.jid)
        self.store = Store(client, self.jid)

    def __repr__(self) -> str:
        return "<qless.Tree %s %s %s>" % (self.klass, self.jid, self.state)

    def refresh(self) -> "Tree":
        self.__init__(self.client, self.jid)  # type: ignore[misc]
        return self

    def run(self, delay: float = 0) -> str:
        """Wakes (or restarts) the job; returns the state it is in."""
        return self.client._h.job_run(self.jid, delay)

    def terminate(self, recursive: bool = False) -> int:
        return self.client._h.job_terminate(self.jid, 1 if recursive else 0)

    # delete(), adopt(name, child) and disown(name) (returns the child's jid)
    delete, adopt, disown = _on_jid("job_delete"), _on_jid("job_adopt"), _on_jid("job_disown")

    def add_aliases(self, *aliases: str) -> int:
        return self.client._h.alias_set(self.jid, aliases)

    def remove_aliases(self, *aliases: str) -> int:
        return self.client._h.alias_del(aliases)


class Children(Listing, Mapping[str, str]):
    """A tree job's children: children[name] -> jid, read from the server at each access; put creates one."""

    def __init__(self, client: "Client", jid: str, queue: str) -> None:
        self.client, self.jid, self.queue = client, jid, queue

    def all(self) -> Dict[str, str]:
        tree = self.client.trees[self.jid]
        return tree.children if tree else {}

    def __getitem__(self, name: str) -> str:
        return self.all()[name]

    def put(self, name: str, klass: str, data: Any = None, queue: Optional[str] = None, **options: Any) -> str:
        """Puts child `name` of this job into queue (default: the parent's), created by "job:<parent jid>";
        returns its jid. Other options are Queue.put's (inports=, outports=, aliases=, priority=, ...)."""
        taken = sorted(set(options) & {"parent", "name", "by", "report"})
        if taken:
            raise TypeError("Children.put: %s are set by put" % ", ".join(k + "=" for k in taken))
        return self.client.queues[queue or self.queue].put(klass, data, parent=self.jid, name=name,
                                                          by="job:" + self.jid, **options)


class Channel(Handle):
    """A channel (the core's Channel: name is its); no I/O until a method is called."""
    __slots__ = ("_h",)

    def __init__(self, client: "Client", name: str) -> None:
        self._h = client._h.channel(name)

    def publish(self, value: Any, from_: Optional[str] = None, **kw: Any) -> int:
        """Delivers value to every input port subscribed to the channel or an
        ancestor; returns the ports reached. from= names the publishing jid."""
        sender = kw.pop("from", from_)
        if kw:
            raise TypeError("publish() got unexpected arguments: %s" % ", ".join(kw))
        return self._h.publish(encode_value(value), sender)

    @property
    def subscribers(self) -> List[List[str]]:
        """[jid, port] pairs subscribed to exactly this channel, sorted."""
        s = self._h.subscribers()
        return [[s.jid(i), s.port(i)] for i in range(s.size())]
