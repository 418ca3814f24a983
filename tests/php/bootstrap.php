<?php
// PHPUnit bootstrap for the PHP binding suite, run by ctest (CMakeLists.txt):
// QLESS_TEST_STATE names the private redis-server's dir (port, socket) and
// QLESS_PHP_LAYER the Qless.php to load; the extension comes from -d extension=.
declare(strict_types=1);

$state = getenv('QLESS_TEST_STATE');
if (!$state) {
    fwrite(STDERR, "QLESS_TEST_STATE is not set: run through ctest\n");
    exit(2);
}
require getenv('QLESS_PHP_LAYER');

abstract class QlessTestCase extends PHPUnit\Framework\TestCase
{
    protected Qless\Client $client;

    public static function url(): string
    {
        return 'redis://127.0.0.1:' . trim(file_get_contents(getenv('QLESS_TEST_STATE') . '/port')) . '/0';
    }

    protected function setUp(): void
    {
        $sock = trim(file_get_contents(getenv('QLESS_TEST_STATE') . '/socket'));
        exec('redis-cli -s ' . escapeshellarg($sock) . ' flushall', $out, $rc);
        $this->assertSame(0, $rc, 'redis-cli flushall');
        $this->client = new Qless\Client(self::url(), ['worker_name' => 'php-test']);
    }

    /** Runs bindings/php/$name as a user would (php -n, the extension, the
     *  private server as $QLESS_URL) and checks that it printed $expected
     *  and that $page (README.md or docs/php.md) quotes it verbatim. */
    protected function assertQuotedExample(string $name, string $page, string $expected): void
    {
        $example = dirname(getenv('QLESS_PHP_EXAMPLE')) . '/' . $name;
        $text = file_get_contents(dirname($example, 3) . '/' . $page);
        $this->assertStringContainsString("```php\n" . file_get_contents($example) . "```", $text,
            "$page does not quote $name");
        $cmd = [getenv('QLESS_PHP_BIN'), '-n', '-d', 'extension=' . getenv('QLESS_PHP_EXT'), $example];
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, ['QLESS_URL' => self::url()]);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        $this->assertSame(0, proc_close($proc), $err);
        $this->assertSame($expected, $out);
    }
}
