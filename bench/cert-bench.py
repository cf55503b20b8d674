#!/usr/bin/env python3
"""aasa-server with a certificate per customer domain: start-up, memory, first handshakes.

For each count N (default 10,000 and 100,000) it generates N sites, each with a 420-byte
apple-app-site-association and its own ECDSA P-256 certificate (a throwaway CA signs them with
Python's `cryptography`; one leaf key is reused, hard-linked into every folder, which costs the
server what N different keys would: each pair's files are read as their own), starts the release
binary on loopback and prints:

- start-up: spawn until the first TLS handshake (a name no handshake asked for before) completes,
  and the server's CPU-seconds until then;
- resident memory then, and after the latency rounds;
- a handshake's latency (TCP connect + TLS 1.3 handshake, Python's ssl, verified against the CA)
  for names not yet loaded, then for the same names again (loaded): medians and p90;
- a changed certificate: one folder's fullchain.pem renamed over by a new certificate, until a
  handshake presents the new serial;
- the size of /metrics.

At 10,000 the same run starts nginx (one server block per name, every certificate loaded at
start, 2 workers) on the same folders and measures its start-up, memory (the master's and
workers' PSS) and handshake latency.

    python3 bench/cert-bench.py [N ...]        (make bench-certs; CERTS="10000 100000")

A benchmark, not a test: figures are printed, nothing is asserted. Needs python3-cryptography.
"""
import datetime, os, shutil, signal, socket, ssl, statistics, subprocess, sys, tempfile, time, urllib.request

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

counts = [int(arg) for arg in sys.argv[1:]] or [10_000, 100_000]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.environ.get("AASA_BINARY", os.path.join(root, ".build/release/aasa-server"))
SAMPLES = 200
AASA = (b'{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": '
        b'[{"/": "/buy/*"}]}]}}' + b" " * 330 + b"\n")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def name_of(index):
    return f"shop{index}.customer.test"


class Authority:
    """A throwaway CA and the one leaf key its certificates certify."""

    def __init__(self, work):
        self.key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "bench CA")])
        now = datetime.datetime.now(datetime.timezone.utc)
        self.name = subject
        self.cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
                     .public_key(self.key.public_key()).serial_number(x509.random_serial_number())
                     .not_valid_before(now - datetime.timedelta(days=1))
                     .not_valid_after(now + datetime.timedelta(days=365))
                     .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                     .sign(self.key, hashes.SHA256()))
        self.ca_file = os.path.join(work, "ca.pem")
        with open(self.ca_file, "wb") as out:
            out.write(self.cert.public_bytes(serialization.Encoding.PEM))
        self.leaf_key = ec.generate_private_key(ec.SECP256R1())
        self.key_file = os.path.join(work, "leaf-key.pem")
        with open(self.key_file, "wb") as out:
            out.write(self.leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                  serialization.NoEncryption()))

    def chain(self, name, serial=None):
        now = datetime.datetime.now(datetime.timezone.utc)
        cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
                .issuer_name(self.name).public_key(self.leaf_key.public_key())
                .serial_number(serial or x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(hours=1))
                .not_valid_after(now + datetime.timedelta(days=90))
                .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
                .sign(self.key, hashes.SHA256()))
        return cert.public_bytes(serialization.Encoding.PEM) + self.cert.public_bytes(serialization.Encoding.PEM)


def generate(work, count, authority):
    sites, certs = os.path.join(work, "sites"), os.path.join(work, "certs")
    os.makedirs(sites)
    os.makedirs(certs)
    aasa_file = os.path.join(work, "aasa.json")
    with open(aasa_file, "wb") as out:
        out.write(AASA)
    def source(path, index):
        """A copy of `path` per 50,000 links (ext4 allows 65,000 links to one file)."""
        copy = f"{path}.{index // 50_000}"
        if not os.path.exists(copy):
            shutil.copyfile(path, copy)
            os.chmod(copy, 0o644)
        return copy

    started = time.monotonic()
    for index in range(count):
        name = name_of(index)
        os.mkdir(os.path.join(sites, name))
        os.link(source(aasa_file, index), os.path.join(sites, name, "apple-app-site-association"))
        folder = os.path.join(certs, name)
        os.mkdir(folder)
        with open(os.path.join(folder, "fullchain.pem"), "wb") as out:
            out.write(authority.chain(name))
        os.link(source(authority.key_file, index), os.path.join(folder, "privkey.pem"))
    print(f"generated {count} sites and certificates in {time.monotonic() - started:.0f} s")
    return sites, certs


def client_context(authority):
    context = ssl.create_default_context(cafile=authority.ca_file)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    return context


def handshake(port, name, context, timeout=30):
    """Seconds for connect + handshake, and the peer certificate's serial (DER bytes' hash)."""
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as raw:
        with context.wrap_socket(raw, server_hostname=name) as tls:
            elapsed = time.perf_counter() - started
            return elapsed, tls.getpeercert(binary_form=True)


def wait_until(condition, deadline_seconds):
    started = time.monotonic()
    while time.monotonic() - started < deadline_seconds:
        try:
            if condition():
                return time.monotonic() - started
        except (OSError, ssl.SSLError):
            pass
        time.sleep(0.01)
    return None


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def pss_mib(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as text:
            return [int(child) for child in text.read().split()]
    except OSError:
        return []


def latencies(port, names, context):
    return [handshake(port, name, context)[0] * 1000 for name in names]


def summary(values):
    ordered = sorted(values)
    return f"median {statistics.median(ordered):.2f} ms, p90 {ordered[int(len(ordered) * 0.9)]:.2f} ms"


def run_aasa(work, count, sites, certs, authority):
    https, admin_port = free_port(), free_port()
    log = open(os.path.join(work, "server.log"), "w")
    config = os.path.join(work, "aasa-server.json")  # not the repository's Config/aasa-server.json
    with open(config, "w") as out:
        out.write("{}\n")
    command = [binary, "serve", "--config", config, "--sites", sites, "--certs", certs, "--https", f"127.0.0.1:{https}", "--http", "off",
               "--admin", f"127.0.0.1:{admin_port}", "--access-log", "off", "--workers", "2"]
    context = client_context(authority)
    started = time.monotonic()
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    figures = {}
    try:
        first = wait_until(
            lambda: server.poll() is not None or handshake(https, name_of(count // 2), context, timeout=2), 600)
        if server.poll() is not None:
            return figures
        figures["first handshake after start"] = f"{first:.1f} s" if first is not None else "none within 600 s"
        # The server's own CPU until then: what other work on the machine inflates far less than
        # the wall time.
        figures["server CPU until then"] = f"{cpu_seconds(server.pid):.1f} CPU-s"
        figures["resident memory then"] = f"{rss_mib(server.pid):.0f} MiB"
        # Names no handshake asked for, spread over the folder; then the same names again.
        step = max(1, count // SAMPLES)
        names = [name_of(index) for index in range(1, count, step)][:SAMPLES]
        cold = latencies(https, names, context)
        warm = latencies(https, names, context)
        figures["handshake, name not yet loaded"] = summary(cold)
        figures["handshake, name loaded"] = summary(warm)
        figures["ratio of medians (not loaded / loaded)"] = f"{statistics.median(cold) / statistics.median(warm):.2f}"
        # A changed certificate: written beside, renamed over (as certbot and ACME do).
        changed = name_of(7)
        before = handshake(https, changed, context)[1]
        path = os.path.join(certs, changed, "fullchain.pem")
        with open(path + ".new", "wb") as out:
            out.write(authority.chain(changed))
        cpu_before = cpu_seconds(server.pid)
        renamed = time.monotonic()
        os.rename(path + ".new", path)
        served = wait_until(lambda: handshake(https, changed, context, timeout=2)[1] != before, 120)
        figures["changed certificate served after"] = (
            f"{served:.2f} s, {cpu_seconds(server.pid) - cpu_before:.2f} CPU-s" if served is not None else "not within 120 s")
        with urllib.request.urlopen(f"http://127.0.0.1:{admin_port}/metrics", timeout=60) as response:
            figures["/metrics"] = f"{len(response.read()) / 1024:.1f} KiB"
        figures["resident memory at the end"] = f"{rss_mib(server.pid):.0f} MiB"
        del renamed
    finally:
        if server.poll() is not None:
            log.flush()
            with open(os.path.join(work, "server.log")) as text:
                print(f"aasa-server exited with {server.returncode}:\n" + "".join(text.readlines()[-20:]))
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    return figures


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_nginx(work, count, sites, certs, authority):
    port = free_port()
    logs = os.path.join(work, "logs")
    os.makedirs(logs, exist_ok=True)
    blocks = []
    for index in range(count):
        name = name_of(index)
        blocks.append(f"  server {{ listen 127.0.0.1:{port} ssl; server_name {name};\n"
                      f"    ssl_certificate {certs}/{name}/fullchain.pem;\n"
                      f"    ssl_certificate_key {certs}/{name}/privkey.pem;\n"
                      f"    root {sites}/{name}; }}\n")
    config = os.path.join(work, "nginx.conf")
    with open(config, "w") as out:
        out.write(f"""worker_processes 2;
daemon off;
pid {work}/nginx.pid;
error_log {logs}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  server_names_hash_max_size {max(512, count * 2)};
  server_names_hash_bucket_size 128;
  ssl_protocols TLSv1.2 TLSv1.3;
  client_body_temp_path {logs};
  proxy_temp_path {logs};
  fastcgi_temp_path {logs};
  uwsgi_temp_path {logs};
  scgi_temp_path {logs};
{''.join(blocks)}}}
""")
    context = client_context(authority)
    server = subprocess.Popen(["nginx", "-c", config, "-e", os.path.join(logs, "stderr.log")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    figures = {}
    try:
        first = wait_until(lambda: handshake(port, name_of(count // 2), context, timeout=2), 600)
        figures["first handshake after start"] = f"{first:.1f} s" if first is not None else "none within 600 s"
        figures["memory then (PSS, master and workers)"] = f"{pss_mib([server.pid] + children(server.pid)):.0f} MiB"
        step = max(1, count // SAMPLES)
        names = [name_of(index) for index in range(1, count, step)][:SAMPLES]
        figures["handshake, first time a name is asked"] = summary(latencies(port, names, context))
        figures["handshake, again"] = summary(latencies(port, names, context))
    finally:
        server.send_signal(signal.SIGQUIT)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
    return figures


def main():
    if not os.path.exists(binary):
        subprocess.run(["swift", "build", "-c", "release"], cwd=root, check=True, stdout=subprocess.DEVNULL)
    for count in counts:
        work = tempfile.mkdtemp(prefix="aasa-certs-")
        os.chmod(work, 0o755)  # nginx workers run as another user
        try:
            authority = Authority(work)
            sites, certs = generate(work, count, authority)
            for path in [authority.key_file]:
                os.chmod(path, 0o644)
            results = {"aasa-server": run_aasa(work, count, sites, certs, authority)}
            if count <= 10_000 and shutil.which("nginx"):
                results["nginx"] = run_nginx(work, count, sites, certs, authority)
            for server, figures in results.items():
                print(f"\n{server}, {count} sites with a certificate each:")
                for label, value in figures.items():
                    print(f"  {label}: {value}")
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
