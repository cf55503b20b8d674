#!/usr/bin/env bash
# aasa-server against nginx on the same file, same machine, one run: requests/s and ratios
# for keep-alive, gzip and new connections (Connection: close). Loopback only; every wrk
# run is bounded in time. Installs nginx and wrk with apt when missing.
#
#   bash bench/http-bench.sh [seconds-per-run] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-8}
ROUNDS=${2:-2}
CONNECTIONS=${CONNECTIONS:-64}
# Two client threads: one wrk thread saturates before aasa-server does on this machine.
THREADS=${THREADS:-2}

need() { command -v "$1" >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null; }; }
need nginx nginx
need wrk wrk

swift build -c release >/dev/null
BIN=.build/release/aasa-server

WORK=$(mktemp -d)
chmod 755 "$WORK"  # nginx workers run as another user
cleanup() {
  [ -n "${AASA_PID:-}" ] && kill "$AASA_PID" 2>/dev/null || true
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/sites/example.com/.well-known" "$WORK/nginx-root/.well-known" "$WORK/logs"
FILE=Config/sites/example.com/apple-app-site-association
cp "$FILE" "$WORK/sites/example.com/apple-app-site-association"
cp "$FILE" "$WORK/nginx-root/.well-known/apple-app-site-association"

NGINX_PORT=18181
AASA_PORT=18182
# nginx as teams deploy it for this file: 2 workers, sendfile, gzip on, application/json.
cat > "$WORK/nginx.conf" <<CONF
worker_processes 2;
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  keepalive_timeout 30s;
  gzip on;
  gzip_types application/json;
  gzip_min_length 0;
  gzip_vary on;
  client_body_temp_path $WORK/logs;
  proxy_temp_path $WORK/logs;
  fastcgi_temp_path $WORK/logs;
  uwsgi_temp_path $WORK/logs;
  scgi_temp_path $WORK/logs;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    server_name example.com;
    root $WORK/nginx-root;
    location = /.well-known/apple-app-site-association { default_type application/json; }
  }
}
CONF
nginx -c "$WORK/nginx.conf"
"$BIN" serve --sites "$WORK/sites" --http "127.0.0.1:$AASA_PORT" --workers 2 --access-log off 2>"$WORK/logs/aasa.log" &
AASA_PID=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$AASA_PORT/" && break; sleep 0.1; done

PATH_URL=/.well-known/apple-app-site-association
for port in $NGINX_PORT $AASA_PORT; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: example.com' "http://127.0.0.1:$port$PATH_URL")
  [ "$code" = 200 ] || { echo "server on $port answered $code"; exit 1; }
done

rate() { # port, extra wrk args...
  local port=$1; shift
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" -H 'Host: example.com' "$@" "http://127.0.0.1:$port$PATH_URL" | awk '/Requests\/sec/ {print $2}'
}

printf '%-14s %14s %14s %8s\n' scenario nginx aasa-server ratio
for scenario in keep-alive gzip close; do
  case $scenario in
    keep-alive) args=() ;;
    gzip) args=(-H 'Accept-Encoding: gzip') ;;
    close) args=(-H 'Connection: close') ;;
  esac
  best_nginx=0; best_aasa=0
  for _ in $(seq "$ROUNDS"); do  # alternate the two servers, keep each one's best run
    n=$(rate $NGINX_PORT "${args[@]}"); a=$(rate $AASA_PORT "${args[@]}")
    best_nginx=$(awk -v x="$n" -v y="$best_nginx" 'BEGIN {print (x > y) ? x : y}')
    best_aasa=$(awk -v x="$a" -v y="$best_aasa" 'BEGIN {print (x > y) ? x : y}')
  done
  printf '%-14s %14.0f %14.0f %7.2fx\n' "$scenario" "$best_nginx" "$best_aasa" "$(awk -v a="$best_aasa" -v n="$best_nginx" 'BEGIN {print a / n}')"
done
echo "($CONNECTIONS connections, wrk -t$THREADS, ${DURATION}s per run, best of $ROUNDS alternating runs, $(nproc) cores)"
