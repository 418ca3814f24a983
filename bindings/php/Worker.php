<?php
// The PHP side of the worker (docs/workers.md, "PHP"): finds the class of a job. The engine (qless_worker_main) does
// flags, pools, heartbeats, signals and settling; swig/worker.i maps what Klass::perform($job) did to the outcome.
// Tree classes (ports, static startup/shutdown) are found as the worker starts, after the --require files: an exact
// --allow 'App\Jobs\Name' (autoloaded), 'App\Jobs\*' the classes of that namespace declared by then, '*' none.
declare(strict_types=1);

namespace Qless;

require_once __DIR__ . '/Qless.php';

/** The job's class name names no class this worker can run (see Worker::jobClass). */
final class JobClassError extends \Exception {}

final class Worker
{
    /** Runs the worker with its flags (no script name); returns the exit status. */
    public static function main(array $argv, string $program = 'qless-worker'): int
    {
        try {
            [$allow, $files] = \qless_worker_main_args($argv);
            foreach ($files as $file) {
                if (!is_file($file) || !is_readable($file)) {
                    fwrite(STDERR, "$program: --require $file: no such readable file\n");
                    return 2;
                }
                require_once $file;
            }
            [$klasses, $configs] = self::treeClasses(iterator_to_array($allow, false));
        } catch (\Throwable $e) {   // a broken job file or a bad port declaration: nothing ran yet
            fwrite(STDERR, "$program: finding the tree classes: " . get_class($e) . ": {$e->getMessage()}\n");
            return 1;
        }
        return \qless_php_worker_main([$program, ...$argv], [self::class, 'run'], $klasses ?: null, $configs ?: null);
    }

    /** @internal The trampoline's dispatcher (job and client lent for this
     *  call): what the code of $phase throws is the job's outcome. */
    public static function run(Job $job, Client $client, string $phase): void
    {
        $class = self::jobClass($job->klass());
        $job->bind($client);
        if ($phase === 'perform' || self::hook($class, $phase)) {
            $class::$phase($job);
        }
    }

    /** The class $name names, spelled exactly so (PHP's class names ignore
     *  case; the allow-list does not), with a public static perform. */
    public static function jobClass(string $name): string
    {
        if (!preg_match('/^[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*(\\\\[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*)*$/D', $name)) {
            throw new JobClassError("job class '$name' is not a class name such as App\\Jobs\\Name");
        }
        if (($spelled = class_exists($name, true) ? (new \ReflectionClass($name))->getName() : null) !== $name) {
            throw new JobClassError($spelled === null ? "job class '$name' is not defined (load it with --require FILE)"
                                    : "job class '$name' is spelled '$spelled'");
        }
        if (!self::hook($name, 'perform')) {
            throw new JobClassError("job class '$name' has no public static perform(\$job) method");
        }
        return $name;
    }

    private static function hook(string $class, string $name): bool
    {
        return method_exists($class, $name) && ($m = new \ReflectionMethod($class, $name))->isStatic() && $m->isPublic();
    }

    /** $class's ports of one side (static property or method; none: []), as port => spec. */
    private static function ports(string $class, string $side): array
    {
        $ports = self::hook($class, $side) ? $class::$side()
            : (property_exists($class, $side) && (new \ReflectionProperty($class, $side))->isStatic() ? $class::$$side : []);
        $bad = new \TypeError("tree class $class: $side must be an array of port names or port => spec");
        $out = [];
        foreach (is_array($ports) ? $ports : throw $bad as $key => $spec) {
            $out[is_int($key) && is_string($spec) ? $spec : (is_string($key) && is_array($spec) ? $key : throw $bad)]
                = is_int($key) ? [] : $spec;
        }
        return $out;
    }

    /** The worker.register config (JSON) of $class; null: no tree class. */
    public static function treeConfig(string $class): ?string
    {
        $has = fn (string $s) => self::hook($class, $s) || ($s[0] !== 's' && property_exists($class, $s));
        return array_filter(['inports', 'outports', 'startup', 'shutdown'], $has)
            ? '{"inports":' . portSpecs(self::ports($class, 'inports')) . ',"outports":' . portSpecs(self::ports($class, 'outports')) . '}'
            : null;
    }

    /** [[class], [config JSON]] of the tree classes the allow-list names. */
    public static function treeClasses(array $patterns): array
    {
        $found = [];
        foreach ($patterns as $pattern) {
            $prefix = str_ends_with($pattern, '\\*') ? substr($pattern, 0, -1) : null;
            try {
                $names = $prefix !== null ? array_filter(get_declared_classes(), fn ($c) => str_starts_with($c, $prefix)
                                                         && self::hook($c, 'perform'))
                    : (str_contains($pattern, '*') ? [] : [self::jobClass($pattern)]);
            } catch (JobClassError) {
                continue;   // names no job class: the engine fails its jobs, if any come
            }
            sort($names);
            foreach ($names as $c) {
                if (!isset($found[$c]) && ($config = self::treeConfig($c)) !== null) {
                    $found[$c] = $config;
                }
            }
        }
        return [array_keys($found), array_values($found)];
    }
}
