<?php
// Job trees (qless/tree.h) on PHP's side: $client->trees[$jid] and $client->aliases[$alias]. The protocol's rules stay
// in the server; this only turns the extension's Tree into arrays and "not found" into null.
declare(strict_types=1);

namespace Qless;

/** @internal Read-only map access ($client->trees, ->aliases, ->schedules, ->channels, ...). */
abstract class ReadOnlyMap implements \ArrayAccess
{
    protected const HINT = 'use the Tree methods to change a tree';

    public function __construct(protected \QlessClient $client) {}

    public function offsetExists(mixed $key): bool { return $this->offsetGet($key) !== null; }
    public function offsetSet(mixed $key, mixed $value): void { throw new \LogicException(static::class . ': read-only; ' . static::HINT); }
    public function offsetUnset(mixed $key): void { $this->offsetSet($key, null); }
}

/** $client->trees[$jid]: the Tree of that jid, null when unknown. */
final class Trees extends ReadOnlyMap
{
    public function offsetGet(mixed $jid): ?Tree { return found(fn () => new Tree($this->client, $this->client->tree($jid))); }
}

/** $client->aliases[$alias]: the jid it names, null when unknown. */
final class Aliases extends ReadOnlyMap
{
    public function offsetGet(mixed $alias): ?string { return found(fn () => $this->client->alias($alias)); }
}

/** A snapshot of a tree job (the extension's Tree): its fields as read-only properties under tree.get's names (jid,
 *  klass, queue, state, parent, name, created_by, started, runs, rerun, children, aliases, inports, outports,
 *  inchannels, outchannels, sizes; data: all of them), ->ports and ->store, and the tree commands on its jid. */
final class Tree
{
    public readonly string $jid;
    public readonly array $data;

    public function __construct(private \QlessClient $client, \QlessTree $h)
    {
        $this->jid = $h->jid;
        $data = ['jid' => $h->jid, 'klass' => $h->klass, 'queue' => $h->queue, 'state' => $h->status,
            'parent' => $h->parent, 'name' => $h->name, 'created_by' => $h->created_by, 'runs' => $h->runs,
            'started' => $h->started ?: false, 'rerun' => (bool)$h->rerun,
            'children' => array_combine(items($h->child_count(), $h->child_name(...)), items($h->child_count(), $h->child_jid(...))),
            'aliases' => items($h->alias_count(), $h->alias(...))];
        foreach (['in' => 0, 'out' => 1] as $side => $d) {
            $data[$side . 'ports'] = $data[$side . 'channels'] = $data['sizes'][$side] = [];
            foreach (items($h->port_count($d), fn ($i) => $h->port_name($d, $i)) as $i => $name) {
                $default = $h->port_default($d, $i);
                $data[$side . 'ports'][$name] = $default === null ? [] : ['default' => decode($default)];
                $data['sizes'][$side] += $h->port_size($d, $i) < 0 ? [] : [$name => $h->port_size($d, $i)];   // "*" has none
                $channels = items($h->port_channel_count($d, $i), fn ($j) => $h->port_channel($d, $i, $j));
                $data[$side . 'channels'] += $channels ? [$name => $channels] : [];
            }
        }
        $this->data = $data;
    }

    public function __get(string $name): mixed
    {
        return match ($name) {   // tree.get has a field "state" (the job's state), so the per-job state map is ->store
            'ports' => new Ports($this->client, $this->jid),
            'store' => new Store($this->client, $this->jid),
            default => array_key_exists($name, $this->data) ? $this->data[$name] : throw new \Error("Qless\\Tree: no field $name"),
        };
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

/** A tree job's children ($job->children()): $children['name'] is its jid (null: none), read from the server at each
 *  access; put creates one. */
final class Children extends ReadOnlyMap implements \IteratorAggregate, \Countable
{
    protected const HINT = 'use put()';

    public function __construct(\QlessClient $client, private string $jid, private string $queue) { parent::__construct($client); }

    /** @return array<string,string> name => jid */
    public function toArray(): array { return (new Trees($this->client))[$this->jid]?->children ?: []; }
    public function offsetGet(mixed $name): ?string { return $this->toArray()[$name] ?? null; }
    public function getIterator(): \ArrayIterator { return new \ArrayIterator($this->toArray()); }
    public function count(): int { return count($this->toArray()); }

    /** Puts child $name of $klass into $options['queue'] (default: the parent's), created by "job:<parent jid>";
     *  returns its jid. Other options are Queue::put's (inports, outports, aliases, priority, ...). */
    public function put(string $name, string $klass, array|object $data = [], array $options = []): string
    {
        if ($taken = array_intersect(array_keys($options), ['parent', 'name', 'by', 'report'])) {
            throw new \InvalidArgumentException('Qless\Children::put: ' . implode(', ', $taken) . ' are set by put');
        }
        return $this->client->queue($options['queue'] ?? $this->queue)->put($klass, $data,
            ['parent' => $this->jid, 'name' => $name, 'by' => "job:{$this->jid}"] + array_diff_key($options, ['queue' => 0]));
    }
}
