#!/usr/bin/env python3
"""aasa-server with many sites: start-up, memory, and what one change costs.

Generates N site folders (default 100,000), each with a 420-byte apple-app-site-association,
in a temporary folder, starts the release binary on free loopback ports, and prints:
start-up until every site answers, resident memory (and per site), the time and server CPU
for one changed file, one new folder and one removed folder to be served, the peak memory
of a full rescan (SIGHUP), and the sizes of /metrics and the status page.

    python3 bench/scale-bench.py [sites]        (make bench-scale; SITES=N)

A benchmark, not a test: figures are printed, nothing is asserted.
"""
import json, os, random, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request

count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, ".build/release/aasa-server")
TICKS = os.sysconf("SC_CLK_TCK")


def aasa(index, version=0):
    """A 420-byte file (give or take a few) that differs per site and per version."""
    body = {
        "applinks": {
            "details": [
                {
                    "appIDs": [f"ABCDE{index % 100000:05d}.com.example.app{version}"],
                    "components": [
                        {"/": f"/site{index}/*", "comment": "the site's own pages"},
                        {"/": "/help/*", "exclude": True},
                        {"/": "/products/*", "?": {"ref": "?*"}},
                    ],
                }
            ]
        },
        "webcredentials": {"apps": [f"ABCDE{index % 100000:05d}.com.example.app"]},
    }
    text = json.dumps(body, indent=1)
    return (text + " " * max(0, 420 - len(text) - 1) + "\n").encode()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status_of(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def rss_kib(pid, key="VmRSS"):
    return int(status_of(pid)[key].split()[0])


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def get(port, host, path="/.well-known/apple-app-site-association", timeout=5):
    """Status and body of one GET over a fresh connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def admin(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=120) as response:
        return response.read()


def wait_until(condition, deadline_seconds):
    """Seconds until `condition()` holds, polled; None past the deadline."""
    started = time.monotonic()
    while time.monotonic() - started < deadline_seconds:
        try:
            if condition():
                return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.005)
    return None


def measured_change(pid, action, condition, deadline=60):
    """Wall time until `condition` holds after `action`, and the server's CPU over it (plus a
    quiet second after, so work that goes on once the change is visible is counted)."""
    cpu_before = cpu_seconds(pid)
    action()
    seconds = wait_until(condition, deadline)
    time.sleep(1.0)
    return seconds, cpu_seconds(pid) - cpu_before


def main():
    if not os.path.exists(binary):
        subprocess.run(["swift", "build", "-c", "release"], cwd=root, check=True, stdout=subprocess.DEVNULL)
    work = tempfile.mkdtemp(prefix="aasa-scale-")
    sites = os.path.join(work, "sites")
    os.makedirs(sites)
    started = time.monotonic()
    file_bytes = 0
    for index in range(count):
        folder = os.path.join(sites, f"site{index}.example.com")
        os.mkdir(folder)
        body = aasa(index)
        file_bytes += len(body)
        with open(os.path.join(folder, "apple-app-site-association"), "wb") as out:
            out.write(body)
    print(f"generated {count} sites ({file_bytes / count:.0f} bytes each) in {time.monotonic() - started:.1f} s")

    http, admin_port = free_port(), free_port()
    config = os.path.join(work, "aasa-server.json")
    with open(config, "w") as out:
        out.write("{}\n")
    command = [binary, "serve", "--config", config, "--sites", sites, "--http", f"127.0.0.1:{http}",
               "--admin", f"127.0.0.1:{admin_port}", "--access-log", "off"]
    log = open(os.path.join(work, "server.log"), "w")
    started = time.monotonic()
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    rows = []
    try:
        last = f"site{count - 1}.example.com"
        ready = wait_until(lambda: server.poll() is not None or get(http, last)[0] == 200, 300)
        if ready is None or server.poll() is not None:
            log.flush()
            with open(log.name) as text:
                sys.stderr.write(text.read()[-4000:])
            raise SystemExit("the server did not answer within 300 s")
        startup = time.monotonic() - started
        sample = random.Random(7).sample(range(count), min(count, 300))
        missing = [i for i in sample if get(http, f"site{i}.example.com")[0] != 200]
        time.sleep(1.0)
        rss = rss_kib(server.pid)
        rows.append(("start until every site answers", f"{startup:.2f} s",
                     f"{len(sample) - len(missing)}/{len(sample)} sampled sites 200"))
        rows.append(("resident memory", f"{rss / 1024:.0f} MiB",
                     f"{rss * 1024 / count:,.0f} bytes per site ({file_bytes / count:.0f} of them the file)"))

        changed_index = count // 2
        changed_host = f"site{changed_index}.example.com"
        new_body = aasa(changed_index, version=1)

        def write_change():
            path = os.path.join(sites, changed_host, "apple-app-site-association")
            with open(path + ".tmp", "wb") as out:
                out.write(new_body)
            os.rename(path + ".tmp", path)

        seconds, cpu = measured_change(server.pid, write_change, lambda: get(http, changed_host)[1] == new_body)
        rows.append(("one file changed -> served", fmt(seconds), f"{cpu:.2f} CPU-s"))

        new_host = "new-site.example.com"

        def add_site():
            folder = os.path.join(sites, ".new-site.tmp")
            os.mkdir(folder)
            with open(os.path.join(folder, "apple-app-site-association"), "wb") as out:
                out.write(aasa(count))
            os.rename(folder, os.path.join(sites, new_host))

        seconds, cpu = measured_change(server.pid, add_site, lambda: get(http, new_host)[0] == 200)
        rows.append(("a new site folder -> served", fmt(seconds), f"{cpu:.2f} CPU-s"))

        removed_host = "site1.example.com"
        seconds, cpu = measured_change(
            server.pid, lambda: shutil.rmtree(os.path.join(sites, removed_host)),
            lambda: get(http, removed_host)[0] == 404)
        rows.append(("a removed site folder -> 404", fmt(seconds), f"{cpu:.2f} CPU-s"))

        # Peak resident memory over a full rescan: VmHWM is reset first (proc(5), clear_refs 5).
        steady = rss_kib(server.pid)
        with open(f"/proc/{server.pid}/clear_refs", "w") as refs:
            refs.write("5")
        before = reload_count(admin_port)
        seconds, cpu = measured_change(
            server.pid, lambda: os.kill(server.pid, signal.SIGHUP), lambda: reload_count(admin_port) > before, 300)
        peak = rss_kib(server.pid, "VmHWM")
        rows.append(("SIGHUP full rescan", fmt(seconds),
                     f"{cpu:.2f} CPU-s, peak {peak / 1024:.0f} MiB = {peak / steady:.2f}x steady"))

        started = time.monotonic()
        metrics = admin(admin_port, "/metrics")
        rows.append(("/metrics", f"{len(metrics) / 1024:,.1f} KiB", f"{time.monotonic() - started:.3f} s"))
        started = time.monotonic()
        page = admin(admin_port, "/")
        rows.append(("status page", f"{len(page) / 1024:,.1f} KiB", f"{time.monotonic() - started:.3f} s"))
        started = time.monotonic()
        found = admin(admin_port, "/?q=site4242")
        rows.append(("status page ?q=site4242", f"{len(found) / 1024:,.1f} KiB", f"{time.monotonic() - started:.3f} s"))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)

    print(f"\naasa-server, {count:,} sites, release build, {os.cpu_count()} cores\n")
    print("| measure | value | detail |\n| --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def fmt(seconds):
    return "not within the deadline" if seconds is None else f"{seconds:.3f} s"


def reload_count(port):
    text = admin(port, "/metrics").decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("aasa_reloads_total"))


if __name__ == "__main__":
    main()
