#!/usr/bin/env bash
# Runs the demo non-interactively; passes if it exits 0 and its summary has
# the lines that show each part of the mission happened (the schedule's: each
# entry listed with its English description, the duplicate add turned away,
# the due entries run by the listener pool and the others still pending; the
# job tree's: drawn complete, each hook in its language's worker, the
# consumer and the parent suspended then woken by input, the total, the
# tree drawn terminated, then deleted; the dashboard started, its URL
# printed, and stopped at the end).
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
  '^Schedule demo-schedule: 5 entries added from Python and the CLI' \
  '^  [0-9a-f]{40}  demo\.Report +cron 0 9 \* \* MON-FRI +2[0-9-]+T09:00:00Z +at 09:00 on Monday through Friday$' \
  '^  [0-9a-f]{40}  demo\.Digest +cron 0 9 \* \* 1 +2[0-9-]+T09:00:00Z +at 09:00 on Monday$' \
  '^  [0-9a-f]{40}  demo\.Invoice +at 2[0-9-]+T19:00:00Z +2[0-9-]+T19:00:00Z +once$' \
  '^  [0-9a-f]{40}  demo\.Remind +at 2[0-9:.TZ-]+ +2[0-9:.TZ-]+ +once$' \
  '^  [0-9a-f]{40}  demo\.Backup +at 2[0-9:.TZ-]+ +2[0-9:.TZ-]+ +once$' \
  "^  duplicate: demo\.Report added again from the CLI as '0 9 \* \* MON-FRI': inserted false, jid the same$" \
  '^  ran: +demo\.Remind +[0-9a-f]{40}  due \+[0-9]+s, popped \+[0-9]+s by .*-[12], complete$' \
  '^  ran: +demo\.Backup +[0-9a-f]{40}  due \+[0-9]+s, popped \+[0-9]+s by .*-[12], complete$' \
  '^  pending: +demo\.Report +[0-9a-f]{40}  cron, next run ' \
  '^  pending: +demo\.Invoice +[0-9a-f]{40}  at, next run ' \
  '^  pending: +demo\.Digest +[0-9a-f]{40}  cron, next run ' \
  '^  listener: +qless schedule listen, pool 2, stopped by itself after --max-jobs 2 \(exit 0\)$' \
  '^Job tree pipeline \[nightly\]: children producer and consumer joined by channel /demo/items' \
  '^    pipeline Demo::Pipeline complete \[nightly\]  in: result=0$' \
  '^    \|-- consumer: pipeline-consumer demo_trees\.consumer complete  in: in=0<-/demo/items$' \
  '^    `-- producer: pipeline-producer demo_trees\.Producer complete  out: out=0->/demo/items$' \
  '^  pipeline  ruby   startup in ruby, perform in ruby, shutdown in ruby; history: put popped suspended put popped done terminating popped terminated$' \
  '^  consumer  lua    startup in lua, perform in lua, shutdown in lua; history: put popped suspended put popped done terminating popped terminated$' \
  '^  producer  python startup in python, perform in python, shutdown in python; history: put popped done terminating popped terminated$' \
  '^  values: producer wrote \[1, 2, 3\] on /demo/items; consumer received 3, total 6, woke pipeline with it; pipeline stored total 6$' \
  '^  qless tree terminate pipeline --recursive: 3 jobs' \
  '^    pipeline Demo::Pipeline terminated \[nightly\]' \
  '^    \|-- consumer: pipeline-consumer demo_trees\.consumer terminated ' \
  '^    `-- producer: pipeline-producer demo_trees\.Producer terminated ' \
  '^  qless tree delete pipeline: 3 jobs deleted; jobs left 0, alias nightly gone$' \
  '^   dashboard: http://127\.0\.0\.1:[0-9]+/  \(qless web, pid [0-9]+; ' \
  '^Dashboard http://127\.0\.0\.1:[0-9]+/ stopped ' \
  '^All [0-9]+ jobs reached their expected state'; do
  grep -Eq -- "$line" <<<"$out" || { echo "demo test: no line matching: $line" >&2; exit 1; }
done
# Nothing left running: the dashboard is gone, the server of the state
# directory is stopped.
web_pid="$(sed -nE 's/^   dashboard: .*\(qless web, pid ([0-9]+);.*/\1/p' <<<"$out")"
if [ -n "$web_pid" ] && kill -0 "$web_pid" 2>/dev/null && grep -q qless "/proc/$web_pid/cmdline" 2>/dev/null; then
  echo "demo test: the dashboard (pid $web_pid) still runs" >&2; exit 1
fi
if [ -f "$4/redis.pid" ] && kill -0 "$(cat "$4/redis.pid")" 2>/dev/null; then
  echo "demo test: the embedded server still runs" >&2; exit 1
fi
echo "demo test: ok"
