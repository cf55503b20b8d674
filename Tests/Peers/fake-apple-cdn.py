#!/usr/bin/env python3
"""A stand-in for Apple's CDN (app-site-association.cdn-apple.com) and for Google's Digital
Asset Links API (statements:list) on loopback, for the cache watch tests. Usage:
fake-apple-cdn.py CERT KEY PLAN LOG. The domain is the path's last segment (Apple's CDN), or
the query's source.web.site without https:// (Google's API). PLAN is a JSON file, read again on
every request so a test can change it: {"domain": {"mode": ..., ...}} with the modes
  file     200, the bytes of "path" (gzipped when the client accepts gzip)
  failing  404 with Apple-Failure-Reason "reason", Apple-Failure-Details "details"
  status   the status "status" with an empty body
  silent   accepts, then never answers
  huge     200 with a 32 MiB body
and 404 without headers for a domain not in the plan. Each request appends
"GET PATH USER-AGENT" to LOG. Prints its port, then serves until killed or for 3 minutes."""
import gzip
import json
import sys
import threading
import time

import loopback_https

CERT, KEY, PLAN, LOG = sys.argv[1:5]
HUGE_CHUNK = b" " * (1024 * 1024)
log_lock = threading.Lock()


def respond(connection, request):
    lines = request.split(b"\r\n")
    path = lines[0].split(b" ")[1].decode()
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower().decode()] = value.strip().decode()
    with log_lock, open(LOG, "a") as log:
        log.write(f"GET {path} {headers.get('user-agent', '-')}\n")
    target, _, query = path.partition("?")
    domain = target.rsplit("/", 1)[-1]
    for item in query.split("&"):
        if item.startswith("source.web.site=https://"):
            domain = item[len("source.web.site=https://"):]
    with open(PLAN) as plan_file:
        plan = json.load(plan_file).get(domain)
    if plan is None:
        connection.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    elif plan["mode"] == "file":
        with open(plan["path"], "rb") as body_file:
            body = body_file.read()
        extra = b"Apple-Origin-Format: json\r\nCache-Control: max-age=21600,public\r\n"
        if "gzip" in headers.get("accept-encoding", ""):
            body = gzip.compress(body)
            extra += b"Content-Encoding: gzip\r\n"
        connection.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + extra
            + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
    elif plan["mode"] == "failing":
        connection.sendall(
            b"HTTP/1.1 404 Not Found\r\nApple-Failure-Reason: " + plan["reason"].encode()
            + b"\r\nApple-Failure-Details: " + plan["details"].encode()
            + b"\r\nApple-Try-Direct: true\r\nCache-Control: max-age=3600,public\r\nContent-Length: 0\r\n"
            + b"Connection: close\r\n\r\n")
    elif plan["mode"] == "status":
        connection.sendall(
            b"HTTP/1.1 %d Oops\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" % int(plan["status"]))
    elif plan["mode"] == "huge":
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n")
        for _ in range(32):
            connection.sendall(HUGE_CHUNK)
    elif plan["mode"] == "silent":
        time.sleep(60)


if __name__ == "__main__":
    loopback_https.serve(CERT, KEY, respond, seconds=180, timeout=90)
