-- conformance_jobs: the package of the conformance suite's Lua job
-- classes. It lists its tree classes, so that a worker allowed
-- "conformance_jobs.*" finds them before any job arrives (qless.worker);
-- the plain classes are required only when a job names them.
return {
  tree = require "conformance_jobs.tree",
}
