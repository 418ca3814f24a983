<?php
// $client->schedules (schedules.md §6.4, §7; checklist BND-1, BND-2 and the
// PHP half of UNQ-10), Qless\when, cronNext and put's unique option, checked
// against what lands in Redis.
declare(strict_types=1);

final class ScheduleTest extends QlessTestCase
{
    private const N = 1772619330;   // 2026-03-04T10:15:30Z, a Wednesday

    private Qless\Schedule $sched;
    /** @var resource[] listeners still to be reaped */
    private array $procs = [];
    /** @var string[] their stderr files */
    private array $files = [];

    protected function setUp(): void
    {
        parent::setUp();
        $this->client->set_time_offset(self::N - microtime(true));
        $this->sched = $this->client->schedules['tasks'];
    }

    protected function tearDown(): void
    {
        foreach ($this->procs as $p) {
            if (proc_get_status($p)['running']) {
                proc_terminate($p, 9);
            }
            proc_close($p);
        }
        array_map('unlink', $this->files);
    }

    /** BND-1: at (text, number, DateTimeInterface) makes a scheduled job at that time. */
    public function testAtTakesTextNumbersAndDateTimes(): void
    {
        $cases = [['7pm tomorrow', 1772737200], [1772737260, 1772737260],
            [new DateTimeImmutable('2026-03-05T21:02:00+02:00'), 1772737320], [1772737380.5, 1772737380.5]];
        foreach ($cases as $i => [$at, $want]) {
            $jid = $this->sched->add('K', ['i' => $i], ['at' => $at]);
            $this->assertSame('scheduled', $this->redis('hget', "ql:j:$jid", 'state'), var_export($at, true));
            // The core turns the time into a delay from its clock, so the call's latency (a second under valgrind) shows.
            $this->assertEqualsWithDelta($want, (float)$this->redis('zscore', 'ql:q:tasks-scheduled', $jid), 5);
        }
        $this->assertRefused(Qless\InvalidArgument::class, 'at_text 2026-03-04T09:00:00Z is in the past',
            fn() => $this->sched->add('K', ['past' => 1], ['at' => 'today at 9am']));
        $now = $this->sched->add('K', ['now' => 1], ['at' => 'now']);
        $this->assertSame('waiting', $this->redis('hget', "ql:j:$now", 'state'), '"now" runs at once');
    }

    /** dayFirst reads a/b/c as day/month/year; a weekday that is not the date's is added at the date, and
     *  lastWarning() says so. */
    public function testDayFirstAndTheWeekdayWarning(): void
    {
        $at = fn(string $jid) => (float)$this->redis('zscore', 'ql:q:tasks-scheduled', $jid);
        $this->assertEqualsWithDelta(1775379600, $at($this->sched->add('M', null, ['at' => '4/5/2026 9am'])), 1);
        $this->assertEqualsWithDelta(1777885200,
            $at($this->sched->add('D', null, ['at' => '4/5/2026 9am', 'dayFirst' => true])), 1);
        $this->assertSame('', $this->sched->lastWarning());
        $jid = $this->sched->add('W', null, ['at' => 'Thu Aug 10 2026 9am']);
        $this->assertEqualsWithDelta(1786352400, $at($jid), 1);
        $this->assertSame('2026-08-10 is a Monday, not a Thursday; the date is used',
            $this->sched->lastWarning());
        Qless\when('Thu Aug 10 2026', self::N);   // leaves a warning on the thread that an add without text does not repeat
        $this->sched->add('N', null, ['in' => 60]);
        $this->assertSame('', $this->sched->lastWarning());
        $this->sched->add('A', null, ['at' => 'Mon Aug 10 2026 10am']);
        $this->assertSame('', $this->sched->lastWarning());
        $this->expectException(TypeError::class);
        $this->sched->add('D', null, ['at' => '4/5/2026 9am', 'dayFirst' => 1]);
    }

    /** BND-1: in (seconds, DateInterval, text with or without "in") delays a one-off job. */
    public function testInTakesSecondsIntervalsAndText(): void
    {
        foreach ([300, new DateInterval('PT5M'), '5 minutes', 'in 5 minutes'] as $i => $in) {
            $jid = $this->sched->add('K', ['i' => $i], ['in' => $in]);
            $this->assertEqualsWithDelta(self::N + 300, (float)$this->redis('zscore', 'ql:q:tasks-scheduled', $jid), 5);
        }
    }

    /** BND-1: every and cron make templates of the right type; next and entries agree. */
    public function testEveryAndCronMakeTemplates(): void
    {
        $every = $this->sched->add('K', ['e' => 1], ['every' => 300]);
        $this->assertSame("interval\n300", $this->redis('hmget', "ql:r:$every", 'type', 'interval'));
        $ten = $this->sched->add('K', ['e' => 2], ['every' => new DateInterval('PT10M')]);
        $this->assertSame('600', $this->redis('hget', "ql:r:$ten", 'interval'));
        $later = $this->sched->add('K', ['e' => 3], ['every' => '2 days at 9am']);
        $this->assertSame('172800', $this->redis('hget', "ql:r:$later", 'interval'));
        $this->assertEqualsWithDelta(1772701200, (float)$this->redis('zscore', 'ql:q:tasks-recur', $later), 0.5);
        $weekly = $this->sched->add('K', ['e' => 4], ['every' => 'monday 9am']);
        $this->assertSame("cron\n0 9 * * 1", $this->redis('hmget', "ql:r:$weekly", 'type', 'cron'));
        $cron = $this->sched->add('K', ['c' => 1], ['cron' => '0 9 * * mon-fri']);
        $this->assertSame("cron\n0 9 * * MON-FRI", $this->redis('hmget', "ql:r:$cron", 'type', 'cron'));
        $this->assertSame('1772701200', $this->redis('zscore', 'ql:q:tasks-cron', $cron));
        $this->assertSame([1772701200.0, 1772787600.0, 1773046800.0], $this->sched->next($cron, 3));
        $this->assertSame([1772701200.0, 1772787600.0, 1773046800.0], $this->client->cronNext('0 9 * * 1-5', 3));
        $kinds = array_column($this->sched->entries(), 'kind', 'jid');
        ksort($kinds);
        $want = [$every => 'interval', $ten => 'interval', $later => 'interval', $weekly => 'cron', $cron => 'cron'];
        ksort($want);
        $this->assertSame($want, $kinds);
    }

    public function testUniqueByDefaultRemoveAndNext(): void
    {
        [$jid, $inserted] = $this->sched->add('K', ['a' => 1], ['in' => 60, 'report' => true]);
        $this->assertTrue($inserted);
        $this->assertSame([$jid, false], $this->sched->add('K', ['a' => 1], ['at' => '7pm tomorrow', 'report' => true]));
        $this->assertSame([$jid, false], $this->sched->addNow('K', ['a' => 1], ['report' => true]));
        $other = $this->sched->add('K', ['a' => 1], ['in' => 60, 'unique' => false]);
        $this->assertNotSame($jid, $other);
        $keyed = $this->sched->add('K', ['a' => 2], ['cron' => '@daily', 'key' => 'nightly', 'priority' => 5,
            'tags' => ['x'], 'backlog' => 2]);
        $this->assertSame(\qless_unique_jid_for_key('tasks', 'nightly'), $keyed);
        $this->assertSame("5\n2\n[\"x\"]", $this->redis('hmget', "ql:r:$keyed", 'priority', 'backlog', 'tags'));
        $this->assertSame('mine', $this->sched->add('K', null, ['jid' => 'mine', 'in' => 1]));

        $this->assertEqualsWithDelta([self::N + 60], $this->sched->next($jid), 5);
        $now = $this->sched->addNow('K', ['n' => 1]);
        $this->assertSame('waiting', $this->redis('hget', "ql:j:$now", 'state'));
        try {
            $this->sched->next($now);
            $this->fail('a waiting job is no entry');
        } catch (Qless\NotFound $e) {
            $this->assertStringContainsString($now, $e->getMessage());
        }
        $this->assertTrue($this->sched->remove($keyed));
        $this->assertTrue($this->sched->remove($jid));
        $this->assertFalse($this->sched->remove($jid));
        $this->assertSame('0', $this->redis('exists', "ql:r:$keyed"));
    }

    /** UNQ-10, PHP half, seeded: an entry's jid is the C library's qless_unique_jid of its identity. */
    public function testEntryJidsAreTheCUniqueJids(): void
    {
        $rng = new Random\Randomizer(new Random\Engine\Mt19937(1410));
        $crons = [['@daily', '0 0 * * *'], ['0 9 * * mon-fri', '0 9 * * 1-5'], ['0 0 * * 7', '0 0 * * 0']];
        $values = [1, 1.5, 'x', null, [1, 2], ['k' => 'v']];
        for ($i = 0; $i < 30; $i++) {
            $data = ['i' => $i, 'v' => $values[$rng->getInt(0, count($values) - 1)]];
            // Another key order: the identity is the canonical JSON, not PHP's text.
            $json = json_encode(array_reverse($data, true));
            $kind = ['now', 'at', 'in', 'every', 'cron'][$rng->getInt(0, 4)];
            $opts = ['report' => true];
            $want = \qless_unique_jid('tasks', 'K', $json, null, 0);
            if ($kind === 'at') {
                $opts['at'] = self::N + $rng->getInt(60, 9999);
            } elseif ($kind === 'in') {
                $opts['in'] = $rng->getInt(1, 999);
            } elseif ($kind === 'every') {
                $opts['every'] = $seconds = $rng->getInt(1, 9999);
                $want = \qless_unique_jid('tasks', 'K', $json, null, $seconds);
            } elseif ($kind === 'cron') {
                [$opts['cron'], $identity] = $crons[$rng->getInt(0, 2)];
                $want = \qless_unique_jid('tasks', 'K', $json, $identity, 0);
            }
            $add = fn() => $kind === 'now' ? $this->sched->addNow('K', $data, $opts) : $this->sched->add('K', $data, $opts);
            $this->assertSame([$want, true], $add(), "$kind $json");
            $this->assertSame([$want, false], $add(), "$kind $json again");
        }
    }

    /** BND-1's errors and seeded bad input: not exactly one time, bad time text, bad cron,
     *  wrong types, unknown options -> an argument error naming what was wrong; nothing written. */
    public function testBadInputIsAnArgumentErrorAndWritesNothing(): void
    {
        foreach ([[], ['at' => self::N + 60, 'in' => 60], ['cron' => '* * * * *', 'every' => 60],
                  ['at' => self::N, 'in' => 1, 'cron' => '* * * * *', 'every' => 1], ['report' => true]] as $opts) {
            $this->assertRefused(Qless\InvalidArgument::class, 'exactly one of at, in, every and cron',
                fn() => $this->sched->add('K', [], $opts));
        }
        $this->assertRefused(Qless\InvalidArgument::class, 'not a one-off time', fn() => $this->sched->add('K', null, ['at' => 'every monday']));
        $this->assertRefused(Qless\InvalidArgument::class, 'hour field', fn() => $this->sched->add('K', null, ['cron' => '0 24 * * *']));
        $this->assertRefused(Qless\InvalidArgument::class, 'unknown word "fortnightly"', fn() => $this->sched->add('K', null, ['every' => 'fortnightly']));
        $this->assertRefused(Qless\InvalidArgument::class, "unknown option 'delay'", fn() => $this->sched->addNow('K', null, ['delay' => 1]));

        $rng = new Random\Randomizer(new Random\Engine\Mt19937(1414));
        $word = fn() => 'zq' . implode('', array_map(fn() => chr($rng->getInt(97, 122)), range(1, $rng->getInt(1, 6))));
        $badCron = function () use ($rng) {
            $fields = ['0', '0', '*', '*', '*'];
            $max = [59, 23, 31, 12, 7];
            $at = $rng->getInt(0, 4);
            $fields[$at] = (string)$rng->getInt($max[$at] + 1, 99);
            return $rng->getInt(0, 3) ? implode(' ', $fields) : implode(' ', array_slice($fields, 0, $rng->getInt(1, 4)));
        };
        $wrong = [[1], true, new stdClass(), 1.5];
        for ($i = 0; $i < 200; $i++) {
            $pick = $wrong[$rng->getInt(0, count($wrong) - 1)];
            [$opts, $data, $what] = match ($rng->getInt(0, 8)) {
                0 => [['at' => $word()], null, 'unknown word'],
                1 => [['in' => $word() . ' minutes'], null, 'unknown word'],
                2 => [['every' => $word()], null, 'unknown word'],
                3 => [['cron' => $badCron()], null, 'cron'],
                4 => [[['at', 'in', 'every', 'cron'][$rng->getInt(0, 3)] => is_float($pick) ? [] : $pick], null, 'option'],
                5 => [['in' => 5, ['unique', 'report'][$rng->getInt(0, 1)] => 'yes'], null, 'must be a bool'],
                6 => [['in' => 5, ['priority', 'retries', 'backlog', 'key', 'jid', 'tags'][$rng->getInt(0, 5)] => $pick], null, ''],
                7 => [['in' => 5], [true, 1.5, 'text', 7][$rng->getInt(0, 3)], 'data'],
                8 => [['in' => 5, $word() => 1], null, 'unknown option'],
            };
            $this->assertRefused(null, $what, fn() => $this->sched->add('K', $data, $opts),
                var_export([$opts, $data], true));
        }
        $this->assertSame('', $this->redis('keys', 'ql:*'));
    }

    /** Every Schedule (and the recurring job next reads) an entry's life cycle makes is freed with its PHP object. */
    public function testSchedulesLeaveNoHandles(): void
    {
        $before = qless_handle_count();
        for ($i = 0; $i < 3; $i++) {
            $s = $this->client->schedules['tasks'];
            $jid = $s->add('K', ['i' => $i], ['cron' => '@hourly']);
            $s->next($jid, 2);
            $s->entries();
            $this->client->cronNext('@daily', 2);
            $s->remove($jid);
            try {
                $s->add('K', null, ['cron' => '0 24 * * *']);
            } catch (Qless\InvalidArgument) {
            }
        }
        unset($s);
        $this->assertSame($before, qless_handle_count());
    }

    public function testWhenReadsTextWithoutAServer(): void
    {
        $w = Qless\when('7pm tomorrow', self::N);
        $this->assertSame(['at', 1772737200.0], [$w->kind, $w->at]);
        $this->assertSame('2026-03-05T19:00:00+00:00', $w->dateTime()->format('c'));
        $this->assertSame(1772737200.0, Qless\when('7pm tomorrow', new DateTimeImmutable('@' . self::N))->at);
        $this->assertSame(['cron', '0 9 * * 1'], [Qless\when('every monday 9am')->kind, Qless\when('every monday 9am')->cron]);
        $this->assertSame(['interval', 300.0], [Qless\when('every 5 minutes', self::N)->kind, Qless\when('every 5 minutes', self::N)->interval]);
        $this->assertRefused(Qless\InvalidArgument::class, 'unknown word "tomorow" at column 1', fn() => Qless\when('tomorow'));
        $this->assertRefused(TypeError::class, 'now', fn() => Qless\when('now', '1772619330'));
    }

    public function testWhenDayFirstAndWarning(): void
    {
        $this->assertSame(1804118400.0, Qless\when('3/4/2027', self::N)->at);
        $this->assertSame(1806710400.0, Qless\when('3/4/2027', self::N, true)->at);
        $this->assertSame('', Qless\when('3/4/2027', self::N)->warning);
        $w = Qless\when('Thu Aug 10', self::N);
        $this->assertSame(['at', 1786320000.0], [$w->kind, $w->at]);
        $this->assertSame('2026-08-10 is a Monday, not a Thursday (it is in 2028); the date is used', $w->warning);
        $this->assertSame('', Qless\when('Mon Aug 10', self::N)->warning);
    }

    public function testPutUniqueAndKey(): void
    {
        $q = $this->client->queue('tasks');
        $want = \qless_unique_jid('tasks', 'K', '{"a":1}', null, 0);
        $this->assertSame($want, $q->put('K', ['a' => 1], ['unique' => true]));
        $this->assertSame([$want, false], $q->put('K', ['a' => 1], ['unique' => true, 'report' => true]));
        $this->assertSame(\qless_unique_jid_for_key('tasks', 'k1'), $q->put('K', [], ['unique' => true, 'key' => 'k1']));
        $this->assertNotSame($want, $q->put('K', ['a' => 1]));
        $this->assertRefused(TypeError::class, 'unique', fn() => $q->put('K', [], ['unique' => 'yes']));
    }

    /** BND-2: listen with a pool of 3 processes completes 50 jobs; SIGTERM lets the running job finish and the listener exit 0. */
    public function testListenPoolCompletesJobsAndStopsGracefully(): void
    {
        $jids = array_map(fn($i) => $this->sched->addNow('ScheduleTestJobs\Succeed', ['n' => $i]), range(1, 50));
        [$proc, $err] = $this->listener(3);
        $this->waitFor(fn() => $this->redis('zcard', 'ql:q:tasks-work') === '0' && $this->states($jids) === ['complete' => 50],
            'the 50 jobs complete');
        $slow = $this->sched->addNow('ScheduleTestJobs\Succeed', ['sleep' => 1.0]);
        $this->waitFor(fn() => $this->redis('hget', "ql:j:$slow", 'state') === 'running', 'the slow job runs');
        proc_terminate($proc, 15);
        $this->assertSame(0, $this->reap($proc), file_get_contents($err));
        $job = $this->client->job($slow);
        $this->assertSame(['complete', true], [$job->state(), $job->data()['seen'] ?? null]);
        foreach (array_slice($jids, 0, 3) as $jid) {
            $this->assertTrue($this->client->job($jid)->data()['seen']);
        }
    }

    public function testListenStopsAfterMaxJobs(): void
    {
        $jids = array_map(fn($i) => $this->sched->addNow('ScheduleTestJobs\Succeed', ['n' => $i]), range(1, 5));
        [$proc, $err] = $this->listener(1, 3);
        $this->assertSame(0, $this->reap($proc), file_get_contents($err));
        $this->assertSame(['complete' => 3, 'waiting' => 2], $this->states($jids));
        $this->assertRefused(Qless\InvalidArgument::class, 'pool', fn() => $this->sched->listen(['pool' => 0]));
        $this->assertRefused(Qless\InvalidArgument::class, "unknown option 'mode'", fn() => $this->sched->listen(['mode' => 'thread']));
    }

    /** listen runs qless_schedule_listen_run with typed options, not the worker command: it works with the
     *  command's entry (qless_php_worker_main, whose argv qless_worker_main parses) disabled. */
    public function testListenHandsTheCoreTypedOptionsNotACommandLine(): void
    {
        $jids = array_map(fn($i) => $this->sched->addNow('ScheduleTestJobs\Succeed', ['n' => $i]), range(1, 4));
        [$proc, $err] = $this->listener(1, 3, ['disable_functions=qless_php_worker_main']);
        $this->assertSame(0, $this->reap($proc), file_get_contents($err));
        $this->assertSame(['complete' => 3, 'waiting' => 1], $this->states($jids));
    }

    public function testScheduleExampleRunsAndIsTheOneInTheReadme(): void
    {
        $this->assertQuotedExample('schedule_example.php', 'docs/php.md',
            "true\ninterval Example\\Ping\ncron Example\\Report\nat Example\\Mail\n0 9 * * 1\n");
    }

    /** [process, stderr file] of schedule_listen.php, run with the ini settings $ini ('name=value'). */
    private function listener(int $pool, ?int $maxJobs = null, array $ini = []): array
    {
        $this->files[] = $err = tempnam(sys_get_temp_dir(), 'qless-listen');
        $cmd = [getenv('QLESS_PHP_BIN'), '-n', '-d', 'extension=' . getenv('QLESS_PHP_EXT'),
            ...array_merge(...array_map(fn($setting) => ['-d', $setting], $ini)),
            __DIR__ . '/schedule_listen.php', self::url(), (string)$pool, ...($maxJobs === null ? [] : [(string)$maxJobs])];
        $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', $err, 'w']],
            $pipes, null, ['QLESS_PHP_LAYER' => getenv('QLESS_PHP_LAYER')]);
        $this->procs[] = $proc;
        return [$proc, $err];
    }

    /** The exit status of a listener, which must end within 30 s. */
    private function reap($proc): int
    {
        // Only the first status seen after the exit carries the exit code.
        $status = null;
        $this->waitFor(function () use ($proc, &$status) {
            return !($status = proc_get_status($proc))['running'];
        }, 'the listener exits', 30);
        $this->procs = array_filter($this->procs, fn($p) => $p !== $proc);
        proc_close($proc);
        return $status['exitcode'];
    }

    /** A guard against hanging, not a timed assertion: the bound is far above the expected time. */
    private function waitFor(callable $done, string $what, float $seconds = 30): void
    {
        for ($end = microtime(true) + $seconds; !$done(); usleep(50000)) {
            if (microtime(true) > $end) {
                $this->fail("timed out waiting until $what");
            }
        }
    }

    private function states(array $jids): array
    {
        $states = array_count_values(array_map(fn($j) => $this->redis('hget', "ql:j:$j", 'state'), $jids));
        ksort($states);
        return $states;
    }

    private function redis(string ...$args): string
    {
        $sock = trim(file_get_contents(getenv('QLESS_TEST_STATE') . '/socket'));
        exec('redis-cli -s ' . escapeshellarg($sock) . ' ' . implode(' ', array_map('escapeshellarg', $args)), $out, $rc);
        $this->assertSame(0, $rc, implode(' ', $args));
        return implode("\n", $out);
    }

    private function assertRefused(?string $class, string $inMessage, callable $call, string $context = ''): void
    {
        try {
            $call();
        } catch (TypeError|ValueError|Qless\InvalidArgument $e) {
            if ($class !== null) {
                $this->assertInstanceOf($class, $e, $context);
            }
            $this->assertStringContainsString($inMessage, $e->getMessage(), $context);
            return;
        }
        $this->fail("not refused: $context");
    }
}
