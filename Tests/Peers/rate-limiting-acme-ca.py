#!/usr/bin/env python3
"""An ACME directory on loopback whose CA refuses every account with the rate-limit problem
(RFC 8555 §6.6: 429, `urn:ietf:params:acme:error:rateLimited`, Retry-After one hour, or
RETRY_AFTER as given, however large), for the ACME tests. Usage: rate-limiting-acme-ca.py
CERT KEY [RETRY_AFTER]; prints its port, then one line per request ("METHOD PATH"), and
serves until killed or for two minutes at most."""
import http.server
import json
import sys

import loopback_https

RETRY_AFTER = sys.argv[3] if len(sys.argv) > 3 else "3600"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        self.send_header("Replay-Nonce", "nonce-%d" % id(self))
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        print(f"GET {self.path}", flush=True)
        base = f"https://127.0.0.1:{self.server.server_port}"
        if self.path == "/dir":
            directory = {name: f"{base}/{name}" for name in ("newNonce", "newAccount", "newOrder")}
            self.answer(200, json.dumps(directory).encode(), [("Content-Type", "application/json")])
        elif self.path == "/newNonce":
            self.answer(204)
        else:
            self.answer(404)

    def do_POST(self):
        print(f"POST {self.path}", flush=True)
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        problem = {
            "type": "urn:ietf:params:acme:error:rateLimited",
            "detail": "too many new registrations from this address",
            "status": 429,
        }
        self.answer(
            429, json.dumps(problem).encode(), [("Content-Type", "application/problem+json"), ("Retry-After", RETRY_AFTER)]
        )


def main():
    loopback_https.serve_http(sys.argv[1], sys.argv[2], Handler, 120)


if __name__ == "__main__":
    main()
