#!/usr/bin/env bash
# A walk through the qless protocol with nothing but redis-cli: the script
# built from lua/ is loaded into the server and driven by EVALSHA, exactly as
# every client library does it.
#   walkthrough.sh <qless.lua> <redis-cli connection args...>
set -euo pipefail
script="$1"; shift
cli() { redis-cli "$@"; }
r() { cli "${CONN[@]}" "$@"; }
CONN=("$@")

sha=$(r -x SCRIPT LOAD < "$script")
q() { r EVALSHA "$sha" 0 "$@"; }
now() { date +%s.%N | cut -c1-17; }
say() { printf '\n\033[1m%s\033[0m\n' "$*"; }

say "1. Put three jobs into queue 'demo' (priorities 0, 10 and 5)"
for spec in "job-low 0" "job-high 10" "job-mid 5"; do
  set -- $spec
  printf '  put %-9s priority %-2s -> ' "$1" "$2"
  q put "$(now)" cli demo "$1" Demo.Resize "{\"image\": \"$1.png\"}" 0 priority "$2"
done

say "2. Queue counts"
q queues "$(now)" demo

say "3. A worker pops two jobs: highest priority first"
q pop "$(now)" demo worker-1 2 | grep -o '"jid":"[^"]*"'

say "4. It completes job-high and fails job-mid"
printf '  complete job-high -> '; q complete "$(now)" job-high worker-1 demo '{"image": "job-high.png", "done": true}'
printf '  fail job-mid      -> '; q fail "$(now)" job-mid worker-1 resize-error 'image too large'

say "5. Failure groups, and job-mid's failure"
q failed "$(now)"
q get "$(now)" job-mid | grep -o '"failure":{[^}]*}'

say "6. Put job-mid back, pop it with the last one, and complete both"
q put "$(now)" cli demo job-mid Demo.Resize '{"image": "job-mid.png"}' 0 >/dev/null
q pop "$(now)" demo worker-1 5 | grep -o '"jid":"[^"]*"'
q complete "$(now)" job-mid worker-1 demo '{}' >/dev/null
q complete "$(now)" job-low worker-1 demo '{}' >/dev/null

say "7. History of job-mid"
q get "$(now)" job-mid | grep -o '"history":\[[^]]*\]'

say "8. Today's statistics for 'demo' (counts, mean wait and run time)"
q stats "$(now)" demo "$(now)" | grep -o '"failures":[0-9]*\|"count":[0-9]*\|"mean":[0-9.e+-]*'
echo
