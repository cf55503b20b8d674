#!/usr/bin/env bash
# The image from docker/Dockerfile, built with podman and run as a user would run it.
#   bash docker/image-test.sh build   podman build (base images: docker/stand-in-images.sh where
#                                     they cannot be pulled); the toolchain and the Swift
#                                     packages of this machine are mounted into the build
#   bash docker/image-test.sh run     --read-only as uid 10001, the example sites over HTTP and
#                                     HTTPS (certs from make certs), HEALTHCHECK, SIGTERM
set -euo pipefail
cd "$(dirname "$0")/.."
image=${IMAGE:-localhost/aasa-server:latest}

if [ "${1:-}" = build ]; then
  mounts=()
  # This machine's toolchain for the stand-in builder image, and its copies of the Swift
  # packages with the git settings that point github.com at them.
  [ -d /opt/swift ] && mounts+=(-v /opt/swift:/opt/swift:ro)
  [ -d /opt/swift-packages ] && mounts+=(-v /opt/swift-packages:/opt/swift-packages:ro)
  [ -f /etc/gitconfig ] && mounts+=(-v /etc/gitconfig:/etc/gitconfig:ro)
  started=$SECONDS
  # Docker's image format: the OCI one has no HEALTHCHECK, podman drops it.
  podman build --format docker --network host "${mounts[@]}" -f docker/Dockerfile -t "$image" .
  echo "image: built in $((SECONDS - started)) s; $image $(podman image inspect -f '{{.Size}}' "$image") bytes"
  exit 0
fi

[ -f certs/example.com/fullchain.pem ] || bash certs/make-dev-certs.sh certs >/dev/null
name=aasa-server-image-test-$$
# The keys are 0600 (make certs): a copy owned by the image's user, as docs/deployment.md, "Deployment", says.
keys=$(mktemp -d)
trap 'podman rm -f -t 2 "$name" >/dev/null 2>&1 || true; rm -rf "$keys"' EXIT
cp -R certs/. "$keys/" && chown -R 10001:10001 "$keys"
podman run -d --name "$name" --read-only -p 127.0.0.1::8080 -p 127.0.0.1::8443 \
  -v "$PWD/Config/sites:/etc/aasa-server/sites:ro" -v "$keys:/etc/aasa-server/certs:ro" "$image" >/dev/null
fail() { echo "image-test: FAIL: $*" >&2; podman logs "$name" 2>&1 | tail -n 30 >&2; exit 1; }
pass() { echo "image-test: ok: $*"; }
until_true() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do [ $SECONDS -lt $deadline ] || return 1; sleep 0.2; done
}
http=$(podman port "$name" 8080/tcp)
https=$(podman port "$name" 8443/tcp)
aasa=/.well-known/apple-app-site-association
until_true 20 curl -fsS -H 'Host: example.com' "http://$http$aasa" || fail "no HTTP answer on $http"
cmp -s <(curl -fsS -H 'Host: example.com' "http://$http$aasa") Config/sites/example.com/apple-app-site-association \
  || fail "HTTP bytes differ from the mounted site"
pass "serves the mounted example.com over HTTP ($http)"
curl -fsS --cacert certs/dev-ca/ca.pem --resolve "example.com:${https##*:}:127.0.0.1" "https://example.com:${https##*:}$aasa" \
  | cmp -s - Config/sites/example.com/apple-app-site-association || fail "no HTTPS answer with the mounted certificate"
pass "serves it over HTTPS ($https) with the mounted certificate"
[ "$(podman exec "$name" id -u)" = 10001 ] || fail "not running as uid 10001"
[ "$(podman inspect -f '{{.HostConfig.ReadonlyRootfs}}' "$name")" = true ] || fail "root file system not read-only"
if podman exec "$name" sh -c ': > /probe' 2>/dev/null; then fail "the root file system is writable"; fi
pass "runs as uid 10001 on a read-only root file system"
until_true 20 podman healthcheck run "$name" || fail "podman healthcheck run fails"
pass "HEALTHCHECK passes (podman healthcheck run)"
started=$(date +%s%N)
podman stop -t 15 "$name" >/dev/null
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
code=$(podman inspect -f '{{.State.ExitCode}}' "$name")
[ "$code" = 0 ] || fail "exit code $code after SIGTERM"
[ "$elapsed_ms" -lt 10000 ] || fail "SIGTERM took $elapsed_ms ms (shutdown timeout 10 s)"
podman logs "$name" 2>&1 | grep -q '"stopped"\|stopped' || fail "no stopped event in the log"
pass "SIGTERM: exit 0 in $elapsed_ms ms"
echo "image-test: $image $(podman image inspect -f '{{.Size}}' "$image") bytes"
