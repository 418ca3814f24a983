-- Entry point shared by the EVAL script and the FCALL function:
--   <command> <now> <args>...   with no KEYS.

local QlessDispatch = function(keys, argv)
  if #keys > 0 then
    Q.raise('No Keys should be provided')
  end
  local command = argv[1]
  if command == nil then
    Q.raise('Must provide a command')
  end
  Q.memo_config, Q.memo_tracked = nil, nil
  local handler = C[command]
  if type(handler) ~= 'function' then
    Q.raise('Unknown command ' .. command)
  end
  -- `now` repeats across a pipelined batch: parsed once per distinct text.
  local now_text, now = argv[2], nil
  if now_text ~= nil and now_text == Q.cache.now_text then
    now = Q.cache.now
  else
    now = tonumber(now_text)
    Q.cache.now_text, Q.cache.now = now_text, now
  end
  if now == nil then
    Q.raise('Arg "now" missing or not a number: ' .. tostring(argv[2]))
  end
  -- Command arguments start at ARGV[3]: moved down in place (the table is
  -- this call's own), which saves a second table per command.
  local n = #argv
  for i = 3, n do
    argv[i - 2] = argv[i]
  end
  argv[n - 1], argv[n] = nil, nil
  return handler(now, argv)
end
