#!/usr/bin/env python3
"""Resident memory of aasa-server holding 10,000 idle keep-alive connections.

Starts the release binary on loopback, opens N connections, sends one request on each and
reads the answer, leaves them idle, and reads VmRSS from /proc before and after. The
connection cap is raised to N (its default, 3,000, would close the longest idle ones).

    python3 bench/idle-connections.py [connections]
"""
import os, resource, socket, subprocess, sys, tempfile, time, shutil

count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 1024), hard))
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, ".build/release/aasa-server")
if not os.path.exists(binary):
    subprocess.run(["swift", "build", "-c", "release"], cwd=root, check=True, stdout=subprocess.DEVNULL)

work = tempfile.mkdtemp()
os.makedirs(os.path.join(work, "sites/example.com"))
shutil.copy(os.path.join(root, "Config/sites/example.com/apple-app-site-association"), os.path.join(work, "sites/example.com/"))
server = subprocess.Popen(
    [binary, "serve", "--sites", os.path.join(work, "sites"), "--http", "127.0.0.1:18350", "--admin", "off",
     "--workers", "2", "--access-log", "off", "--max-connections", str(count + 16)],
    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

def rss_kib():
    with open(f"/proc/{server.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

try:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", 18350)).close()
            break
        except OSError:
            time.sleep(0.05)
    request = b"GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n"
    # Warm up both loops with a few requests, then take the baseline.
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", 18350)); s.sendall(request); s.recv(65536); s.close()
    time.sleep(0.5)
    before = rss_kib()
    sockets = []
    started = time.time()
    for index in range(count):
        s = socket.create_connection(("127.0.0.1", 18350))
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data or len(data) < 1300:
            chunk = s.recv(65536)
            if not chunk:
                raise SystemExit(f"connection {index} closed early")
            data += chunk
        sockets.append(s)
    opened = time.time() - started
    time.sleep(1.0)
    after = rss_kib()
    print(f"idle keep-alive connections: {len(sockets)} (opened and served in {opened:.1f} s)")
    print(f"resident memory: {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB with them open, "
          f"{(after - before) / 1024:.1f} MiB for the connections ({(after - before) * 1024 / max(1, len(sockets)):.0f} bytes each); target: at most 32 MiB in total")
    for s in sockets:
        s.close()
finally:
    server.terminate()
    server.wait(timeout=20)
    shutil.rmtree(work, ignore_errors=True)
