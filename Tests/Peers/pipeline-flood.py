#!/usr/bin/env python3
"""Clients that pipeline requests and never read the answers: each connects, sends REQUEST
repeated to BYTES bytes, and holds the connection until this process is killed (or after
60 s). With --tls CAFILE they speak TLS (SNI from the request's Host). Loopback only.

    pipeline-flood.py PORT CLIENTS BYTES HOST PATH [--tls CAFILE]

Prints "started" once every client has sent its bytes."""
import socket
import ssl
import sys
import time

port, clients, size, host, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
context = None
if len(sys.argv) > 7 and sys.argv[6] == "--tls":
    context = ssl.create_default_context(cafile=sys.argv[7])
request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
flood = request * (size // len(request))
held = []
for _ in range(clients):
    raw = socket.socket()
    # A small receive window: the answers pile up on the server's side.
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    client = context.wrap_socket(raw, server_hostname=host) if context else raw
    client.settimeout(10)
    client.sendall(flood)
    held.append(client)
print("started", flush=True)
time.sleep(60)
