<?php
// Ports, channels and per-job state (qless/tree.h) on PHP's side: values go in and come out as PHP data, JSON only
// on the wire.
declare(strict_types=1);

namespace Qless;

/** $x->ports->in / ->out: a job's ports of one direction. (in is not reserved as a property name in PHP.) */
final class Ports
{
    public readonly PortSide $in;
    public readonly PortSide $out;

    public function __construct(\QlessClient $client, string $jid)
    {
        [$this->in, $this->out] = [new PortSide($client, $jid, 0), new PortSide($client, $jid, 1)];
    }
}

/** $ports->in['p']: a Port (no I/O until it is used). */
final class PortSide extends ReadOnlyMap
{
    protected const HINT = 'use define()';

    public function __construct(\QlessClient $client, private string $jid, private int $dir) { parent::__construct($client); }

    public function offsetGet(mixed $name): Port { return $this->client->port($this->jid, $this->dir, $name); }
    public function offsetUnset(mixed $name): void { $this->remove($name); }
    /** @param array<string,array> $ports port => [] or ['default' => v] */
    public function define(array $ports): void { $this->client->port_define($this->jid, $this->dir, portSpecs($ports)); }
    /** @return int how many of them were defined */
    public function remove(string ...$names): int { return (int)$this->client->port_remove($this->jid, $this->dir, $names); }
}

/** One port of a job: the extension's Port (no I/O until it is used; ->name, size() inherited), PHP values in and out. */
final class Port extends \QlessPort
{
    /** @return array up to $count values, removed from the port */
    public function read($count = 1): array { return array_map(decode(...), parent::read($count)->toArray()); }
    /** @return array up to $count values, left in the port */
    public function peek($count = 1): array { return array_map(decode(...), parent::peek($count)->toArray()); }
    public function write(mixed ...$values): void { parent::write(array_map(json(...), $values)); }
    public function connect(...$channels): int { return parent::connect($channels); }
    public function disconnect(...$channels): int { return parent::disconnect($channels); }
}

/** $client->channels['/a']. */
final class Channels extends ReadOnlyMap
{
    protected const HINT = 'publish to $client->channels[$name]';

    public function offsetGet(mixed $name): Channel { return $this->client->channel($name); }
}

/** A channel: the extension's Channel (->name inherited), with PHP values in and out. */
final class Channel extends \QlessChannel
{
    /** @return int the input ports it reached */
    public function publish(mixed $value, ?string $from = null): int { return parent::publish(json($value), $from); }

    /** @return array<array{0:string,1:string}> [jid, port] pairs subscribed to exactly this channel */
    public function subscribers(): array
    {
        $s = parent::subscribers();
        return items($s->size(), fn ($i) => [$s->jid($i), $s->port($i)]);
    }
}

/** $tree->store['k']: a job's per-job state as PHP data; null for an unset key. */
final class Store implements \ArrayAccess
{
    public function __construct(private \QlessClient $client, private string $jid) {}

    public function offsetGet(mixed $key): mixed { return ($j = $this->client->state_get($this->jid, $key)) === null ? null : decode($j); }
    public function offsetExists(mixed $key): bool { return $this->client->state_get($this->jid, $key) !== null; }
    public function offsetUnset(mixed $key): void { $this->client->state_del($this->jid, [$key]); }

    public function offsetSet(mixed $key, mixed $value): void
    {
        $key ?? throw new \TypeError('Qless\Store[]: a key is needed ($store[] = ... has none)');
        $this->client->state_set($this->jid, $key, json($value));
    }

    /** @return array<string,mixed> every key (a snapshot: the extension's Store) */
    public function all(): array
    {
        $h = $this->client->store($this->jid);
        return array_combine(items($h->size(), $h->key(...)), array_map(decode(...), items($h->size(), $h->value(...))));
    }
}
