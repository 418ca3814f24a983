-- qless.worker: the Lua side of the worker. The core's engine does the
-- rest (flags, reservation, heartbeats, lost locks, signals, pools,
-- reconnects, settling); this module only finds a job's code, runs it and
-- says how it went:
--   * job.klass is a module name: require(klass) gives a function, or a
--     table with perform (either is called with the job); only classes
--     the operator allowed get here (--allow 'jobs.*' or
--     QLESS_WORKER_ALLOW, required: the engine fails the others unrun);
--   * returning completes the job (unless the code settled it itself);
--   * an error fails it: group = the error's `name` field or metatable
--     __name when it is a table, else "LuaError"; message = the error and
--     its traceback;
--   * an error table with `retryable = true` retries it instead (after the
--     backoff of the job's class or queue; failed once retries run out).
-- Tree classes (jobtrees.md §9): a class table with `inports`/`outports`
-- (a list of port names, or name -> {} / {default = value}) and optional
-- `startup(job)` / `shutdown(job)` beside perform. The engine registers the
-- ports, runs startup before the first perform of a job's life, shutdown
-- on termination, and suspends the job when perform called job:suspend().
-- Since classes are required lazily, the worker finds its tree classes
-- from the allow-list before it starts: an exact pattern names a class; a
-- pattern "pkg.*" names every class field `k` of module `pkg` (when
-- package.path has one) as class "pkg.k" — so a package lists its tree
-- classes in its init.lua. "*" finds none.
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

local function check_name(klass)
  if not module_name(klass) then
    error("job class '" .. klass .. "' is not a module name such as jobs.send_mail", 0)
  end
end

-- The module of a job class. The engine has matched klass against the
-- allow-list; only a plain module name is required, so that no path
-- ("jobs.x/../../evil") reaches past it.
function worker.class(klass)
  check_name(klass)
  return require(klass)
end

local function callable(v)
  local mt = getmetatable(v)
  return type(v) == "function" or (type(v) == "table" and mt ~= nil and mt.__call ~= nil)
end

-- The callable for a job class (raises when there is none).
function worker.resolve(klass)
  local mod = worker.class(klass)
  if type(mod) == "table" and type(mod.perform) == "function" then return mod.perform end
  if callable(mod) then return mod end
  error("job class '" .. klass .. "' is neither a function nor a table with perform", 0)
end

-- True when a class module declares anything of a tree class.
local function is_tree_class(mod)
  return type(mod) == "table" and (mod.inports ~= nil or mod.outports ~= nil or
    type(mod.startup) == "function" or type(mod.shutdown) == "function")
end

-- The worker.register config of a tree class: JSON text.
function worker.tree_config(klass, mod)
  local where = "tree class " .. klass
  local config = string.format('{"inports":%s,"outports":%s}',
    tree.ports_json(where .. ": inports", mod.inports or {}),
    tree.ports_json(where .. ": outports", mod.outports or {}))
  return config
end

-- Whether require(name) has something to load (a pattern may name no module).
local function found(package_name)
  return package.loaded[package_name] ~= nil or package.searchpath(package_name, package.path) ~= nil or package.searchpath(package_name, package.cpath) ~= nil
end

-- The tree classes the allow-list patterns name: {klasses = {...}, configs
-- = {...}} (see the top of this file), or nil when there are none.
function worker.tree_classes(patterns)
  local klasses, configs, seen = {}, {}, {}
  local function add(klass, mod)
    if seen[klass] or not is_tree_class(mod) then return end
    seen[klass] = true
    klasses[#klasses + 1] = klass
    configs[#configs + 1] = worker.tree_config(klass, mod)
  end
  for _, pattern in ipairs(patterns) do
    local prefix = pattern:match("^(.-)%.%*$")
    -- Patterns that name no module are the engine's to refuse.
    if prefix ~= nil and module_name(prefix) then
      if found(prefix) then
        local mod = require(prefix)
        if type(mod) == "table" then
          local names = {}
          for k in pairs(mod) do if type(k) == "string" then names[#names + 1] = k end end
          table.sort(names)
          for _, k in ipairs(names) do
            if k:match("^[%a_][%w_]*$") then add(prefix .. "." .. k, mod[k]) end
          end
        end
      end
    elseif module_name(pattern) then
      if found(pattern) then add(pattern, require(pattern)) end
    end
  end
  if #klasses == 0 then return nil end
  return { klasses = klasses, configs = configs }
end

-- The failure group of an error value.
function worker.error_class(err)
  if type(err) == "table" then
    if type(err.name) == "string" and err.name ~= "" then return err.name end
    local mt = getmetatable(err)
    if mt and type(mt.__name) == "string" then return mt.__name end
  end
  return "LuaError"
end

-- The error as text: tostring, except that a table without __tostring
-- shows as "Name: message" rather than "table: 0x...".
local function describe(err)
  local mt = getmetatable(err)
  if type(err) == "table" and not (mt and mt.__tostring) and err.message ~= nil then
    return worker.error_class(err) .. ": " .. tostring(err.message)
  end
  return tostring(err)
end

local function traceback(err)
  local ok, text = pcall(describe, err)
  return { err = err, message = debug.traceback(ok and text or "(error not printable)", 2) }
end

-- The engine's callback: handle is the borrowed job (valid during the
-- call only), phase "perform", or "startup"/"shutdown" of a tree job (its
-- class's hook, when it has one). Returns the outcome for core.worker_main.
function worker.perform(handle, phase)
  local job = Job.wrap(handle)
  local function run()
    local code
    if phase == "startup" or phase == "shutdown" then
      local mod = worker.class(job.klass)
      code = type(mod) == "table" and mod[phase] or nil
      if code == nil then return end
    else
      code = worker.resolve(job.klass)
    end
    code(job)
    job:sync_data()
  end
  -- Data changed in Lua goes out with whatever the engine sends next
  -- (an error encoding it is the job's error).
  local ok, failure = xpcall(run, traceback)
  if ok then return "complete" end
  pcall(job.sync_data, job)
  local err = failure.err
  local group = worker.error_class(err)
  if type(err) == "table" and err.retryable == true then
    return "retry", group, failure.message
  end
  return "fail", group, failure.message
end

-- The allow-list patterns among the flags (--allow P, --allow=P), else
-- those of $QLESS_WORKER_ALLOW, as the engine reads them.
local function allow_patterns(args)
  local patterns = {}
  for i = 1, #args do
    local v = args[i]
    if v == "--allow" and args[i + 1] then patterns[#patterns + 1] = args[i + 1] end
    local eq = type(v) == "string" and v:match("^%-%-allow=(.*)$")
    if eq then patterns[#patterns + 1] = eq end
  end
  if #patterns == 0 then
    for p in (os.getenv("QLESS_WORKER_ALLOW") or ""):gmatch("[^,]+") do patterns[#patterns + 1] = p end
  end
  return patterns
end

-- Runs the worker program: args as Lua's `arg` (args[0] the program
-- name, then the flags, all handled by the core: see --help). Returns the
-- exit status.
function worker.main(args)
  args = args or {}
  return core.worker_main(args, worker.perform, worker.tree_classes(allow_patterns(args)))
end

return worker
