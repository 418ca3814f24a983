<?php
// Job classes of WorkerTest.php, loaded there and by the worker programs it
// starts (qless-worker --require this file).
declare(strict_types=1);

namespace WorkerTestJobs;

require_once dirname(getenv('QLESS_PHP_LAYER')) . '/Worker.php';

final class Ok
{
    public static $kept = null;
    public static function perform(\Qless\Job $job): void
    {
        self::$kept = $job;   // kept past the call: must be dead afterwards
        $job->setData(['done' => true]);
    }
}
final class UsesClient   // $job->client: the engine's connection for the job
{
    public static function perform(\Qless\Job $job): void
    {
        $job->setData(['worker' => $job->client->worker_name, 'next' => $job->client->queue('next')->put('K')]);
    }
}
final class Throws
{
    public static function perform($job): void { throw new \RuntimeException('thrown ' . $job->jid()); }
}
final class Retries
{
    public static function perform($job): void { throw new Retry('again'); }
}
final class Retry extends \Qless\RetryableError {}
final class Exits
{
    public static function perform($job): void { exit(7); }
}
final class Hog
{
    public static function perform($job): void { str_repeat('x', 64 << 20); }
}
final class NotStatic
{
    public function perform($job): void {}
}
final class PrivatePerform
{
    private static function perform($job): void {}
}
interface Iface {}
/** Put last (lowest priority): stops the worker gracefully once it is done. */
final class Stopper
{
    public static function perform($job): void { posix_kill(getmypid(), SIGTERM); }
}
