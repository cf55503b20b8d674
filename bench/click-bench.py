#!/usr/bin/env python3
"""The cost of a click: a new TLS connection with one request, aasa-server against nginx on
the same ECDSA P-256 certificate, in one run.

A tap on a link by someone without the app, an Android verifier's fetch and Apple's CDN's
first visit are each a new TLS connection with one request. This measures that workload for
the association file and for the fallback redirect (`/p/1` of a site with fallback.json:
aasa-server's 302 to the web, nginx's `return 302`), two ways:

1. Server CPU per connection: wrk over HTTPS with `Connection: close` (a full handshake per
   request: wrk keeps no sessions), utime + stime of each server's processes over the same
   run, 2 workers each, rounds alternating the servers, medians; the ratio nginx / aasa-server
   per round (above 1: aasa-server spends less).
2. Instructions per connection under `valgrind --tool=callgrind`: one worker, a Python client
   making N connections (handshake, GET, read to close) minus a run with none, divided by N;
   deterministic for a given binary, library and client. Handshakes: TLS 1.3 full, TLS 1.2
   full, TLS 1.3 resumed with the previous connection's ticket (the client of each row is the
   same for both servers).

    python3 bench/click-bench.py [seconds-per-run] [rounds] [callgrind-connections]
    (make bench-click; CLICK_PARTS="cpu" or "callgrind" runs one part, CLICK_SERVERS="aasa-server"
    measures one server)

Both servers run with their default ticket behaviour. Loopback only, every run bounded in
time. AASA_BINARY=PATH measures another build. Installs nginx and wrk with apt when missing.
"""
import importlib.util, os, re, shutil, signal, socket, ssl, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DURATION = int(sys.argv[1]) if len(sys.argv) > 1 else 4
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
CONNECTIONS = int(sys.argv[3]) if len(sys.argv) > 3 else 200
PARTS = os.environ.get("CLICK_PARTS", "cpu callgrind").split()
SERVERS = os.environ.get("CLICK_SERVERS", "nginx aasa-server").split()
PATHS = {"file": "/.well-known/apple-app-site-association", "redirect": "/p/1"}

spec = importlib.util.spec_from_file_location("http_bench", os.path.join(ROOT, "bench/http-bench.py"))
http_bench = importlib.util.module_from_spec(spec)
sys.argv, saved = sys.argv[:1], sys.argv
spec.loader.exec_module(http_bench)
sys.argv = saved


def aasa_command(binary, work, plain, secure, workers):
    return [binary, "serve", "--config", http_bench.write(work, "aasa.json", "{}"), "--sites",
            os.path.join(work, "sites"), "--certs", os.path.join(work, "certs"), "--http", f"127.0.0.1:{plain}",
            "--https", f"127.0.0.1:{secure}", "--admin", "off", "--workers", str(workers), "--access-log", "off"]


def stop(process):
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def cpu_per_click(binary, work, chain, key):
    """{path: {server: [µs of server CPU per connection, per round]}}"""
    ports = {name: (http_bench.free_port(), http_bench.free_port()) for name in ["nginx", "aasa-server"]}
    processes = {
        "nginx": subprocess.Popen(["nginx", "-c", http_bench.nginx_config(work, ports["nginx"], chain, key)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        "aasa-server": subprocess.Popen(aasa_command(binary, work, *ports["aasa-server"], 2),
                                        stdout=subprocess.DEVNULL,
                                        stderr=open(os.path.join(work, "logs/aasa.log"), "w")),
    }
    try:
        for name, (plain, secure) in ports.items():
            http_bench.wait_for(name, secure, work)
        results = {}
        for label, path in PATHS.items():
            runs = {name: [] for name in processes}
            for _ in range(ROUNDS):
                for name, process in processes.items():
                    url = f"https://127.0.0.1:{ports[name][1]}{path}"
                    before = http_bench.tree_cpu(process.pid)
                    requests = http_bench.run_wrk(url, ["Connection: close"])
                    cpu = http_bench.tree_cpu(process.pid) - before
                    runs[name].append(cpu / requests * 1e6)
            results[label] = runs
        return results
    finally:
        for process in processes.values():
            stop(process)


def client_connections(port, count, cafile, version, resume, path):
    """`count` connections, each a handshake, one GET of `path` and a read to the server's close."""
    context = ssl.create_default_context(cafile=cafile)
    context.maximum_version = version
    session = None
    for index in range(count + (1 if resume else 0)):
        with socket.create_connection(("127.0.0.1", port), timeout=60) as raw:
            with context.wrap_socket(raw, server_hostname="example.com", session=session) as tls:
                tls.sendall(f"GET {path} HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n".encode())
                answer = b""
                while chunk := tls.recv(65536):
                    answer += chunk
                if not answer.startswith((b"HTTP/1.1 200", b"HTTP/1.1 302")):
                    sys.exit(f"unexpected answer: {answer[:100]!r}")
                if resume:
                    if index > 0 and not tls.session_reused:
                        sys.exit("the session was not resumed")
                    session = tls.session


def callgrind_total(command, port, out, count, cafile, version, resume, path, work):
    process = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p", *command],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
    deadline = time.monotonic() + 120
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=30).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                stop(process)
                sys.exit(f"{command[0]} did not start under valgrind")
            time.sleep(0.2)
    client_connections(port, count, cafile, version, resume, path)
    # A dump on request, then SIGKILL: nginx under valgrind does not always stop on SIGTERM,
    # and the dump covers everything from the start, so the exit's own work is left out of
    # both servers' figures alike.
    subprocess.run(["callgrind_control", "--dump", str(process.pid)], check=True, stdout=subprocess.DEVNULL,
                   timeout=60)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            for name in os.listdir(work):
                if name.startswith(os.path.basename(out) + "."):
                    with open(os.path.join(work, name)) as data:
                        totals = [int(line.split()[1]) for line in data if line.startswith(("totals:", "summary:"))]
                    if totals:
                        return totals[0]
            time.sleep(0.2)
        sys.exit(f"no callgrind dump of {command[0]}")
    finally:
        process.kill()
        process.wait()
        for name in os.listdir(work):
            if name.startswith(os.path.basename(out) + "."):
                os.remove(os.path.join(work, name))


def instructions_per_click(binary, work, chain, key):
    """{handshake: {server: instructions per connection}}"""
    stripped = os.path.join(work, "aasa-server")
    subprocess.run(["strip", "--strip-debug", "-o", stripped, binary], check=True)
    cafile = os.path.join(work, "ca.pem")
    file, redirect = PATHS["file"], PATHS["redirect"]
    cases = {"TLS 1.3 full, the file": (ssl.TLSVersion.TLSv1_3, False, file),
             "TLS 1.3 full, the redirect": (ssl.TLSVersion.TLSv1_3, False, redirect),
             "TLS 1.2 full, the file": (ssl.TLSVersion.TLSv1_2, False, file),
             "TLS 1.3 resumed, the file": (ssl.TLSVersion.TLSv1_3, True, file),
             "TLS 1.2 resumed, the file": (ssl.TLSVersion.TLSv1_2, True, file)}
    results = {}
    for label, (version, resume, path) in cases.items():
        results[label] = {}
        for name in SERVERS:
            totals = []
            for count in [0, CONNECTIONS]:
                plain, secure = http_bench.free_port(), http_bench.free_port()
                if name == "nginx":
                    config = http_bench.nginx_config(work, (plain, secure), chain, key, 1, single_process=True)
                    command = ["nginx", "-c", config]
                else:
                    command = aasa_command(stripped, work, plain, secure, 1)
                out = os.path.join(work, f"callgrind.{name}.{count}")
                # A resumed case starts with a full handshake in both runs, so it cancels out.
                totals.append(callgrind_total(command, secure, out, count, cafile, version, resume, path, work))
            results[label][name] = (totals[1] - totals[0]) / CONNECTIONS
    return results


def main():
    http_bench.need("nginx", "nginx")
    http_bench.need("wrk", "wrk")
    subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    binary = os.environ.get("AASA_BINARY") or os.path.join(ROOT, ".build/release/aasa-server")
    work = tempfile.mkdtemp(prefix="aasa-click-bench-")
    os.chmod(work, 0o755)  # nginx workers run as another user
    try:
        _, chain, key = http_bench.prepare(work)
        if "cpu" in PARTS:
            results = cpu_per_click(binary, work, chain, key)
            print(f"\nserver CPU per connection (µs; utime+stime over the same wrk run: wrk -t1 -c{http_bench.CONNECTIONS}"
                  f" -d{DURATION}s, Connection: close, TLS 1.3, ECDSA P-256); {ROUNDS} alternating rounds, medians;"
                  " ratio nginx / aasa-server per round, median (range)\n")
            print("| click | nginx | aasa-server | ratio |")
            print("|---|---|---|---|")
            for label, runs in results.items():
                ratios = [n / a for n, a in zip(runs["nginx"], runs["aasa-server"])]
                print(f"| {label} | {statistics.median(runs['nginx']):.0f} µs | "
                      f"{statistics.median(runs['aasa-server']):.0f} µs | {statistics.median(ratios):.2f}x "
                      f"({min(ratios):.2f}-{max(ratios):.2f}) |")
        if "callgrind" in PARTS:
            results = instructions_per_click(binary, work, chain, key)
            print(f"\ninstructions per connection under callgrind (one worker; {CONNECTIONS} connections, each a "
                  "handshake, one GET and the server's close, minus a run with none; a Python client)\n")
            print("| handshake | nginx | aasa-server | ratio |")
            print("|---|---|---|---|")
            for label, servers in results.items():
                figures = [f"{servers[name] / 1e6:.2f} M" if name in servers else "—" for name in ["nginx", "aasa-server"]]
                ratio = f"{servers['nginx'] / servers['aasa-server']:.2f}x" if len(servers) == 2 else "—"
                print(f"| {label} | {figures[0]} | {figures[1]} | {ratio} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
