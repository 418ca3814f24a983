<?php
require __DIR__ . '/Qless.php';

$client = new Qless\Client();  // $QLESS_URL, else the embedded server
$tasks = $client->schedules['example-tasks'];

$jid = $tasks->add('Example\Report', ['to' => 'ops'], ['cron' => '0 9 * * mon-fri']);
$again = $tasks->add('Example\Report', ['to' => 'ops'], ['cron' => '0 9 * * MON-FRI', 'report' => true]);
echo var_export($again === [$jid, false], true), "\n";  // adds are unique: the same entry is not added twice
$tasks->add('Example\Mail', ['to' => 'a@b'], ['at' => '7pm tomorrow']);
$tasks->add('Example\Ping', null, ['every' => '5 minutes']);
foreach ($tasks->entries() as $entry) {
    echo $entry['kind'], ' ', $entry['klass'], "\n";
}
echo Qless\when('every monday 9am')->cron, "\n";
// $tasks->listen(['pool' => 4, 'allow' => 'Example\*']);  // runs due entries until SIGTERM
