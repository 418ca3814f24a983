-- qless.worker: finds a job's code for the core's worker engine; the
-- trampoline (swig/worker.i) maps what the code did to the job's outcome
-- (docs/workers.md, "Lua"; bindings/lua/README.md). Classes are required
-- lazily, so tree classes are found from the allow-list as the worker
-- starts: an exact pattern names a class, "pkg.*" every class field `k` of
-- module `pkg` (its init.lua) as "pkg.k"; "*" finds none.
local core = require "qless_core"
local Job = require "qless.job"
local tree = require "qless.tree"

local worker = {}

local function module_name(klass)
  for part in (klass .. "."):gmatch("(.-)%.") do
    if not part:match("^[%a_][%w_]*$") then return false end
  end
  return true
end

-- The class table of a job class. Only a plain module name is required,
-- so that no path ("jobs.x/../../evil") reaches past the allow-list.
function worker.class(klass)
  if not module_name(klass) then
    error("job class '" .. klass .. "' is not a module name such as jobs.send_mail", 0)
  end
  local class = require(klass)
  if type(class) ~= "table" or type(class.perform) ~= "function" then
    error("job class '" .. klass .. "' is not a table with perform(job)", 0)
  end
  return class
end

-- The worker.register config (JSON text) of a tree class (ports or hooks), or nil.
function worker.tree_config(klass, class)
  if type(class) ~= "table" or (class.inports == nil and class.outports == nil and
      type(class.startup) ~= "function" and type(class.shutdown) ~= "function") then
    return nil
  end
  local where = "tree class " .. klass
  return string.format('{"inports":%s,"outports":%s}', tree.ports_json(where .. ": inports", class.inports or {}),
    tree.ports_json(where .. ": outports", class.outports or {}))
end

-- require(name) when there is something to load (a pattern may name no module).
local function load(name)
  if not module_name(name) then return nil end
  if package.loaded[name] ~= nil or package.searchpath(name, package.path) or
      package.searchpath(name, package.cpath) then
    return require(name)
  end
end

-- {klasses = {...}, configs = {...}} of the allow-list's tree classes, or nil.
function worker.tree_classes(patterns)
  local klasses, configs, seen = {}, {}, {}
  local function add(klass, class)
    local config = worker.tree_config(klass, class)
    if config == nil or seen[klass] then return end
    seen[klass] = true
    klasses[#klasses + 1], configs[#configs + 1] = klass, config
  end
  for _, pattern in ipairs(patterns) do
    local prefix = pattern:match("^(.-)%.%*$")
    local mod = load(prefix or pattern)
    if prefix == nil then
      add(pattern, mod)
    elseif type(mod) == "table" then
      local names = {}
      for k in pairs(mod) do
        if type(k) == "string" and k:match("^[%a_][%w_]*$") then names[#names + 1] = k end
      end
      table.sort(names)
      for _, k in ipairs(names) do add(prefix .. "." .. k, mod[k]) end
    end
  end
  if #klasses > 0 then return { klasses = klasses, configs = configs } end
end

-- The trampoline's dispatcher: runs phase ("perform", "startup",
-- "shutdown") of the job the engine lent for this call; what it raises is
-- the job's outcome.
function worker.run(handle, _, phase)
  local job = Job.wrap(handle)
  -- Data changed in Lua goes out with whatever the engine sends next, the
  -- failure too (closed after the trampoline described the error).
  local _ <close> = setmetatable({}, { __close = function(_, err)
    if err ~= nil then pcall(job.sync_data, job) end
  end })
  local class = worker.class(job.klass)
  if phase == "perform" or type(class[phase]) == "function" then class[phase](job) end
  job:sync_data()
end

-- Runs the worker program with Lua's `arg` (flags: see --help); returns the exit status.
function worker.main(args)
  args = args or {}
  local flags = {}
  for i = 1, #args do flags[i] = args[i] end
  local allow = core.qless_worker_main_args(flags)
  local patterns = {}
  for i = 0, allow:size() - 1 do patterns[#patterns + 1] = allow:get(i) end
  return core.worker_main(args, worker.run, worker.tree_classes(patterns))
end

return worker
