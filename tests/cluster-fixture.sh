#!/usr/bin/env bash
# Starts/stops a private Redis Cluster on loopback for the cluster suites.
#   cluster-fixture.sh start DIR [PRIMARIES [REPLICAS]]
#                                            -> DIR/nodes (one "port pid" line per node),
#                                               DIR/url (redis+cluster://127.0.0.1:P1,...),
#                                               DIR/<port>/ (config, log, pid of each node)
#   cluster-fixture.sh stop DIR               -> stops the nodes whose pids DIR/nodes records
#   cluster-fixture.sh kill9 DIR PORT         -> kill -9 of that node (failover tests)
#   cluster-fixture.sh restart DIR PORT       -> starts that node again (as a replica once it
#                                               rejoins)
# PRIMARIES primaries (default 3) with REPLICAS replicas each (default 1),
# made with `redis-cli --cluster create`; without replicas (the bench's
# clusters, also of 1 or 2 primaries, which redis-cli refuses to make) the
# nodes meet and take even slot ranges by hand. No persistence;
# cluster-node-timeout 1000 ms ($QLESS_CLUSTER_NODE_TIMEOUT) so that a killed
# primary's replica is promoted within a few seconds.
set -euo pipefail
cmd="${1:?usage: cluster-fixture.sh start|stop|kill9|restart DIR [...]}"
dir="${2:?usage: cluster-fixture.sh start|stop|kill9|restart DIR [...]}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

# Only a process this fixture started, and only while it is still redis-server.
ours() {
  kill -0 "$1" 2>/dev/null && grep -q redis-server "/proc/$1/cmdline" 2>/dev/null
}

stop() {
  [ -f "$dir/nodes" ] || return 0
  local port pid
  while read -r port pid; do
    ours "$pid" && kill "$pid" || true
  done < "$dir/nodes"
  while read -r port pid; do
    for _ in $(seq 1 100); do ours "$pid" || break; sleep 0.05; done
    ours "$pid" && kill -9 "$pid" || true
  done < "$dir/nodes"
  rm -f "$dir/nodes" "$dir/url"
}

free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$(( (RANDOM % 20000) + 30000 ))
    # The cluster bus listens on port + 10000: both must be free.
    if ! (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null &&
       ! (echo > "/dev/tcp/127.0.0.1/$((port + 10000))") 2>/dev/null; then
      echo "$port"; return 0
    fi
  done
  return 1
}

# Starts one node on port; appends "port pid" to DIR/nodes. With `fresh`,
# what an earlier run left under the port (nodes.conf, dump.rdb) goes first:
# a new node started on it would know the old cluster or hold its keys. A
# restarted node keeps its own, to rejoin its cluster.
start_node() {
  local port="$1" nd="$dir/$1"
  [ "${2:-}" != fresh ] || rm -rf "$nd"
  mkdir -p "$nd"
  : > "$nd/redis.log"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$port" \
    --cluster-enabled yes --cluster-config-file "$nd/nodes.conf" \
    --cluster-node-timeout "${QLESS_CLUSTER_NODE_TIMEOUT:-1000}" \
    --pidfile "$nd/redis.pid" --dir "$nd" --logfile "$nd/redis.log" \
    --save "" --appendonly no --protected-mode yes >/dev/null
  for _ in $(seq 1 100); do
    if redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; then
      echo "$port $(cat "$nd/redis.pid")" >> "$dir/nodes"
      return 0
    fi
    grep -q "Address already in use" "$nd/redis.log" && return 1
    sleep 0.05
  done
  return 1
}

wait_ok() {
  local port
  for _ in $(seq 1 200); do
    local all=1
    for port in "$@"; do
      redis-cli -p "$port" cluster info 2>/dev/null | grep -q 'cluster_state:ok' || { all=0; break; }
    done
    [ "$all" = 1 ] && return 0
    sleep 0.1
  done
  return 1
}

start() {
  local primaries="${1:-3}" replicas="${2:-1}" n ports=() port addrs=() url=""
  stop
  n=$(( primaries * (1 + replicas) ))
  while [ "${#ports[@]}" -lt "$n" ]; do
    port="$(free_port)" || { echo "cluster-fixture: no free port" >&2; stop; return 1; }
    if start_node "$port" fresh; then ports+=("$port"); fi
  done
  for port in "${ports[@]}"; do addrs+=("127.0.0.1:$port"); done
  if [ "$replicas" = 0 ]; then
    local i from to
    for i in $(seq 0 $(( primaries - 1 ))); do
      from=$(( i * 16384 / primaries )); to=$(( (i + 1) * 16384 / primaries - 1 ))
      redis-cli -p "${ports[$i]}" cluster addslotsrange "$from" "$to" >/dev/null
      [ "$i" = 0 ] || redis-cli -p "${ports[$i]}" cluster meet 127.0.0.1 "${ports[0]}" >/dev/null
    done
  else
    redis-cli --cluster create "${addrs[@]}" --cluster-replicas "$replicas" --cluster-yes >"$dir/create.log" 2>&1 || {
      echo "cluster-fixture: cluster create failed:" >&2; cat "$dir/create.log" >&2; stop; return 1; }
  fi
  if ! wait_ok "${ports[@]}"; then
    echo "cluster-fixture: cluster_state never became ok" >&2; stop; return 1
  fi
  # A replica answers cluster_state:ok before its primary link is up; the
  # tests' failovers need every replica synced.
  for _ in $(seq 1 100); do
    local synced=0
    for port in "${ports[@]}"; do
      redis-cli -p "$port" info replication 2>/dev/null | grep -q 'master_link_status:up' && synced=$((synced + 1))
    done
    [ "$synced" -ge $(( n - primaries )) ] && break
    sleep 0.1
  done
  for port in "${ports[@]}"; do url="${url:+$url,}127.0.0.1:$port"; done
  echo "redis+cluster://$url" > "$dir/url"
  echo "cluster-fixture: ${#ports[@]} nodes (pids $(cut -d' ' -f2 "$dir/nodes" | tr '\n' ' ')) at $(cat "$dir/url")"
}

kill9() {
  local port="${1:?usage: cluster-fixture.sh kill9 DIR PORT}" p pid
  while read -r p pid; do
    if [ "$p" = "$port" ] && ours "$pid"; then kill -9 "$pid"; return 0; fi
  done < "$dir/nodes"
  echo "cluster-fixture: no running node of ours on port $port" >&2
  return 1
}

restart() {
  local port="${1:?usage: cluster-fixture.sh restart DIR PORT}"
  grep -v "^$port " "$dir/nodes" > "$dir/nodes.tmp" || true
  mv "$dir/nodes.tmp" "$dir/nodes"
  start_node "$port"
}

case "$cmd" in
  start) start "${3:-3}" "${4:-1}" ;;
  stop) stop ;;
  kill9) kill9 "${3:-}" ;;
  restart) restart "${3:-}" ;;
  *) echo "usage: cluster-fixture.sh start|stop|kill9|restart DIR [...]" >&2; exit 2 ;;
esac
