<?php
// Job classes run by the listeners ScheduleTest.php starts (schedule_listen.php).
declare(strict_types=1);

namespace ScheduleTestJobs;

final class Succeed
{
    public static function perform(\Qless\Job $job): void
    {
        $data = $job->data();
        if (isset($data['sleep'])) {
            usleep((int)($data['sleep'] * 1e6));
        }
        $job->setData($data + ['seen' => true]);
    }
}
