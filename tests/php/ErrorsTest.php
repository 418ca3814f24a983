<?php
// Every libqless status code surfaces as its Qless\Exception subclass, and
// bad PHP arguments are refused before they reach C.
declare(strict_types=1);

use Qless\Exception as QlessException;

final class ErrorsTest extends QlessTestCase
{
    public function testHierarchy(): void
    {
        $codes = ['InvalidArgument' => -1, 'NotFound' => -2, 'LockLost' => -3, 'StateError' => -4,
            'ProtocolError' => -5, 'ConnectionError' => -6, 'OutOfMemory' => -7];
        $this->assertTrue(is_subclass_of(QlessException::class, RuntimeException::class));
        foreach ($codes as $name => $code) {
            $this->assertTrue(is_subclass_of("Qless\\$name", QlessException::class), $name);
        }
    }

    public function testInvalidArgument(): void
    {
        try {
            $this->client->queue('q')->put('K', ['x' => NAN]);
            $this->fail('NAN is not JSON');
        } catch (JsonException) {
        }
        $e = $this->caught(fn () => $this->client->queue(''));
        $this->assertInstanceOf(Qless\InvalidArgument::class, $e);
        $this->assertSame(-1, $e->getCode());
        $this->assertStringContainsString('empty', $e->getMessage());
        $q = $this->client->queue('q');
        $e = $this->caught(fn () => qless_queue_put($q, 'K', '{not json', []));
        $this->assertInstanceOf(Qless\InvalidArgument::class, $e);
        $this->assertStringContainsString('JSON', $e->getMessage());
    }

    public function testUnknownOptionsAreRefused(): void
    {
        $q = $this->client->queue('q');
        foreach ([fn () => $q->put('K', [], ['priorty' => 1]), fn () => $q->recur('K', [], 60, ['tag' => []]),
                  fn () => new Qless\Client(self::url(), ['timeout' => 1])] as $call) {
            $e = $this->caught($call);
            $this->assertInstanceOf(Qless\InvalidArgument::class, $e);
            $this->assertStringContainsString('unknown option', $e->getMessage());
        }
        $jid = $q->put('K', []);
        $e = $this->caught(fn () => $q->pop()->complete(['nxt' => 'other']));
        $this->assertInstanceOf(Qless\InvalidArgument::class, $e);
        $this->assertSame('running', $this->client->job($jid)->state());
    }

    public function testStringTypemapsAreStrict(): void
    {
        $h = $this->client;
        $e = $this->caught(fn () => qless_queue_new($h, 5));
        $this->assertInstanceOf(TypeError::class, $e);
        $this->assertSame('qless_queue_new(): name must be a string, int given', $e->getMessage());
        $e = $this->caught(fn () => qless_queue_new($h, "a\0b"));
        $this->assertInstanceOf(ValueError::class, $e);
        $this->assertInstanceOf(TypeError::class, $this->caught(fn () => qless_client_cancel($h, ['ok', 7])));
        $this->assertInstanceOf(TypeError::class, $this->caught(fn () => qless_client_cancel($h, 'jid')));
        $this->assertInstanceOf(TypeError::class, $this->caught(fn () => $this->client->queue('q')->put('K', [], ['tags' => [1]])));
    }

    public function testNumberTypemapsAreStrict(): void
    {
        $q = $this->client->queue('q');
        $e = $this->caught(fn () => $q->pop('2'));
        $this->assertInstanceOf(TypeError::class, $e);
        $this->assertSame('Queue_pop(): count must be an int, string given', $e->getMessage());
        $this->assertInstanceOf(TypeError::class, $this->caught(fn () => $q->peek(null)));
        $this->assertInstanceOf(TypeError::class, $this->caught(fn () => $q->pop(1.0)));
        $this->assertInstanceOf(TypeError::class, $this->caught(fn () => $q->recur('K', [], '60')));
        // Values C's type cannot hold are refused, not wrapped around.
        $this->assertInstanceOf(ValueError::class, $this->caught(fn () => qless_error_name(1 << 40)));   // int
        $job = $this->client->job($q->put('K', [], ['tags' => ['a']]));
        $this->assertInstanceOf(ValueError::class, $this->caught(fn () => $job->tag_at(-1)));            // size_t
        $this->assertSame('a', $job->tag_at(0));
    }

    public function testNotFound(): void
    {
        $jid = $this->client->queue('q')->put('K', []);
        $job = $this->client->job($jid);
        $this->client->cancel($jid);
        $e = $this->caught(fn () => $job->refresh());
        $this->assertInstanceOf(Qless\NotFound::class, $e);
        $this->assertSame(-2, $e->getCode());
        $this->assertNull($this->client->job($jid));
        $this->assertNull($this->client->recurringJob($jid));
    }

    public function testLockLost(): void
    {
        $q = $this->client->queue('q');
        $jid = $q->put('K', []);
        $q->pop();
        $thief = new Qless\Client(self::url(), ['worker_name' => 'thief']);
        $e = $this->caught(fn () => $thief->job($jid)->complete());
        $this->assertInstanceOf(Qless\LockLost::class, $e);
        $this->assertSame(-3, $e->getCode());
    }

    public function testStateError(): void
    {
        $q = $this->client->queue('q');
        $first = $q->put('K', []);
        $second = $q->put('K', [], ['depends' => [$first]]);
        $this->assertSame('depends', $this->client->job($second)->state());
        $e = $this->caught(fn () => $this->client->cancel($first));   // second depends on it
        $this->assertInstanceOf(Qless\StateError::class, $e);
        $this->assertSame(-4, $e->getCode());
        $this->client->cancel($first, $second);
        $this->assertNull($this->client->job($first));
    }

    public function testProtocolError(): void
    {
        $sock = trim(file_get_contents(getenv('QLESS_TEST_STATE') . '/socket'));
        exec('redis-cli -s ' . escapeshellarg($sock) . ' set ql:queues "not a sorted set"');
        $e = $this->caught(fn () => $this->client->queueNames());
        $this->assertInstanceOf(Qless\ProtocolError::class, $e);
        $this->assertSame(-5, $e->getCode());
        $this->assertStringContainsString('WRONGTYPE', $e->getMessage());
    }

    public function testConnectionError(): void
    {
        $server = stream_socket_server('tcp://127.0.0.1:0');   // a port nobody will listen on once closed
        $port = (int)substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
        fclose($server);
        $e = $this->caught(fn () => (new Qless\Client("redis://127.0.0.1:$port/0", ['connect_timeout_ms' => 1000]))
            ->queue('q')->length());
        $this->assertInstanceOf(Qless\ConnectionError::class, $e);
        $this->assertSame(-6, $e->getCode());
    }

    private function caught(callable $call): Throwable
    {
        try {
            $call();
        } catch (Throwable $e) {
            return $e;
        }
        $this->fail('no exception was thrown');
    }
}
