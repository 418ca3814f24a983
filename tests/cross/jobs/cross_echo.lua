-- Lua job module for the cross-language test: records who ran it.
return {
  perform = function(job)
    job.data.ran_in = "lua"
  end,
}
