<?php
// Sequential put -> pop -> complete through the PHP binding.
//   php -n -d extension=build/bindings/php/qless.so bench/roundtrip.php N
declare(strict_types=1);

require __DIR__ . '/../bindings/php/Qless.php';

$n = (int)$argv[1];
$queue = (new Qless\Client(getenv('QLESS_URL') ?: null))->queue('bench-php');
$t0 = hrtime(true);
for ($i = 0; $i < $n; $i++) {
    $queue->put('Bench', ['i' => 1]);
    $queue->pop()->complete();
}
$secs = (hrtime(true) - $t0) / 1e9;
printf("%-8s %d jobs %.3f s %.0f jobs/s\n", 'php', $n, $secs, $n / $secs);
