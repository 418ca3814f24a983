<?php
// Job trees from PHP (Tree.php): $client->trees, $client->aliases and the
// tree put options, against the server's tree.get.
declare(strict_types=1);

final class TreeTest extends QlessTestCase
{
    private function tree(array $options = []): string
    {
        return $this->client->queue('q')->put('Pipe', ['x' => 1], ['tree' => true] + $options);
    }

    public function testTreeIsTreeGetAsNativeValues(): void
    {
        $jid = $this->tree(['inports' => ['in' => [], 'seed' => ['default' => [1, 'a']]], 'outports' => ['out' => []],
            'aliases' => ['pipe-1'], 'by' => 'php-test:by']);
        $tree = $this->client->trees[$jid];
        $this->assertInstanceOf(Qless\Tree::class, $tree);
        $this->assertSame($jid, $tree->jid);
        $this->assertSame('Pipe', $tree->klass);
        $this->assertSame('q', $tree->queue);
        $this->assertSame(['pipe-1'], $tree->aliases);
        $this->assertSame('php-test:by', $tree->created_by);
        $this->assertEqualsCanonicalizing(['in', 'seed'], array_keys($tree->inports));
        $this->assertSame(['out'], array_keys($tree->outports));
        $this->assertSame($jid, $this->client->aliases['pipe-1']);
    }

    public function testUnknownJidAndAliasAreNull(): void
    {
        $this->assertNull($this->client->trees['nope']);
        $this->assertFalse(isset($this->client->trees['nope']));
        $this->assertNull($this->client->aliases['nope']);
    }

    /** A job that exists but is no tree job is the server's StateError, not null. */
    public function testPlainJobIsAStateError(): void
    {
        $plain = $this->client->queue('q')->put('K', []);
        $this->expectException(Qless\StateError::class);
        $this->client->trees[$plain];
    }

    public function testChildrenAdoptDisownAndAliases(): void
    {
        $root = $this->tree();
        $child = $this->tree(['parent' => $root, 'name' => 'a']);
        $this->assertSame($root, $this->client->trees[$child]->parent);
        $this->assertSame('a', $this->client->trees[$child]->name);
        $this->assertSame(['a' => $child], $this->client->trees[$root]->children);
        $other = $this->tree();
        $tree = $this->client->trees[$root];
        $tree->adopt('b', $other);
        $this->assertSame(['a' => $child, 'b' => $other], $this->client->trees[$root]->children);
        $this->assertSame($other, $tree->disown('b'));
        $this->assertSame(['a' => $child], $this->client->trees[$root]->children);
        $this->assertSame(2, $tree->addAliases('r1', 'r2'));
        $this->assertSame($root, $this->client->aliases['r2']);
        $this->assertSame(1, $tree->removeAliases('r1'));
        $this->assertNull($this->client->aliases['r1']);
    }

    public function testTerminateAndDelete(): void
    {
        $root = $this->tree();
        $this->tree(['parent' => $root, 'name' => 'a']);
        $this->assertGreaterThanOrEqual(1, $this->client->trees[$root]->terminate(true));
        // Nothing runs, so nothing is left terminating.
        $this->assertSame('terminated', $this->client->trees[$root]->state);
        $other = $this->tree();
        $this->client->trees[$other]->terminate();
        $this->assertSame(1, $this->client->trees[$other]->delete());
        $this->assertNull($this->client->trees[$other]);
    }

    public function testBadInputIsNamed(): void
    {
        try {
            $this->client->queue('q')->put('K', [], ['tree' => 1]);
            $this->fail('tree must be a bool');
        } catch (TypeError $e) {
            $this->assertStringContainsString('option tree', $e->getMessage());
        }
        try {
            $this->client->queue('q')->put('K', [], ['inports' => 'in']);
            $this->fail('inports must be an array');
        } catch (TypeError $e) {
            $this->assertStringContainsString('option inports', $e->getMessage());
        }
        $this->expectException(Qless\InvalidArgument::class);
        $this->tree(['parent' => $this->tree()]);   // parent without name
    }

    public function testAdoptingAnUnknownJobIsAQlessError(): void
    {
        $root = $this->tree();
        $this->expectException(Qless\Exception::class);
        $this->client->trees[$root]->adopt('x', 'no-such-job');
    }

    public function testMapsAreReadOnly(): void
    {
        $this->expectException(LogicException::class);
        $this->client->aliases['a'] = 'b';
    }
}
