-- qless.Schedule: a named queue seen as a schedule of one-off jobs and
-- recurring templates (client.schedules[name]; schedules.md §6.4, §7).
-- Every add is unique unless unique = false: an identical pending entry is
-- not added again. Policy is the core's (qless_schedule_*); this file only
-- reads Lua's time values and option tables.
local core = require "qless_core"
local convert = require "qless.convert"
local handle = require "qless.handle"
local when = require "qless.when"
local worker = require "qless.worker"

local Schedule = handle.class("qless.Schedule", "name")
local methods = Schedule.methods

-- Making one does no I/O.
function Schedule.new(client, name)
  if type(name) ~= "string" then when.type_error("client.schedules: name", "a string", name) end
  return Schedule.wrap(client._h:schedule(name), { client = client })
end

function Schedule.meta.__tostring(self) return "qless.Schedule(" .. self.name .. ")" end

local WHENS = { "at", "in", "cron", "every" }
-- Each time option's core call for text, for a number, and what it takes.
local TIMES = {
  at = { "add_at_text", "add_at", "text or epoch seconds" },
  ["in"] = { "add_in_text", "add_in", "text or seconds" },
  every = { "add_every_text", "add_every", "text or seconds" },
}
-- Keys of add's table that are the layer's, not the core's options.
local OWN = { at = true, ["in"] = true, cron = true, every = true, unique = true, report = true }

local function check_type(where, name, value, expected, lua_type)
  if value ~= nil and type(value) ~= lua_type then when.type_error(where .. ": " .. name, expected, value) end
end

-- The core's options from add's table: the rest of its keys go through
-- as they are (the core names unknown ones and wrong types).
local function core_options(where, opts)
  check_type(where, "options", opts, "a table", "table")
  opts = opts or {}
  check_type(where, "unique", opts.unique, "a boolean", "boolean")
  check_type(where, "report", opts.report, "a boolean", "boolean")
  local out = { unique = opts.unique == false and 0 or 1 }
  for k, v in pairs(opts) do
    if not OWN[k] then out[k] = v end
  end
  return out
end

local function check_common(where, klass, opts)
  if type(klass) ~= "string" then when.type_error(where .. ": klass", "a string", klass) end
  return core_options(where, opts), opts and opts.report
end

-- (jid, inserted) as the caller asked: the jid, or both with report = true.
local function result(report, jid, inserted)
  if report then return jid, inserted end
  return jid
end

-- s:add(klass, data, {at = | ["in"] = | cron = | every = , unique, key,
-- jid, priority, retries, tags, backlog, report}) -> jid (and inserted,
-- with report = true). Exactly one of at (text or epoch seconds: once),
-- in (text or seconds: once, after that long), every (text with or
-- without "every", or seconds: a template) and cron (an expression: a
-- template). data: a table or JSON text (nil: {}).
function methods:add(klass, data, opts)
  local where = "Schedule:add"
  local options, report = check_common(where, klass, opts)
  local given = {}
  for _, name in ipairs(WHENS) do
    if opts ~= nil and opts[name] ~= nil then given[#given + 1] = name end
  end
  if #given ~= 1 then
    convert.invalid(string.format("%s: give exactly one of at, in, cron, every (got %s); add_now runs at once",
      where, #given == 0 and "none" or table.concat(given, ", ")))
  end
  local name, h, body = given[1], self._h, convert.data(data)
  if name == "cron" then
    check_type(where, "cron", opts.cron, "a string", "string")
    return result(report, when.named(where, h.add_cron, h, opts.cron, klass, body, options))
  end
  local value, call = opts[name], TIMES[name]
  -- Text goes to the core, which reads it as each option means it.
  if type(value) == "string" then
    return result(report, when.named(where .. ": " .. name, h[call[1]], h, value, klass, body, options))
  end
  if type(value) ~= "number" then when.type_error(where .. ": " .. name, call[3], value) end
  if name == "every" then return result(report, when.named(where, h.add_every, h, value, 0, klass, body, options)) end
  return result(report, when.named(where, h[call[2]], h, value, klass, body, options))
end

-- s:add_now(klass, data, opts) -> as add, for a one-off that may run at
-- once (opts as add's, without the times).
function methods:add_now(klass, data, opts)
  local where = "Schedule:add_now"
  local options, report = check_common(where, klass, opts)
  for _, name in ipairs(WHENS) do
    if opts ~= nil and opts[name] ~= nil then convert.invalid(where .. ": takes no " .. name .. " (use add)") end
  end
  return result(report, when.named(where, self._h.add_now, self._h, klass, convert.data(data), options))
end

-- Removes a template or a scheduled job of this schedule; false when there
-- was none (a job already waiting, running or done stays).
function methods:remove(jid)
  if type(jid) ~= "string" then when.type_error("Schedule:remove: jid", "a string", jid) end
  return (when.named("Schedule:remove", self._h.remove, self._h, jid))
end

-- The pending entries: templates by next due time, then scheduled jobs,
-- each {jid, klass, kind = "cron"|"interval"|"at", cron or interval, next,
-- priority, tags}.
function methods:entries() return convert.decode(self._h:list()) end

-- The next n (default 5) due times of entry jid: a template's from the
-- server, a scheduled job's one time. NotFound when jid is no pending entry.
function methods:next(jid, n)
  if type(jid) ~= "string" then when.type_error("Schedule:next: jid", "a string", jid) end
  if n ~= nil and math.type(n) ~= "integer" then when.type_error("Schedule:next: n", "an integer", n) end
  local recur = self.client.recurring[jid]
  if recur ~= nil and recur.queue == self.name then return recur:next(n) end
  for _, entry in ipairs(self:entries()) do
    if entry.jid == jid then return { entry.next } end
  end
  error(core.new_error(core.QLESS_ENOTFOUND, "Schedule:next: " .. jid .. " is no pending entry of " .. self.name), 0)
end

-- listen's options: the worker engine's flag for each, and whether it
-- takes an integer (else any number).
local LISTEN = { pool = { "--size", true }, max_jobs = { "--max-jobs", true }, interval = { "--interval", false } }

local function push(list, ...)
  for _, v in ipairs({ ... }) do list[#list + 1] = v end
end

-- s:listen{pool = N, max_jobs = M, allow = "jobs.*" or {...}, interval = s}
-- runs the due entries with the Lua worker (qless.worker: class
-- resolution with its allow-list, heartbeats, SIGTERM/SIGINT finish running
-- jobs) in N processes (default 1: one Lua state per process) until
-- stopped or M jobs are done. Returns the worker's exit status (0 after a
-- graceful stop). allow defaults to $QLESS_WORKER_ALLOW; the worker refuses
-- to run without one.
function methods:listen(opts)
  local where = "Schedule:listen"
  check_type(where, "options", opts, "a table", "table")
  opts = opts or {}
  local args = { [0] = "qless-worker", "--queue", self.name, "--pool", "processes", "--name", self.client.worker_name }
  if self.client.url ~= nil then push(args, "--url", self.client.url) end
  if opts.pool == nil then push(args, "--size", "1") end
  for key, value in pairs(opts) do
    local flag = LISTEN[key]
    if key == "allow" then
      for _, pattern in ipairs(type(value) == "table" and value or { value }) do
        check_type(where, "allow", pattern, "a string or a list of strings", "string")
        push(args, "--allow", pattern)
      end
    elseif flag == nil then
      convert.invalid(string.format("%s: unknown option '%s' (known: pool, max_jobs, allow, interval)",
        where, tostring(key)))
    else
      local ok = flag[2] and math.type(value) == "integer" or (not flag[2] and type(value) == "number")
      if not ok then when.type_error(where .. ": " .. key, flag[2] and "an integer" or "a number", value) end
      if not (value > 0) then convert.invalid(string.format("%s: %s must be positive, not %s", where, key, value)) end
      push(args, flag[1], tostring(value))
    end
  end
  return worker.main(args)
end

return Schedule
