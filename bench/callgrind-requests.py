#!/usr/bin/env python3
"""Instructions per request, deterministic: the release binary (debug info stripped, which
valgrind cannot read for Swift here) under `valgrind --tool=callgrind`, one loop, N
keep-alive requests on one connection minus a run with none, divided by N.

    python3 bench/callgrind-requests.py [--fallback] [N] [REQUEST-HEAD-LINES...]
    python3 bench/callgrind-requests.py --crlf N

The default request is `GET /.well-known/apple-app-site-association` with `Host: example.com`
against a small file. With --fallback the site also has a fallback.json (two rules, as in
Config/sites) and the request is `GET /p/1`, answered with a 302 to the web. Extra arguments are
header lines added to it (for example "User-Agent: AASA-Bot/1.0"). With --crlf, one connection
sends N × 64 KiB of empty lines (CR LF) and closes instead, and the whole difference is
printed: the work per byte of a client that never completes a request line
(docs/security.md). AASA_BINARY=PATH measures another build (a before/after comparison).
Loopback only."""
import os, shutil, signal, socket, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FALLBACK = "--fallback" in sys.argv[1:2]
CRLF = "--crlf" in sys.argv[1:2]
ARGS = sys.argv[2:] if FALLBACK or CRLF else sys.argv[1:]
COUNT = int(ARGS[0]) if ARGS else 2000
EXTRA = "".join(f"{line}\r\n" for line in ARGS[1:])
FILE = '{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "paths": ["/a/*"]}]}}'
FALLBACK_FILE = ('{"web": "https://www.example.com{path}{query}", "appStoreID": "1234567890", '
                 '"rules": [{"/": "/gift-cards", "web": "https://shop.example.com/gift-cards{query}"}, '
                 '{"/": "/internal/*", "exclude": true}]}')
PATH = "/p/1" if FALLBACK else "/.well-known/apple-app-site-association"
# The end of one answer: the file's body, or the blank line after a 302's head (no body).
END = b"\r\n\r\n" if FALLBACK else FILE.encode()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(work, binary, count):
    port = free_port()
    out = os.path.join(work, f"callgrind.{count}")
    server = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "serve",
                               "--sites", os.path.join(work, "sites"), "--http", f"127.0.0.1:{port}", "--admin",
                               "off", "--workers", "1", "--access-log", "off"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
    deadline = time.monotonic() + 120
    while True:
        try:
            client = socket.create_connection(("127.0.0.1", port), timeout=30)
            break
        except OSError:
            if time.monotonic() > deadline:
                sys.exit("the server did not start under valgrind")
            time.sleep(0.2)
    request = (f"GET {PATH} HTTP/1.1\r\nHost: example.com\r\n" + EXTRA + "\r\n").encode()
    if CRLF:
        chunk = b"\r\n" * 32768
        try:
            for _ in range(count):
                client.sendall(chunk)
            client.shutdown(socket.SHUT_WR)
            while client.recv(65536):
                pass
        except OSError:
            pass  # the server answered 400 and closed before all of it was sent
        count = 0
    for _ in range(count):
        client.sendall(request)
        answer = b""
        while not answer.endswith(END):
            chunk = client.recv(65536)
            if not chunk:
                sys.exit("the server closed the connection")
            answer += chunk
    client.close()
    server.send_signal(signal.SIGTERM)
    server.wait(120)
    with open(out) as data:
        for line in data:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    sys.exit("no totals in the callgrind output")


def main():
    binary = os.environ.get("AASA_BINARY") or os.path.join(ROOT, ".build/release/aasa-server")
    if not os.path.exists(binary):
        sys.exit("build it first: swift build -c release")
    work = tempfile.mkdtemp(prefix="aasa-callgrind-")
    stripped = os.path.join(work, "aasa-server")
    subprocess.run(["strip", "--strip-debug", "-o", stripped, binary], check=True)
    os.makedirs(os.path.join(work, "sites/example.com"))
    with open(os.path.join(work, "sites/example.com/apple-app-site-association"), "w") as out:
        out.write(FILE)
    if FALLBACK:
        with open(os.path.join(work, "sites/example.com/fallback.json"), "w") as out:
            out.write(FALLBACK_FILE)
    base = run(work, stripped, 0)
    loaded = run(work, stripped, COUNT)
    shutil.rmtree(work, ignore_errors=True)
    if CRLF:
        print(f"{loaded - base:,} instructions for {COUNT} × 64 KiB of CR LF on one connection")
    else:
        print(f"{(loaded - base) / COUNT:,.0f} instructions per request ({COUNT} requests, {loaded - base:,} in all)")


main()
