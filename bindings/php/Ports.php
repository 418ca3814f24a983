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
    public readonly PortMap $in;
    public readonly PortMap $out;

    public function __construct(\QlessClient $client, string $jid)
    {
        $this->in = new PortMap($client, $jid, 0);
        $this->out = new PortMap($client, $jid, 1);
    }
}

/** $ports->in['p']: a Port (no I/O until it is used). */
final class PortMap implements \ArrayAccess
{
    public function __construct(private \QlessClient $client, private string $jid, private int $dir) {}

    public function offsetGet(mixed $name): Port { return new Port($this->client, $this->jid, $this->dir, $name); }
    public function offsetExists(mixed $name): bool { return true; }
    public function offsetSet(mixed $name, mixed $value): void { throw new \LogicException('Qless\PortMap: use define()'); }
    public function offsetUnset(mixed $name): void { $this->remove($name); }

    /** @param array<string,array> $ports port => [] or ['default' => v] */
    public function define(array $ports): void
    {
        $this->client->port_define($this->jid, $this->dir, portSpecs($ports));
    }

    /** @return int how many of them were defined */
    public function remove(string ...$names): int { return (int)$this->client->port_remove($this->jid, $this->dir, $names); }
}

final class Port
{
    public function __construct(private \QlessClient $client, private string $jid, private int $dir,
                                public readonly string $name) {}

    /** @return array up to $count values, removed from the port */
    public function read($count = 1): array
    {
        return decode($this->client->port_read($this->jid, $this->dir, $this->name, count_arg($count, __METHOD__)));
    }

    /** @return array up to $count values, left in the port */
    public function peek($count = 1): array
    {
        return decode($this->client->port_peek($this->jid, $this->dir, $this->name, count_arg($count, __METHOD__)));
    }

    public function size(): int { return (int)$this->client->port_size($this->jid, $this->dir, $this->name); }

    public function write(mixed ...$values): void
    {
        $this->client->port_write($this->jid, $this->dir, $this->name, array_map(json(...), $values));
    }

    public function connect(string ...$channels): int
    {
        return (int)$this->client->port_connect($this->jid, $this->dir, $this->name, $channels);
    }

    public function disconnect(string ...$channels): int
    {
        return (int)$this->client->port_disconnect($this->jid, $this->dir, $this->name, $channels);
    }
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

final class Channel
{
    public function __construct(private \QlessClient $client, public readonly string $name) {}

    /** @return int the input ports it reached */
    public function publish(mixed $value, ?string $from = null): int
    {
        return (int)$this->client->channel_publish($this->name, json($value), $from);
    }

    /** @return array<array{0:string,1:string}> [jid, port] pairs subscribed to exactly this channel */
    public function subscribers(): array { return decode($this->client->channel_subscribers($this->name)); }
}

/** $tree->store['k']: a job's per-job state as PHP data; null for an unset key. */
final class State implements \ArrayAccess
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
            throw new \TypeError('Qless\State[]: a key is needed ($state[] = ... has none)');
        }
        $this->client->state_set($this->jid, $key, json($value));
    }
    public function offsetUnset(mixed $key): void { $this->client->state_del($this->jid, [$key]); }

    /** @return array<string,mixed> every key */
    public function all(): array
    {
        return json_decode($this->client->state_get($this->jid, null), true, 512, JSON_THROW_ON_ERROR) ?: [];
    }
}
