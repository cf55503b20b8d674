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

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

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
    try:
        wait_ready(admin, server)
        # The link's host reaches the server on its port, as DNS would send it.
        mapped = f"--host-resolver-rules=MAP example.com 127.0.0.1:{http}"
        link = urllib.parse.urlsplit(LINK)
        screenshot(
            f"http://{link.netloc}{link.path}?{link.query}", os.path.join(IMAGES, "landing-page.png"),
            "390,844", [mapped, f"--user-agent={IPHONE}"])
        screenshot(
            f"http://127.0.0.1:{admin}/?url={urllib.parse.quote(LINK, safe='')}",
            os.path.join(IMAGES, "status-page.png"), "1280,1600")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
