-- Dashboard search (docs/web.md): jobs by jid, prefix, tag, class, queue,
-- worker and state, one page per call with work bounded by a scan budget
-- and cursors that make a deep page cost what the first does.

local S = Q.dash

-- Whether summary s passes every filter f.
S.matches = function(s, f, now)
  if f.jid and s.jid ~= f.jid then return false end
  if f.prefix and string.sub(s.jid, 1, #f.prefix) ~= f.prefix then return false end
  if f.class and s.klass ~= f.class then return false end
  if f.queue and s.queue ~= f.queue then return false end
  if f.worker and s.worker ~= f.worker then return false end
  if f.state then
    local state = s.state
    if state == 'running' and s.expires <= now then state = 'stalled' end
    if state ~= f.state then return false end
  end
  if f.tag then
    local found = false
    for _, t in ipairs(s.tags) do
      if t == f.tag then found = true break end
    end
    if not found then return false end
  end
  return true
end

-- The candidates' source: {next = function(cursor, n) -> jids, cursor'|nil, total}.
-- Rank sources page by offset; the lex index by the last member seen (so a
-- deep page costs what the first does).
-- A rank cursor: a whole number (anything else starts over).
S.offset = function(cursor)
  local n = tonumber(cursor)
  -- "-0" reads as -0, which Redis would be handed as the text "-0" and refuse.
  if not n or n <= 0 or n ~= math.floor(n) or n > 2147483647 then return 0 end
  return n
end

S.by_rank = function(key, rev)
  return {
    total = function() return redis.call('zcard', key) end,
    next = function(cursor, n)
      local offset = S.offset(cursor)
      local jids = S.rank(key, offset, n, rev)
      return jids, (#jids == n) and tostring(offset + n) or nil
    end,
  }
end

-- A lex source: the members from lead (what each starts with) to past;
-- member(jid) is a jid's member. Its cursor is the last jid seen (no NUL,
-- so it travels in a URL); a cursor whose member falls outside the range
-- (not one this command gave) starts over.
S.by_lex = function(lead, past, member, strip)
  local first = '[' .. lead
  return {
    total = function() return redis.call('zlexcount', S.index(), first, past) end,
    next = function(cursor, n)
      local from = first
      if cursor then
        local m = member(cursor)
        if string.sub(m, 1, #lead) == lead then from = '(' .. m end
      end
      local members = redis.call('zrangebylex', S.index(), from, past, 'LIMIT', 0, n)
      local jids = {}
      for i, m in ipairs(members) do jids[i] = strip(m) end
      return jids, (#members == n) and jids[#jids] or nil
    end,
  }
end

S.after_nul = function(m) return string.sub(m, (string.find(m, '\0', 1, true) or 0) + 1) end
S.after_prefix = function(m) return string.sub(m, 3) end

-- The most selective source the filters allow.
S.source = function(f, now)
  if f.jid then
    return {total = nil, next = function(cursor) return cursor and {} or {f.jid}, nil end}
  end
  if f.tag then
    local key = S.key('t:' .. f.tag)
    return S.by_rank(key, false)
  end
  if f.worker then
    local key = Q.wkey(f.worker)
    return S.by_rank(key, false)
  end
  if f.class then
    local lead = S.class_member(f.class, '')
    return S.by_lex(lead, '(k:' .. f.class .. '\1', function(jid) return lead .. jid end, S.after_nul)
  end
  if f.prefix then
    return S.by_lex('j:' .. f.prefix, '(j:' .. f.prefix .. '\255', S.jid_member, S.after_prefix)
  end
  if f.queue and f.state and S.state_page[f.state] then
    local page = S.state_page[f.state]
    return {
      total = function() return (page(f.queue, now, 0, 0)) end,
      next = function(cursor, n)
        local offset = S.offset(cursor)
        local _, jids = page(f.queue, now, offset, n)
        return jids, (#jids == n) and tostring(offset + n) or nil
      end,
    }
  end
  if f.queue then
    -- Every job of a queue: its waiting, locked, scheduled and depends sets in turn.
    local kinds = {'work', 'locks', 'scheduled', 'depends'}
    return {
      total = function()
        local n = 0
        for _, k in ipairs(kinds) do n = n + redis.call('zcard', Q.qkey(f.queue, k)) end
        return n
      end,
      next = function(cursor, n)
        local set, offset = 1, 0
        if cursor then
          local a, b = string.match(cursor, '^(%d+):(%d+)$')
          set, offset = math.max(1, tonumber(a) or 1), S.offset(b)
        end
        local jids = {}
        while set <= #kinds and #jids < n do
          local got = S.rank(Q.qkey(f.queue, kinds[set]), offset, n - #jids, false)
          for _, j in ipairs(got) do jids[#jids + 1] = j end
          if #got < n then set, offset = set + 1, 0 else offset = offset + #got end
        end
        return jids, set <= #kinds and (set .. ':' .. offset) or nil
      end,
    }
  end
  if f.state == 'complete' then
    local key = S.key('completed')
    return S.by_rank(key, true)
  end
  Q.raise('InvalidArgument', 'Search(): give jid, prefix, tag, class, worker or queue ' ..
    '(state alone only as complete)')
end

-- search <cursor> <count> <budget> [<filter> <value>]...: filters jid,
-- prefix, tag, class, queue, worker, state (all must match). Looks at no
-- more than budget candidates (at most 5000); answers
-- {"jobs": [...], "next": cursor or false, "total": n or false (known only
-- when one filter alone chose the candidates)}.
C.search = function(now, args)
  local cursor = args[1]
  if cursor == '' then cursor = nil end
  local count = Q.whole('Search', 'count', args[2], 25, 500)
  local budget = Q.whole('Search', 'budget', args[3], 1000, 5000)
  local f, nf = {}, 0
  local known = {jid = true, prefix = true, tag = true, class = true, queue = true, worker = true, state = true}
  for i = 4, #args, 2 do
    local name, value = args[i], args[i + 1]
    if not known[name] then
      Q.raise('InvalidArgument', 'Search(): unknown filter "' .. name .. '"')
    end
    Q.need('Search', name, value)
    if name == 'jid' and value ~= '' then Q.jid('Search', 'jid', value) end
    if value ~= '' then
      f[name], nf = value, nf + 1
    end
  end
  local src = S.source(f, now)
  local jobs, seen = {}, 0
  while #jobs < count and seen < budget do
    local jids, after = src.next(cursor, math.min(budget - seen, math.max(count - #jobs, 50)))
    local used = #jids
    for i, jid in ipairs(jids) do
      local s = S.summary(jid)
      if s and S.matches(s, f, now) then
        jobs[#jobs + 1] = s
        if #jobs == count then
          used = i
          break
        end
      end
    end
    seen = seen + used
    if used < #jids then
      -- The page filled inside this batch: resume right after the last one looked at.
      local _, resume = src.next(cursor, used)
      after = resume
    end
    cursor = after
    if not cursor then break end
  end
  local total = false
  if nf == 1 and src.total then total = src.total() end
  return cjson.encode({jobs = jobs, next = cursor or false, total = total})
end
