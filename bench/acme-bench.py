#!/usr/bin/env python3
"""aasa-server with `--acme on` and many customer sites: CPU after start and per reload.

For each count N (default 10,000) and each variant it generates N site folders (a 420-byte
apple-app-site-association each, hard-linked), starts Let's Encrypt's test CA (Debian's
`pebble`) and its DNS server (`pebble-challtestsrv`) on loopback, and the release binary with
`--acme on` against them, the pre-flight asking that DNS (`--acme-preflight-resolver`):

- `dns`: no certificate held, and every name resolves to 127.0.0.2, where nothing listens:
  every name is checked once and becomes `waiting_dns` (nothing is ordered; the next check is
  a minute later);
- `held`: all but 1 % of the names hold a valid certificate in the certificates folder's
  `acme/` (as if ACME had stored them: a throwaway CA signs them, 90 days, one key reused,
  with an authority key identifier, so each is asked about at the issuer's renewalInfo, which
  Pebble does not offer); the rest resolve to 127.0.0.2 and wait for their DNS.

It prints the server's CPU seconds (utime + stime of /proc/PID/stat) at moments after the
spawn, when it stopped growing (idle: under 0.02 CPU-s in 3 s), the CPU of each of three
SIGHUP reloads (until idle again), the counts `aasa_acme_certificates{state}`, the size of
/metrics and the CPU of one /metrics, one status page and one /sites.json.

    python3 bench/acme-bench.py [N ...] [--variant dns|held|both]     (make bench-acme)

A benchmark, not a test: figures are printed, nothing is asserted. Needs pebble and
python3-cryptography. The load average is printed with the figures: read CPU seconds, not
wall time, on a busy machine.
"""
import argparse, datetime, json, os, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.environ.get("AASA_BINARY", os.path.join(root, ".build/release/aasa-server"))
AASA = (b'{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": '
        b'[{"/": "/buy/*"}]}]}}' + b" " * 330 + b"\n")
TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def name_of(index):
    return f"shop{index}.customer.test"


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def wait_idle(pid, started_cpu, limit, quiet=3.0, threshold=0.02, step=0.25):
    """Samples CPU until it grew less than `threshold` in `quiet` seconds (or `limit` passed).
    Returns (seconds until the last growth, CPU-s since `started_cpu`, samples)."""
    begun = time.monotonic()
    samples = [(0.0, cpu_seconds(pid) - started_cpu)]
    while time.monotonic() - begun < limit:
        time.sleep(step)
        now = time.monotonic() - begun
        samples.append((now, cpu_seconds(pid) - started_cpu))
        if int(now / 10) != int(samples[-2][0] / 10):
            print(f"  {now:.0f} s: {samples[-1][1]:.2f} CPU-s", flush=True)
        window = [cpu for moment, cpu in samples if moment >= now - quiet]
        if now >= quiet and window[-1] - window[0] < threshold:
            # Idle since the last sample that grew by more than a tick's noise.
            last = max((m for (m, c), (_, p) in zip(samples[1:], samples) if c - p > threshold / 4), default=0.0)
            return last, samples[-1][1], samples
    return None, samples[-1][1], samples


class Authority:
    """A throwaway CA and the one leaf key its certificates certify."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "bench CA")])
        now = datetime.datetime.now(datetime.timezone.utc)
        self.cert = (x509.CertificateBuilder().subject_name(self.name).issuer_name(self.name)
                     .public_key(self.key.public_key()).serial_number(x509.random_serial_number())
                     .not_valid_before(now - datetime.timedelta(days=1))
                     .not_valid_after(now + datetime.timedelta(days=365))
                     .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                     .sign(self.key, hashes.SHA256()))
        self.leaf_key = ec.generate_private_key(ec.SECP256R1())
        self.key_pem = self.leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                   serialization.NoEncryption())

    def chain(self, name):
        now = datetime.datetime.now(datetime.timezone.utc)
        cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
                .issuer_name(self.name).public_key(self.leaf_key.public_key())
                .serial_number(x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(hours=1))
                .not_valid_after(now + datetime.timedelta(days=90))
                .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
                # As a CA's: with it each certificate is asked about at the issuer (RFC 9773 CertID).
                .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()),
                               critical=False)
                .sign(self.key, hashes.SHA256()))
        return cert.public_bytes(serialization.Encoding.PEM) + self.cert.public_bytes(serialization.Encoding.PEM)


def generate(work, count, held):
    """N site folders; the first `held` names with a certificate under certs/acme/NAME."""
    sites, certs = os.path.join(work, "sites"), os.path.join(work, "certs")
    acme = os.path.join(certs, "acme")
    os.makedirs(sites)
    os.makedirs(acme, mode=0o700)
    aasa = os.path.join(work, "aasa.json")
    with open(aasa, "wb") as out:
        out.write(AASA)
    authority = Authority() if held else None
    key_file = os.path.join(work, "leaf-key.pem")
    if authority:
        with open(key_file, "wb") as out:
            out.write(authority.key_pem)
        os.chmod(key_file, 0o600)
    started = time.monotonic()
    for index in range(count):
        name = name_of(index)
        os.mkdir(os.path.join(sites, name))
        os.link(aasa, os.path.join(sites, name, "apple-app-site-association"))
        if index < held:
            folder = os.path.join(acme, name)
            os.mkdir(folder, 0o700)
            with open(os.path.join(folder, "fullchain.pem"), "wb") as out:
                out.write(authority.chain(name))
            # One key for every certificate, hard-linked (ext4 allows 65,000 links to one file).
            if index % 50_000 == 0:
                key_file = os.path.join(work, f"leaf-key-{index}.pem")
                with open(key_file, "wb") as out:
                    out.write(authority.key_pem)
                os.chmod(key_file, 0o600)
            os.link(key_file, os.path.join(folder, "privkey.pem"))
    print(f"generated {count} sites, {held} with a certificate, in {time.monotonic() - started:.0f} s", flush=True)
    return sites, certs


class Pebble:
    """pebble and pebble-challtestsrv on loopback; every name resolves to `address`."""

    def __init__(self, work, http_port, https_port, address):
        self.work = work
        self.directory_port, self.management_port = free_port(), free_port()
        self.dns_port, self.dns_management_port = free_port(), free_port()
        self.listener = os.path.join(work, "pebble-cert.pem")
        key = os.path.join(work, "pebble-key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-days", "2", "-subj", "/CN=pebble", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                        "-keyout", key, "-out", self.listener], check=True, capture_output=True)
        config = os.path.join(work, "pebble.json")
        with open(config, "w") as out:
            json.dump({"pebble": {"listenAddress": f"127.0.0.1:{self.directory_port}",
                                  "managementListenAddress": f"127.0.0.1:{self.management_port}",
                                  "certificate": self.listener, "privateKey": key, "httpPort": http_port,
                                  "tlsPort": https_port, "ocspResponderURL": "",
                                  "externalAccountBindingRequired": False}}, out)
        self.log = open(os.path.join(work, "pebble.log"), "w")
        self.processes = [
            subprocess.Popen(["pebble-challtestsrv", "-defaultIPv4", address, "-defaultIPv6", "",
                              "-dns01", f"127.0.0.1:{self.dns_port}", "-http01", "", "-https01", "", "-tlsalpn01", "",
                              "-management", f"127.0.0.1:{self.dns_management_port}"],
                             stdout=self.log, stderr=self.log),
            subprocess.Popen(["pebble", "-config", config, "-dnsserver", f"127.0.0.1:{self.dns_port}"],
                             stdout=self.log, stderr=self.log, env={**os.environ, "PEBBLE_VA_NOSLEEP": "1"}),
        ]
        deadline = time.monotonic() + 20
        for port in [self.directory_port, self.dns_management_port]:
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)

    @property
    def directory(self):
        return f"https://127.0.0.1:{self.directory_port}/dir"

    def stop(self):
        for process in self.processes:
            process.kill()
            process.wait()
        self.log.close()


def admin_get(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=120) as response:
        return response.read()


def states(metrics):
    found = {}
    for line in metrics.decode().splitlines():
        if line.startswith("aasa_acme_certificates{"):
            label, value = line.split(" ")
            found[label.split('"')[1]] = int(float(value))
    return found


def run(count, variant, seconds):
    work = tempfile.mkdtemp(prefix="aasa-acme-bench-")
    held = 0 if variant == "dns" else count - count // 100
    figures = {}
    try:
        sites, certs = generate(work, count, held)
        http, https, admin = free_port(), free_port(), free_port()
        pebble = Pebble(work, http, https, "127.0.0.2")
        config = os.path.join(work, "aasa-server.json")  # not the repository's Config/aasa-server.json
        with open(config, "w") as out:
            out.write("{}\n")
        command = [binary, "serve", "--config", config, "--sites", sites, "--certs", certs,
                   "--http", f"127.0.0.1:{http}", "--https", f"127.0.0.1:{https}", "--admin", f"127.0.0.1:{admin}",
                   "--access-log", "off", "--workers", "2", "--acme", "on", "--acme-directory", pebble.directory,
                   "--acme-directory-ca", pebble.listener, "--acme-email", "bench@example.com",
                   "--acme-challenges", "http-01", "--acme-on-demand", "off",
                   "--acme-preflight-resolver", f"127.0.0.1:{pebble.dns_port}", "--acme-preflight-port", str(http)]
        log = open(os.path.join(work, "server.log"), "w")
        load = os.getloadavg()[0]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
        try:
            idle, total, samples = wait_idle(server.pid, 0.0, seconds)
            if server.poll() is not None:
                raise RuntimeError(f"aasa-server exited with {server.returncode}")
            # Past the last sample the server was idle: its total then.
            at = [next((cpu for moment, cpu in samples if moment >= mark), total) for mark in [5, 10, 20, 30, 60]]
            figures["CPU-s after 5/10/20/30/60 s"] = " / ".join(f"{value:.2f}" for value in at)
            figures["idle after"] = (f"{idle:.1f} s, {total:.2f} CPU-s in all" if idle is not None
                                     else f"not within {seconds} s ({total:.2f} CPU-s)")
            metrics = admin_get(admin, "/metrics")
            figures["aasa_acme_certificates"] = states(metrics)
            reloads = []
            for _ in range(3):
                before = cpu_seconds(server.pid)
                server.send_signal(signal.SIGHUP)
                _, spent, _ = wait_idle(server.pid, before, 120, quiet=2.0)
                reloads.append(spent)
            figures["CPU-s per SIGHUP reload"] = ", ".join(f"{value:.2f}" for value in reloads)
            for path in ["/metrics", "/", "/sites.json"]:
                before = cpu_seconds(server.pid)
                size = len(admin_get(admin, path))
                time.sleep(0.2)
                figures[f"GET {path}"] = f"{size / 1024:.1f} KiB, {cpu_seconds(server.pid) - before:.2f} CPU-s"
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(60)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()
            pebble.stop()
            if server.returncode not in (0, None):
                with open(os.path.join(work, "server.log")) as text:
                    print("".join(text.readlines()[-20:]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\naasa-server --acme on, {count} sites, variant {variant} ({held} certificates held), "
          f"load average {load:.1f} at start:")
    for label, value in figures.items():
        print(f"  {label}: {value}")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", nargs="*", type=int, default=[10_000])
    parser.add_argument("--variant", choices=["dns", "held", "both"], default="both")
    parser.add_argument("--seconds", type=int, default=240, help="longest wait for idle after start")
    arguments = parser.parse_args()
    if not os.path.exists(binary):
        subprocess.run(["swift", "build", "-c", "release"], cwd=root, check=True, stdout=subprocess.DEVNULL)
    for count in arguments.counts:
        for variant in (["dns", "held"] if arguments.variant == "both" else [arguments.variant]):
            run(count, variant, arguments.seconds)


if __name__ == "__main__":
    main()
