<?php
// A listener for ScheduleTest.php: php schedule_listen.php URL POOL [MAX_JOBS]
// runs $client->schedules['tasks']->listen(...) and exits with its status.
declare(strict_types=1);

require getenv('QLESS_PHP_LAYER');
require __DIR__ . '/schedule_jobs.php';

$opts = ['pool' => (int)$argv[2], 'allow' => 'ScheduleTestJobs\*', 'interval' => 0.05];
if (isset($argv[3])) {
    $opts['max_jobs'] = (int)$argv[3];
}
exit((new Qless\Client($argv[1], ['worker_name' => 'lsn']))->schedules['tasks']->listen($opts));
