<?php
// Tree jobs in the PHP worker (the conformance scenarios are in
// tests/worker/test_tree_conformance.py): which classes the worker takes for
// tree classes, the hooks, suspend and wake, children and parent from
// perform, suspend refused for a plain job, a failing shutdown, and bad tree
// options refused before anything runs.
declare(strict_types=1);

require_once __DIR__ . '/tree_worker_jobs.php';

use Qless\Worker;

final class TreeWorkerTest extends QlessTestCase
{
    public function testTreeClassesFromTheAllowList(): void
    {
        $this->assertSame(['TreeWorkerJobs\Counter'],
            Worker::treeClasses(['TreeWorkerJobs\Counter', 'TreeWorkerJobs\Plain', 'TreeWorkerJobs\Helper'])[0]);
        $this->assertSame('{"inports":{"in":{}},"outports":{"out":{}}}', Worker::treeConfig('TreeWorkerJobs\Counter'));
        $this->assertSame('{"inports":{},"outports":{}}', Worker::treeConfig('TreeWorkerJobs\Leaf'));
        $this->assertNull(Worker::treeConfig('TreeWorkerJobs\Plain'));
        $this->assertSame([[], []], Worker::treeClasses(['*', 'NoSuch\*', 'NoSuch\Job', 'TreeWorkerJobs\Count*']));
        try {
            Worker::treeClasses(['TreeWorkerJobs\*']);
            $this->fail('BadPorts was taken');
        } catch (TypeError $e) {
            $this->assertStringContainsString('tree class TreeWorkerJobs\BadPorts: inports must be an array', $e->getMessage());
        }
    }

    public function testWorkerMainRefusesBadTreeOptions(): void
    {
        $argv = ['w', '--url', self::url(), '--queue', 'q', '--allow', '*', '--max-jobs', '1'];
        $perform = fn () => null;   // never called: refused before the run
        foreach ([[['A', 1], null], [['A'], [null]], ['A', null]] as [$klasses, $configs]) {
            try {
                \qless_php_worker_main($argv, $perform, $klasses, $configs);
                $this->fail('accepted ' . json_encode([$klasses, $configs]));
            } catch (TypeError $e) {
                $this->assertStringContainsString('must be an array of strings', $e->getMessage());
            }
        }
        $this->expectException(ValueError::class);
        $this->expectExceptionMessage('tree_configs must have one entry per class of tree_klasses');
        \qless_php_worker_main($argv, $perform, ['A'], ['{}', '{}']);
    }

    /** Runs the worker in this process on queue "trees" for $jobs jobs. */
    private function work(int $jobs, string $allow = 'TreeWorkerJobs\Counter'): int
    {
        return Worker::main(['--url', self::url(), '--queue', 'trees', '--interval', '0.05', '--max-jobs', (string)$jobs,
                             '--allow', $allow, '--allow', 'TreeWorkerJobs\Leaf', '--allow', 'TreeWorkerJobs\Plain',
                             '--allow', 'TreeWorkerJobs\Broken']);
    }

    public function testHooksSuspendWakeChildrenAndShutdown(): void
    {
        $q = $this->client->queue('trees');
        $jid = $q->put('TreeWorkerJobs\Counter', ['child' => true], ['tree' => true]);
        $this->assertSame(0, $this->work(2));          // the counter (suspends), its child
        $tree = $this->client->trees[$jid];
        $this->assertSame('suspended', $tree->state);
        $this->assertSame(['inports' => ['in' => []], 'outports' => ['out' => []]], $q->klassConfig('TreeWorkerJobs\Counter'));
        $kid = $this->client->trees[$tree->children['kid']];
        $this->assertSame(['complete', "job:$jid"], [$kid->state, $kid->created_by]);
        $this->assertSame(['by' => "job:$jid", 'parent' => $jid], $kid->store->all());

        $tree->ports->in['in']->write(1, 2, 3);      // wakes it
        $this->assertSame(0, $this->work(1));          // reads 1, 2, 3 and completes
        $tree = $this->client->trees[$jid];
        $this->assertSame('complete', $tree->state);
        $this->assertSame([2, 4, 6], $tree->ports->out['out']->read(10));
        $this->assertSame(['startups' => 1, 'sum' => 6], $tree->store->all());   // startup once per life

        $this->assertSame(1, $tree->terminate());
        $this->assertSame(0, $this->work(1));
        $this->assertSame('terminated', $this->client->trees[$jid]->state);
        $this->assertTrue($tree->store['shutdown']);
    }

    public function testSuspendRefusedForPlainJobs(): void
    {
        $q = $this->client->queue('trees');
        $plain = $q->put('TreeWorkerJobs\Plain');
        $outside = $q->put('TreeWorkerJobs\Plain', [], ['tree' => true]);   // a tree job of no tree class
        $this->assertSame(0, $this->work(2));
        foreach ([$plain, $outside] as $jid) {
            $job = $this->client->job($jid);
            $this->assertSame(['failed', 'Qless\StateError'], [$job->state(), $job->failureGroup()]);
            $this->assertStringContainsString('is not run as a tree job', $job->failureMessage());
        }
    }

    public function testFailingShutdownIsKeptInTheHistory(): void
    {
        $jid = $this->client->queue('trees')->put('TreeWorkerJobs\Broken', [], ['tree' => true]);
        $this->assertSame(0, $this->work(1));
        $this->assertSame(1, $this->client->trees[$jid]->terminate());
        $this->assertSame(0, $this->work(1));
        $this->assertSame('terminated', $this->client->trees[$jid]->state);
        $history = json_decode($this->client->job($jid)->json_get(), true)['history'];
        $entry = array_values(array_filter($history, fn ($h) => $h['what'] === 'shutdown-error'));
        $this->assertNotEmpty($entry);
        $this->assertStringStartsWith('RuntimeException: RuntimeException: cannot shut down', $entry[0]['error']);
    }

    public function testMalformedTreeClassStopsTheWorkerBeforeItRuns(): void
    {
        $jid = $this->client->queue('trees')->put('TreeWorkerJobs\BadPorts');
        $this->assertSame(1, $this->work(1, 'TreeWorkerJobs\BadPorts'));
        $this->assertSame('waiting', $this->client->job($jid)->state());
    }

    public function testJobTreeAccessorsNeedTheClient(): void
    {
        $jid = $this->client->queue('trees')->put('TreeWorkerJobs\Counter', [], ['inports' => ['in' => []]]);
        $job = $this->client->job($jid);
        $job->store['k'] = 1;
        $this->assertSame(['k' => 1], $job->store->all());
        $this->assertSame([], $job->read('in', 5));
        $this->assertNull($job->parent());
        $popped = $this->client->queue('trees')->pop();   // a popped job knows its client too
        $this->assertSame(['k' => 1], $popped->store->all());
        $this->assertSame(false, $popped->suspend());      // held by this client: suspended now
        $this->assertSame('suspended', $this->client->trees[$jid]->state);
        $this->expectException(LogicException::class);        // the object model's own get_job binds nothing
        $this->expectExceptionMessage('this job does not know its client');
        $this->client->get_job($jid)->store;
    }

    public function testTreeExampleRunsAndIsTheOneInTheReadme(): void
    {
        $this->assertQuotedExample('tree_example.php', 'docs/php.md', "1\nsink,source [{\"n\":1}]\n3\n");
    }

    public function testRequeueTakesTheTreeOptions(): void
    {
        $root = $this->client->queue('q')->put('Root', [], ['tree' => true]);
        $jid = $this->client->queue('q')->put('Plain');
        $this->client->job($jid)->requeue('q2', ['priority' => 3, 'parent' => $root, 'name' => 'moved',
                                                  'inports' => ['in' => []], 'by' => 'ops']);
        $tree = $this->client->trees[$jid];
        $this->assertSame(['q2', $root, 'moved', ['in' => []]], [$tree->queue, $tree->parent, $tree->name, $tree->inports]);
        $this->assertSame(['moved' => $jid], $this->client->trees[$root]->children);
        $this->expectException(Qless\InvalidArgument::class);
        $this->client->job($jid)->requeue('q', ['colour' => 'red']);
    }
}
