<?php
// The pipeline of jobtrees.md §11 as PHP tree classes, one per role
// (DemoTrees\Pipeline, Producer, Consumer); demo_trees.rb says what each
// role does. Each hook records in the job's state that PHP ran it.
declare(strict_types=1);

namespace DemoTrees;

abstract class Role
{
    public static function startup($job): void
    {
        static::start($job);
        $job->store['startup'] = 'php';
    }

    public static function perform($job): void
    {
        $job->store['perform'] = 'php';
        static::work($job);
    }

    public static function shutdown($job): void { $job->store['shutdown'] = 'php'; }

    protected static function start($job): void {}
}

final class Pipeline extends Role
{
    public static array $inports = ['result' => []];

    protected static function work($job): void
    {
        $results = $job->read('result', 10);
        if (!$results) {
            $job->suspend();
            return;
        }
        $job->store['total'] = end($results);
    }
}

final class Producer extends Role
{
    public static array $outports = ['out' => []];

    protected static function start($job): void { $job->ports->out['out']->connect($job->data()['channel']); }

    protected static function work($job): void { $job->write('out', ...$job->data()['values']); }
}

final class Consumer extends Role
{
    public static array $inports = ['in' => []];

    protected static function start($job): void { $job->ports->in['in']->connect($job->data()['channel']); }

    protected static function work($job): void
    {
        $values = $job->read('in', 100);
        if (!$values) {
            $job->suspend();
            return;
        }
        $job->store['total'] = ($job->store['total'] ?? 0) + array_sum($values);
        $job->store['received'] = ($job->store['received'] ?? 0) + count($values);
        $job->parent()->ports->in['result']->write($job->store['total']);
    }
}
