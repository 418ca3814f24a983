<?php
// Job trees (qless/tree.h) on PHP's side: $client->trees[$jid] and
// $client->aliases[$alias]. The protocol's rules stay in the server; this
// only turns the extension's Tree into arrays and "not found" into null.
declare(strict_types=1);

namespace Qless;

/** @internal Read-only map access shared by Trees and Aliases. */
abstract class ReadOnlyMap implements \ArrayAccess
{
    public function __construct(protected \QlessClient $client) {}

    public function offsetExists(mixed $key): bool { return $this->offsetGet($key) !== null; }

    public function offsetSet(mixed $key, mixed $value): void
    {
        throw new \LogicException(static::class . ': read-only; use the Tree methods to change a tree');
    }

    public function offsetUnset(mixed $key): void { $this->offsetSet($key, null); }
}

/** $client->trees[$jid]: the Tree of that jid, null when unknown. */
final class Trees extends ReadOnlyMap
{
    public function offsetGet(mixed $jid): ?Tree
    {
        if (!is_string($jid)) {
            throw new \TypeError('Qless\Trees[]: jid must be a string, ' . get_debug_type($jid) . ' given');
        }
        try {
            return new Tree($this->client, $this->client->tree($jid));
        } catch (NotFound) {
            return null;
        }
    }
}

/** $client->aliases[$alias]: the jid it names, null when unknown. */
final class Aliases extends ReadOnlyMap
{
    public function offsetGet(mixed $alias): ?string
    {
        if (!is_string($alias)) {
            throw new \TypeError('Qless\Aliases[]: alias must be a string, ' . get_debug_type($alias) . ' given');
        }
        try {
            return $this->client->alias($alias);
        } catch (NotFound) {
            return null;
        }
    }
}

/** A snapshot of a tree job (the extension's Tree): its fields as read-only
 *  properties under tree.get's names (jid, klass, queue, state, parent,
 *  name, created_by, started, runs, rerun, children, aliases, inports,
 *  outports, inchannels, outchannels, sizes; data: all of them), ->ports and
 *  ->store, and the tree commands on its jid. */
final class Tree
{
    public readonly string $jid;

    public function __construct(private \QlessClient $client, private \QlessTree $h)
    {
        $this->jid = $h->jid;
    }

    public function __get(string $name): mixed
    {
        $h = $this->h;
        // The job's qless state is ->state, so the per-job state map is ->store.
        return match ($name) {
            'ports' => new Ports($this->client, $this->jid),
            'store' => new Store($this->client, $this->jid),
            'klass', 'queue', 'parent', 'name', 'created_by', 'runs' => $h->$name,
            'state' => $h->status,
            'started' => $h->started ?: false,
            'rerun' => (bool)$h->rerun,
            'children' => pairs($h->child_count(), fn($i) => [$h->child_name($i), $h->child_jid($i)]),
            'aliases' => array_map(fn($i) => $h->alias($i), $h->alias_count() ? range(0, $h->alias_count() - 1) : []),
            'inports', 'outports' => $this->ports($name === 'inports' ? 0 : 1),
            'inchannels', 'outchannels' => array_filter($this->channels($name === 'inchannels' ? 0 : 1)),
            'sizes' => ['in' => $this->sizes(0), 'out' => $this->sizes(1)],
            'data' => json_decode($h->json, true, 512, JSON_THROW_ON_ERROR),
            default => throw new \Error("Qless\\Tree: no field $name"),
        };
    }

    /** So that $tree->store['k'] ?? $default reads the state (?? asks __isset first). */
    public function __isset(string $name): bool
    {
        return in_array($name, ['ports', 'store', 'jid', 'klass', 'queue', 'state', 'created_by', 'runs', 'rerun',
            'children', 'aliases', 'inports', 'outports', 'inchannels', 'outchannels', 'sizes', 'data'], true)
            || ($name === 'parent' || $name === 'name') && $this->h->$name !== null
            || $name === 'started' && $this->h->started;
    }

    private function ports(int $d): array
    {
        $h = $this->h;
        return pairs($h->port_count($d), fn($i) => [$h->port_name($d, $i),
            ($v = $h->port_default($d, $i)) === null ? [] : ['default' => json_decode($v, true, 512, JSON_THROW_ON_ERROR)]]);
    }

    private function channels(int $d): array
    {
        $h = $this->h;
        return pairs($h->port_count($d), fn($i) => [$h->port_name($d, $i),
            array_values(pairs($h->port_channel_count($d, $i), fn($j) => [$j, $h->port_channel($d, $i, $j)]))]);
    }

    private function sizes(int $d): array
    {
        $h = $this->h;
        return array_filter(pairs($h->port_count($d), fn($i) => [$h->port_name($d, $i), $h->port_size($d, $i)]),
            fn($n) => $n >= 0);
    }

    /** job.run: returns the job's state after it. */
    public function run(float $delay = 0.0): ?string { return $this->client->job_run($this->jid, $delay); }
    /** job.terminate: returns how many jobs changed. */
    public function terminate(bool $recursive = false): int { return (int)$this->client->job_terminate($this->jid, (int)$recursive); }
    /** job.delete: returns how many jobs were deleted. */
    public function delete(): int { return (int)$this->client->job_delete($this->jid); }
    public function adopt(string $name, string $child): void { $this->client->job_adopt($this->jid, $name, $child); }
    /** job.disown: returns the child's jid. */
    public function disown(string $name): ?string { return $this->client->job_disown($this->jid, $name); }
    /** @return int how many were new */
    public function addAliases(string ...$aliases): int { return (int)$this->client->alias_set($this->jid, $aliases); }
    /** @return int how many were removed */
    public function removeAliases(string ...$aliases): int { return (int)$this->client->alias_del($aliases); }
}

/** @internal [key => value] of the pairs $pair(0 .. $n - 1) gives. */
function pairs(int $n, callable $pair): array
{
    for ($out = [], $i = 0; $i < $n; $i++) {
        [$k, $v] = $pair($i);
        $out[$k] = $v;
    }
    return $out;
}

/** A tree job's children ($job->children()): $children['name'] is its jid
 *  (null: none), read from the server at each access; put creates one. */
final class Children implements \ArrayAccess, \IteratorAggregate, \Countable
{
    public function __construct(private \QlessClient $client, private string $jid, private string $queue) {}

    /** @return array<string,string> name => jid */
    public function toArray(): array { return (new Trees($this->client))[$this->jid]?->children ?: []; }

    public function offsetGet(mixed $name): ?string { return $this->toArray()[$name] ?? null; }
    public function offsetExists(mixed $name): bool { return $this->offsetGet($name) !== null; }
    public function offsetSet(mixed $name, mixed $value): void { throw new \LogicException('Qless\Children: use put()'); }
    public function offsetUnset(mixed $name): void { $this->offsetSet($name, null); }
    public function getIterator(): \ArrayIterator { return new \ArrayIterator($this->toArray()); }
    public function count(): int { return count($this->toArray()); }

    /** Puts child $name of $klass into $options['queue'] (default: the
     *  parent's), created by "job:<parent jid>"; returns its jid. Other
     *  options are Queue::put's (inports, outports, aliases, priority, ...). */
    public function put(string $name, string $klass, array|object $data = [], array $options = []): string
    {
        $taken = array_intersect(array_keys($options), ['parent', 'name', 'by', 'report']);
        if ($taken) {
            throw new \InvalidArgumentException('Qless\Children::put: ' . implode(', ', $taken) . ' are set by put');
        }
        $queue = $options['queue'] ?? $this->queue;
        unset($options['queue']);
        return $this->client->queue($queue)->put($klass, $data,
            ['parent' => $this->jid, 'name' => $name, 'by' => "job:{$this->jid}"] + $options);
    }
}
