<?php
require __DIR__ . '/Qless.php';

$client = new Qless\Client();  // $QLESS_URL, else the embedded server
$queue = $client->queue('example');

$jid = $queue->put('example.Greet', ['name' => 'world'], ['tags' => ['demo']]);
$job = $queue->pop();
echo var_export($job->jid() === $jid, true), ' ', $job->klass(), ' ', $job->data()['name'], "\n";
$job->complete();
echo $client->job($jid)->state(), "\n";
