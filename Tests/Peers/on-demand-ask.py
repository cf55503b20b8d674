#!/usr/bin/env python3
"""A stand-in for an operator's `--acme-on-demand-ask` service on loopback, plain HTTP (Caddy's
`ask` convention): `GET /ask?domain=NAME` answers 200 for the names given as arguments and
403 for any other; a name starting with `huge` gets a 200 whose body is 1 MiB (over what the
server reads: no answer, so no). Prints its port, then one line per request (`ASK NAME`).
Serves until killed or for five minutes at most.

With --delay SECONDS, each answer comes that long after its request (a slow service; requests
are answered concurrently).

Usage: on-demand-ask.py [--delay SECONDS] [--tls CERT KEY] ALLOWED-NAME... (with --tls, HTTPS
with that pair)."""
import http.server
import sys
import threading
import time
import urllib.parse

import loopback_https

ARGUMENTS = sys.argv[1:]
DELAY = 0.0
if ARGUMENTS[:1] == ["--delay"]:
    DELAY = float(ARGUMENTS[1])
    ARGUMENTS = ARGUMENTS[2:]
TLS = ARGUMENTS[1:3] if ARGUMENTS[:1] == ["--tls"] else None
ALLOWED = set(ARGUMENTS[3:] if TLS else ARGUMENTS)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        name = urllib.parse.parse_qs(url.query).get("domain", [""])[0]
        print(f"ASK {name}", flush=True)
        if DELAY:
            time.sleep(DELAY)
        if name.startswith("huge"):
            status, body = 200, b"x" * (1024 * 1024)
        elif url.path == "/ask" and name in ALLOWED:
            status, body = 200, b"ok\n"
        else:
            status, body = 403, b"no\n"
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass  # the server stopped reading, as it should for the huge answer


def main():
    if TLS:
        loopback_https.serve_http(TLS[0], TLS[1], Handler, 300)
        return
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_port, flush=True)
    timer = threading.Timer(300, server.shutdown)
    timer.daemon = True
    timer.start()
    server.serve_forever()


if __name__ == "__main__":
    main()
