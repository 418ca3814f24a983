<?php
// Schedules (schedules.md §6.4, §7): a named queue seen as a schedule of one-off jobs and recurring templates, every
// add unique by default. The C library decides what an entry is and what its jid is; this file only turns PHP's time
// values into numbers and text and picks the call.
declare(strict_types=1);

namespace Qless;

/** What a time text means: kind 'at' (once, at $at), 'interval' (every $interval seconds, first at $at) or 'cron'
 *  (at the fire times of the normalised expression $cron; $at is 0). */
final class When
{
    /** $warning: '' or what the text was read as that it may not mean (a weekday that is not the date's: the date
     *  is used). */
    public function __construct(public readonly string $kind, public readonly float $at,
                                public readonly float $interval, public readonly string $cron,
                                public readonly string $warning = '') {}

    /** $at as a UTC DateTimeImmutable. */
    public function dateTime(): \DateTimeImmutable { return new \DateTimeImmutable(sprintf('@%.6F', $this->at)); }
}

/** Reads English time text ('7pm tomorrow', 'in 5 minutes', 'every monday 9am', ISO 8601, epoch seconds) relative to
 *  $now (default: the clock); no server is asked. $dayFirst: 27/5/1979 is day/month/year. Qless\InvalidArgument
 *  names the word and column a text went wrong at. */
function when(string $text, \DateTimeInterface|int|float|null $now = null, bool $dayFirst = false): When
{
    $w = new \QlessWhen();
    $w->flags_set($dayFirst ? \QLESS_WHEN_DAY_FIRST : 0);
    \qless_when_parse($text, $now === null ? microtime(true) : seconds($now, 'Qless\when(): now', true), $w);
    $kinds = [\QLESS_WHEN_AT => 'at', \QLESS_WHEN_INTERVAL => 'interval', \QLESS_WHEN_CRON => 'cron'];
    return new When($kinds[$w->kind_get()], $w->at_get(), $w->interval_get(), $w->cron_get(), \qless_when_warning());
}

/** @internal A number, or as seconds a DateTimeInterface (with $at: epoch seconds) or a DateInterval (a length). */
function seconds(mixed $value, string $what, bool $at = false): float
{
    return match (true) {
        is_int($value) || is_float($value) => (float)$value,
        $at && $value instanceof \DateTimeInterface => (float)$value->format('U.u'),
        // Counted from the epoch, so that a month has a definite length.
        !$at && $value instanceof \DateInterval => (float)(new \DateTimeImmutable('@0'))->add($value)->format('U.u'),
        default => throw new \TypeError("$what must be text, a number " . ($at ? 'or a DateTimeInterface, ' : 'of seconds or a DateInterval, ')
            . get_debug_type($value) . ' given'),
    };
}

/** Made by Client::schedule($name) or $client->schedules[$name] (no I/O). Inherited: remove($jid) (false when there was
 *  no such pending entry), list() (the entries as JSON text). */
final class Schedule extends \QlessSchedule
{
    private const ADD_OPTIONS = ['at' => null, 'in' => null, 'cron' => null, 'every' => null, 'unique' => true,
        'key' => null, 'jid' => null, 'priority' => null, 'retries' => null, 'tags' => null, 'backlog' => null,
        'report' => false, 'dayFirst' => false];

    private string $lastWarning = '';

    public function name(): string { return $this->name_get(); }

    /** Adds an entry that runs at 'at' (once: text, epoch seconds or a DateTimeInterface), 'in' (once, after text,
     *  seconds or a DateInterval), 'every' (a template: text such as '2 days at 9am', seconds or a DateInterval) or at
     *  the times of 'cron'; exactly one of them. Other options: unique (default true), key, jid, priority, retries,
     *  tags, backlog (templates), report, dayFirst (27/5/1979 in the texts is day/month/year). Returns the jid
     *  whether or not an identical entry was pending; with 'report' => true [jid, inserted]. A text read in a way it
     *  may not mean (a weekday that is not the date's: the date is used) is added all the same: lastWarning() says
     *  so. */
    public function add(string $klass, mixed $data = null, array $opts = []): string|array
    {
        $o = $this->options($opts, self::ADD_OPTIONS, __METHOD__);
        $c = $this->cOptions($o) + ['cron' => $o['cron'], 'day_first' => $o['dayFirst'] ? 1 : 0];
        $this->lastWarning = '';
        // Text goes to the extension as text, which reads it as each option
        // means it; the core chooses (and refuses) among the times.
        foreach (['at' => true, 'in' => false, 'every' => false] as $k => $at) {
            if ($o[$k] !== null) {
                $c[is_string($o[$k]) ? "{$k}_text" : $k] = is_string($o[$k]) ? $o[$k]
                    : seconds($o[$k], "Qless\\Schedule::add(): option $k", $at);
            }
        }
        $found = $this->add_entry($klass, $data === null ? null : encode($data, __METHOD__), $c);
        // the thread's, left by the add's own parse ('' without text)
        $this->lastWarning = \qless_when_warning();
        return $o['report'] ? $found : $found[0];
    }

    /** '' or what the text of this schedule's last add() was read as that it may not mean (a weekday that is not
     *  the date's: the date is used; the entry was added). */
    public function lastWarning(): string { return $this->lastWarning; }

    /** Adds a one-off entry that may run at once; options and result as add's
     *  (without the times and backlog). */
    public function addNow(string $klass, mixed $data = null, array $opts = []): string|array
    {
        $o = $this->options($opts, array_diff_key(self::ADD_OPTIONS, array_flip(['at', 'in', 'cron', 'every', 'backlog', 'dayFirst'])), __METHOD__);
        $found = $this->add_now($klass, $data === null ? null : encode($data, __METHOD__), $this->cOptions($o));
        return $o['report'] ? $found : $found[0];
    }

    /** @return array[] the pending entries: templates by next due time, then scheduled jobs, each ['jid', 'klass',
     *  'kind' => 'cron'|'interval'|'at', 'cron' or 'interval', 'next', 'priority', 'tags', 'description']. Jobs waiting
     *  or running are none. */
    public function entries(): array
    {
        $e = parent::entries();
        return items($e->size(), fn ($i) => ['jid' => $e->jid($i), 'klass' => $e->klass($i), 'kind' => $kind = $e->kind($i),
            'next' => $e->next($i), 'priority' => $e->priority($i), 'tags' => items($e->tag_count($i), fn ($j) => $e->tag($i, $j)),
            'description' => $e->description($i)] + ($kind === 'at' ? [] : [$kind => $kind === 'cron' ? $e->cron($i) : $e->interval($i)]));
    }

    /** @return float[] the next $n due times of entry $jid: a template's, a scheduled job's one time. NotFound when
     *  $jid is no pending entry of this schedule. */
    public function next($jid, $n = 5): array { $t = parent::next($jid, $n); return items($t->size(), $t->get(...)); }

    /**
     * Runs the schedule's due jobs with the PHP worker (Worker.php on the
     * engine: class resolution by the allow-list, heartbeats, SIGTERM/SIGINT
     * finish the running jobs) in a pool of 'pool' processes (default 1)
     * forked from this one, until stopped or 'max_jobs' jobs are done.
     * 'allow' (a pattern or a list; default $QLESS_WORKER_ALLOW) names the
     * job classes it may run; 'interval' the idle sleep in seconds. Returns
     * the worker's exit status (0 after a graceful stop).
     */
    public function listen(array $opts = []): int
    {
        $o = $this->options($opts, ['pool' => 1, 'max_jobs' => null, 'allow' => null, 'interval' => null], __METHOD__);
        if (!is_int($o['pool']) || $o['pool'] < 1) {
            throw new InvalidArgument(__METHOD__ . "(): pool must be a positive int, " . var_export($o['pool'], true)
                . ' given', \QLESS_EINVAL);
        }
        $typed = ['size' => $o['pool'], 'pool' => \QLESS_POOL_PROCESSES, 'signals' => 1];
        foreach (['max_jobs', 'interval'] as $k) {
            if ($o[$k] !== null) {
                if (!is_int($o[$k]) && !($k === 'interval' && is_float($o[$k]))) {
                    throw new \TypeError(__METHOD__ . "(): $k must be a number, " . get_debug_type($o[$k]) . ' given');
                }
                $typed[$k] = $o[$k];
            }
        }
        $allow = array_map(fn($pattern) => $this->text($pattern, 'allow'), (array)($o['allow'] ?? []));
        $typed['allow'] = $allow ?: null;
        require_once __DIR__ . '/Worker.php';
        try {   // the tree classes of the allow-list the run will use ($QLESS_WORKER_ALLOW's without one)
            [$klasses, $configs] = Worker::treeClasses($allow ?: iterator_to_array(\qless_worker_main_args([])[0], false));
        } catch (\Throwable $e) {   // a broken job file or a bad port declaration: nothing ran yet
            fwrite(STDERR, "qless-schedule: finding the tree classes: " . get_class($e) . ": {$e->getMessage()}\n");
            return 1;
        }
        return \qless_php_schedule_listen($this, [Worker::class, 'run'], $typed, $klasses ?: null, $configs ?: null);
    }

    private function options(array $given, array $defaults, string $method): array
    {
        $unknown = array_diff_key($given, $defaults);
        if ($unknown) {
            throw new InvalidArgument("$method(): unknown option '" . array_key_first($unknown) . "'; known: "
                . implode(', ', array_keys($defaults)), \QLESS_EINVAL);
        }
        checkFlags($given, ['unique', 'report', 'dayFirst'], $method);
        return $given + $defaults;
    }

    /** The C library's schedule options; it checks their types and values. */
    private function cOptions(array $o): array
    {
        return ['unique' => $o['unique'] ? 1 : 0, 'key' => $o['key'], 'jid' => $o['jid'], 'priority' => $o['priority'],
            'retries' => $o['retries'], 'tags' => $o['tags'], 'backlog' => $o['backlog'] ?? null];
    }

    private function text(mixed $value, string $option): string
    {
        if (!is_string($value)) {
            throw new \TypeError("Qless\\Schedule::add(): option $option must be a string, " . get_debug_type($value) . ' given');
        }
        return $value;
    }
}

/** $client->schedules[$name]: a Schedule (no I/O). Read-only. */
final class Schedules extends ReadOnlyMap
{
    protected const HINT = 'add entries with $client->schedules[$name]->add(...), remove them with ->remove($jid)';

    public function offsetGet(mixed $name): Schedule { return $this->client->schedule($name); }
    public function offsetExists(mixed $name): bool { return is_string($name); }
}
