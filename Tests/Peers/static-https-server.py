#!/usr/bin/env python3
"""An HTTPS server on loopback that serves the files of a folder, chosen by the request's Host
and path, for tests that need a site to answer exactly so. Usage:
static-https-server.py CERT KEY FOLDER; prints its port on stdout, then serves until killed or
for two minutes at most.

FOLDER/HOST/PATH is the body; FOLDER/HOST/PATH.head, when there, is the status line and
headers (CRLF between them, no Content-Length), else `200` with `application/json`; a path
with no file is 404. A User-Agent with "AASA-Bot" in it gets FOLDER/HOST/PATH.bot when there."""
import os
import sys

import loopback_https


def read(path):
    with open(path, "rb") as file:
        return file.read()


def respond(connection, head):
    lines = head.split(b"\r\n")
    path = lines[0].split(b" ")[1].decode().split("?")[0]
    host, agent = "", ""
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"host":
            host = value.strip().decode().split(":")[0]
        elif name.strip().lower() == b"user-agent":
            agent = value.strip().decode()
    base = os.path.normpath(os.path.join(ROOT, host, path.lstrip("/")))
    if not base.startswith(ROOT + os.sep):
        base = os.path.join(ROOT, "-")
    if "AASA-Bot" in agent and os.path.isfile(base + ".bot"):
        base += ".bot"
    if os.path.isfile(base):
        body = read(base)
        status = read(base + ".head") if os.path.isfile(base + ".head") else \
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json"
    else:
        body, status = b"not found\n", b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain"
    connection.sendall(status + b"\r\nContent-Length: " + str(len(body)).encode() +
                       b"\r\nConnection: close\r\n\r\n" + body)


if __name__ == "__main__":
    ROOT = os.path.abspath(sys.argv[3])
    loopback_https.serve(sys.argv[1], sys.argv[2], respond, seconds=120, timeout=10)
