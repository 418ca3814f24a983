<?php
// The PHP worker (bindings/php/Worker.php over qless_php_worker_main): how a
// job's class name is resolved, how what job code does becomes the outcome,
// and the trampoline's paths for exit() and fatal errors.
declare(strict_types=1);

namespace {
    require_once __DIR__ . '/worker_jobs.php';

    use Qless\JobClassError;
    use Qless\Worker;

    final class WorkerTest extends QlessTestCase
    {
        public function testResolvesExactlyTheNamedClass(): void
        {
            $this->assertSame('WorkerTestJobs\Ok', Worker::jobClass('WorkerTestJobs\Ok'));
            foreach (['\WorkerTestJobs\Ok', 'WorkerTestJobs\\', 'WorkerTestJobs\Ok::perform', 'WorkerTestJobs\NoSuch',
                      'WorkerTestJobs\NotStatic', 'WorkerTestJobs\PrivatePerform', 'WorkerTestJobs\Iface',
                      'WorkerTestJobs\Retry', 'strlen', ''] as $name) {
                $this->assertRefused($name);
            }
            // PHP finds classes whatever the case; the allow-list matched this spelling only.
            $rng = new \Random\Randomizer(new \Random\Engine\Mt19937(13));
            for ($i = 0; $i < 50; $i++) {
                $name = implode('', array_map(fn($c) => $rng->getInt(0, 1) ? strtoupper($c) : strtolower($c),
                    str_split('WorkerTestJobs\Ok')));
                if ($name === 'WorkerTestJobs\Ok') {
                    $this->assertSame($name, Worker::jobClass($name));
                } else {
                    $this->assertRefused($name);
                }
            }
        }

        /** The trampoline (swig/worker.i) straight under qless_php_worker_main: what the
         *  dispatcher throws is the outcome; what it returns is ignored. */
        public function testOutcomes(): void
        {
            $q = $this->client->queue('raw');
            $throw = ['retry' => new WorkerTestJobs\Retry('r'), 'type' => new \TypeError('t'),
                      'anon' => new class('a') extends \LogicException {}, 'value' => null];
            $jids = [];
            foreach (array_keys($throw) as $name) {
                $jids[$name] = $q->put('K', ['name' => $name], ['retries' => 2]);
            }
            $phases = [];
            $run = function (Qless\Job $job, Qless\Client $client, string $phase) use ($throw, &$phases) {
                $phases[] = [$phase, $client->worker_name];
                return $throw[$job->data()['name']] === null ? 'ignored' : throw $throw[$job->data()['name']];
            };
            $this->assertSame(0, \qless_php_worker_main(['w', '--url', self::url(), '--queue', 'raw', '--allow', 'K',
                '--name', 'raw-w', '--max-jobs', '4', '--interval', '0.05'], $run, null, null));
            $this->assertSame(array_fill(0, 4, ['perform', 'raw-w']), $phases);
            $retried = $this->client->job($jids['retry']);
            $this->assertSame(['waiting', 'WorkerTestJobs\Retry', 1],
                [$retried->state(), $retried->failureGroup(), $retried->remaining()]);
            $this->assertStringStartsWith("WorkerTestJobs\\Retry: r\n#0 ", $retried->failureMessage());
            $this->expectFailed($jids['type'], 'TypeError', "TypeError: t\n");
            $this->expectFailed($jids['anon'], 'LogicException', 'LogicException: a');   // an anonymous class: its parent
            $this->assertSame('complete', $this->state($jids['value']));
        }

        /** The worker in this process, over jobs whose code completes, throws and retries. */
        public function testRunInProcess(): void
        {
            $q = $this->client->queue('w');
            $ok = $q->put('WorkerTestJobs\Ok');
            $client = $q->put('WorkerTestJobs\UsesClient');
            $throws = $q->put('WorkerTestJobs\Throws');
            $retries = $q->put('WorkerTestJobs\Retries', [], ['retries' => 1]);
            $other = $q->put('Elsewhere\Job');
            $q->put('WorkerTestJobs\Stopper', [], ['priority' => -10]);
            $status = Worker::main(['--url', self::url(), '--queue', 'w', '--allow', 'WorkerTestJobs\*',
                '--interval', '0.05', '--name', 'php-w']);
            $this->assertSame(0, $status);
            $data = $this->client->job($client)->data();
            $this->assertSame('php-w', $data['worker']);
            $this->assertSame('waiting', $this->state($data['next']), 'put through $job->client');

            $this->assertSame(['complete', ['done' => true]], [$this->state($ok), $this->client->job($ok)->data()]);
            $this->expectFailed($throws, 'RuntimeException', "RuntimeException: thrown $throws\n#0 ");
            $this->expectFailed($retries, 'WorkerTestJobs\Retry', "WorkerTestJobs\\Retry: again\n");
            $this->assertSame(-1, $this->client->job($retries)->remaining(), 'retried until its retries were used up');
            $this->expectFailed($other, 'qless.ClassNotAllowed', "'Elsewhere\\Job'");
            // The job handle kept by job code was emptied when perform returned.
            $this->expectException(\TypeError::class);
            WorkerTestJobs\Ok::$kept->jid();
        }

        /** exit() or a fatal error (here the memory limit) in job code fails the job, stops the
         *  worker (the next job stays waiting) and ends it with the status PHP gives them. */
        public function testExitAndFatalErrorEndTheWorker(): void
        {
            foreach ([['Exits', 7, 'Qless\WorkerError', 'the job code called exit()'],
                      ['Hog', 255, 'Qless\FatalError', 'PHP fatal error: Allowed memory size']] as [$klass, $rc, $group, $why]) {
                $this->client->queue('w')->put('WorkerTestJobs\Ok');   // left by the last round
                $ends = $this->client->queue('w')->put("WorkerTestJobs\\$klass", [], ['priority' => 1]);
                [$status, $out] = $this->runWorker('--queue', 'w', '--allow', 'WorkerTestJobs\*');
                $this->assertSame($rc, $status, $out);
                $this->expectFailed($ends, $group, $why);
                $this->assertSame(1, $this->client->queue('w')->counts()['waiting'], "$klass: nothing run after it");
                $this->client->queue('w')->pop()->complete();
            }
        }

        /** [exit status, output] of bindings/php/qless-worker with $flags, the worker_jobs.php classes and a small memory limit. */
        private function runWorker(string ...$flags): array
        {
            $cmd = [getenv('QLESS_PHP_BIN'), '-n', '-d', 'extension=' . getenv('QLESS_PHP_EXT'), '-d', 'memory_limit=32M',
                dirname(getenv('QLESS_PHP_LAYER')) . '/qless-worker', '--require', __DIR__ . '/worker_jobs.php',
                '--url', self::url(), '--interval', '0.05', ...$flags];
            $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['pipe', 'w']],
                $pipes, null, ['QLESS_PHP_LAYER' => getenv('QLESS_PHP_LAYER')]);
            $out = stream_get_contents($pipes[2]);
            return [proc_close($p), $out];
        }

        private function assertRefused(string $name): void
        {
            try {
                Worker::jobClass($name);
                $this->fail("'$name' was resolved");
            } catch (JobClassError $e) {
                $this->assertStringContainsString("'$name'", $e->getMessage());
            }
        }

        private function state(string $jid): string { return $this->client->job($jid)->state(); }

        private function expectFailed(string $jid, string $group, string $inMessage): void
        {
            $job = $this->client->job($jid);
            $this->assertSame(['failed', $group], [$job->state(), $job->failureGroup()], (string)$job->failureMessage());
            $this->assertStringContainsString($inMessage, $job->failureMessage());
        }
    }
}
