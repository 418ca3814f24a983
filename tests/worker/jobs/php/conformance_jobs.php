<?php
// Job classes of the worker conformance suite (tests/worker), loaded with
//   qless-worker --require tests/worker/jobs/php/conformance_jobs.php
// Their behaviour is the same in every language; see the suite.
declare(strict_types=1);

namespace {
    /** A plain error: the job fails in group "ConformanceError". */
    class ConformanceError extends \Exception {}

    /** A retryable error: the job is retried (group "ConformanceRetry"). */
    class ConformanceRetry extends Qless\RetryableError {}

    /** Outside ConformanceJobs, so outside the suite's allow-list; running it ends the worker. */
    class ConformanceExit
    {
        public static function perform($job): void { exit(3); }
    }

    // A lookup of ForbiddenJobs\Forbidden (which only the engine's allow-list
    // check prevents) loads forbidden_jobs.php, which leaves a mark.
    spl_autoload_register(function (string $class): void {
        if ($class === 'ForbiddenJobs\\Forbidden') {
            require __DIR__ . '/forbidden_jobs.php';
        }
    });
}

namespace ConformanceJobs {
    /** Inside the allow-list but not a job class (no perform): the worker refuses it. */
    final class Recorder
    {
        /** Appends one line to $path in a single write(2) on an O_APPEND
         *  descriptor, so lines of concurrent workers never interleave. */
        public static function record(string $path, string $what, $job): void
        {
            file_put_contents($path, sprintf("%s %s %.6f %d\n", $what, $job->jid(), microtime(true), getmypid()),
                FILE_APPEND);
        }
    }

    /** Notes its start and end in data["log"] (if set), sleeping data["sleep"]
     *  seconds (default 0) in between; completes. */
    final class Noop
    {
        public static function perform($job): void
        {
            $data = $job->data();
            $log = $data['log'] ?? null;
            if ($log !== null) {
                Recorder::record($log, 'start', $job);
            }
            if (isset($data['sleep'])) {
                // A signal (the worker's SIGTERM) cuts usleep short: sleep the rest.
                $end = microtime(true) + (float)$data['sleep'];
                while (($left = $end - microtime(true)) > 0) {
                    usleep((int)ceil($left * 1e6));
                }
            }
            if ($log !== null) {
                Recorder::record($log, 'end', $job);
            }
        }
    }

    final class Boom
    {
        public static function perform($job): void { throw new \ConformanceError("boom {$job->jid()}"); }
    }

    final class Flaky
    {
        public static function perform($job): void { throw new \ConformanceRetry("flaky {$job->jid()}"); }
    }

    /** The tree class of test_tree_conformance.py (its contract is there). */
    final class Tree
    {
        public static array $inports = ['in' => []];
        public static function outports(): array { return ['out']; }

        public static function startup($job): void
        {
            Recorder::record($job->data()['log'], 'startup', $job);
            $crash = $job->data()['crash'] ?? null;
            if ($crash !== null && @fopen($crash, 'x') !== false) {
                exec('kill -9 ' . getmypid());   // ends at once, settling nothing (no posix extension under -n)
            }
        }

        public static function perform($job): void
        {
            Recorder::record($job->data()['log'], 'perform', $job);
            $values = $job->read('in', 10);
            if (!$values) {
                $job->suspend();
                return;
            }
            $job->write('out', ...array_map(fn ($v) => $v * 2, $values));
            $job->store['seen'] = ($job->store['seen'] ?? 0) + count($values);
        }

        public static function shutdown($job): void
        {
            Recorder::record($job->data()['log'], 'shutdown', $job);
        }
    }
}
