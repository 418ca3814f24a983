<?php
declare(strict_types=1);

/** The QLESS_OPTIONS typemap (swig/php.i) called directly: an array of
 * option name => value becomes qless_put_options; null means "not given". */
final class OptionsTest extends QlessTestCase
{
    private Qless\Queue $queue;

    protected function setUp(): void
    {
        parent::setUp();
        $this->queue = $this->client->queue('opts');
    }

    private function put(?array $opts): string { return qless_queue_put($this->queue, 'K', null, $opts); }

    public function testGivenOptionsReachTheJob(): void
    {
        $job = $this->client->job($this->put(['priority' => 2.5, 'tags' => ['a', 'b'], 'retries' => 3,
                                              'depends' => null, 'jid' => 'j1']));
        $tags = $job->tags();
        sort($tags);
        $this->assertSame(['j1', 2.5, ['a', 'b'], 3], [$job->jid(), $job->priority(), $tags, $job->retries()]);
        $job = $this->client->job($this->put(null));
        $this->assertSame([0.0, [], 5], [$job->priority(), $job->tags(), $job->retries()]);
    }

    public function testUnknownNamesAndWrongTypesNameTheOption(): void
    {
        try {
            $this->put(['priorty' => 1]);
            $this->fail('no exception');
        } catch (Qless\InvalidArgument $e) {
            $this->assertMatchesRegularExpression("/'priorty'.*priority/", $e->getMessage());
        }
        $wrong = ['jid' => 5, 'delay' => 'soon', 'priority' => 'high', 'retries' => 1.5, 'tags' => 'a', 'depends' => [7]];
        foreach ($wrong as $name => $value) {
            try {
                $this->put([$name => $value]);
                $this->fail("no exception for $name");
            } catch (TypeError $e) {
                $this->assertStringContainsString("'$name'", $e->getMessage());
            }
        }
        $this->assertSame(0, $this->queue->length());
    }

    public function testNamespaceClientOption(): void
    {
        $ns = new Qless\Client(self::url(), ['namespace' => 'php']);
        $this->assertSame('php', $ns->namespace_name_get());
        $jid = $ns->queue('q')->put('K', []);
        $this->assertSame('q', (new Qless\Client(self::url() . '?namespace=php'))->job($jid)->queue());
        $this->expectException(Qless\InvalidArgument::class);
        new Qless\Client(self::url(), ['namespace' => 'a/b']);
    }
}
