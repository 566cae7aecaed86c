#!/usr/bin/env bash
# Several Atrium servers behind nginx on one PostgreSQL database and one Mosquitto (docs/cluster.md "The script",
# README "Several servers"). A test set-up on loopback ports, never a deployment.
#
#   scripts/cluster.sh [start] [N]   build what changed, start N servers (2 or 3, default 2), Mosquitto and nginx,
#                                    wait until every one answers, then stay in the foreground; Ctrl-C / SIGTERM / exit
#                                    stops them all
#   scripts/cluster.sh check         through nginx: a login, then a list called until both servers have answered
#   scripts/cluster.sh stop          stops a cluster started from another shell (same CLUSTER_PORT)
#   scripts/cluster.sh e2e [N] [ARGS]  CI's step: a throwaway database, N servers (default 2) running the e2e harness
#                                    (CLUSTER_E2E=1), the Playwright suite through nginx (ARGS passed to Playwright),
#                                    then the failover check (SIGKILL of s2 under load, bench/cluster.ts; skipped
#                                    with CLUSTER_FAILOVER=0 or when Playwright was given ARGS), s2 started again and
#                                    the browser's video failover (e2e/tests/video-failover.spec.ts), stop, drop the
#                                    database
#
# Settings (environment):
#   CLUSTER_PORT       nginx's port (default 8160); server i listens on CLUSTER_PORT + i
#   CLUSTER_MQTT_PORT  Mosquitto's port (default 18830)
#   DATABASE_URL       the one database (default postgres://postgres@127.0.0.1:5432/atrium_cluster_<CLUSTER_PORT>,
#                      created with psql when missing)
#   CLUSTER_DIR        logs, configurations and pids (default /tmp/atrium-cluster-<CLUSTER_PORT>)
#   CLUSTER_ONE_PORT   a second nginx entry that proxies to s1 only (default CLUSTER_PORT + 10): the scaling bench's
#                      "one server behind nginx" (BENCH_ONLY=cluster-scale)
#   CLUSTER_E2E=1      each server runs the e2e harness (apps/server/test/captcha-file-server.ts: captcha codes
#                      appended to CLUSTER_DIR/captchas.txt, NODE_ENV=test, captchas on) instead of the built server
#   ATRIUM_*           passed on to every server (e.g. ATRIUM_CAPTCHA=on; the script's default is off)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CMD="${1:-start}"
if [[ "$CMD" =~ ^[0-9]+$ ]]; then
  N="$CMD"
  CMD=start
else
  N=2
  [[ $# -gt 0 ]] && shift
  if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    N="$1"
    shift
  fi
fi
PORT="${CLUSTER_PORT:-8160}"
MQTT_PORT="${CLUSTER_MQTT_PORT:-18830}"
DIR="${CLUSTER_DIR:-/tmp/atrium-cluster-$PORT}"
ONE_PORT="${CLUSTER_ONE_PORT:-$((PORT + 10))}"
DB_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/atrium_cluster_$PORT}"
ADMIN_PASSWORD="${ATRIUM_ADMIN_PASSWORD:-admin}"

say() { echo "[cluster] $*"; }
die() {
  echo "[cluster] $*" >&2
  exit 1
}

# Waits until `curl` gets an answer from $1 (at most $2 seconds).
wait_http() {
  local url="$1" limit="$2" i
  for ((i = 0; i < limit * 10; i++)); do
    if curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}

stop_all() {
  [[ -d "$DIR" ]] || return 0
  local f pid
  # Servers first (SIGTERM: each writes what it holds and leaves the MQTT group), then nginx and Mosquitto.
  for f in "$DIR"/server-*.pid "$DIR"/nginx.pid "$DIR"/mosquitto.pid; do
    [[ -f "$f" ]] || continue
    pid="$(cat "$f")"
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
  done
}

check() {
  command -v node > /dev/null || die "node is needed"
  (cd "$ROOT/apps/server" && CLUSTER_URL="http://127.0.0.1:$PORT" CLUSTER_DIR="$DIR" CLUSTER_SERVERS="$N" \
    ADMIN_PASSWORD="$ADMIN_PASSWORD" exec node --import tsx scripts/cluster-check.ts)
}

# Starts server $1 in the background (its pid in server-$1.pid): the cluster's start, and e2e's restart of a killed one.
start_server() {
  local i="$1" log="$DIR/server-$1.log"
  local p=$((PORT + i))
  mkdir -p "$DIR/s$i"
  # A restart ("again") keeps the killed process's log above its own.
  [[ "${2:-}" == again ]] || : > "$log"
  (
    export HOST=127.0.0.1 PORT="$p" DATABASE_URL="$DB_URL" ATRIUM_MQTT_URL="mqtt://127.0.0.1:$MQTT_PORT"
    export ATRIUM_SERVER_NAME="s$i" ATRIUM_DATA_DIR="$DIR/s$i" ATRIUM_TRUST_PROXY=127.0.0.1
    # Uploads on the servers' disk: one folder for all (docs/cluster.md "Uploads").
    export ATRIUM_UPLOAD_DIR="${ATRIUM_UPLOAD_DIR:-$DIR/uploads}"
    export ATRIUM_ADMIN_PASSWORD="$ADMIN_PASSWORD"
    if [[ "${CLUSTER_E2E:-0}" == 1 ]]; then
      # The e2e harness, as e2e/playwright.config.ts starts it for one server; one process (node --import tsx), so
      # the pid file holds the server itself (the failover check kills it).
      export NODE_ENV=test LOG_LEVEL="${LOG_LEVEL:-warn}" ATRIUM_E2E_CAPTCHA_FILE="$DIR/captchas.txt"
      export ATRIUM_CAPTCHA="${ATRIUM_CAPTCHA:-on}" ATRIUM_OSS_PRIVATE_NETWORKS="${ATRIUM_OSS_PRIVATE_NETWORKS:-127.0.0.0/8}"
      # e2e/tests/tenants.spec.ts moves a tenant to a throwaway database of this PostgreSQL (docs/tenants.md).
      export ATRIUM_DATASOURCE_PRIVATE_NETWORKS="${ATRIUM_DATASOURCE_PRIVATE_NETWORKS:-127.0.0.0/8}"
      export ATRIUM_STREAM_IDLE_SECONDS="${ATRIUM_STREAM_IDLE_SECONDS:-12}"
      cd "$ROOT/apps/server"
      exec node --import tsx test/captcha-file-server.ts
    fi
    export ATRIUM_CAPTCHA="${ATRIUM_CAPTCHA:-off}"
    exec node "$ROOT/scripts/start.mjs"
  ) >> "$log" 2>&1 &
  echo $! > "$DIR/server-$i.pid"
}

start() {
  [[ "$N" =~ ^[1-9]$ ]] || die "the number of servers must be 1 to 9 (got $N)"
  command -v nginx > /dev/null || die "nginx is missing: apt-get install -y nginx"
  command -v mosquitto > /dev/null || die "mosquitto is missing: apt-get install -y mosquitto"
  if [[ -f "$DIR/nginx.pid" ]] && kill -0 "$(cat "$DIR/nginx.pid")" 2>/dev/null; then
    die "a cluster on port $PORT runs already (scripts/cluster.sh stop)"
  fi
  mkdir -p "$DIR"
  # An earlier run's harness captcha codes (CLUSTER_E2E=1) and the failover bench's devices (with their secrets, of
  # what may have been another database) would mislead bench/cluster.ts.
  rm -f "$DIR/captchas.txt" "$DIR/bench-devices.json"
  trap 'stop_all; say "stopped"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  # The database: created when missing (a throwaway one of this set-up).
  if [[ -z "${DATABASE_URL:-}" ]] && command -v psql > /dev/null; then
    local name="atrium_cluster_$PORT"
    if ! psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname = '$name'" | grep -q 1; then
      psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $name"
      say "created database $name"
    fi
  fi

  say "building what changed"
  node "$ROOT/scripts/start.mjs" --build-only

  # Mosquitto: anonymous on loopback for this set-up (a deployment uses the per-device rules, docs/devices.md).
  cat > "$DIR/mosquitto.conf" << EOF
listener $MQTT_PORT 127.0.0.1
allow_anonymous true
persistence false
max_packet_size 266240
EOF
  mosquitto -c "$DIR/mosquitto.conf" > "$DIR/mosquitto.log" 2>&1 &
  echo $! > "$DIR/mosquitto.pid"

  # The servers: one database, one broker, each its own port, data folder and name.
  local i upstreams=""
  for ((i = 1; i <= N; i++)); do
    start_server "$i"
    upstreams+="    server 127.0.0.1:$((PORT + i)) max_fails=1 fail_timeout=2s;"$'\n'
  done

  # nginx: round robin, no stickiness; a request that failed to reach a server (refused, reset, timed out, 502, 503)
  # goes to the next one — for POST / PATCH only when it was never sent (nginx's rule without `non_idempotent`).
  mkdir -p "$DIR/nginx-tmp"
  cat > "$DIR/nginx.conf" << EOF
worker_processes 1;
pid $DIR/nginx.pid;
error_log $DIR/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log $DIR/nginx-access.log;
  client_body_temp_path $DIR/nginx-tmp/body;
  proxy_temp_path $DIR/nginx-tmp/proxy;
  fastcgi_temp_path $DIR/nginx-tmp/fastcgi;
  uwsgi_temp_path $DIR/nginx-tmp/uwsgi;
  scgi_temp_path $DIR/nginx-tmp/scgi;
  client_max_body_size 20m;
  map \$http_x_request_id \$atrium_request_id {
    default \$http_x_request_id;
    "" \$request_id;
  }
  upstream atrium {
$upstreams    keepalive 64;
  }
  upstream atrium_one {
    server 127.0.0.1:$((PORT + 1));
    keepalive 64;
  }
  # CLUSTER_ONE_PORT: the same proxy in front of s1 alone (the scaling bench's one server behind nginx).
  map \$server_port \$atrium_upstream {
    default atrium;
    $ONE_PORT atrium_one;
  }
  server {
    listen 127.0.0.1:$PORT;
    listen 127.0.0.1:$ONE_PORT;
    # The low-latency video socket: upgrades passed on (any server answers it through the stream's owner).
    location /api/video/live/ {
      proxy_pass http://\$atrium_upstream;
      proxy_http_version 1.1;
      proxy_set_header Upgrade \$http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Request-Id \$atrium_request_id;
      proxy_read_timeout 1h;
      proxy_buffering off;
    }
    location / {
      proxy_pass http://\$atrium_upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
      proxy_set_header X-Request-Id \$atrium_request_id;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
      proxy_read_timeout 120s;
      proxy_buffering off;
    }
  }
}
EOF
  # In the foreground of a background job: nginx writes its master's pid (this job's) to nginx.pid itself.
  nginx -p "$DIR" -c "$DIR/nginx.conf" -g 'daemon off;' > "$DIR/nginx.log" 2>&1 &

  for ((i = 1; i <= N; i++)); do
    local p=$((PORT + i))
    wait_http "http://127.0.0.1:$p/" 120 || {
      tail -n 30 "$DIR/server-$i.log" >&2
      die "server s$i (port $p) did not answer within 120 s; its log: $DIR/server-$i.log"
    }
    say "s$i answers on 127.0.0.1:$p"
  done
  wait_http "http://127.0.0.1:$PORT/" 10 || die "nginx did not answer on $PORT ($DIR/nginx-error.log)"
  # Another process answering on these ports would pass the waits: this nginx must be the one running.
  [[ -f "$DIR/nginx.pid" ]] && kill -0 "$(cat "$DIR/nginx.pid")" 2>/dev/null \
    || die "nginx did not start ($DIR/nginx-error.log): $(tail -n 1 "$DIR/nginx-error.log" 2>/dev/null)"
  wait_http "http://127.0.0.1:$ONE_PORT/" 10 || die "nginx did not answer on $ONE_PORT ($DIR/nginx-error.log)"
  say "ready: http://127.0.0.1:$PORT (nginx, $N servers), mqtt://127.0.0.1:$MQTT_PORT, $DB_URL; logs in $DIR"
  [[ -n "${CLUSTER_READY_FILE:-}" ]] && echo ready > "$CLUSTER_READY_FILE"
  # In the foreground until a signal or until nginx ends; a server that dies stays dead (the others serve: that is
  # what the failover bench measures).
  while [[ -f "$DIR/nginx.pid" ]] && kill -0 "$(cat "$DIR/nginx.pid")" 2>/dev/null; do sleep 1; done
  say "nginx ended; stopping the others"
}

# CI's step (docs/cluster.md "The e2e suite through nginx"): everything on a throwaway database, dropped at the end.
e2e() {
  local status=0 db="" pid ready="$DIR/ready" i
  command -v psql > /dev/null || die "psql is needed"
  mkdir -p "$DIR"
  if [[ -z "${DATABASE_URL:-}" ]]; then
    db="${CLUSTER_DB_PREFIX:-atrium_cluster_e2e}_${PORT}_$$"
    psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $db" || die "could not create the database $db"
    export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db"
    DB_URL="$DATABASE_URL"
    say "throwaway database $db"
  fi
  rm -f "$ready"
  CLUSTER_E2E=1 CLUSTER_READY_FILE="$ready" "$0" start "$N" > "$DIR/cluster.log" 2>&1 &
  pid=$!
  for ((i = 0; i < 3000; i++)); do
    [[ -f "$ready" ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -f "$ready" ]]; then
    say "cluster ready ($N servers); the e2e suite through nginx on $PORT"
    (cd "$ROOT" && E2E_BASE_URL="http://127.0.0.1:$PORT" E2E_MQTT_PORT="$MQTT_PORT" ATRIUM_E2E_DIR="$DIR" \
      ATRIUM_REPORT_TAG="${ATRIUM_REPORT_TAG:-cluster}" npm run test -w @atrium/e2e -- "$@") || status=1
    if [[ "${CLUSTER_FAILOVER:-1}" == 1 && $# -eq 0 && "$N" -ge 2 ]]; then
      say "failover check: SIGKILL of s$N under load"
      (cd "$ROOT/apps/server" && CLUSTER_URL="http://127.0.0.1:$PORT" CLUSTER_DIR="$DIR" \
        CLUSTER_MQTT_URL="mqtt://127.0.0.1:$MQTT_PORT" BENCH_CLUSTER_KILL="s$N" BENCH_CLUSTER_CHECK=1 \
        BENCH_CLUSTER_CONNECTIONS="${BENCH_CLUSTER_CONNECTIONS:-30}" BENCH_CLUSTER_SECONDS="${BENCH_CLUSTER_SECONDS:-16}" \
        BENCH_CLUSTER_KILL_AT="${BENCH_CLUSTER_KILL_AT:-6}" node --import tsx bench/cluster.ts) || status=1
      # A viewer across the death of its stream's server (e2e/tests/video-failover.spec.ts): s$N started again, the
      # monitoring screen plays a camera, the server running its ffmpeg gets SIGKILL, the cell plays on.
      say "video failover in the browser: s$N started again"
      CLUSTER_E2E=1 start_server "$N" again
      if wait_http "http://127.0.0.1:$((PORT + N))/" 120; then
        (cd "$ROOT" && E2E_BASE_URL="http://127.0.0.1:$PORT" E2E_MQTT_PORT="$MQTT_PORT" ATRIUM_E2E_DIR="$DIR" \
          CLUSTER_VIDEO_FAILOVER=1 ATRIUM_REPORT_TAG=cluster-video-failover \
          npm run test -w @atrium/e2e -- tests/video-failover.spec.ts) || status=1
      else
        say "s$N did not start again ($DIR/server-$N.log)"
        status=1
      fi
    fi
  else
    tail -n 40 "$DIR/cluster.log" >&2
    say "the cluster did not start (its log: $DIR/cluster.log)"
    status=1
  fi
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [[ -n "$db" ]]; then
    psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
    say "dropped database $db"
  fi
  return $status
}

case "$CMD" in
  start) start ;;
  e2e) e2e "$@" ;;
  check) check ;;
  stop)
    stop_all
    say "stopped"
    ;;
  *) die "usage: scripts/cluster.sh [start] [N] | check [N] | stop | e2e [N] [playwright args]" ;;
esac
