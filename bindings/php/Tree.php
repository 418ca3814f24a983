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
    /** @var array<string,mixed> every field */
    public readonly array $data;

    public function __construct(private \QlessClient $client, \QlessTree $h)
    {
        $this->jid = $h->jid;
        $data = ['jid' => $h->jid, 'klass' => $h->klass, 'queue' => $h->queue, 'state' => $h->status,
            'parent' => $h->parent, 'name' => $h->name, 'created_by' => $h->created_by, 'runs' => $h->runs,
            'started' => $h->started ?: false, 'rerun' => (bool)$h->rerun, 'children' => [], 'aliases' => []];
        for ($i = 0; $i < $h->child_count(); $i++) {
            $data['children'][$h->child_name($i)] = $h->child_jid($i);
        }
        for ($i = 0; $i < $h->alias_count(); $i++) {
            $data['aliases'][] = $h->alias($i);
        }
        foreach (['in' => 0, 'out' => 1] as $side => $d) {
            $data[$side . 'ports'] = $data[$side . 'channels'] = $data['sizes'][$side] = [];
            for ($i = 0; $i < $h->port_count($d); $i++) {
                $name = $h->port_name($d, $i);
                $default = $h->port_default($d, $i);
                $data[$side . 'ports'][$name] = $default === null ? [] : ['default' => decode("[$default]")[0]];
                if ($h->port_size($d, $i) >= 0) {
                    $data['sizes'][$side][$name] = $h->port_size($d, $i);
                }
                for ($j = 0; $j < $h->port_channel_count($d, $i); $j++) {
                    $data[$side . 'channels'][$name][] = $h->port_channel($d, $i, $j);
                }
            }
        }
        $this->data = $data;
    }

    public function __get(string $name): mixed
    {
        // tree.get has a field "state" (the job's state), so the per-job
        // state map is ->store here.
        if ($name === 'ports' || $name === 'store') {
            return $name === 'ports' ? new Ports($this->client, $this->jid) : new Store($this->client, $this->jid);
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
