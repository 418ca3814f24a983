<?php
// The PHP side of the worker engine in libqless (qless_worker_main, reached
// through qless_php_worker_main in swig/php.i). The engine reserves jobs,
// heartbeats them from a C thread, settles them, runs pools of processes
// (fork(2)), stops on signals and reconnects; this file only finds and calls
// the code of a job and turns what happened into the engine's outcome:
//   Klass::perform($job) returns          -> complete
//   it throws a Qless\RetryableError      -> retry (group = class name)
//   it throws any other Throwable         -> fail, group = class name,
//                                            message = "Class: message\n" + trace
// Job code may settle the job itself ($job->complete(['next' => 'q2']), ...);
// the engine then leaves it alone. The job is valid during the call only.
declare(strict_types=1);

namespace Qless;

require_once __DIR__ . '/Qless.php';

/** Throw it (or a subclass) from job code to have the job retried after the
 *  worker's backoff delay instead of failed; the protocol fails the job once
 *  its retries are used up. */
class RetryableError extends \Exception {}

/** The job's class name names no class this worker can run (see Worker::jobClass). */
final class JobClassError extends \Exception {}

final class Worker
{
    public const USAGE = <<<TEXT
        PHP's flags (the other flags are the engine's, listed below):
          --require FILE, -r FILE   load job classes (or an autoloader) from FILE first (repeatable)
        The allow-list (--allow 'App\\Jobs\\*', or QLESS_WORKER_ALLOW) is required.

        TEXT;

    /** Runs the worker program with command-line flags (without the script
     *  name); returns the exit status (0 after a graceful stop, 1 on a
     *  failure, 2 on a usage error). */
    public static function main(array $argv, string $program = 'qless-worker'): int
    {
        $rest = self::takeRequires($argv);
        if ($rest === null) {
            return 2;
        }
        if (in_array('--help', $rest, true) || in_array('-h', $rest, true)) {
            fwrite(STDOUT, self::USAGE);
        }
        return \qless_php_worker_main([$program, ...$rest], [self::class, 'perform']);
    }

    /** @internal The engine's perform callback: the job and client are the
     *  engine's, borrowed for this call. Returns null (complete) or
     *  ['fail'|'retry', group, message]. */
    public static function perform(Job $job, Client $client): ?array
    {
        try {
            self::jobClass($job->klass())::perform($job);
            return null;
        } catch (\Throwable $e) {
            return self::outcome($e);
        }
    }

    /**
     * The class that the job's class name $name names, and only that one:
     * a qualified name without a leading backslash whose class (loaded by
     * the autoloaders, which are asked for exactly $name) is spelled exactly
     * so (PHP's class names ignore case; the allow-list does not) and has a
     * public static perform method. Functions, interfaces and other code
     * reachable from the name are never called.
     */
    public static function jobClass(string $name): string
    {
        if (!preg_match('/^[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*(\\\\[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*)*$/D', $name)) {
            throw new JobClassError("job class '$name' is not a class name such as App\\Jobs\\Name");
        }
        if (!class_exists($name, true)) {
            throw new JobClassError("job class '$name' is not defined (load it with --require FILE)");
        }
        $class = new \ReflectionClass($name);
        if ($class->getName() !== $name) {
            throw new JobClassError("job class '$name' is spelled '{$class->getName()}'");
        }
        if (!$class->hasMethod('perform') || !($m = $class->getMethod('perform'))->isStatic() || !$m->isPublic()) {
            throw new JobClassError("job class '$name' has no public static perform(\$job) method");
        }
        return $name;
    }

    /** ['fail'|'retry', group, message] for what job code threw. */
    public static function outcome(\Throwable $e): array
    {
        $group = get_class($e);
        if (str_contains($group, '@anonymous')) {
            // An anonymous class has no usable name: the nearest named parent.
            for ($c = get_parent_class($e); $c !== false && str_contains($c, '@anonymous'); $c = get_parent_class($c));
            $group = $c === false ? 'Throwable' : $c;
        }
        $message = "$group: {$e->getMessage()}\n{$e->getTraceAsString()}";
        return [$e instanceof RetryableError ? 'retry' : 'fail', $group, $message];
    }

    /** Loads the --require files; returns the other arguments, or null after
     *  a usage error (explained on stderr). */
    private static function takeRequires(array $args): ?array
    {
        $rest = [];
        while ($args) {
            $arg = (string)array_shift($args);
            if (str_starts_with($arg, '--require=')) {
                $file = substr($arg, strlen('--require='));
            } elseif ($arg === '--require' || $arg === '-r') {
                if (!$args) {
                    fwrite(STDERR, "qless-worker: $arg needs a FILE\n");
                    return null;
                }
                $file = (string)array_shift($args);
            } else {
                $rest[] = $arg;
                continue;
            }
            if (!is_file($file) || !is_readable($file)) {
                fwrite(STDERR, "qless-worker: --require $file: no such readable file\n");
                return null;
            }
            require_once $file;
        }
        return $rest;
    }
}
