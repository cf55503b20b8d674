#!/usr/bin/env python3
"""The README's screenshots, taken from the real server on the example sites (Config/).

Builds aasa-server (debug), serves Config/ on free loopback ports (HTTP and the admin
listener; no HTTPS, so no certificates are needed), takes with headless Chromium:

- docs/images/landing-page.png: what an iPhone without the app gets for a link of
  example.com (390x844, a phone's window), and
- docs/images/status-page.png: the status page with the URL tester asked about the same
  link (1280 wide),

then stops the server. Run it (`make screenshots`) after changing a page, and commit the
images, so the README shows the pages as they are.
"""

import http.server
import os
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGES = os.path.join(ROOT, "docs", "images")
LINK = "https://example.com/order/12?table=7"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
# The largest a screenshot may be: the README's images stay small in the repository.
MAX_BYTES = 300 * 1024


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def chromium():
    for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.access(path, os.X_OK):
            return path
    sys.exit("screenshots: chromium is needed (apt-get install chromium)")


def icon_png(size=240, colour=(0xC2, 0x41, 0x0C)):
    """A stand-in for the example app's icon: the example's accent colour with a white disc (PNG, RFC 2083)."""
    rows = bytearray()
    centre, radius = size / 2, size * 0.27
    for y in range(size):
        rows.append(0)
        for x in range(size):
            inside = (x + 0.5 - centre) ** 2 + (y + 0.5 - centre) ** 2 <= radius ** 2
            rows += bytes((255, 255, 255)) if inside else bytes(colour)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows)))
            + chunk(b"IEND", b""))


def serve_icon(folder):
    """The example's icon URL (https://www.example.com/icon.png) answered on a loopback port, with a
    certificate made here (Chromium is told to accept it): the page shows its image as it would live."""
    key, certificate = os.path.join(folder, "key.pem"), os.path.join(folder, "cert.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
         "-subj", "/CN=www.example.com", "-addext", "subjectAltName=DNS:www.example.com", "-keyout", key,
         "-out", certificate], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    png = icon_png()

    class Icon(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(png)))
            self.end_headers()
            self.wfile.write(png)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Icon)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def wait_ready(admin, server, deadline=60):
    """Polls /readyz until the server answers 200, or fails when it exits or the deadline passes."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if server.poll() is not None:
            sys.exit(f"screenshots: the server exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{admin}/readyz", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    sys.exit("screenshots: the server was not ready within 60 s")


def screenshot(url, path, size, options=()):
    with tempfile.TemporaryDirectory(prefix="aasa-screenshots") as profile:
        subprocess.run(
            [
                chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", f"--user-data-dir={profile}", f"--window-size={size}",
                f"--screenshot={path}", *options, url,
            ],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    size = os.path.getsize(path)
    if size > MAX_BYTES:
        sys.exit(f"screenshots: {path} is {size} bytes, more than {MAX_BYTES}")
    print(f"{os.path.relpath(path, ROOT)}: {size} bytes")


def main():
    subprocess.run(["swift", "build", "--product", "aasa-server"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, ".build", "debug", "aasa-server")
    os.makedirs(IMAGES, exist_ok=True)
    http, admin = free_port(), free_port()
    server = subprocess.Popen(
        [
            binary, "serve", "--config", "Config/aasa-server.json", "--http", f"127.0.0.1:{http}",
            "--https", "off", "--admin", f"127.0.0.1:{admin}", "--access-log", "off",
        ],
        cwd=ROOT, stdout=subprocess.DEVNULL)
    certificates = tempfile.TemporaryDirectory(prefix="aasa-screenshots-icon")
    icon = serve_icon(certificates.name)
    try:
        wait_ready(admin, server)
        # The link's host reaches the server on its port, as DNS would send it; the icon's host
        # reaches the stand-in.
        mapped = (f"--host-resolver-rules=MAP example.com 127.0.0.1:{http}, "
                  f"MAP www.example.com 127.0.0.1:{icon.server_address[1]}")
        link = urllib.parse.urlsplit(LINK)
        screenshot(
            f"http://{link.netloc}{link.path}?{link.query}", os.path.join(IMAGES, "landing-page.png"),
            "390,844", [mapped, "--ignore-certificate-errors", f"--user-agent={IPHONE}"])
        screenshot(
            f"http://127.0.0.1:{admin}/?url={urllib.parse.quote(LINK, safe='')}",
            os.path.join(IMAGES, "status-page.png"), "1280,1600")
    finally:
        icon.shutdown()
        certificates.cleanup()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
