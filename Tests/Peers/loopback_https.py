"""The part the test peers share: an HTTPS listener on a free loopback port that prints
its port, reads one request head per connection (in a thread of its own) and hands it to
the peer's `respond(connection, head)`, until killed, until `seconds` pass, or, with
`stop_on_stdin`, until its standard input closes. `serve_http` is the same listener for
peers written as an `http.server` handler (keep-alive, request bodies)."""
import http.server
import socket
import ssl
import sys
import threading


def _serve_one(raw, context, respond, timeout):
    try:
        raw.settimeout(timeout)
        connection = context.wrap_socket(raw, server_side=True)
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 65536:
            data = connection.recv(4096)
            if not data:
                return
            head += data
        respond(connection, head)
        connection.close()
    except (OSError, ssl.SSLError):
        pass  # the client gave up on us, as the tests expect
    finally:
        raw.close()


def serve(cert, key, respond, seconds, timeout, stop_on_stdin=False):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    stop = lambda: listener.shutdown(socket.SHUT_RDWR)
    if stop_on_stdin:
        threading.Thread(target=lambda: (sys.stdin.read(), stop()), daemon=True).start()
    timer = threading.Timer(seconds, stop)
    timer.daemon = True
    timer.start()
    while True:
        try:
            raw, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=_serve_one, args=(raw, context, respond, timeout), daemon=True).start()


def serve_http(cert, key, handler, seconds):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_port, flush=True)
    timer = threading.Timer(seconds, server.shutdown)
    timer.daemon = True
    timer.start()
    server.serve_forever()
