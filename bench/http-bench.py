#!/usr/bin/env python3
"""aasa-server against nginx, h2o and a canned-response floor, in one run, on the same file.

On a 2-core machine wrk competes with the server for the CPU, so requests/s saturates at the
client for every fast server. The figure that separates servers is their own cost: requests
served per CPU-second of the server's processes (utime + stime from /proc/PID/stat, summed
over the process tree, read before and after the same wrk run). Both are printed, with
ratios against the best peer and against the floor (bench/floor/canned.c: one epoll loop per
thread answering every "\\r\\n\\r\\n" with a canned response, plain and behind OpenSSL).

    python3 bench/http-bench.py [seconds-per-run] [rounds]     (make bench-http)

The `fallback` scenario asks for `/p/1` of a site with fallback.json (Config/sites/example.com's):
aasa-server answers with its 302 to the web, nginx with `return 302` (h2o and the floor sit it out).

Every server has 2 workers; wrk -t1 -c64; rounds alternate the servers; medians. Loopback
only, every run bounded in time. Installs nginx, h2o and wrk with apt when missing.
SCENARIOS="keep-alive fallback" runs some; AASA_BINARY=PATH measures another build.
"""
import os, re, shutil, signal, socket, statistics, subprocess, sys, tempfile, time

DURATION = int(sys.argv[1]) if len(sys.argv) > 1 else 4
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
CONNECTIONS = int(os.environ.get("CONNECTIONS", "64"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICKS = os.sysconf("SC_CLK_TCK")
PATH = "/.well-known/apple-app-site-association"
SCENARIOS = os.environ.get("SCENARIOS", "keep-alive gzip close tls-keep-alive tls-close fallback").split()
FALLBACK_PATH = "/p/1"


def need(command, package):
    if shutil.which(command) is None and not os.path.exists(f"/usr/sbin/{command}"):
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_cpu(pid):
    """utime + stime in seconds of `pid` and every process below it (threads are included in
    each process's own figures, proc(5))."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                parents[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
            except OSError:
                pass
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        total += parents.get(current, (0, 0))[1]
        stack.extend(child for child, (parent, _) in parents.items() if parent == current)
    return total / TICKS


def wait_for(name, port, work):
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    logs = os.path.join(work, "logs")
    text = "".join(open(os.path.join(logs, log)).read()[-2000:] for log in sorted(os.listdir(logs)))
    raise SystemExit(f"{name}: nothing listens on {port}\n{text}")


def run_wrk(url, headers):
    command = ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{DURATION}s", "-H", "Host: example.com"]
    for header in headers:
        command += ["-H", header]
    output = subprocess.run(command + [url], capture_output=True, text=True, timeout=DURATION + 30).stdout
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        raise SystemExit(f"{url}: {errors.group(1)} non-2xx responses\n{output}")
    return requests


def main():
    need("nginx", "nginx")
    need("h2o", "h2o")
    need("wrk", "wrk")
    subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    binary = os.environ.get("AASA_BINARY") or os.path.join(ROOT, ".build/release/aasa-server")
    work = tempfile.mkdtemp(prefix="aasa-http-bench-")
    os.chmod(work, 0o755)  # nginx workers run as another user
    processes = {}
    try:
        source, chain, key = prepare(work)
        floor = os.path.join(work, "canned")
        subprocess.run(["cc", "-O2", "-o", floor, os.path.join(ROOT, "bench/floor/canned.c"), "-lssl", "-lcrypto",
                        "-lpthread"], check=True)
        ports = {name: (free_port(), free_port()) for name in ["nginx", "h2o", "aasa-server", "floor"]}
        processes["nginx"] = start_nginx(work, ports["nginx"], chain, key)
        processes["h2o"] = start_h2o(work, ports["h2o"], chain, key)
        plain, secure = ports["aasa-server"]
        processes["aasa-server"] = subprocess.Popen(
            [binary, "serve", "--config", write(work, "aasa.json", "{}"), "--sites", os.path.join(work, "sites"),
             "--certs", os.path.join(work, "certs"), "--http", f"127.0.0.1:{plain}", "--https",
             f"127.0.0.1:{secure}", "--admin", "off", "--workers", "2", "--access-log", "off"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "logs/aasa.log"), "w"))
        plain, secure = ports["floor"]
        processes["floor"] = subprocess.Popen([floor, str(plain), "2", source], stdout=subprocess.DEVNULL)
        processes["floor-tls"] = subprocess.Popen([floor, str(secure), "2", source, chain, key],
                                                  stdout=subprocess.DEVNULL)
        for name, (plain, secure) in ports.items():
            wait_for(name, plain, work)
            wait_for(name, secure, work)
        check_answers(ports, work)
        results = measure(ports, processes)
        report(results)
    finally:
        for process in processes.values():
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


def prepare(work):
    """The example site's file and fallback.json for aasa-server, the file under nginx's and
    h2o's root, and one certificate: (the file, the chain, the key)."""
    source = os.path.join(ROOT, "Config/sites/example.com/apple-app-site-association")
    for folder in ["sites/example.com", "root/.well-known", "logs", "certs/example.com"]:
        os.makedirs(os.path.join(work, folder))
    shutil.copy(source, os.path.join(work, "sites/example.com/apple-app-site-association"))
    shutil.copy(source, os.path.join(work, "root/.well-known/apple-app-site-association"))
    shutil.copy(os.path.join(ROOT, "Config/sites/example.com/fallback.json"),
                os.path.join(work, "sites/example.com/fallback.json"))
    return (source, *make_certificate(work))


def write(work, name, text):
    path = os.path.join(work, name)
    with open(path, "w") as out:
        out.write(text)
    return path


def make_certificate(work):
    """A throw-away CA and an EC P-256 leaf for example.com, the same for every server."""
    def openssl(*arguments):
        subprocess.run(["openssl", *arguments], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    path = lambda name: os.path.join(work, name)
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", "/CN=bench CA", "-keyout", path("ca-key.pem"), "-out", path("ca.pem"))
    key = path("certs/example.com/privkey.pem")
    openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj",
            "/CN=example.com", "-keyout", key, "-out", path("leaf.csr"))
    write(work, "san.ext", "subjectAltName=DNS:example.com\n")
    openssl("x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca-key.pem"),
            "-CAcreateserial", "-days", "2", "-extfile", path("san.ext"), "-out", path("leaf.pem"))
    chain = path("certs/example.com/fullchain.pem")
    with open(chain, "w") as out:
        out.write(open(path("leaf.pem")).read() + open(path("ca.pem")).read())
    return chain, key


def nginx_config(work, ports, chain, key, workers=2, single_process=False):
    """nginx as teams deploy it for this file: sendfile, gzip on, application/json, a session
    cache and its default tickets; `single_process` for callgrind (no master process)."""
    plain, secure = ports
    logs = os.path.join(work, "logs")
    process = "master_process off;\n" if single_process else ""
    return write(work, f"nginx-{secure}.conf", f"""
worker_processes {workers};
daemon off;
{process}pid {work}/nginx-{secure}.pid;
error_log {logs}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  keepalive_timeout 30s;
  gzip on;
  gzip_types application/json;
  gzip_min_length 0;
  gzip_vary on;
  client_body_temp_path {logs};
  proxy_temp_path {logs};
  fastcgi_temp_path {logs};
  uwsgi_temp_path {logs};
  scgi_temp_path {logs};
  ssl_protocols TLSv1.2 TLSv1.3;
  ssl_session_cache shared:SSL:10m;
  ssl_certificate {chain};
  ssl_certificate_key {key};
  server {{
    listen 127.0.0.1:{plain};
    listen 127.0.0.1:{secure} ssl;
    server_name example.com;
    root {work}/root;
    location = {PATH} {{ default_type application/json; }}
    location /p/ {{ add_header Vary User-Agent; return 302 https://www.example.com$request_uri; }}
  }}
}}
""")


def start_nginx(work, ports, chain, key):
    """nginx with 2 workers (`nginx_config`)."""
    return subprocess.Popen(["nginx", "-c", nginx_config(work, ports, chain, key)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def start_h2o(work, ports, chain, key):
    """h2o with 2 threads, the file served from disk, gzip on."""
    plain, secure = ports
    config = write(work, "h2o.conf", f"""
num-threads: 2
compress: ON
file.mime.setdefaulttype: application/json
listen:
  host: 127.0.0.1
  port: {plain}
listen:
  host: 127.0.0.1
  port: {secure}
  ssl:
    certificate-file: {chain}
    key-file: {key}
    minimum-version: TLSv1.2
    ocsp-update-interval: 0
hosts:
  "example.com":
    paths:
      /.well-known:
        file.dir: {work}/root/.well-known
""")
    return subprocess.Popen(["h2o", "-c", config], stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(work, "logs/h2o-start.log"), "w"))


def check_answers(ports, work):
    for name, (plain, secure) in ports.items():
        for url in [f"http://127.0.0.1:{plain}{PATH}", f"https://example.com:{secure}{PATH}"]:
            code = subprocess.run(
                ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: example.com", "--cacert",
                 os.path.join(work, "ca.pem"), "--resolve", f"example.com:{secure}:127.0.0.1", url],
                capture_output=True, text=True, timeout=10).stdout
            if code != "200":
                raise SystemExit(f"{name} answered {code} for {url}")


def measure(ports, processes):
    """{scenario: {server: (median requests/s, median requests per server CPU-second)}}"""
    results = {}
    for scenario in SCENARIOS:
        tls = scenario.startswith("tls")
        headers = {"gzip": ["Accept-Encoding: gzip"], "close": ["Connection: close"],
                   "tls-close": ["Connection: close"]}.get(scenario, [])
        # The floor parses nothing: no gzip, no Connection: close; it and h2o have no fallback.
        servers = ["nginx", "h2o", "aasa-server"] + (["floor"] if scenario in ("keep-alive", "tls-keep-alive") else [])
        if scenario == "fallback":
            servers = ["nginx", "aasa-server"]
        path = FALLBACK_PATH if scenario == "fallback" else PATH
        runs = {server: [] for server in servers}
        for _ in range(ROUNDS):
            for server in servers:
                plain, secure = ports[server]
                url = f"https://127.0.0.1:{secure}{path}" if tls else f"http://127.0.0.1:{plain}{path}"
                pid = processes["floor-tls" if server == "floor" and tls else server].pid
                before = tree_cpu(pid)
                started = time.monotonic()
                requests = run_wrk(url, headers)
                seconds = time.monotonic() - started
                cpu = tree_cpu(pid) - before
                runs[server].append((requests / seconds, requests / cpu if cpu > 0 else float("nan")))
        medians = {
            server: (statistics.median(r for r, _ in values), statistics.median(c for _, c in values))
            for server, values in runs.items()
        }
        # Ratios per round (the servers of a round run back to back, so a slow spell of this
        # shared VM weighs on all of them), then their median and range.
        ours = [c for _, c in runs["aasa-server"]]
        peers = [name for name in ("nginx", "h2o") if name in runs]
        best = [max(runs[name][i][1] for name in peers) for i in range(ROUNDS)]
        ratios = {"peer": [o / b for o, b in zip(ours, best)]}
        if "floor" in runs:
            ratios["floor"] = [o / f for o, (_, f) in zip(ours, runs["floor"])]
        results[scenario] = (medians, ratios)
    return results


def report(results):
    print(f"\nrequests per server CPU-second (requests/s in brackets); {ROUNDS} alternating rounds of "
          f"{DURATION} s, medians; wrk -t1 -c{CONNECTIONS}; 2 workers each; {os.cpu_count()} cores; ratios are "
          "the median of each round's ratio (its range in brackets)\n")
    print("| scenario | nginx | h2o | aasa-server | floor | vs best peer | vs floor |")
    print("|---|---|---|---|---|---|---|")
    for scenario, (servers, ratios) in results.items():
        def cell(name):
            if name not in servers:
                return "—"
            rate, per_cpu = servers[name]
            return f"{per_cpu / 1000:.1f} k ({rate / 1000:.1f} k/s)"

        def ratio(name):
            if name not in ratios:
                return "—"
            values = ratios[name]
            return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"
        print(f"| {scenario} | {cell('nginx')} | {cell('h2o')} | {cell('aasa-server')} | {cell('floor')} | "
              f"{ratio('peer')} | {ratio('floor')} |")


if __name__ == "__main__":
    main()
