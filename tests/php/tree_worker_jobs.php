<?php
// Job classes of TreeWorkerTest.php: which of them are tree classes is part
// of the test.
declare(strict_types=1);

namespace TreeWorkerJobs;

require_once dirname(getenv('QLESS_PHP_LAYER')) . '/Worker.php';

/** A tree class: ports (a property and a method) and both hooks. Sums its
 *  input and writes it doubled; with data "child", puts child "kid" first. */
final class Counter
{
    public static array $inports = ['in' => []];
    public static function outports(): array { return ['out']; }

    public static function startup(\Qless\Job $job): void
    {
        $job->store['startups'] = ($job->store['startups'] ?? 0) + 1;
    }

    public static function perform(\Qless\Job $job): void
    {
        if (($job->data()['child'] ?? false) && !isset($job->children()['kid'])) {
            $job->children()->put('kid', Leaf::class, ['n' => 1]);
        }
        $values = $job->read('in', 10);
        if (!$values) {
            $job->suspend();
            return;
        }
        $job->write('out', ...array_map(fn ($v) => $v * 2, $values));
        $job->store['sum'] = ($job->store['sum'] ?? 0) + array_sum($values);
    }

    public static function shutdown(\Qless\Job $job): void { $job->store['shutdown'] = true; }
}

/** A tree class by its hook alone; notes its parent and creator. */
final class Leaf
{
    public static function startup($job): void {}

    public static function perform(\Qless\Job $job): void
    {
        $job->store['parent'] = $job->parent()?->jid;
        $job->store['by'] = $job->tree()->created_by;
    }
}

/** Not a tree class: suspend is refused at the call (the job fails). */
final class Plain
{
    public static function perform(\Qless\Job $job): void { $job->suspend(); }
}

/** Its shutdown fails: the job is terminated all the same. */
final class Broken
{
    public static array $inports = ['in'];
    public static function perform(\Qless\Job $job): void { $job->suspend(); }
    public static function shutdown($job): void { throw new \RuntimeException('cannot shut down'); }
}

/** Ports that are no list of names: the worker refuses to start. */
final class BadPorts
{
    public static function inports(): string { return 'in'; }
    public static function perform($job): void {}
}

/** Not a job class (no perform), though it has hooks. */
final class Helper
{
    public static function startup($job): void {}
}
