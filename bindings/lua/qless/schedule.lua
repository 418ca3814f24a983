-- qless.Schedule: a named queue seen as a schedule of one-off jobs and
-- recurring templates (client.schedules[name]; schedules.md §6.4, §7).
-- Policy is the core's (qless_schedule_*); this file only reads Lua's time
-- values and option tables.
local core = require "qless_core"
local handle = require "qless.handle"
local when = require "qless.when"
local worker = require "qless.worker"
local convert = handle   -- the name listen uses (another branch rewrites listen)

local Schedule = handle.class("qless.Schedule", "name")
local methods = Schedule.methods

function Schedule.new(client, name)
  if type(name) ~= "string" then when.type_error("client.schedules: name", "a string", name) end
  return Schedule.wrap(client._h:schedule(name), { client = client })
end

function Schedule.meta.__tostring(self) return "qless.Schedule(" .. self.name .. ")" end

-- add_now takes none of them (nor day_first, which reads their texts).
local WHENS = { "at", "in", "cron", "every", "day_first" }
-- What each time option converts from (a number; text goes as <name>_text).
local TIMES = { at = "text or epoch seconds", ["in"] = "text or seconds", every = "text or seconds" }
-- Keys of add's table that are the layer's, not the core's options.
local OWN = { at = true, ["in"] = true, cron = true, every = true, unique = true, report = true, day_first = true }

local function check_type(where, name, value, expected, lua_type)
  if value ~= nil and type(value) ~= lua_type then when.type_error(where .. ": " .. name, expected, value) end
end

-- The core's options from add's table, and report: keys not OWN go
-- through as they are (the core names unknown ones and wrong types).
local function check_common(where, klass, opts)
  if type(klass) ~= "string" then when.type_error(where .. ": klass", "a string", klass) end
  check_type(where, "options", opts, "a table", "table")
  opts = opts or {}
  check_type(where, "unique", opts.unique, "a boolean", "boolean")
  check_type(where, "report", opts.report, "a boolean", "boolean")
  check_type(where, "day_first", opts.day_first, "a boolean", "boolean")
  local out = { unique = opts.unique == false and 0 or 1 }
  for k, v in pairs(opts) do
    if not OWN[k] then out[k] = v end
  end
  return out, opts.report
end

-- (jid, inserted) as the caller asked: the jid, or both with report = true.
local function result(report, jid, inserted)
  if report then return jid, inserted end
  return jid
end

-- Exactly one of at, in, every and cron: the core chooses, and refuses none or two.
-- day_first: 27/5/1979 in the texts is day/month/year. With report = true:
-- jid, inserted, warning (nil, or what a text was read as that it may not
-- mean: a weekday that is not the date's; the date is used, the entry added).
function methods:add(klass, data, opts)
  local where = "Schedule:add"
  local options, report = check_common(where, klass, opts)
  options.cron = opts and opts.cron
  options.day_first = opts and opts.day_first and 1 or 0
  for name, expected in pairs(TIMES) do
    local value = opts and opts[name]
    if type(value) == "string" then
      options[name .. "_text"] = value
      where = where .. ": " .. name     -- the text's errors name the option
    elseif value ~= nil then
      if type(value) ~= "number" then when.type_error(where .. ": " .. name, expected, value) end
      options[name] = value
    end
  end
  local jid, inserted = when.named(where, self._h.add_entry, self._h, klass, handle.data(data), options)
  -- this thread's, left by the add's own parse ("" without text)
  local warning = core.qless_when_warning()
  if report then return jid, inserted, warning ~= "" and warning or nil end
  return jid
end

function methods:add_now(klass, data, opts)
  local where = "Schedule:add_now"
  local options, report = check_common(where, klass, opts)
  for _, name in ipairs(WHENS) do
    if opts ~= nil and opts[name] ~= nil then handle.invalid(where .. ": takes no " .. name .. " (use add)") end
  end
  return result(report, when.named(where, self._h.add_now, self._h, klass, handle.data(data), options))
end

-- False when jid was no entry (a job already waiting, running or done stays).
function methods:remove(jid)
  if type(jid) ~= "string" then when.type_error("Schedule:remove: jid", "a string", jid) end
  return (when.named("Schedule:remove", self._h.remove, self._h, jid))
end

function methods:entries()
  local e, out = self._h:entries(), {}
  for i = 0, e:size() - 1 do
    local entry = { jid = e:jid(i), klass = e:klass(i), kind = e:kind(i), next = e:next(i), priority = e:priority(i),
                    tags = {}, description = e:description(i) }
    for j = 0, e:tag_count(i) - 1 do entry.tags[j + 1] = e:tag(i, j) end
    if entry.kind == "cron" then entry.cron = e:cron(i) elseif entry.kind == "interval" then entry.interval = e:interval(i) end
    out[i + 1] = entry
  end
  return out
end

function methods:next(jid, n)
  if type(jid) ~= "string" then when.type_error("Schedule:next: jid", "a string", jid) end
  if n ~= nil and math.type(n) ~= "integer" then when.type_error("Schedule:next: n", "an integer", n) end
  return (handle.items(when.named("Schedule:next", self._h.next, self._h, jid, n or 5)))
end

-- listen's options: the core's listen option for each, and whether it
-- takes an integer (else any number).
local LISTEN = { pool = { "size", true }, max_jobs = { "max_jobs", true }, interval = { "interval", false } }

-- s:listen{pool = N, max_jobs = M, allow = "jobs.*" or {...}, interval = s}
-- runs the due entries with the Lua worker (qless.worker: class
-- resolution with its allow-list, heartbeats, SIGTERM/SIGINT finish running
-- jobs) in N processes (default 1: one Lua state per process) until
-- stopped or M jobs are done. Returns the worker's exit status (0 after a
-- graceful stop). allow defaults to $QLESS_WORKER_ALLOW; the worker refuses
-- to run without one.
function methods:listen(opts)
  local where = "Schedule:listen"
  local core = require "qless_core"
  check_type(where, "options", opts, "a table", "table")
  local typed, allow = { pool = core.QLESS_POOL_PROCESSES, signals = 1 }, {}
  for key, value in pairs(opts or {}) do
    local field = LISTEN[key]
    if key == "allow" then
      for _, pattern in ipairs(type(value) == "table" and value or { value }) do
        check_type(where, "allow", pattern, "a string or a list of strings", "string")
        allow[#allow + 1] = pattern
      end
    elseif field == nil then
      convert.invalid(string.format("%s: unknown option '%s' (known: pool, max_jobs, allow, interval)",
        where, tostring(key)))
    else
      local ok = field[2] and math.type(value) == "integer" or (not field[2] and type(value) == "number")
      if not ok then when.type_error(where .. ": " .. key, field[2] and "an integer" or "a number", value) end
      if not (value > 0) then convert.invalid(string.format("%s: %s must be positive, not %s", where, key, value)) end
      typed[field[1]] = value
    end
  end
  typed.allow = #allow > 0 and allow or nil
  -- The tree classes of the allow-list the run will use ($QLESS_WORKER_ALLOW's without one).
  local patterns = allow
  if typed.allow == nil then
    local env = core.qless_worker_main_args({})
    for i = 0, env:size() - 1 do patterns[#patterns + 1] = env:get(i) end
  end
  return core.schedule_listen(self._h, worker.run, typed, worker.tree_classes(patterns))
end

return Schedule
