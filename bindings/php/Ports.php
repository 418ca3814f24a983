<?php
// Ports, channels and per-job state (qless/tree.h) on PHP's side: values
// go in and come out as PHP data, JSON only on the wire.
declare(strict_types=1);

namespace Qless;

/** @internal One value as the JSON text the C calls take. */
function json(mixed $value): string { return json_encode($value, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES); }

/** $x->ports->in / ->out: a job's ports of one direction. (in is not
 *  reserved as a property name in PHP, so the spelling stays.) */
final class Ports
{
    public readonly PortSide $in;
    public readonly PortSide $out;

    public function __construct(\QlessClient $client, string $jid)
    {
        $this->in = new PortSide($client, $jid, 0);
        $this->out = new PortSide($client, $jid, 1);
    }
}

/** $ports->in['p']: a Port (no I/O until it is used). */
final class PortSide implements \ArrayAccess
{
    public function __construct(private \QlessClient $client, private string $jid, private int $dir) {}

    public function offsetGet(mixed $name): Port { return new Port($this->client, $this->jid, $this->dir, $name); }
    public function offsetExists(mixed $name): bool { return true; }
    public function offsetSet(mixed $name, mixed $value): void { throw new \LogicException('Qless\PortSide: use define()'); }
    public function offsetUnset(mixed $name): void { $this->remove($name); }

    /** @param array<string,array> $ports port => [] or ['default' => v] */
    public function define(array $ports): void
    {
        $this->client->port_define($this->jid, $this->dir, portSpecs($ports));
    }

    /** @return int how many of them were defined */
    public function remove(string ...$names): int { return (int)$this->client->port_remove($this->jid, $this->dir, $names); }
}

/** One port of a job: the extension's Port (no I/O until it is used), with
 *  PHP values in and out. */
final class Port
{
    private \QlessPort $h;
    public readonly string $name;

    public function __construct(\QlessClient $client, string $jid, int $dir, string $name)
    {
        $this->h = $client->port($jid, $dir, $name);
        $this->name = $name;
    }

    /** @return array up to $count values, removed from the port */
    public function read($count = 1): array { return values($this->h->read(count_arg($count, __METHOD__))); }

    /** @return array up to $count values, left in the port */
    public function peek($count = 1): array { return values($this->h->peek(count_arg($count, __METHOD__))); }

    public function size(): int { return (int)$this->h->size(); }
    public function write(mixed ...$values): void { $this->h->write(array_map(json(...), $values)); }
    public function connect(string ...$channels): int { return (int)$this->h->connect($channels); }
    public function disconnect(string ...$channels): int { return (int)$this->h->disconnect($channels); }
}

/** @internal The values of a StrList of JSON texts. */
function values(\QlessStrList $list): array
{
    for ($out = [], $i = 0, $n = $list->size(); $i < $n; $i++) {
        $out[] = json_decode($list->get($i), true, 512, JSON_THROW_ON_ERROR);
    }
    return $out;
}

/** $client->channels['/a']. */
final class Channels implements \ArrayAccess
{
    public function __construct(private \QlessClient $client) {}

    public function offsetGet(mixed $name): Channel { return new Channel($this->client, $name); }
    public function offsetExists(mixed $name): bool { return true; }
    public function offsetSet(mixed $name, mixed $value): void { throw new \LogicException('Qless\Channels: read-only'); }
    public function offsetUnset(mixed $name): void { $this->offsetSet($name, null); }
}

/** A channel: the extension's Channel, with PHP values in and out. */
final class Channel
{
    private \QlessChannel $h;
    public readonly string $name;

    public function __construct(\QlessClient $client, string $name)
    {
        $this->h = $client->channel($name);
        $this->name = $name;
    }

    /** @return int the input ports it reached */
    public function publish(mixed $value, ?string $from = null): int { return (int)$this->h->publish(json($value), $from); }

    /** @return array<array{0:string,1:string}> [jid, port] pairs subscribed to exactly this channel */
    public function subscribers(): array
    {
        $s = $this->h->subscribers();
        return array_map(fn($i) => [$s->jid($i), $s->port($i)], $s->size() ? range(0, $s->size() - 1) : []);
    }
}

/** $tree->store['k']: a job's per-job state as PHP data; null for an unset key. */
final class Store implements \ArrayAccess
{
    public function __construct(private \QlessClient $client, private string $jid) {}

    public function offsetGet(mixed $key): mixed
    {
        $json = $this->client->state_get($this->jid, $key);
        return $json === null ? null : json_decode($json, true, 512, JSON_THROW_ON_ERROR);
    }

    public function offsetExists(mixed $key): bool { return $this->client->state_get($this->jid, $key) !== null; }
    public function offsetSet(mixed $key, mixed $value): void
    {
        if ($key === null) {
            throw new \TypeError('Qless\Store[]: a key is needed ($store[] = ... has none)');
        }
        $this->client->state_set($this->jid, $key, json($value));
    }
    public function offsetUnset(mixed $key): void { $this->client->state_del($this->jid, [$key]); }

    /** @return array<string,mixed> every key (a snapshot: the extension's Store) */
    public function all(): array
    {
        $h = $this->client->store($this->jid);
        $all = [];
        for ($i = 0, $n = $h->size(); $i < $n; $i++) {
            $all[$h->key($i)] = json_decode($h->value($i), true, 512, JSON_THROW_ON_ERROR);
        }
        return $all;
    }
}
