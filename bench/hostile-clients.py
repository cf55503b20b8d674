#!/usr/bin/env python3
"""The hostile-client attacks of docs/security.md against aasa-server and nginx, one after the
other in one run, on the same 110 KiB file, each server with one worker (one loop):

  pipelining: 20 clients each send 64 KiB of pipelined GETs for the file and never read;
              the server's resident memory growth (peak over 2 s).
  blank lines: 8 clients stream CR LF as fast as the server takes them for 8 s
              (Tests/Peers/blank-line-stream.py) while another asks for the file every 0.2 s
              with a 3 s timeout; its worst wait, its timeouts, and memory growth.
  half-open handshakes: 6,000 connections each send one real ClientHello (captured from
              `openssl s_client`) and never finish the handshake; resident memory before, at
              its peak, and 3 s after they all close; whether a real HTTPS client is served
              meanwhile. aasa-server at its default caps (docs/security.md, "Connections and
              handshakes in total"), nginx with `worker_connections 4096`.
  idle, then half-open: 2,000 TLS keep-alive connections make one request each and stay
              idle, then the same 6,000 ClientHellos: the peak (the worst the default caps
              allow: 1,000 handshakes in progress, the rest idle).

    python3 bench/hostile-clients.py          (make bench-hostile; needs a release build)

Loopback only, every run bounded in time. Installs nginx with apt when missing."""
import os, resource, shutil, socket, ssl, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = "/.well-known/apple-app-site-association"
BINARY = os.path.join(ROOT, ".build/release/aasa-server")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def resident_kib(pid):
    """VmRSS of `pid` and its children (nginx's master and worker)."""
    total = 0
    pids = [pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
                    .stdout.split()]
    for each in pids:
        try:
            with open(f"/proc/{each}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def wait_until_accepting(port):
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"nothing accepts on {port}")


def fetch(port, timeout):
    """One request with Connection: close; the seconds it took, or None on a timeout or error."""
    started = time.monotonic()
    request = f"GET {PATH} HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n".encode()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as client:
            client.settimeout(max(0.01, timeout - (time.monotonic() - started)))
            client.sendall(request)
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
        return time.monotonic() - started if answer.startswith(b"HTTP/1.1 200") else None
    except OSError:
        return None


def peak(pid, seconds):
    best, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        best = max(best, resident_kib(pid))
        time.sleep(0.05)
    return best


def pipelining(pid, port):
    before = resident_kib(pid)
    request = f"GET {PATH} HTTP/1.1\r\nHost: example.com\r\n\r\n".encode()
    flood = request * (65536 // len(request))
    held = []
    for _ in range(20):
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(("127.0.0.1", port))
        client.sendall(flood)
        held.append(client)
    grown = peak(pid, 2) - before
    for client in held:
        client.close()
    return grown


def blank_lines(pid, port):
    before = resident_kib(pid)
    attackers = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/Peers/blank-line-stream.py"),
                                  str(port), "8"], stdout=subprocess.PIPE, text=True)
    attackers.stdout.readline()
    worst, timeouts, highest = 0.0, 0, 0
    end = time.monotonic() + 8
    while time.monotonic() < end:
        took = fetch(port, 3)
        if took is None:
            timeouts += 1
            took = 3
        worst = max(worst, took)
        highest = max(highest, resident_kib(pid))
        time.sleep(0.2)
    attackers.wait(20)
    return worst, timeouts, highest - before


def capture_client_hello():
    """The first record `openssl s_client` sends: a real ClientHello for example.com."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(10)
        client = subprocess.Popen(["openssl", "s_client", "-connect", f"127.0.0.1:{listener.getsockname()[1]}",
                                   "-servername", "example.com"], stdin=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            connection, _ = listener.accept()
            with connection:
                connection.settimeout(10)
                def read(count):
                    data = b""
                    while len(data) < count:
                        chunk = connection.recv(count - len(data))
                        if not chunk:
                            sys.exit("the ClientHello ended early")
                        data += chunk
                    return data
                header = read(5)
                return header + read(header[3] << 8 | header[4])
        finally:
            client.kill()
            client.wait()


def https_fetch(port, cafile, timeout):
    """One HTTPS request; the seconds it took, or None."""
    started = time.monotonic()
    context = ssl.create_default_context(cafile=cafile)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as raw:
            with context.wrap_socket(raw, server_hostname="example.com") as client:
                client.sendall(f"GET {PATH} HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n".encode())
                answer = b""
                while chunk := client.recv(65536):
                    answer += chunk
        return time.monotonic() - started if answer.startswith(b"HTTP/1.1 200") else None
    except (OSError, ssl.SSLError):
        return None


def half_open(pid, port, cafile, hello, count=6000):
    """RSS before, at the peak and 3 s after `count` half-open handshakes close; a real
    client's time meanwhile."""
    before = resident_kib(pid)
    held, highest = [], before
    for index in range(count):
        try:
            client = socket.create_connection(("127.0.0.1", port), timeout=2)
            client.sendall(hello)
            held.append(client)
        except OSError:
            pass
        if index % 200 == 0:
            highest = max(highest, resident_kib(pid))
    highest = max(highest, peak(pid, 2))
    served = https_fetch(port, cafile, 5)
    for client in held:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        client.close()
    end = time.monotonic() + 3
    while time.monotonic() < end:
        time.sleep(0.1)
    return before, highest, resident_kib(pid), served, len(held)


def idle_then_half_open(pid, port, cafile, hello, idle=2000):
    """Peak RSS with `idle` idle TLS keep-alive connections, then 6,000 half-open handshakes."""
    context = ssl.create_default_context(cafile=cafile)
    request = f"GET {PATH} HTTP/1.1\r\nHost: example.com\r\n\r\n".encode()
    held = []
    for _ in range(idle):
        try:
            client = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5),
                                         server_hostname="example.com")
            client.sendall(request)
            client.recv(65536)
            held.append(client)
        except (OSError, ssl.SSLError):
            pass
    try:
        return half_open(pid, port, cafile, hello)[1]
    finally:
        for client in held:
            client.close()


def make_certificate(work):
    """A self-signed P-256 certificate for example.com in certbot's layout (aasa-server's
    --certs) and as files for nginx."""
    folder = os.path.join(work, "certs/example.com")
    os.makedirs(folder)
    key, cert = os.path.join(folder, "privkey.pem"), os.path.join(folder, "fullchain.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-days", "2", "-subj", "/CN=example.com", "-addext", "subjectAltName=DNS:example.com",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    return key, cert


def main():
    if shutil.which("nginx") is None and not os.path.exists("/usr/sbin/nginx"):
        subprocess.run(["apt-get", "install", "-y", "-qq", "nginx"], check=True, stdout=subprocess.DEVNULL)
    if not os.path.exists(BINARY):
        sys.exit("build it first: swift build -c release")
    work = tempfile.mkdtemp(prefix="aasa-hostile-")
    os.chmod(work, 0o755)
    components = ",".join(f'{{"/": "/p{index}/*"}}' for index in range(6200))
    body = ('{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": ['
            + components + "]}]}}")
    for folder in ["sites/example.com", "root/.well-known"]:
        os.makedirs(os.path.join(work, folder))
    for target in ["sites/example.com/apple-app-site-association", "root" + PATH]:
        with open(os.path.join(work, target), "w") as out:
            out.write(body)
    key, cert = make_certificate(work)
    hello = capture_client_hello()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 16384)), hard))
    results, handshakes = {}, {}
    for name in ["aasa-server", "nginx"]:
        port = free_port()
        secure_port = free_port()
        if name == "nginx":
            config = os.path.join(work, "nginx.conf")
            with open(config, "w") as out:
                out.write(f"""worker_processes 1;
worker_rlimit_nofile 16384;
daemon off;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  sendfile on;
  client_body_temp_path {work};
  proxy_temp_path {work};
  fastcgi_temp_path {work};
  uwsgi_temp_path {work};
  scgi_temp_path {work};
  server {{
    listen 127.0.0.1:{port};
    listen 127.0.0.1:{secure_port} ssl;
    ssl_certificate {cert};
    ssl_certificate_key {key};
    server_name example.com;
    root {work}/root;
    location = {PATH} {{ default_type application/json; }}
  }}
}}
""")
            server = subprocess.Popen(["nginx", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        else:
            server = subprocess.Popen([BINARY, "serve", "--sites", os.path.join(work, "sites"), "--http",
                                       f"127.0.0.1:{port}", "--https", f"127.0.0.1:{secure_port}", "--certs",
                                       os.path.join(work, "certs"), "--admin", "off", "--workers", "1",
                                       "--access-log", "off"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
        try:
            wait_until_accepting(port)
            fetch(port, 3)
            grown = pipelining(server.pid, port)
            worst, timeouts, blank_grown = blank_lines(server.pid, port)
            results[name] = (grown, worst, timeouts, blank_grown)
            wait_until_accepting(secure_port)
            handshakes[name] = half_open(server.pid, secure_port, cert, hello)
            handshakes[name] += (idle_then_half_open(server.pid, secure_port, cert, hello),)
        finally:
            server.terminate()
            server.wait(15)
    shutil.rmtree(work, ignore_errors=True)
    print("| attack | aasa-server | nginx |")
    print("|---|---|---|")
    cell = lambda name, text: text.format(*results[name])
    print("| 20 clients pipeline 64 KiB for a 110 KiB file, never read: memory | "
          + " | ".join(f"+{results[n][0] / 1024:.1f} MiB" for n in results) + " |")
    print("| 8 clients stream CR LF for 8 s: another client's worst wait (timeouts of 3 s) | "
          + " | ".join(f"{results[n][1] * 1000:.0f} ms ({results[n][2]})" for n in results) + " |")
    print("| the same: memory | " + " | ".join(f"+{results[n][3] / 1024:.1f} MiB" for n in results) + " |")
    print("| 6,000 half-open TLS handshakes (one ClientHello each): memory before → peak → 3 s after they close | "
          + " | ".join(f"{h[0] / 1024:.0f} → {h[1] / 1024:.0f} → {h[2] / 1024:.0f} MiB" for h in handshakes.values())
          + " |")
    print("| the same: a real HTTPS client meanwhile | "
          + " | ".join("timed out" if h[3] is None else f"{h[3] * 1000:.0f} ms" for h in handshakes.values()) + " |")
    print("| 2,000 idle TLS connections, then the same 6,000 ClientHellos: peak memory | "
          + " | ".join(f"{h[5] / 1024:.0f} MiB" for h in handshakes.values()) + " |")


main()
