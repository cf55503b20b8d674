#!/usr/bin/env bash
# make system-test: the Debian package installed in a container that runs systemd as PID 1
# (podman run --systemd=always … /sbin/init), then every feature the unit ships for:
# start serves the example site from the socket unit's sockets, systemctl reload takes new
# files and fails on refused ones, systemctl restart and a package upgrade (the same package
# with a higher version) lose no request of a client asking every few milliseconds and leave
# the new binary serving, ACME (Pebble inside the container, http-01 on port 80) stores a
# certificate whose key only the service reads, systemctl stop is graceful, and
# journalctl -u aasa-server shows it all. Also systemd-analyze security's exposure figure.
#   bash docker/system-test.sh DEB_DIR
# Machine settings (docs/deployment.md, "Deployment"): podman with runtime runc; these machines cannot raise
# resource limits, so the unit's LimitNOFILE is lowered by a drop-in here, not in the unit.
set -euo pipefail
cd "$(dirname "$0")/.."
deb_dir=$(cd "${1:-.build/deb}" && pwd)
deb=$(ls -t "$deb_dir"/aasa-server_*.deb | head -n1)
# The image's packages; its tag follows them, so a store holding an image made from an older
# list makes a new one instead of installing the package where a dependency is missing.
packages=systemd,systemd-sysv,dbus,curl,ca-certificates,openssl,libssl3,zlib1g,libpq5,publicsuffix,pebble,procps
image=localhost/aasa-server-systemd-test:bookworm-$(printf '%s' "$packages" | sha256sum | cut -c1-8)
name=aasa-server-system-test-$$
started=$SECONDS

# The upgrade: the same package with a higher version (dpkg-deb alone, no second build).
upgrade_dir=$(mktemp -d)
dpkg-deb -R "$deb" "$upgrade_dir/root"
version=$(dpkg-deb -f "$deb" Version)
sed -i "s/^Version: .*/Version: $version+upgrade1/" "$upgrade_dir/root/DEBIAN/control"
dpkg-deb --root-owner-group -Zxz -z1 --build "$upgrade_dir/root" "$upgrade_dir/upgrade.deb" >/dev/null
rm -rf "$upgrade_dir/root"

# The image: Debian with systemd, curl, openssl and Pebble, made once from Debian's packages
# and kept in podman's store (FORCE=1 makes it again).
if [ -n "${FORCE:-}" ] || ! podman image exists "$image"; then
  mmdebstrap --quiet --variant=minbase --format=tar \
    --include="$packages" \
    --customize-hook='rm -f "$1"/etc/machine-id; : > "$1"/etc/machine-id' \
    bookworm - http://deb.debian.org/debian "deb http://deb.debian.org/debian-security bookworm-security main" \
    | podman import --change 'CMD ["/sbin/init"]' --change 'STOPSIGNAL SIGRTMIN+3' - "$image" >/dev/null
fi

# No network but loopback: the checks run inside, and nothing collides with the host's ports.
# CAP_SYS_PTRACE lets root in the container read the service's /proc/PID/exe, which belongs
# to another user (proc(5): a ptrace access mode check).
podman run -d --name "$name" --systemd=always --network none --cap-add SYS_PTRACE \
  -v "$deb_dir:/mnt/deb:ro" -v "$upgrade_dir:/mnt/upgrade:ro" "$image" /sbin/init >/dev/null
trap 'podman rm -f -t 5 "$name" >/dev/null 2>&1 || true; rm -rf "$upgrade_dir"' EXIT
inside() { podman exec -i "$name" "$@"; }
fail() { echo "system-test: FAIL: $*" >&2; inside journalctl -u aasa-server --no-pager -n 50 >&2 || true; exit 1; }
pass() { echo "system-test: ok: $*"; }
# Polls `command` for up to `seconds` (no fixed sleeps).
until_true() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do [ $SECONDS -lt $deadline ] || return 1; sleep 0.2; done
}
# systemctl answers once PID 1 has set up its bus; --wait then waits for start-up to end.
until_true 60 inside systemctl is-system-running --wait || true
state=$(inside systemctl is-system-running || true)
[ "$state" = running ] || fail "systemd in the container is $state: $(inside systemctl --failed --no-legend)"
pass "systemd is running"

inside mkdir -p /etc/systemd/system/aasa-server.service.d
printf '[Service]\nLimitNOFILE=16384\n' | inside tee /etc/systemd/system/aasa-server.service.d/10-test-limits.conf >/dev/null
inside dpkg -i "/mnt/deb/$(basename "$deb")" >/dev/null
until_true 20 inside systemctl is-active aasa-server || fail "the service did not start"
inside systemctl is-active aasa-server.socket >/dev/null || fail "the socket unit is not active"
inside systemctl is-enabled aasa-server.socket >/dev/null || fail "the socket unit is not enabled"
inside id aasa-server >/dev/null || fail "no aasa-server user"
[ "$(inside stat -c '%U %a' /var/lib/aasa-server/certs)" = "aasa-server 700" ] || fail "certs folder owner or mode"
for file in /usr/share/man/man1/aasa-server.1.gz /usr/share/man/man1/aasa-server-serve.1.gz \
  /usr/share/bash-completion/completions/aasa-server /usr/share/zsh/vendor-completions/_aasa-server \
  /usr/share/fish/vendor_completions.d/aasa-server.fish; do
  inside test -s "$file" || fail "$file is not installed"
done
pass "installed: user aasa-server, /var/lib/aasa-server/{sites,certs}, man pages, completions, socket and service active"

aasa=/.well-known/apple-app-site-association
site=/var/lib/aasa-server/sites/example.com/apple-app-site-association
get() { inside curl -fsS -H 'Host: example.com' "http://127.0.0.1$aasa"; }
until_true 10 get || fail "the example site is not served"
[ "$(get)" = "$(inside cat "$site")" ] || fail "served bytes differ from the example site"
inside journalctl -u aasa-server --no-pager -o cat | grep -q 'listening on http://0.0.0.0:80 .*systemd_fd=3' \
  || fail "the HTTP listener does not serve from the socket unit's socket"
pass "serves the example site on port 80, from the socket unit's socket"

# The example's own file with one more line break: valid, and its expectations still hold.
new="$(inside cat "$site")
"
# Files are written as deploy tools do, to a temporary name then renamed over the old one.
put() { inside sh -c 'cat > "$1.new" && mv "$1.new" "$1"' sh "$site"; }
printf '%s' "$new" | put
inside systemctl reload aasa-server || fail "systemctl reload of a valid file failed"
[ "$(get | sha256sum)" = "$(printf '%s' "$new" | sha256sum)" ] || fail "not serving the reloaded file"
pass "systemctl reload takes a valid file"

printf '{ "applinks": ' | put
if inside systemctl reload aasa-server 2>/dev/null; then fail "systemctl reload succeeded on an invalid file"; fi
[ "$(get | sha256sum)" = "$(printf '%s' "$new" | sha256sum)" ] || fail "the last good file is not served after a refused reload"
inside systemctl is-active aasa-server >/dev/null || fail "a refused reload stopped the service"
pass "systemctl reload fails on a refused file, the last good one still served"
printf '%s' "$new" | put
inside systemctl reload aasa-server || fail "reload after the fix failed"

# A client asking for the site every few milliseconds, in the container, until told to stop
# (or 5000 requests, or 120 s): "served failed" in /run/ask.progress, then in /run/ask.result.
printf '%s\n' 'served=0; failed=0; end=$(($(date +%s) + 120))' \
  'while [ ! -e /run/ask.stop ] && [ $((served + failed)) -lt 5000 ] && [ "$(date +%s)" -lt $end ]; do' \
  '  if curl -fsS -o /dev/null --max-time 10 -H "Host: example.com" http://127.0.0.1/.well-known/apple-app-site-association' \
  '  then served=$((served + 1)); else failed=$((failed + 1)); fi' \
  '  echo "$served $failed" > /run/ask.progress; sleep 0.005' \
  'done' 'echo "$served $failed" > /run/ask.result' | inside tee /usr/local/bin/ask-loop >/dev/null
served() { inside cat /run/ask.progress 2>/dev/null | cut -d' ' -f1; }
served_at_least() { [ "$(served)" -ge "$1" ]; }
start_asking() {
  inside rm -f /run/ask.stop /run/ask.progress /run/ask.result
  podman exec -d "$name" sh /usr/local/bin/ask-loop >/dev/null
  until_true 20 served_at_least 20 || fail "the client loop got no answers"
}
# Stops the client after 20 more answers (so some came from the new process); sets $served
# and $failed.
stop_asking() {
  local now; now=$(served)
  until_true 30 served_at_least $((now + 20)) || fail "no answers after $1"
  inside touch /run/ask.stop
  until_true 20 inside test -s /run/ask.result || fail "the client loop did not stop"
  read -r served failed <<<"$(inside cat /run/ask.result)"
}
# The process's executable is the file installed now, not an older one that dpkg unlinked
# (proc(5), /proc/PID/exe).
runs_installed_binary() {
  local running installed
  running=$(inside stat -L -c %i "/proc/$1/exe") && installed=$(inside stat -c %i /usr/bin/aasa-server) \
    && [ "$running" = "$installed" ]
}

pid=$(inside systemctl show -p MainPID --value aasa-server)
start_asking
inside systemctl restart aasa-server || fail "systemctl restart failed"
stop_asking "systemctl restart"
new_pid=$(inside systemctl show -p MainPID --value aasa-server)
[ "$new_pid" != "$pid" ] && [ "$new_pid" != 0 ] || fail "systemctl restart left pid $pid"
[ "$failed" = 0 ] || fail "$failed of $((served + failed)) requests failed during systemctl restart"
pass "systemctl restart under a client asking every few ms: $served served, 0 failed (pid $pid → $new_pid)"

pid=$new_pid
start_asking
inside dpkg -i /mnt/upgrade/upgrade.deb >/dev/null || fail "the upgrade failed"
stop_asking "the upgrade"
new_pid=$(inside systemctl show -p MainPID --value aasa-server)
installed=$(inside dpkg-query -W -f '${Version}' aasa-server)
[ "$installed" = "$version+upgrade1" ] || fail "installed version $installed after the upgrade"
[ "$new_pid" != "$pid" ] && [ "$new_pid" != 0 ] || fail "the upgrade did not restart the server (pid $pid)"
runs_installed_binary "$new_pid" || fail "pid $new_pid does not run the upgraded /usr/bin/aasa-server"
[ "$failed" = 0 ] || fail "$failed of $((served + failed)) requests failed during the upgrade"
inside systemctl is-active aasa-server.socket >/dev/null || fail "the socket unit is not active after the upgrade"
pass "upgrade to $installed under a client asking every few ms: $served served, 0 failed; pid $new_pid runs the new binary"

# ACME: Pebble (Debian's package) with pebble-challtestsrv answering every name with
# 127.0.0.1, validating http-01 on port 80 where the service listens.
inside sh -c 'cd /root && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
  -subj /CN=pebble -addext subjectAltName=IP:127.0.0.1 -keyout pebble-key.pem -out pebble.pem 2>/dev/null
  chmod 644 pebble.pem
  printf "{\"pebble\": {\"listenAddress\": \"127.0.0.1:14000\", \"managementListenAddress\": \"127.0.0.1:15000\",
    \"certificate\": \"/root/pebble.pem\", \"privateKey\": \"/root/pebble-key.pem\", \"httpPort\": 80,
    \"tlsPort\": 443, \"ocspResponderURL\": \"\", \"externalAccountBindingRequired\": false}}" > pebble.json'
inside install -m 644 /root/pebble.pem /usr/local/share/pebble.pem
inside systemd-run --quiet --unit pebble-dns pebble-challtestsrv -defaultIPv4 127.0.0.1 -defaultIPv6 "" \
  -dns01 127.0.0.1:8053 -http01 "" -https01 "" -tlsalpn01 "" -management 127.0.0.1:8055
inside systemd-run --quiet --unit pebble -E PEBBLE_VA_NOSLEEP=1 pebble -config /root/pebble.json -dnsserver 127.0.0.1:8053
until_true 20 inside curl -fsS --cacert /root/pebble.pem https://127.0.0.1:14000/dir || fail "pebble did not start"
printf '[Service]\nExecStart=\nExecStart=/usr/bin/aasa-server serve --config /etc/aasa-server/aasa-server.json --https 0.0.0.0:443 --acme on --acme-directory https://127.0.0.1:14000/dir --acme-directory-ca /usr/local/share/pebble.pem --acme-preflight-resolver 127.0.0.1:8053\n' \
  | inside tee /etc/systemd/system/aasa-server.service.d/20-acme.conf >/dev/null
inside systemctl daemon-reload
inside systemctl restart aasa-server
key=/var/lib/aasa-server/certs/acme/example.com/privkey.pem
until_true 60 inside test -s "$key" || fail "ACME stored no certificate for example.com"
[ "$(inside stat -c '%U %a' "$key")" = "aasa-server 600" ] || fail "the key is not the service's alone: $(inside stat -c '%U %a' "$key")"
if inside setpriv --reuid=nobody --regid=nogroup --clear-groups cat "$key" >/dev/null 2>&1; then fail "another user reads the key"; fi
inside curl -fsS -o /dev/null --resolve example.com:443:127.0.0.1 --cacert /dev/null -k "https://example.com$aasa" \
  || fail "no HTTPS answer with the ACME certificate"
pass "--acme on stored a certificate (key aasa-server 0600, unreadable to nobody), served over HTTPS"

exposure=$(inside systemd-analyze security aasa-server --no-pager | sed -n 's/.*Overall exposure level for aasa-server.service: \([0-9.]*\).*/\1/p')
# The unit before the package scored 3.4 here; hardening must not slip back.
awk -v e="$exposure" 'BEGIN { exit !(e != "" && e + 0 < 3.4) }' || fail "systemd-analyze security exposure '$exposure'"
pass "systemd-analyze security aasa-server: exposure $exposure (below 3.4)"

inside systemctl stop aasa-server
result=$(inside systemctl show -p Result --value aasa-server)
status=$(inside systemctl show -p ExecMainStatus --value aasa-server)
[ "$result" = success ] && [ "$status" = 0 ] || fail "stop was not clean: Result=$result ExecMainStatus=$status"
pass "systemctl stop: exit 0"

journal=$(inside journalctl -u aasa-server --no-pager -o cat)
for event in "starting" "listening on http://0.0.0.0:80" "reloaded" "reload refused" "Reloaded aasa-server" \
  "Reload failed for aasa-server" "stopping: finishing responses in flight" "stopped" "Stopped aasa-server"; do
  grep -qF "$event" <<<"$journal" || fail "journalctl -u aasa-server has no \"$event\""
done
pass "journalctl -u aasa-server shows start, reloads (taken and refused), stop"

inside dpkg --purge aasa-server >/dev/null
inside test ! -e /var/lib/aasa-server || fail "purge left /var/lib/aasa-server"
pass "purge removes the package and its state"
echo "system-test: all passed in $((SECONDS - started)) s"
