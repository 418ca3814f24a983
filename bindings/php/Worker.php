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
// Tree classes (jobtrees.md §9): a class with inports/outports (public
// static properties or static methods giving port names, or port => spec)
// or static startup($job)/shutdown($job) beside perform. The engine
// registers the ports on its queues, runs startup once before the first
// perform of a job's life, shutdown when the job is terminated, and
// suspends a job whose perform called $job->suspend(). The worker finds its
// tree classes as it starts, once the --require files are loaded: an exact
// --allow 'App\Jobs\Name' (autoloaded), and for --allow 'App\Jobs\*' the
// classes of that namespace declared by then; '*' finds none. A tree class
// found no other way runs its jobs as plain jobs.
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
        try {
            [$klasses, $configs] = self::treeClasses(self::allowPatterns($rest));
        } catch (\Throwable $e) {   // a bad port declaration: nothing ran yet
            fwrite(STDERR, "$program: finding the tree classes: " . get_class($e) . ": {$e->getMessage()}\n");
            return 1;
        }
        return \qless_php_worker_main([$program, ...$rest], [self::class, 'perform'],
                                      $klasses ?: null, $configs ?: null);
    }

    /** @internal The engine's callback: the job and client are the engine's,
     *  borrowed for this call; $phase is 'perform', or a tree job's 'startup'
     *  or 'shutdown' (its class's hook, when it has one). Returns null
     *  (complete) or ['fail'|'retry', group, message]. */
    public static function perform(Job $job, Client $client, string $phase = 'perform'): ?array
    {
        try {
            $class = self::jobClass($job->klass());
            $job->bind($client);
            if ($phase === 'perform') {
                $class::perform($job);
            } elseif (self::hook($class, $phase)) {
                $class::$phase($job);
            }
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

    /** Whether $class has a public static method $name. */
    private static function hook(string $class, string $name): bool
    {
        if (!method_exists($class, $name)) {
            return false;
        }
        $m = new \ReflectionMethod($class, $name);
        return $m->isStatic() && $m->isPublic();
    }

    /** $class's ports of one side as declared (static property or static
     *  method; none: null), as port => spec. */
    private static function ports(string $class, string $side): ?array
    {
        if (self::hook($class, $side)) {
            $ports = $class::$side();
        } elseif (property_exists($class, $side) && (new \ReflectionProperty($class, $side))->isStatic()) {
            $ports = $class::$$side;
        } else {
            return null;
        }
        if (!is_array($ports)) {
            throw new \TypeError("tree class $class: $side must be an array of port names or port => spec, "
                                 . get_debug_type($ports) . ' given');
        }
        $out = [];
        foreach ($ports as $key => $spec) {
            if (is_int($key) && is_string($spec)) {
                $out[$spec] = [];
            } elseif (is_string($key) && is_array($spec)) {
                $out[$key] = $spec;
            } else {
                throw new \TypeError("tree class $class: $side must be an array of port names or port => spec");
            }
        }
        return $out;
    }

    /** The worker.register config of $class (JSON), or null when it is no
     *  tree class (ports or hooks beside perform). */
    public static function treeConfig(string $class): ?string
    {
        $in = self::ports($class, 'inports');
        $out = self::ports($class, 'outports');
        if ($in === null && $out === null && !self::hook($class, 'startup') && !self::hook($class, 'shutdown')) {
            return null;
        }
        return '{"inports":' . portSpecs($in ?? []) . ',"outports":' . portSpecs($out ?? []) . '}';
    }

    /** [[class], [config]] of the tree classes the allow-list names (see the
     *  top of this file). */
    public static function treeClasses(array $patterns): array
    {
        $found = [];
        $add = function (string $name) use (&$found): void {
            if (!isset($found[$name]) && ($config = self::treeConfig(self::jobClass($name))) !== null) {
                $found[$name] = $config;
            }
        };
        foreach ($patterns as $pattern) {
            if (str_ends_with($pattern, '\\*')) {
                $prefix = substr($pattern, 0, -1);
                $names = get_declared_classes();
                sort($names);
                foreach ($names as $name) {
                    if (str_starts_with($name, $prefix) && self::hook($name, 'perform')) {
                        $add($name);
                    }
                }
            } elseif (!str_contains($pattern, '*')) {
                try {
                    $add($pattern);
                } catch (JobClassError) {
                    // names no job class: the engine fails its jobs, if any come
                }
            }
        }
        return [array_keys($found), array_values($found)];
    }

    /** The allow-list among the flags (--allow P, --allow=P), else the one of
     *  $QLESS_WORKER_ALLOW, as the engine reads them. */
    private static function allowPatterns(array $args): array
    {
        $patterns = [];
        foreach ($args as $i => $arg) {
            if ($arg === '--allow' && isset($args[$i + 1])) {
                $patterns[] = (string)$args[$i + 1];
            } elseif (str_starts_with((string)$arg, '--allow=')) {
                $patterns[] = substr((string)$arg, strlen('--allow='));
            }
        }
        if (!$patterns) {
            $patterns = array_values(array_filter(explode(',', (string)getenv('QLESS_WORKER_ALLOW')), 'strlen'));
        }
        return $patterns;
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
