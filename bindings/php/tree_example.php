<?php
require __DIR__ . '/Worker.php';

final class Consumer  // a tree class: ports and hooks beside perform
{
    public static array $inports = ['in' => []];
    public static array $outports = ['total' => []];

    public static function startup($job): void { $job->store['sum'] = 0; }

    public static function perform($job): void
    {
        $values = $job->read('in', 10);
        if (!$values) {
            $job->suspend();  // sleeps until input arrives
            return;
        }
        $job->store['sum'] += array_sum(array_column($values, 'n'));
        $job->write('total', $job->store['sum']);
    }
}

$client = new Qless\Client();  // $QLESS_URL, else the embedded server
$pipeline = $client->queue('example-trees');
$pipeline->registerKlass('Consumer', ['inports' => Consumer::$inports, 'outports' => Consumer::$outports]);  // as its worker does

$root = $pipeline->put('Example\Pipeline', [], ['tree' => true, 'aliases' => ['example-pipeline']]);
$src = $pipeline->put('Example\Source', [], ['parent' => $root, 'name' => 'source', 'outports' => ['out' => []]]);
$sink = $pipeline->put('Consumer', [], ['parent' => $root, 'name' => 'sink']);  // gets the registered ports
$client->trees[$sink]->ports->in['in']->connect('/example/data');
echo $client->channels['/example/data']->publish(['n' => 1], $src), "\n";  // ports reached
$tree = $client->trees[$client->aliases['example-pipeline']];
$children = array_keys($tree->children);
sort($children);
echo implode(',', $children), ' ', json_encode($client->trees[$sink]->ports->in['in']->read(10)), "\n";
$client->trees[$sink]->store['seen'] = 1;
echo $tree->terminate(true), "\n";  // each job is terminating until its worker's shutdown ran
