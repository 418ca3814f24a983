<?php
// Ports, channels and state from PHP (Ports.php): PHP values in, the same
// values out, through the server's JSON.
declare(strict_types=1);

final class PortsTest extends QlessTestCase
{
    private function tree(array $options = []): Qless\Tree
    {
        $jid = $this->client->queue('q')->put('Pipe', [], ['tree' => true] + $options);
        return $this->client->trees[$jid];
    }

    /** Seeded values of several shapes go through a port unchanged and in order. */
    public function testValuesRoundTripThroughAPort(): void
    {
        mt_srand($seed = (int)(getenv('QLESS_PHP_FUZZ_SEED') ?: random_int(1, PHP_INT_MAX >> 1)));
        $tree = $this->tree(['inports' => ['in' => []]]);
        $port = $tree->ports->in['in'];
        $make = [fn () => mt_rand(), fn () => 'v' . mt_rand(), fn () => [mt_rand(), 'x' => ['y' => mt_rand() % 2 === 0]],
            fn () => null, fn () => 'ünï/' . mt_rand()];
        $values = [];
        for ($i = 0; $i < 20; $i++) {
            $values[] = $make[mt_rand(0, count($make) - 1)]();
        }
        $port->write(...array_slice($values, 0, 7));
        $port->write(...array_slice($values, 7));
        $this->assertSame(20, $port->size(), "seed $seed");
        $this->assertSame(array_slice($values, 0, 3), $port->peek(3), "seed $seed");
        $this->assertSame(array_slice($values, 0, 5), $port->read(5), "seed $seed");
        $this->assertSame(array_slice($values, 5), $port->read(100), "seed $seed");
        $this->assertSame([], $port->read(1));
    }

    public function testDefineRemoveAndDefault(): void
    {
        $tree = $this->tree();
        $tree->ports->in->define(['a' => [], 'b' => ['default' => ['d' => 1]]]);
        $this->assertSame([['d' => 1]], $tree->ports->in['b']->read(1));
        $this->assertSame(1, $tree->ports->in->remove('a', 'zz'));
        $this->expectException(Qless\Exception::class);
        $tree->ports->in['a']->read(1);
    }

    public function testChannelsDeliverToConnectedPorts(): void
    {
        $tree = $this->tree(['inports' => ['in' => []]]);
        $this->assertSame(1, $tree->ports->in['in']->connect('/a'));
        $this->assertSame([[$tree->jid, 'in']], $this->client->channels['/a']->subscribers());
        $this->assertSame(1, $this->client->channels['/a/b']->publish(['k' => 'v'], from: 'me'));
        $this->assertSame([['k' => 'v']], $tree->ports->in['in']->read(5));
        $this->assertSame(1, $tree->ports->in['in']->disconnect('/a'));
        $this->assertSame(0, $this->client->channels['/a']->publish(1));
    }

    public function testStateGetSetDeleteAndAll(): void
    {
        $tree = $this->tree();
        $state = $tree->store;
        $this->assertNull($state['k']);
        $state['k'] = ['n' => [1, 2]];
        $state['j'] = 'x';
        $this->assertSame(['n' => [1, 2]], $state['k']);
        $this->assertTrue(isset($state['j']));
        $this->assertEqualsCanonicalizing(['k' => ['n' => [1, 2]], 'j' => 'x'], $state->all());
        unset($state['k']);
        $this->assertNull($state['k']);
        $this->assertSame(['j' => 'x'], $state->all());
    }

    public function testBadInputIsNamed(): void
    {
        $tree = $this->tree(['inports' => ['in' => []]]);
        try {
            $tree->ports->in['in']->read(0);
            $this->fail('a count of 0 is refused');
        } catch (Qless\InvalidArgument $e) {
            $this->assertMatchesRegularExpression('/count/i', $e->getMessage());
        }
        $this->expectException(Qless\Exception::class);
        $this->client->channels['no-slash']->publish(1);
    }

    public function testKlassRegistryGivesNewTreeJobsTheirPorts(): void
    {
        $q = $this->client->queue('q');
        $this->assertTrue($q->registerKlass('Pipe', ['inports' => ['in' => []], 'outports' => ['out' => ['default' => 0]]]));
        $this->assertFalse($q->registerKlass('Pipe', ['inports' => ['in' => []], 'outports' => ['out' => ['default' => 0]]]));
        $this->assertSame(['in'], array_keys($q->klassConfig('Pipe')['inports']));
        $this->assertSame(['Pipe'], array_keys($q->klassConfig()));
        $this->assertSame(['in'], array_keys($this->tree()->inports));
        $this->assertTrue($q->unregisterKlass('Pipe'));
        $this->assertNull($q->klassConfig('Pipe'));
        $this->assertFalse($q->unregisterKlass('Pipe'));
    }
}
