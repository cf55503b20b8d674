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
NGINX_TLS_PORT=18183
AASA_TLS_PORT=18184
# The same certificate for both servers: a throw-away CA and an EC P-256 leaf for example.com.
mkdir -p "$WORK/certs/example.com"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=bench CA" \
  -keyout "$WORK/ca-key.pem" -out "$WORK/ca.pem" 2>/dev/null
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=example.com" \
  -keyout "$WORK/certs/example.com/privkey.pem" -out "$WORK/leaf.csr" 2>/dev/null
openssl x509 -req -in "$WORK/leaf.csr" -CA "$WORK/ca.pem" -CAkey "$WORK/ca-key.pem" -CAcreateserial -days 2 \
  -extfile <(printf 'subjectAltName=DNS:example.com\n') -out "$WORK/leaf.pem" 2>/dev/null
cat "$WORK/leaf.pem" "$WORK/ca.pem" > "$WORK/certs/example.com/fullchain.pem"
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
  ssl_protocols TLSv1.2 TLSv1.3;
  ssl_session_cache shared:SSL:10m;
  ssl_certificate $WORK/certs/example.com/fullchain.pem;
  ssl_certificate_key $WORK/certs/example.com/privkey.pem;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    listen 127.0.0.1:$NGINX_TLS_PORT ssl;
    server_name example.com;
    root $WORK/nginx-root;
    location = /.well-known/apple-app-site-association { default_type application/json; }
  }
}
CONF
nginx -c "$WORK/nginx.conf"
"$BIN" serve --sites "$WORK/sites" --certs "$WORK/certs" --http "127.0.0.1:$AASA_PORT" --https "127.0.0.1:$AASA_TLS_PORT" \
  --workers 2 --access-log off 2>"$WORK/logs/aasa.log" &
AASA_PID=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$AASA_PORT/" && break; sleep 0.1; done

PATH_URL=/.well-known/apple-app-site-association
for port in $NGINX_PORT $AASA_PORT; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: example.com' "http://127.0.0.1:$port$PATH_URL")
  [ "$code" = 200 ] || { echo "server on $port answered $code"; exit 1; }
done
for port in $NGINX_TLS_PORT $AASA_TLS_PORT; do
  code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$WORK/ca.pem" --resolve "example.com:$port:127.0.0.1" "https://example.com:$port$PATH_URL")
  [ "$code" = 200 ] || { echo "TLS server on $port answered $code"; exit 1; }
done

rate() { # scheme, port, extra wrk args...
  local scheme=$1 port=$2; shift 2
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" -H 'Host: example.com' "$@" "$scheme://127.0.0.1:$port$PATH_URL" | awk '/Requests\/sec/ {print $2}'
}

printf '%-14s %14s %14s %8s\n' scenario nginx aasa-server ratio
for scenario in ${SCENARIOS:-keep-alive gzip close tls-keep-alive tls-close}; do
  scheme=http; nginx_port=$NGINX_PORT; aasa_port=$AASA_PORT
  case $scenario in
    keep-alive) args=() ;;
    gzip) args=(-H 'Accept-Encoding: gzip') ;;
    close) args=(-H 'Connection: close') ;;
    tls-keep-alive) scheme=https; nginx_port=$NGINX_TLS_PORT; aasa_port=$AASA_TLS_PORT; args=() ;;
    tls-close) scheme=https; nginx_port=$NGINX_TLS_PORT; aasa_port=$AASA_TLS_PORT; args=(-H 'Connection: close') ;;
  esac
  best_nginx=0; best_aasa=0
  for _ in $(seq "$ROUNDS"); do  # alternate the two servers, keep each one's best run
    n=$(rate $scheme "$nginx_port" "${args[@]}"); a=$(rate $scheme "$aasa_port" "${args[@]}")
    best_nginx=$(awk -v x="$n" -v y="$best_nginx" 'BEGIN {print (x > y) ? x : y}')
    best_aasa=$(awk -v x="$a" -v y="$best_aasa" 'BEGIN {print (x > y) ? x : y}')
  done
  printf '%-14s %14.0f %14.0f %7.2fx\n' "$scenario" "$best_nginx" "$best_aasa" "$(awk -v a="$best_aasa" -v n="$best_nginx" 'BEGIN {print a / n}')"
done
echo "($CONNECTIONS connections, wrk -t$THREADS, ${DURATION}s per run, best of $ROUNDS alternating runs, $(nproc) cores)"
