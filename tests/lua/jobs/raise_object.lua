-- Job class for the worker tests: fails with an error object whose
-- metatable names its class (the worker uses it as the failure group).
local BadInput = { __name = "BadInput", __tostring = function(e) return "BadInput: " .. e.message end }
return {
  perform = function(job)
    error(setmetatable({ message = "no " .. tostring(job.data.field) }, BadInput))
  end,
}
