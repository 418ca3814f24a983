#!/usr/bin/env bash
# Runs the demo non-interactively; passes if it exits 0 and its summary has
# the lines that show each part of the mission happened.
#   run.sh PYTHON DEMO_PY BUILD_DIR STATE_DIR
set -uo pipefail
out="$("$1" -P "$2" "$3" "$4" 2>&1)"
status=$?
printf '%s\n' "$out"
[ "$status" -eq 0 ] || { echo "demo test: the demo exited with $status" >&2; exit 1; }
for line in \
  '^  total +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$' \
  '^  demo-python  ran 20 \(lua\) > 10 \(cli\) > 5 \(python\) > 0 \(ruby\)$' \
  "^Delay: 'delayed' put from the CLI" \
  '^Dependencies: chain-a .*ran in python.* -> chain-b .*ran in ruby.* -> chain-c .*ran in lua' \
  '^Recurring: [0-9]+ instances' \
  "^Retry: 'flaky' .* attempt 2 done" \
  "^Lost lock: 'rescue' popped by demo-victim .* popped by demo-rescuer" \
  '^    wait [0-9]+ jobs, mean' \
  '^All [0-9]+ jobs reached their expected state'; do
  grep -Eq -- "$line" <<<"$out" || { echo "demo test: no line matching: $line" >&2; exit 1; }
done
# Nothing left running: the server of the state directory is stopped.
if [ -f "$4/redis.pid" ] && kill -0 "$(cat "$4/redis.pid")" 2>/dev/null; then
  echo "demo test: the embedded server still runs" >&2; exit 1
fi
echo "demo test: ok"
