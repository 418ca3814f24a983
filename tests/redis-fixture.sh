#!/usr/bin/env bash
# Starts/stops the private redis-server the test run uses.
#   redis-fixture.sh start DIR   -> DIR/port, DIR/socket, DIR/redis.pid, DIR/redis.log
#   redis-fixture.sh stop DIR    -> stops the server whose pid is in DIR/redis.pid
# Listens only on 127.0.0.1 (a free port) and on a unix socket; no persistence.
set -euo pipefail
cmd="${1:?usage: redis-fixture.sh start|stop DIR}"
dir="${2:?usage: redis-fixture.sh start|stop DIR}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

stop() {
  [ -f "$dir/redis.pid" ] || return 0
  local pid; pid="$(cat "$dir/redis.pid")"
  # Only the process this fixture started, and only if it is still redis-server.
  if kill -0 "$pid" 2>/dev/null && grep -q redis-server "/proc/$pid/cmdline" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
  rm -f "$dir/redis.pid"
  local sock; sock="$(cat "$dir/socket" 2>/dev/null || true)"
  case "$sock" in /tmp/qless-redis.*/redis.sock) rm -rf "$(dirname "$sock")";; esac
}

start() {
  stop
  # unix socket paths are limited to 107 bytes; deep build trees get one under /tmp.
  local sock="$dir/redis.sock"
  if [ ${#sock} -gt 100 ]; then sock="$(mktemp -d /tmp/qless-redis.XXXXXX)/redis.sock"; fi
  for _ in $(seq 1 20); do
    local port=$(( (RANDOM % 30000) + 20000 ))
    : > "$dir/redis.log"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$port" \
      --unixsocket "$sock" --unixsocketperm 700 \
      --pidfile "$dir/redis.pid" --dir "$dir" --logfile "$dir/redis.log" \
      --save "" --appendonly no --protected-mode yes >/dev/null
    for _ in $(seq 1 100); do
      if redis-cli -s "$sock" ping 2>/dev/null | grep -q PONG; then
        echo "$port" > "$dir/port"; echo "$sock" > "$dir/socket"
        echo "redis-fixture: pid $(cat "$dir/redis.pid") on 127.0.0.1:$port and $sock"
        return 0
      fi
      grep -q "Address already in use" "$dir/redis.log" && break
      sleep 0.05
    done
    stop
  done
  echo "redis-fixture: could not start redis-server; log:" >&2
  cat "$dir/redis.log" >&2
  return 1
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: redis-fixture.sh start|stop DIR" >&2; exit 2 ;;
esac
