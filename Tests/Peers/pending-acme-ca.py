#!/usr/bin/env python3
"""An ACME CA on loopback whose authorizations stay pending (RFC 8555 §7.5.1: the client polls,
told to wait by Retry-After: 60 s), for the test that a stop does not wait out an order. Signatures
are not checked: only the client's waiting is under test. Usage: pending-acme-ca.py CERT KEY;
prints its port, then one line per request ("METHOD PATH"), and serves for two minutes at most."""
import http.server
import json
import sys

import loopback_https


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def answer(self, status, document=None, headers=()):
        body = json.dumps(document).encode() if document is not None else b""
        self.send_response(status)
        self.send_header("Replay-Nonce", "nonce-%d" % id(self))
        self.send_header("Content-Length", str(len(body)))
        if document is not None:
            self.send_header("Content-Type", "application/json")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def base(self):
        return f"https://127.0.0.1:{self.server.server_port}"

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        print(f"GET {self.path}", flush=True)
        if self.path == "/dir":
            self.answer(200, {name: f"{self.base()}/{name}" for name in ("newNonce", "newAccount", "newOrder")})
        elif self.path == "/newNonce":
            self.answer(204)
        else:
            self.answer(404)

    def do_POST(self):
        print(f"POST {self.path}", flush=True)
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        base = self.base()
        if self.path == "/newAccount":
            self.answer(201, {"status": "valid"}, [("Location", f"{base}/account/1")])
        elif self.path == "/newOrder":
            order = {"status": "pending", "expires": "2099-01-01T00:00:00Z",
                     "identifiers": [{"type": "dns", "value": "example.test"}],
                     "authorizations": [f"{base}/authz/1"], "finalize": f"{base}/finalize/1"}
            self.answer(201, order, [("Location", f"{base}/order/1")])
        elif self.path == "/authz/1":
            challenge = {"type": "http-01", "url": f"{base}/challenge/1", "status": "pending",
                         "token": "pending-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
            authorization = {"status": "pending", "expires": "2099-01-01T00:00:00Z",
                             "identifier": {"type": "dns", "value": "example.test"}, "challenges": [challenge]}
            self.answer(200, authorization, [("Retry-After", "60")])
        elif self.path == "/challenge/1":
            self.answer(200, {"type": "http-01", "url": f"{base}/challenge/1", "status": "pending",
                              "token": "pending-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
        else:
            self.answer(404)


def main():
    loopback_https.serve_http(sys.argv[1], sys.argv[2], Handler, 120)


if __name__ == "__main__":
    main()
