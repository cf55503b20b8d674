#!/usr/bin/env python3
"""An HTTPS server on loopback that answers the way broken or hostile servers do, chosen by
the request's Host, for the probe's tests. Usage: hostile-https-server.py CERT KEY; prints
its port on stdout, then serves until killed, until its standard input closes, or for
two minutes at most."""
import gzip
import sys
import time

import loopback_https

GZIP_BOMB = gzip.compress(b"\0" * (32 * 1024 * 1024))


def answer(host, send):
    json_head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
    if host == "bad-status.test":
        send(b"HTCPCP/1.0 418 I'm a teapot\r\n\r\n")
    elif host == "endless-headers.test":
        send(b"HTTP/1.1 200 OK\r\n")
        while True:
            send(b"X-Padding: " + b"a" * 1000 + b"\r\n")
    elif host == "endless-body.test":
        send(json_head + b"\r\n")
        while True:
            send(b" " * 16384)
    elif host == "endless-chunks.test":
        send(json_head + b"Transfer-Encoding: chunked\r\n\r\n")
        while True:
            send(b"4000\r\n" + b" " * 16384 + b"\r\n")
    elif host == "long-chunk-lines.test":
        # 1-byte chunks, each with a 1 KiB size line (an extension): bytes on the wire, no body.
        send(json_head + b"Transfer-Encoding: chunked\r\n\r\n")
        while True:
            send((b"1;" + b"x" * 1000 + b"\r\n \r\n") * 16)
    elif host == "drip-chunks.test":
        send(json_head + b"Transfer-Encoding: chunked\r\n\r\n")
        while True:
            send(b"1\r\n \r\n")
            time.sleep(0.05)
    elif host in ("negative-chunk.test", "huge-chunk.test", "overflow-chunk.test"):
        size = {"negative-chunk.test": b"-2", "huge-chunk.test": b"7fffffffffffffff",
                "overflow-chunk.test": b"fffffffffffffffffffffffff"}[host]
        send(json_head + b"Transfer-Encoding: chunked\r\n\r\n" + size + b"\r\n{}\r\n0\r\n\r\n")
    elif host in ("negative-length.test", "huge-length.test"):
        length = b"-9" if host == "negative-length.test" else b"99999999999999999999999"
        send(json_head + b"Content-Length: " + length + b"\r\n\r\n{}")
    elif host == "truncated.test":
        send(json_head + b"Content-Length: 100\r\n\r\n{\"applinks\"")
    elif host == "gzip-bomb.test":
        send(json_head + b"Content-Encoding: gzip\r\nContent-Length: " + str(len(GZIP_BOMB)).encode() + b"\r\n\r\n" + GZIP_BOMB)
    elif host == "slow-drip.test":
        send(json_head + b"Content-Length: 1000\r\n\r\n")
        while True:
            send(b" ")
            time.sleep(0.2)
    elif host == "silent.test":
        time.sleep(60)


def respond(connection, head):
    host = ""
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"host":
            host = value.strip().decode().split(":")[0]
    answer(host, connection.sendall)


if __name__ == "__main__":
    loopback_https.serve(sys.argv[1], sys.argv[2], respond, seconds=120, timeout=10, stop_on_stdin=True)
