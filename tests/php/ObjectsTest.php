<?php
// The Qless classes are the extension's generated classes (swig/objects.i)
// extended: handles come back as them, the object model's methods are
// inherited, and queue counts come from the typed handles.
declare(strict_types=1);

final class ObjectsTest extends QlessTestCase
{
    public function testHandlesComeBackAsTheLayersClasses(): void
    {
        $q = $this->client->queue('q');
        $jid = $q->put('K', []);
        $rid = $q->recur('R', [], 60);
        $made = [[$this->client, Qless\Client::class, QlessClient::class], [$q, Qless\Queue::class, QlessQueue::class],
            [$this->client->job($jid), Qless\Job::class, QlessJob::class], [$q->peek(1)[0], Qless\Job::class, QlessJob::class],
            [$this->client->recurringJob($rid), Qless\RecurringJob::class, QlessRecur::class],
            [$this->client->events('completed'), Qless\Events::class, QlessEvents::class],
            [$this->client->queue_names(), Qless\StrList::class, QlessStrList::class],
            [$this->client->get_jobs([$jid]), Qless\JobList::class, QlessJobList::class]];
        foreach ($made as [$object, $layer, $generated]) {
            $this->assertSame($layer, get_class($object));
            $this->assertInstanceOf($generated, $object);
        }
    }

    /** Each object owns its handle: a life cycle leaves no handle behind. */
    public function testHandlesAreFreedWithTheirObjects(): void
    {
        $before = qless_handle_count();
        (function () {
            $client = new Qless\Client(self::url(), ['worker_name' => 'w']);
            $q = $client->queue('q');
            $jid = $q->put('K', [], ['tags' => ['t']]);
            $q->recur('R', [], 60);
            $client->events('completed');
            foreach ($q->pop(2) as $job) {
                $job->complete();
            }
            $this->assertSame(['t'], $client->job($jid)->tags());
            $client->get_jobs([$jid]);   // not iterated: its job goes with the list
            [$client->queueNames(), $client->queueCounts(), $client->tagged('t'), $client->failed_groups()->numbers()];
        })();
        gc_collect_cycles();
        $this->assertSame($before, qless_handle_count());
    }

    /** Without Qless.php the extension's own classes come back. */
    public function testTheExtensionAloneGivesItsOwnClasses(): void
    {
        $code = '$c = new QlessClient(getenv("QLESS_URL")); $q = $c->queue("q"); $q->put("K", "{}");'
            . ' echo get_class($c), " ", get_class($q), " ", get_class($q->pop(1)->take(0));';
        $cmd = [getenv('QLESS_PHP_BIN'), '-n', '-d', 'extension=' . getenv('QLESS_PHP_EXT'), '-r', $code];
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, ['QLESS_URL' => self::url()]);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        $this->assertSame(0, proc_close($proc), $err);
        $this->assertSame('QlessClient QlessQueue QlessJob', $out);
        // and none under a bare global name an application might use itself
        foreach (['Client', 'Queue', 'Job', 'Recur', 'Events', 'Worker', 'Schedule', 'StrList'] as $bare) {
            $this->assertFalse(class_exists($bare, false), $bare);
        }
    }

    public function testConstructorErrors(): void
    {
        try {
            new Qless\Client('http://nowhere');
            $this->fail('no exception');
        } catch (Qless\InvalidArgument $e) {
            $this->assertStringContainsString('redis://', $e->getMessage());
        }
        $this->expectException(TypeError::class);
        new Qless\Client(6379);
    }

    /** The object model's methods, inherited: failed listings, unfail, requeue, dependencies, stats. */
    public function testInheritedMethods(): void
    {
        $q = $this->client->queue('q');
        $first = $q->put('K', []);
        $second = $q->put('K', [], ['depends' => [$first]]);
        $job = $this->client->job($second);
        $job->depends_remove([$first]);
        $job->refresh();
        $this->assertSame('waiting', $job->state());
        $q->pop(2)[1]->fail('Broken', 'b');
        $this->assertSame(['Broken' => 1], $this->client->failed_groups()->numbers());
        [$list, $total] = $this->client->failed('Broken', 0, 10);
        $this->assertSame([1, [$second], 1], [$total, $list->toArray(), count($list)]);
        $this->assertSame(1, $q->unfail('Broken', 10));
        [$again] = iterator_to_array($this->client->get_jobs([$second]), false);
        $this->assertSame([$second, 'waiting'], [$again->jid(), $again->state()]);   // unfailed
        $this->client->job($second)->requeue('other');
        $this->assertSame('other', $this->client->job($second)->queue());
        $q->stats($this->client->now_get(), $stats = new \QlessStats());
        $this->assertSame([2, 1], [$stats->wait_get()->count_get(), $stats->failures_get()]);   // popped twice, failed once
    }

    // Generative: seeded puts (some delayed), pops and pauses over a few
    // queues; each queue's counts, from Queue::counts and from the client's
    // typed list, match a model of what was done.
    public function testQueueCountsFollowAModel(): void
    {
        mt_srand(2026);
        $model = [];
        foreach (['q0', 'q1', 'q2', 'q3'] as $name) {   // known queues: each has had a job
            $this->client->queue($name)->put('K', []);
            $model[$name] = ['waiting' => 1, 'running' => 0, 'stalled' => 0, 'scheduled' => 0, 'depends' => 0,
                'recurring' => 0, 'paused' => false];
        }
        for ($i = 0; $i < 40; $i++) {
            $q = $this->client->queue($name = 'q' . mt_rand(0, 3));
            switch (mt_rand(0, 3)) {
                case 0:
                    $q->put('K', [], ['delay' => 3600]);
                    $model[$name]['scheduled']++;
                    break;
                case 1:
                    $n = mt_rand(1, 3);
                    $taken = $model[$name]['paused'] ? 0 : min($n, $model[$name]['waiting']);
                    $this->assertCount($taken, $q->pop($n));
                    $model[$name]['waiting'] -= $taken;
                    $model[$name]['running'] += $taken;
                    break;
                case 2:
                    $model[$name]['paused'] ? $q->unpause() : $q->pause();
                    $model[$name]['paused'] = !$model[$name]['paused'];
                    break;
                default:
                    $q->put('K', []);
                    $model[$name]['waiting']++;
            }
        }
        $all = $this->client->queueCounts();
        $this->assertEqualsCanonicalizing(array_keys($model), array_keys($all));
        foreach ($model as $name => $want) {
            foreach ([$all[$name], $this->client->queue($name)->counts()] as $got) {
                $this->assertSame($want, $got, $name);
            }
        }
    }
}
