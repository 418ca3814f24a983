<?php
// The Qless namespace on the qless extension (swig/php.i), whose classes are global (QlessClient, QlessJob, ...;
// swig/objects.i): these extend them, and the extension then hands out its handles as these. Only PHP's side is
// here: JSON data, camelCase getters, variadic lists, null for "not found", iterable lists. Overrides stay
// signature-compatible with the generated methods, so some parameters are untyped: the extension checks them.
declare(strict_types=1);

namespace Qless;

if (!extension_loaded('qless')) {
    throw new \RuntimeException('the qless extension is not loaded (php -d extension=/path/to/qless.so)');
}

require_once __DIR__ . '/Tree.php';
require_once __DIR__ . '/Schedule.php';
require_once __DIR__ . '/Ports.php';

/** Throw it (or a subclass) from job code to have the job retried after the worker's backoff delay instead of
 *  failed (failed once its retries are used up; docs/workers.md). */
class RetryableError extends \Exception {}

/** @internal One value as JSON text. */
function json(mixed $value): string { return json_encode($value, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES); }

function decode(string $json): mixed { return json_decode($json, true, 512, JSON_THROW_ON_ERROR); }

/** @internal Job data is a JSON object; an empty PHP array means {}. */
function encode(mixed $data, string $method): string
{
    if (!is_array($data) && !is_object($data)) {
        throw new \TypeError("$method(): data must be an array or an object, " . get_debug_type($data) . ' given');
    }
    return $data === [] ? '{}' : json($data);
}

/** @internal [$item(0), ..., $item($n - 1)]: the items of an indexed handle. */
function items(int $n, callable $item): array { return $n > 0 ? array_map($item, range(0, $n - 1)) : []; }

/** @internal null when $read throws NotFound. */
function found(callable $read): mixed
{
    try {
        return $read();
    } catch (NotFound) {
        return null;
    }
}

/** @internal Options that are yes/no take only bools, not what PHP would cast. */
function checkFlags(array $options, array $flags, string $method): void
{
    foreach ($flags as $flag) {
        if (isset($options[$flag]) && !is_bool($options[$flag])) {
            throw new \TypeError("$method(): option $flag must be a bool, " . get_debug_type($options[$flag]) . ' given');
        }
    }
}

/** @internal Ports {port: {} or {"default": v}} as JSON: PHP's [] is a list, so an empty spec (or map) is made an object. */
function portSpecs(array $ports): string
{
    return $ports === [] ? '{}' : json(array_map(fn ($spec) => $spec === [] ? new \stdClass() : $spec, $ports));
}

/** @internal The options put and requeue share, as the C put options take them (tree a bool, ports as JSON). */
function putOptions(array $o, string $method): array
{
    checkFlags($o, ['tree'], $method);
    return ['tree' => isset($o['tree']) ? (int)$o['tree'] : null] + treePorts($o, $method) + $o;
}

/** @internal A put's inports/outports ({port: {} or {"default": v}}) as the JSON the C options take. */
function treePorts(array $options, string $method): array
{
    $out = [];
    foreach (['inports', 'outports'] as $dir) {
        if (isset($options[$dir])) {
            if (!is_array($options[$dir])) {
                throw new \TypeError("$method(): option $dir must be an array of port => spec, " . get_debug_type($options[$dir]) . ' given');
            }
            $out[$dir] = portSpecs($options[$dir]);
        }
    }
    return $out;
}

/** @internal A queue's counts, which $fill writes into a QueueCounts, as an
 *  array; the getters, not $c->waiting: SWIG 4.1's __get leaks its method name on every read. */
function counts(callable $fill): array
{
    $fill($c = new \QlessQueueCounts());
    return ['waiting' => $c->waiting_get(), 'running' => $c->running_get(), 'stalled' => $c->stalled_get(),
        'scheduled' => $c->scheduled_get(), 'depends' => $c->depends_get(), 'recurring' => $c->recurring_get(),
        'paused' => (bool)$c->paused_get()];
}

/** @internal The client a queue or job was made or read with
 *  (Client::queue, ::job, the worker); a queue lends it to the jobs it pops and peeks. */
trait Owned
{
    private ?\QlessClient $owner = null;

    /** Lends the client once it is known; null (a queue made elsewhere) leaves it as it is, so nothing unbinds. */
    public function bind(?\QlessClient $client): static
    {
        $this->owner = $client ?? $this->owner;
        return $this;
    }
}

/** new Client(?string $url = null, ?array $options = null) (the extension's constructor): $url null means $QLESS_URL,
 *  else the embedded server; options worker_name, connect_timeout_ms, command_timeout_ms, namespace (docs/cluster.md). */
final class Client extends \QlessClient
{
    /** The URL it was made with (null: $QLESS_URL or the embedded server, or a client the extension handed out). */
    public ?string $url = null;

    public function __construct($url = null, $options = null)
    {
        parent::__construct($url, $options);
        $this->url = $url;
    }

    /** $client->schedules[$name], $client->trees[$jid], $client->aliases[$alias], $client->channels[$name]. */
    public function __get($name)
    {
        return match ($name) {
            'schedules' => new Schedules($this),
            'trees' => new Trees($this),
            'aliases' => new Aliases($this),
            'channels' => new Channels($this),
            default => parent::__get($name),
        };
    }

    /** @return float[] the next $count fire times of a cron expression (cron.next, on the server's clock). */
    public function cronNext(string $expr, $count = 1): array { $t = $this->cron_next($expr, $count); return items($t->size(), $t->get(...)); }

    public function workerName(): string { return $this->worker_name_get(); }
    public function queueNames(): array { return $this->queue_names()->toArray(); }

    /** @return array<string,array> each known queue's counts (as Queue::counts), by name. */
    public function queueCounts(): array
    {
        $list = $this->queue_counts();
        return array_combine(items($list->size(), $list->name(...)),
                             items($list->size(), fn ($i) => counts(fn ($c) => $list->get($i, $c))));
    }

    /** The queue of that name (no I/O); its jobs know this client (Job::bind). */
    public function queue($name): Queue { return parent::queue($name)->bind($this); }
    public function job(string $jid): ?Job { return found(fn () => $this->get_job($jid)->bind($this)); }
    public function recurringJob(string $jid): ?RecurringJob { return found(fn () => $this->get_recur($jid)); }
    public function cancel(...$jids): void { parent::cancel($jids); }

    /** @return array{0:int,1:string[]} [total, jids] of one page of jobs tagged $tag. */
    public function tagged($tag, $offset = 0, $count = 25): array
    {
        [$list, $total] = parent::tagged($tag, $offset, $count);
        return [$total, $list->toArray()];
    }

    public function config(string $key): ?string { return $this->config_get($key); }
    public function setConfig(string $key, string $value): void { $this->config_set($key, $value); }
    public function unsetConfig(string $key): void { $this->config_unset($key); }

    /** Subscribes to qless event channels ("popped", "completed", ..., or jids). */
    public function events(...$channels): Events { return parent::events($channels); }
}

final class Queue extends \QlessQueue
{
    use Owned;

    private function bound($list): array { return array_map(fn (Job $j) => $j->bind($this->owner), iterator_to_array($list, false)); }

    public function name(): string { return $this->name_get(); }

    /** Options: jid, delay, priority, retries, tags, depends, unique (bool: the jid is the C library's unique jid of
     *  the job, or of key, and an identical pending job is not put again), key, report (with unique: [jid, inserted]
     *  instead of the jid); job trees: tree (bool), parent and name, inports/outports (port => [] or ['default' => v]),
     *  aliases, by. Returns the jid. */
    public function put($klass, $data = [], ?array $options = null): string|array
    {
        $o = $options ?? [];
        checkFlags($o, ['unique', 'report'], __METHOD__);
        $report = $o['report'] ?? false;
        $o = ['unique' => isset($o['unique']) ? (int)$o['unique'] : null, 'unique_key' => $o['key'] ?? null]
            + putOptions(array_diff_key($o, ['key' => 0, 'report' => 0]), __METHOD__);
        $data = encode($data, __METHOD__);
        return $report ? parent::put_unique($klass, $data, $o) : parent::put($klass, $data, $o);
    }

    /** worker.register: new tree jobs of $klass here get these ports (['inports' => [port => spec], 'outports' => ...]);
     *  true when $klass was new. */
    public function registerKlass(string $klass, array $config): bool
    {
        return $this->register_klass($klass, json((object)array_map(json_decode(...), treePorts($config, __METHOD__))));
    }

    /** The registered configuration of $klass (null: none), or with no $klass every class's, by name. */
    public function klassConfig(?string $klass = null): ?array
    {
        return ($json = $this->klass_config($klass)) === null ? null : decode($json);
    }

    /** true when $klass was registered. */
    public function unregisterKlass(string $klass): bool { return $this->unregister_klass($klass); }

    /** The next job (null when none is waiting), or with a $count a list of up to $count jobs. */
    public function pop($count = null): Job|array|null
    {
        $jobs = $this->bound(parent::pop($count ?? 1));
        return $count === null ? ($jobs[0] ?? null) : $jobs;
    }

    public function popMany($count): array { return $this->bound(parent::pop($count)); }
    /** @return Job[] up to $count waiting jobs, without taking them. */
    public function peek($count = 1): array { return $this->bound(parent::peek($count)); }
    /** @return array<string,int|bool> waiting, running, stalled, scheduled, depends, recurring, paused */
    public function counts(): array { return counts($this->counts_get(...)); }

    /** A recurring job every $interval seconds. Options: jid, offset, priority, retries, backlog, tags. Returns its jid. */
    public function recur($klass, $data, $interval, ?array $options = null): string
    {
        // Unlike the protocol (0), this API's instances retry 5 times by default.
        return parent::recur($klass, encode($data, __METHOD__), $interval, ($options ?? []) + ['retries' => 5]);
    }
}

/** @internal What a job's and a recurring job's snapshots both have. */
trait Snapshot
{
    public function jid(): string { return $this->jid_get(); }
    public function klass(): string { return $this->klass_get(); }
    public function queue(): string { return $this->queue_get(); }
    public function data(): array { return decode($this->data_get()); }
    public function priority(): float { return $this->priority_get(); }
    public function retries(): int { return $this->retries_get(); }
    public function tags(): array { return items($this->tag_count_get(), $this->tag_at(...)); }
}

/** Inherited: complete(?array $options: next, delay, depends), fail($group,
 *  $message), heartbeat() (the new expiry), cancel(), track(), untrack(), refresh(). */
final class Job extends \QlessJob
{
    use Snapshot, Owned;

    public function state(): string { return $this->state_get(); }
    public function worker(): string { return $this->worker_get(); }
    public function remaining(): int { return $this->remaining_get(); }
    public function failureGroup(): ?string { return $this->failure_group_get(); }
    public function failureMessage(): ?string { return $this->failure_message_get(); }
    public function setData(array|object $data): void { $this->set_data(encode($data, __METHOD__)); }
    public function setPriority(float $priority): void { $this->set_priority($priority); }
    public function tag(string ...$tags): void { $this->tag_add($tags); }
    public function untag(string ...$tags): void { $this->tag_remove($tags); }

    /** Puts the job (in any state) into $queue. Options: delay, priority, retries, tags, depends, and put's job-tree
     *  options (tree, parent, name, inports, outports, aliases, by), which convert or attach it. */
    public function requeue($queue, ?array $options = null): void { parent::requeue($queue, putOptions($options ?? [], __METHOD__)); }

    /** Gives the job back after $delay seconds; returns the retries left (-1: it failed). */
    public function retry($group = null, $message = null, $delay = 0.0): int { return parent::retry($delay, $group, $message); }

    // ---- as a tree job (jobtrees.md §9): what perform uses ----

    private function owner(string $what): \QlessClient
    {
        return $this->owner ?? throw new \LogicException(
            "Qless\\Job::$what: this job does not know its client (jobs from perform, Client::job() and a Client::queue()'s pop and peek do)");
    }

    /** ->ports (->in['p'], ->out['p']: Ports.php), ->store (the job's private state; state() is its qless state) and
     *  ->client (the client the job was read with; in a worker, the engine's connection). */
    public function __get($name)
    {
        return match ($name) {
            'client' => $this->owner($name),
            'ports' => new Ports($this->owner($name), $this->jid()),
            'store' => new Store($this->owner($name), $this->jid()),
            default => parent::__get($name),
        };
    }

    /** So that $job->store['k'] ?? $default reads the state (?? asks __isset first). */
    public function __isset($name): bool
    {
        return $name === 'client' || $name === 'ports' || $name === 'store' || parent::__isset($name);
    }

    /** The job's tree record, null once the job is gone. */
    public function tree(): ?Tree { return (new Trees($this->owner(__FUNCTION__)))[$this->jid()]; }

    /** The parent's Tree (its ports and store), or null for a root. */
    public function parent(): ?Tree { return ($up = $this->tree()?->parent) === null ? null : (new Trees($this->owner(__FUNCTION__)))[$up]; }

    /** $job->children()['name'] is a child's jid; ->put(name, klass, data) creates one. */
    public function children(): Children { return new Children($this->owner(__FUNCTION__), $this->jid(), $this->queue()); }
    public function read(string $port, $count = 1): array { return $this->__get('ports')->in[$port]->read($count); }
    public function write(string $port, mixed ...$values): void { $this->__get('ports')->out[$port]->write(...$values); }

    /** In a worker's perform: the job sleeps once perform returns, until input or Tree::run wakes it (at once if input
     *  came during the run); null. Qless\StateError at the call when the worker does not run the job as a tree job.
     *  Otherwise, for a job this client holds: suspends it now; true when input that came during the run requeued it. */
    public function suspend(): ?bool { return \qless_swig_worker_suspend($this) ? null : (bool)parent::suspend(); }
}

/** Inherited: cancel(), set_backlog(), set_retries(), ... */
final class RecurringJob extends \QlessRecur
{
    use Snapshot;

    public function interval(): float { return $this->interval_get(); }
    public function count(): int { return $this->count_get(); }
    public function setInterval(float $seconds): void { $this->set_interval($seconds); }
    public function setPriority(float $priority): void { $this->set_priority($priority); }
}
class_alias(RecurringJob::class, 'Qless\Recur');   // what the extension's QlessRecur handles come back as (php.i)

final class Events extends \QlessEvents
{
    /** The next [channel, message] within $timeoutMs milliseconds, or null. */
    public function next($timeoutMs): ?array { return ($next = parent::next($timeoutMs))[0] === null ? null : $next; }
}

/** A list of strings (jids, names) as the extension returns it. */
final class StrList extends \QlessStrList implements \IteratorAggregate, \Countable
{
    public function count(): int { return $this->size(); }
    public function toArray(): array { return items($this->size(), $this->get(...)); }
    public function getIterator(): \Generator { yield from $this->toArray(); }
    /** name => number, for the lists that pair them (failed_groups, top_tags, workers). */
    public function numbers(): array { return array_combine($this->toArray(), items($this->size(), $this->number(...))); }
}

/** Jobs as the extension returns them; iterating takes each job out of the list. */
final class JobList extends \QlessJobList implements \IteratorAggregate, \Countable
{
    public function count(): int { return $this->size(); }

    public function getIterator(): \Generator
    {
        for ($i = 0, $n = $this->size(); $i < $n; $i++) {
            yield $this->take($i);
        }
    }
}
