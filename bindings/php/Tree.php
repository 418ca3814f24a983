<?php
// Job trees (qless/tree.h) on PHP's side: $client->trees[$jid] and
// $client->aliases[$alias]. The protocol's rules stay in the server; this
// only turns JSON into arrays and "not found" into null.
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
            $json = $this->client->tree_get($jid);
        } catch (NotFound) {
            return null;
        }
        $data = $json === null ? null : json_decode($json, true, 512, JSON_THROW_ON_ERROR);
        return is_array($data) ? new Tree($this->client, $data) : null;
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
            return $this->client->alias_get($alias);
        } catch (NotFound) {
            return null;
        }
    }
}

/** A snapshot of tree.get (its fields as public properties, as the server
 *  sent them) with the tree commands on its jid. */
final class Tree
{
    public readonly string $jid;
    /** @var array<string,mixed> the whole tree.get object */
    public readonly array $data;

    public function __construct(private \QlessClient $client, array $data)
    {
        $this->jid = $data['jid'];
        $this->data = $data;
    }

    public function __get(string $name): mixed
    {
        // tree.get has a field "state" (the job's state), so the per-job
        // state map is ->store here.
        if ($name === 'ports' || $name === 'store') {
            return $name === 'ports' ? new Ports($this->client, $this->jid) : new State($this->client, $this->jid);
        }
        if (!array_key_exists($name, $this->data)) {
            throw new \Error("Qless\\Tree: no field $name");
        }
        return $this->data[$name];
    }

    /** So that $tree->store['k'] ?? $default reads the state (?? asks __isset first). */
    public function __isset(string $name): bool
    {
        return $name === 'ports' || $name === 'store' || isset($this->data[$name]);
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
