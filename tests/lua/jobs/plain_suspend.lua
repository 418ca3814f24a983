-- plain_suspend: a plain class whose perform asks to suspend, which only a
-- tree job can: the error fails the job.
return { perform = function(job) job:suspend() end }
