#!/usr/bin/env python3
"""A directory proxy in front of Pebble for the ACME tests: Debian's pebble 2.4 has no ACME
Renewal Information (RFC 9773) and no profiles, so this adds `renewalInfo` and
`meta.profiles` to its directory and answers renewalInfo itself; everything else is passed
to Pebble as it came (Host included: Pebble builds its URLs and checks each JWS `url` from
it, so every later URL points back here).

Usage: ari-directory-proxy.py CERT KEY PEBBLE_PORT MODE_FILE
MODE_FILE holds `ahead` (the window starts in 30 days) or `begun` (it started an hour ago),
read at every renewalInfo request. Prints its port, then one line per renewalInfo request
(`ARI CERTID`) and per newOrder (`ORDER PAYLOAD`, the JWS payload decoded). Serves until
killed or for five minutes at most."""
import base64
import datetime
import http.client
import http.server
import json
import ssl
import sys

import loopback_https

PEBBLE_PORT = int(sys.argv[3])
MODE_FILE = sys.argv[4]
PROFILES = {
    "classic": "90 days, the default",
    "tlsserver": "45 days, TLS server authentication only",
    "shortlived": "about 6 days",
}


def rfc3339(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def answer(self, status, body, headers):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def renewal_info(self):
        cert_id = self.path[len("/renewal-info/"):]
        print(f"ARI {cert_id}", flush=True)
        with open(MODE_FILE) as file:
            mode = file.read().strip()
        now = datetime.datetime.now(datetime.timezone.utc)
        if mode == "begun":
            start, end = now - datetime.timedelta(hours=1), now + datetime.timedelta(days=1)
        else:
            start, end = now + datetime.timedelta(days=30), now + datetime.timedelta(days=31)
        body = json.dumps({"suggestedWindow": {"start": rfc3339(start), "end": rfc3339(end)}}).encode()
        self.answer(200, body, [("Content-Type", "application/json"), ("Retry-After", "21600")])

    def forward(self, method):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else b""
        if method == "POST" and self.path.startswith("/order-plz"):
            payload = json.loads(body)["payload"]
            decoded = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode()
            print(f"ORDER {decoded}", flush=True)
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # Pebble's own listener on loopback, started by the test
        upstream = http.client.HTTPSConnection("127.0.0.1", PEBBLE_PORT, context=context, timeout=10)
        headers = {name: value for name, value in self.headers.items() if name.lower() != "connection"}
        upstream.request(method, self.path, body=body, headers=headers)
        response = upstream.getresponse()
        data = response.read()
        skip = ("content-length", "transfer-encoding", "connection")
        headers = [(name, value) for name, value in response.getheaders() if name.lower() not in skip]
        if method == "GET" and self.path == "/dir" and response.status == 200:
            directory = json.loads(data)
            directory["renewalInfo"] = f"https://{self.headers['Host']}/renewal-info"
            directory.setdefault("meta", {})["profiles"] = PROFILES
            data = json.dumps(directory).encode()
        upstream.close()
        self.answer(response.status, data, headers)

    def do_GET(self):
        if self.path.startswith("/renewal-info/"):
            self.renewal_info()
        else:
            self.forward("GET")

    def do_HEAD(self):
        self.forward("HEAD")

    def do_POST(self):
        self.forward("POST")


def main():
    loopback_https.serve_http(sys.argv[1], sys.argv[2], Handler, 300)


if __name__ == "__main__":
    main()
