<?php
// PHP job class for the cross-language test: records who ran it.
declare(strict_types=1);

namespace Cross;

final class EchoJob   // "echo" is a PHP keyword
{
    public static function perform(\Qless\Job $job): void
    {
        $job->setData(['ran_in' => 'php'] + $job->data());
    }
}
