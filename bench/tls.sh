#!/usr/bin/env bash
# TLS against plain TCP, same server, same run (bench/tls-bench.c): makes a
# throwaway CA and server certificate, starts a private redis-server with a
# TLS port, a plain port (both 127.0.0.1) and a unix socket, runs tls-bench
# and stops the server by its pid.
#   bash bench/tls.sh [JOBS_PER_ROUND [ROUNDS]]     (default 2000 x 10)
# TLS_BENCH_WRAP: a command to run tls-bench under (e.g. "strace -f -c -o FILE").
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${QLESS_BUILD_DIR:-build}"
[ -x "$BUILD/bench/tls-bench" ] || cmake --build "$BUILD" -j1 --target tls-bench >/dev/null
d="$(mktemp -d /tmp/qless-tls-bench.XXXXXX)"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid"; wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$d"
}
trap cleanup EXIT
cd "$d"
openssl ecparam -name prime256v1 -genkey -noout -out ca.key
openssl req -x509 -new -key ca.key -out ca.pem -days 2 -subj "/CN=qless bench CA" 2>/dev/null
openssl ecparam -name prime256v1 -genkey -noout -out server.key
openssl req -new -key server.key -out server.csr -subj "/CN=localhost" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
  -extfile server.ext 2>/dev/null
cd - >/dev/null
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
plain="$(free_port)"; tls="$(free_port)"
redis-server --bind 127.0.0.1 --port "$plain" --tls-port "$tls" --unixsocket "$d/redis.sock" --unixsocketperm 700 \
  --tls-cert-file "$d/server.pem" --tls-key-file "$d/server.key" --tls-ca-cert-file "$d/ca.pem" \
  --tls-auth-clients no --save "" --appendonly no --dir "$d" --logfile "$d/redis.log" &
pid=$!
for _ in $(seq 1 100); do redis-cli -s "$d/redis.sock" ping 2>/dev/null | grep -q PONG && break; sleep 0.05; done
${TLS_BENCH_WRAP:-} "$BUILD/bench/tls-bench" "redis://127.0.0.1:$plain/0" "rediss://127.0.0.1:$tls/0?ca=$d/ca.pem" "$d/redis.sock" "$@"
