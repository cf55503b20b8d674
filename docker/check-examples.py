#!/usr/bin/env python3
"""Checks the deployment examples that no tool here validates whole (run by docker/check.sh):
the GitHub Actions workflow, the Deployment's rollout and stop, the Prometheus Operator
resources, and that the alert rules wrapped as a PrometheusRule (the command in
kubernetes-monitoring.yaml) keep their groups."""
import json, os, subprocess, sys
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures = []
checked = 0


def check(condition, message):
    global checked
    checked += 1
    if not condition:
        failures.append(message)


with open(os.path.join(ROOT, "docker/github-actions-validate.yml")) as source:
    workflow = yaml.safe_load(source)
# YAML 1.1 reads the key `on` as True.
triggers = workflow.get("on", workflow.get(True))
check(triggers is not None and "pull_request" in triggers, "workflow: runs on pull requests")
check(workflow.get("permissions", {}).get("security-events") == "write", "workflow: may upload SARIF")
steps = workflow["jobs"]["validate"]["steps"]
runs = " ".join(step.get("run", "") for step in steps)
check("validate --format sarif" in runs, "workflow: validates as SARIF")
upload = [step for step in steps if step.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
check(len(upload) == 1 and upload[0].get("if") == "always()", "workflow: uploads SARIF even when validation failed")
check(all("@" in step["uses"] for step in steps if "uses" in step), "workflow: every action pinned to a version")

# A rollout loses no request (docs/deployment.md, "Restarts and upgrades"): readiness on /readyz,
# old pods kept until new ones are ready, a preStop sleep before SIGTERM, and a grace period
# that covers the sleep and the server's drain.
with open(os.path.join(ROOT, "docker/kubernetes.yaml")) as source:
    deployment = next(d for d in yaml.safe_load_all(source) if d and d["kind"] == "Deployment")
with open(os.path.join(ROOT, "docker/aasa-server.json")) as source:
    shutdown = json.load(source).get("timeouts", {}).get("shutdown", 10)
pod = deployment["spec"]["template"]["spec"]
container = pod["containers"][0]
check(container.get("readinessProbe", {}).get("httpGet", {}).get("path") == "/readyz", "deployment: ready on /readyz")
rolling = deployment["spec"].get("strategy", {}).get("rollingUpdate", {})
check(rolling.get("maxUnavailable") == 0, "deployment: a rollout keeps old pods until new ones are ready")
command = container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
pause = int(command[1]) if len(command) == 2 and command[0] == "sleep" and command[1].isdigit() else 0
check(pause >= 5, "deployment: a preStop sleep of 5 s or more before SIGTERM")
check(pod.get("terminationGracePeriodSeconds", 30) >= pause + shutdown + 5,
      "deployment: terminationGracePeriodSeconds covers the preStop sleep and the shutdown timeout")

# The watches run once however many replicas serve (docs/watches.md, "Several replicas: watch
# once"): one Deployment turns them on, with one replica and a rollout that never runs two;
# its selector does not take the serving pods, and the Service and scrape still reach it.
with open(os.path.join(ROOT, "docker/kubernetes.yaml")) as source:
    deployments = [d for d in yaml.safe_load_all(source) if d and d["kind"] == "Deployment"]


def watches(d):
    args = d["spec"]["template"]["spec"]["containers"][0].get("args", [])
    return [name for name in ("--cdn-watch", "--google-watch") if name in args and args[args.index(name) + 1] == "on"]


watchers = [d for d in deployments if watches(d)]
check(len(watchers) == 1 and watches(watchers[0]) == ["--cdn-watch", "--google-watch"],
      "watch: exactly one Deployment watches Apple's CDN and Google's view")
check(all(d["spec"].get("replicas") == 1 and d["spec"].get("strategy", {}).get("type") == "Recreate"
          for d in watchers), "watch: the watcher has one replica and the Recreate strategy")
selectors = [d["spec"]["selector"]["matchLabels"] for d in deployments]
check(len({tuple(sorted(m.items())) for m in selectors}) == len(selectors)
      and all(m.get("app") == "aasa-server" for m in selectors), "watch: the Deployments' selectors differ, same app")

# The git-sync layout (docs/sites.md, "Sites layout"): the server reads the link git-sync
# swaps, from the volume both share, and the first clone is done before the server starts.
with open(os.path.join(ROOT, "docker/kubernetes-git-sync.yaml")) as source:
    synced = next(d for d in yaml.safe_load_all(source) if d and d["kind"] == "Deployment")
synced_pod = synced["spec"]["template"]["spec"]
server = next(c for c in synced_pod["containers"] if c["name"] == "aasa-server")
sidecars = [c for c in synced_pod["containers"] + synced_pod.get("initContainers", []) if "git-sync" in c["image"]]


def flag(container, name):
    return next((a.split("=", 1)[1] for a in container.get("args", []) if a.startswith(f"--{name}=")), None)


args = server["args"]
sites = args[args.index("--sites") + 1] if "--sites" in args else ""
check(len(sidecars) == 2 and any("--one-time" in c["args"] for c in synced_pod.get("initContainers", [])),
      "git-sync: a first clone before the server starts, and a sidecar that keeps syncing")
check(all(sites.startswith(f"{flag(c, 'root')}/{flag(c, 'link')}/") or sites == f"{flag(c, 'root')}/{flag(c, 'link')}"
          for c in sidecars), "git-sync: --sites is under git-sync's --root and --link")
volumes = {v["name"]: v for v in synced_pod["volumes"]}
mounted = {m["name"] for m in server["volumeMounts"] if sites.startswith(m["mountPath"] + "/")}
check(any("emptyDir" in volumes[name] for name in mounted)
      and all(mounted & {m["name"] for m in c["volumeMounts"]} for c in sidecars),
      "git-sync: the server and git-sync share an emptyDir volume")
check(server.get("readinessProbe", {}).get("httpGet", {}).get("path") == "/readyz", "git-sync: ready on /readyz")
check(synced["spec"].get("strategy", {}).get("rollingUpdate", {}).get("maxUnavailable") == 0,
      "git-sync: a rollout keeps old pods until new ones are ready")
with open(os.path.join(ROOT, "docker/kubernetes.yaml")) as source:
    config_map = next(d for d in yaml.safe_load_all(source) if d and d["kind"] == "ConfigMap")
check(any(json.loads(value).get("aliases") if key.endswith(".site") else False
          for key, value in config_map["data"].items()), "kubernetes.yaml: aliases in a site.json")

with open(os.path.join(ROOT, "docker/kubernetes-monitoring.yaml")) as source:
    documents = [document for document in yaml.safe_load_all(source) if document]
kinds = {document["kind"]: document for document in documents}
monitor = kinds.get("ServiceMonitor")
check(monitor is not None, "monitoring: a ServiceMonitor")
if monitor:
    endpoint = monitor["spec"]["endpoints"][0]
    check(endpoint.get("port") == "admin", "monitoring: scrapes the Service's admin port")
    check(endpoint.get("authorization", {}).get("credentials", {}).get("name") == "aasa-admin-token",
          "monitoring: with the admin token")
with open(os.path.join(ROOT, "docker/kubernetes.yaml")) as source:
    service = [d for d in yaml.safe_load_all(source) if d and d["kind"] == "Service"][0]
check({"name": "admin", "port": 9090, "targetPort": "admin"} in service["spec"]["ports"],
      "kubernetes.yaml: the Service names the admin port")

# The PrometheusRule command of kubernetes-monitoring.yaml, as a user runs it.
wrapped = subprocess.run(
    ["bash", "-c", "{ printf 'apiVersion: monitoring.coreos.com/v1\\nkind: PrometheusRule\\n"
     "metadata: {name: aasa-server}\\nspec:\\n'; sed 's/^/  /' docker/prometheus-rules.yml; }"],
    cwd=ROOT, capture_output=True, text=True, check=True).stdout
rule = yaml.safe_load(wrapped)
with open(os.path.join(ROOT, "docker/prometheus-rules.yml")) as source:
    rules = yaml.safe_load(source)
check(rule["kind"] == "PrometheusRule" and rule["spec"] == rules, "PrometheusRule: the rules file's groups, unchanged")

for failure in failures:
    print("FAILED", failure)
print(f"examples: {checked - len(failures)} checks passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
