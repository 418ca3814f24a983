<?php
// Client, Queue, Job, RecurringJob and Events through the Qless namespace.
declare(strict_types=1);

final class LifecycleTest extends QlessTestCase
{
    public function testPutPopComplete(): void
    {
        $q = $this->client->queue('q');
        $jid = $q->put('K', ['name' => 'x', 'n' => [1, 2]], ['tags' => ['a', 'b'], 'priority' => 2, 'retries' => 3]);
        $this->assertSame(['waiting' => 1, 'running' => 0, 'stalled' => 0, 'scheduled' => 0, 'depends' => 0,
            'recurring' => 0, 'paused' => false], $q->counts());
        $job = $q->pop();
        $this->assertSame([$jid, 'K', 'q', 'running', 'php-test'], [$job->jid(), $job->klass(), $job->queue(), $job->state(), $job->worker()]);
        $this->assertSame(['name' => 'x', 'n' => [1, 2]], $job->data());
        $this->assertSame([['a', 'b'], 2.0, 3, 3], [$job->tags(), $job->priority(), $job->retries(), $job->remaining()]);
        $this->assertSame(1, $q->counts()['running']);
        $this->assertGreaterThan(0.0, $job->heartbeat());
        $job->setData(['name' => 'y']);
        $job->complete();
        $done = $this->client->job($jid);
        $this->assertSame(['complete', ['name' => 'y']], [$done->state(), $done->data()]);
        $this->assertNull($q->pop());
        $this->assertSame(['q'], $this->client->queueNames());
    }

    public function testPutOptions(): void
    {
        $q = $this->client->queue('q');
        $this->assertSame('my-jid', $q->put('K', [], ['jid' => 'my-jid']));
        $this->assertSame('{}', $this->client->job('my-jid')->data_get());   // [] is an empty object
        $q->put('K', [], ['delay' => 3600]);
        $q->put('K', [], ['depends' => ['my-jid']]);
        $c = $q->counts();
        $this->assertSame([1, 1, 1], [$c['waiting'], $c['scheduled'], $c['depends']]);
        $q->pause();
        $this->assertTrue($q->counts()['paused']);
        $this->assertNull($q->pop());
        $q->unpause();
        $job = $q->pop();
        $job->complete(['next' => 'other', 'delay' => 0]);
        $this->assertSame(['waiting', 'other'], [$this->client->job('my-jid')->state(), $this->client->job('my-jid')->queue()]);
    }

    public function testFailRetryCancel(): void
    {
        $q = $this->client->queue('q');
        $jid = $q->put('K', [], ['retries' => 1]);
        $this->assertSame(0, $q->pop()->retry('Transient', 'try again'));
        $q->pop()->fail('Broken', 'it broke');
        $failed = $this->client->job($jid);
        $this->assertSame(['failed', 'Broken', 'it broke'], [$failed->state(), $failed->failureGroup(), $failed->failureMessage()]);
        $failed->cancel();
        $this->assertNull($this->client->job($jid));
    }

    public function testTagsConfigAndRecurring(): void
    {
        $q = $this->client->queue('q');
        $jid = $q->put('K', []);
        $job = $this->client->job($jid);
        $job->tag('x', 'y');
        $job->untag('x');
        $job->refresh();
        $this->assertSame(['y'], $job->tags());
        $this->assertSame([1, [$jid]], $this->client->tagged('y'));
        $this->assertSame([0, []], $this->client->tagged('x'));

        $this->client->setConfig('heartbeat', '42');
        $this->assertSame('42', $this->client->config('heartbeat'));
        $this->client->unsetConfig('heartbeat');
        $this->assertSame('60', $this->client->config('heartbeat'));   // back to the protocol's default
        $this->assertNull($this->client->config('no-such-key'));

        $rid = $q->recur('R', ['every' => 'minute'], 60, ['tags' => ['r'], 'priority' => 1, 'retries' => 2]);
        $r = $this->client->recurringJob($rid);
        $this->assertSame([$rid, 'R', 'q', ['every' => 'minute'], 60.0, 1.0, 2, ['r']],
            [$r->jid(), $r->klass(), $r->queue(), $r->data(), $r->interval(), $r->priority(), $r->retries(), $r->tags()]);
        $r->setInterval(120);
        $this->assertSame(120.0, $this->client->recurringJob($rid)->interval());
        $this->assertSame(1, $q->counts()['recurring']);
        $r->cancel();
        $this->assertNull($this->client->recurringJob($rid));
    }

    public function testEvents(): void
    {
        $events = $this->client->events('completed');
        $this->assertNull($events->next(0));
        $q = $this->client->queue('q');
        $jid = $q->put('K', []);
        $this->client->job($jid)->track();
        $q->pop()->complete();
        $this->assertSame(['completed', $jid], $events->next(10000));
    }

    // Generative: seeded puts with random priorities and tags; pops follow
    // priority (then insertion order), and every tag's total matches.
    public function testPopOrderAndTagsFollowPuts(): void
    {
        mt_srand(13);
        $q = $this->client->queue('gen');
        $want = [];
        $tagged = [];
        for ($i = 0; $i < 30; $i++) {
            $prio = mt_rand(0, 3);
            $tags = array_slice(['t0', 't1', 't2'], 0, mt_rand(0, 3));
            $jid = $q->put('K', ['i' => $i], ['priority' => $prio, 'tags' => $tags]);
            $want[] = [$prio, $i, $jid];
            foreach ($tags as $t) {
                $tagged[$t][] = $jid;
            }
        }
        usort($want, fn ($a, $b) => [$b[0], $a[1]] <=> [$a[0], $b[1]]);
        $this->assertSame(30, $q->length());
        foreach (['t0', 't1', 't2'] as $t) {
            [$total, $jids] = $this->client->tagged($t, 0, 100);
            $this->assertSame(count($tagged[$t] ?? []), $total, $t);
            $this->assertEqualsCanonicalizing($tagged[$t] ?? [], $jids, $t);
        }
        $popped = array_merge(...array_map(fn () => $q->popMany(mt_rand(1, 7)), range(1, 10)));
        $this->assertSame(array_column($want, 2), array_map(fn ($j) => $j->jid(), array_slice($popped, 0, 30)));
    }

    // Handles made from a client stay usable after the caller drops it, and
    // freeing in any order at the end is safe.
    public function testChildrenOutliveTheirClient(): void
    {
        $q = (new Qless\Client(self::url(), ['worker_name' => 'short-lived']))->queue('q');
        $events = (new Qless\Client(self::url()))->events('completed');
        $jid = $q->put('K', []);
        $job = $q->pop();
        unset($q);
        $this->assertSame('short-lived', $job->worker());
        $job->complete();
        $this->assertSame('complete', $this->client->job($jid)->state());
        $this->assertNull($events->next(0));
    }

    public function testExampleRunsVerbatim(): void
    {
        $this->assertQuotedExample('example.php', 'README.md', "true example.Greet world\ncomplete\n");
    }
}
