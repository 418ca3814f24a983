<?php
// Not a conformance job class: the allow-list scenario (test_class_not_allowed)
// puts jobs of ForbiddenJobs\Forbidden that no worker may run. Loading this
// file (autoloaded by conformance_jobs.php when the class is first looked
// up) appends a line to $QLESS_CONF_MARKER, and running the job ends the
// worker process, so a worker that looked it up cannot pass the scenario.
declare(strict_types=1);

namespace ForbiddenJobs;

$marker = getenv('QLESS_CONF_MARKER');
if ($marker) {
    file_put_contents($marker, 'loaded forbidden_jobs.php in ' . getmypid() . "\n", FILE_APPEND);
}

final class Forbidden
{
    public static function perform($job): void { exit(3); }
}
