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
}
