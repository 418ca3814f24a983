<?php
// Generative: every public method of the Qless classes, generated ones
// included, called with seeded random arguments of every PHP type. Each call
// returns or throws a clear error (TypeError, ValueError, Qless\Exception,
// JsonException); a crash fails the run, a warning fails the test.
declare(strict_types=1);

final class ArgumentsTest extends QlessTestCase
{
    /** Blocking or thread-starting methods (so Events is no target); SWIG's property magic (known to leak, unused). */
    private const SKIP = ['__construct', '__get', '__set', '__isset', 'next', 'heartbeater'];

    public function testRandomArgumentsGetCleanErrors(): void
    {
        $seed = (int)(getenv('QLESS_PHP_FUZZ_SEED') ?: random_int(1, 1 << 30));
        $calls = (int)(getenv('QLESS_PHP_FUZZ_CALLS') ?: 1500);
        fwrite(STDERR, "\nArgumentsTest: seed $seed (QLESS_PHP_FUZZ_SEED), $calls calls\n");
        $rng = new Random\Randomizer(new Random\Engine\Mt19937($seed));

        $client = new Qless\Client(self::url(), ['worker_name' => 'fuzz']);   // its time offset, config, ... may change
        $queue = $client->queue('fz');
        $jid = $queue->put('K', ['n' => 1], ['tags' => ['t']]);
        $targets = [$client, $queue, $client->job($jid), $client->recurringJob($queue->recur('R', [], 60))];
        $values = [null, true, 0, 1, -1, 7, PHP_INT_MAX, PHP_INT_MIN, 0.5, -2.5, NAN, INF, '', 'fz', 'K', $jid,
            "a\0b", "\xff\xfe", str_repeat('z', 3000), [], ['t'], [1], ['k' => 'v'], [[]], ['jid' => 'x'],
            new stdClass(), new \QlessQueueCounts(), new \QlessStats(), $client->events('fz'), ...$targets];

        for ($i = 0; $i < $calls; $i++) {
            $target = $targets[$rng->getInt(0, count($targets) - 1)];
            $methods = array_values(array_filter((new ReflectionObject($target))->getMethods(ReflectionMethod::IS_PUBLIC),
                fn ($m) => !$m->isStatic() && !in_array($m->getName(), self::SKIP, true)));
            $method = $methods[$rng->getInt(0, count($methods) - 1)];
            $args = [];
            for ($n = $rng->getInt(0, $method->getNumberOfParameters() + 1); $n > 0; $n--) {
                $args[] = $values[$rng->getInt(0, count($values) - 1)];
            }
            $what = get_class($target) . '::' . $method->getName() . '(' . implode(', ', array_map('get_debug_type', $args)) . ')';
            try {
                $method->invokeArgs($target, $args);
            } catch (TypeError | ValueError | Qless\Exception | JsonException $e) {
                $this->assertNotSame('', $e->getMessage(), "seed $seed, call $i: $what");
            } catch (Throwable $e) {
                $this->fail("seed $seed, call $i: $what: " . get_class($e) . ': ' . $e->getMessage());
            }
        }
        $this->assertSame('fz', $queue->name());
        $this->client->queue('after')->put('K');
        $this->assertSame(1, $this->client->queue('after')->length());
    }
}
