<?php
// The Qless namespace over the qless extension (swig/php.i). SWIG 4.1's PHP
// backend cannot put classes in a namespace or give the flat qless_*
// functions methods, so this file does both; everything else (errors as
// Qless\Exception subclasses, string and list conversion) is generated.
// Each object keeps the object it was made from, so a queue or job never
// outlives the client its handle came from, whatever order PHP frees them in.
declare(strict_types=1);

namespace Qless;

if (!extension_loaded('qless')) {
    throw new \RuntimeException('the qless extension is not loaded (php -d extension=/path/to/qless.so)');
}

/** @internal Option arrays: unknown keys are refused, not silently ignored. */
function options(array $given, array $defaults, string $what): array
{
    $unknown = array_diff_key($given, $defaults);
    if ($unknown) {
        throw new InvalidArgument("$what: unknown option '" . array_key_first($unknown) . "'; known: "
            . implode(', ', array_keys($defaults)), -1);
    }
    return $given + $defaults;
}

/** @internal */
function strings($list): array
{
    $out = [];
    for ($i = 0, $n = \qless_strlist_size($list); $i < $n; $i++) {
        $out[] = \qless_strlist_get($list, $i);
    }
    return $out;
}

/** @internal Job data is a JSON object; an empty PHP array means {}. */
function encode(array|object $data): string
{
    return $data === [] ? '{}' : json_encode($data, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES);
}

final class Client
{
    /** @internal */ public $h;

    /** $url null: $QLESS_URL, else the embedded server. Options:
     *  worker_name, connect_timeout_ms, command_timeout_ms (0: the default). */
    public function __construct(?string $url = null, array $options = [])
    {
        $o = options($options, ['worker_name' => null, 'connect_timeout_ms' => 0, 'command_timeout_ms' => 0], 'Client');
        $this->h = \qless_swig_client_new($url, $o['connect_timeout_ms'], $o['command_timeout_ms'], $o['worker_name']);
    }

    public function workerName(): string { return \qless_client_worker_name($this->h); }
    public function queue(string $name): Queue { return new Queue($this, $name); }
    /** @return string[] */
    public function queueNames(): array { return strings(\qless_client_queue_names($this->h)); }

    public function job(string $jid): ?Job
    {
        try {
            return new Job($this, \qless_client_get_job($this->h, $jid));
        } catch (NotFound) {
            return null;
        }
    }

    public function recurringJob(string $jid): ?RecurringJob
    {
        try {
            return new RecurringJob($this, \qless_client_get_recur($this->h, $jid));
        } catch (NotFound) {
            return null;
        }
    }

    public function cancel(string ...$jids): void { \qless_client_cancel($this->h, $jids); }

    /** @return array{0:int,1:string[]} [total, jids] of one page of jobs tagged $tag. */
    public function tagged(string $tag, int $offset = 0, int $count = 25): array
    {
        [$list, $total] = \qless_client_tagged($this->h, $tag, $offset, $count);
        return [$total, strings($list)];
    }

    public function config(string $key): ?string { return \qless_client_config_get($this->h, $key); }
    public function setConfig(string $key, string $value): void { \qless_client_config_set($this->h, $key, $value); }
    public function unsetConfig(string $key): void { \qless_client_config_unset($this->h, $key); }

    /** Subscribes to qless event channels ("popped", "completed", ..., or jids). */
    public function events(string ...$channels): Events { return new Events($this, $channels); }
}

final class Queue
{
    /** @internal */ public $h;

    public function __construct(public readonly Client $client, string $name)
    {
        $this->h = \qless_queue_new($client->h, $name);
    }

    public function name(): string { return \qless_queue_name($this->h); }

    /** Options: jid, delay, priority, retries, tags, depends. Returns the jid. */
    public function put(string $klass, array|object $data = [], array $options = []): string
    {
        return \qless_queue_put($this->h, $klass, encode($data), $options);
    }

    /** The next job for this client's worker, or null when none is waiting. */
    public function pop(): ?Job { return $this->popMany(1)[0] ?? null; }

    /** @return Job[] up to $count jobs. */
    public function popMany(int $count): array { return $this->jobs(\qless_queue_pop($this->h, $count)); }

    /** @return Job[] up to $count waiting jobs, without taking them. */
    public function peek(int $count = 1): array { return $this->jobs(\qless_queue_peek($this->h, $count)); }

    public function length(): int { return \qless_queue_length($this->h); }

    /** @return array<string,int|bool> waiting, running, stalled, scheduled, depends, recurring, paused */
    public function counts(): array
    {
        $c = new \qless_queue_counts();
        \qless_queue_counts_get($this->h, $c);
        // The getters, not $c->waiting: SWIG 4.1's __get leaks its method name on every read.
        return ['waiting' => $c->waiting_get(), 'running' => $c->running_get(), 'stalled' => $c->stalled_get(),
            'scheduled' => $c->scheduled_get(), 'depends' => $c->depends_get(), 'recurring' => $c->recurring_get(),
            'paused' => (bool)$c->paused_get()];
    }

    public function pause(): void { \qless_queue_pause($this->h); }
    public function unpause(): void { \qless_queue_unpause($this->h); }

    /** A recurring job every $interval seconds. Options: jid, offset, priority,
     *  retries, backlog, tags. Returns its jid. */
    public function recur(string $klass, array|object $data, float $interval, array $options = []): string
    {
        // Unlike the protocol (0), this API's instances retry 5 times by default.
        return \qless_queue_recur($this->h, $klass, encode($data), $interval, $options + ['retries' => 5]);
    }

    private function jobs($list): array
    {
        $out = [];
        for ($i = 0, $n = \qless_joblist_size($list); $i < $n; $i++) {
            $out[] = new Job($this->client, \qless_joblist_take($list, $i));
        }
        return $out;
    }
}

final class Job
{
    /** @internal $h is an owned job handle from the extension. */
    public function __construct(public readonly Client $client, public $h) {}

    public function jid(): string { return \qless_job_jid($this->h); }
    public function klass(): string { return \qless_job_klass($this->h); }
    public function queue(): string { return \qless_job_queue($this->h); }
    public function state(): string { return \qless_job_state($this->h); }
    public function worker(): string { return \qless_job_worker($this->h); }
    public function data(): array { return json_decode(\qless_job_data($this->h), true, 512, JSON_THROW_ON_ERROR); }
    public function setData(array|object $data): void { \qless_job_set_data($this->h, encode($data)); }
    public function priority(): float { return \qless_job_priority($this->h); }
    public function retries(): int { return \qless_job_retries($this->h); }
    public function remaining(): int { return \qless_job_remaining($this->h); }
    public function failureGroup(): ?string { return \qless_job_failure_group($this->h); }
    public function failureMessage(): ?string { return \qless_job_failure_message($this->h); }
    public function refresh(): void { \qless_job_refresh($this->h); }

    /** @return string[] */
    public function tags(): array
    {
        $out = [];
        for ($i = 0, $n = \qless_job_tag_count($this->h); $i < $n; $i++) {
            $out[] = \qless_job_tag($this->h, $i);
        }
        return $out;
    }

    /** Options: next (a queue to move on to), delay, depends. */
    public function complete(array $options = []): void
    {
        \qless_job_complete($this->h, $options);
    }

    public function fail(string $group, string $message): void { \qless_job_fail($this->h, $group, $message); }

    /** Gives the job back after $delay seconds; returns the retries left (-1: it failed). */
    public function retry(?string $group = null, ?string $message = null, float $delay = 0.0): int
    {
        return \qless_job_retry($this->h, $delay, $group, $message);
    }

    /** Renews the lock; returns when it now expires. */
    public function heartbeat(): float { return \qless_job_heartbeat($this->h); }
    public function cancel(): void { \qless_job_cancel($this->h); }
    public function tag(string ...$tags): void { \qless_job_tag_add($this->h, $tags); }
    public function untag(string ...$tags): void { \qless_job_tag_remove($this->h, $tags); }
    public function track(): void { \qless_job_track($this->h); }
    public function untrack(): void { \qless_job_untrack($this->h); }
    public function setPriority(float $priority): void { \qless_job_set_priority($this->h, $priority); }
}

final class RecurringJob
{
    /** @internal $h is an owned recurring-job handle from the extension. */
    public function __construct(public readonly Client $client, public $h) {}

    public function jid(): string { return \qless_recur_jid($this->h); }
    public function klass(): string { return \qless_recur_klass($this->h); }
    public function queue(): string { return \qless_recur_queue($this->h); }
    public function data(): array { return json_decode(\qless_recur_data($this->h), true, 512, JSON_THROW_ON_ERROR); }
    public function interval(): float { return \qless_recur_interval($this->h); }
    public function priority(): float { return \qless_recur_priority($this->h); }
    public function retries(): int { return \qless_recur_retries($this->h); }
    public function count(): int { return \qless_recur_count($this->h); }

    /** @return string[] */
    public function tags(): array
    {
        $out = [];
        for ($i = 0, $n = \qless_recur_tag_count($this->h); $i < $n; $i++) {
            $out[] = \qless_recur_tag($this->h, $i);
        }
        return $out;
    }

    public function setInterval(float $seconds): void { \qless_recur_set_interval($this->h, $seconds); }
    public function setPriority(float $priority): void { \qless_recur_set_priority($this->h, $priority); }
    public function cancel(): void { \qless_recur_cancel($this->h); }
}

final class Events
{
    /** @internal */ public $h;

    /** @param string[] $channels */
    public function __construct(public readonly Client $client, array $channels)
    {
        $this->h = \qless_events_new($client->h, $channels);
    }

    /** The next [channel, message] within $timeoutMs milliseconds, or null. */
    public function next(int $timeoutMs): ?array
    {
        [$channel, $message] = \qless_events_next($this->h, $timeoutMs);
        return $channel === null ? null : [$channel, $message];
    }
}
