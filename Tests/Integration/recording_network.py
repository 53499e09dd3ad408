"""Servers on loopback that record who reaches them: an HTTP proxy, and a
listener that counts every connection (over TLS with a given certificate,
or plain)."""

import os
import select
import socket
import socketserver
import ssl
import threading


class _Handler(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.settimeout(30)
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 65536:
            chunk = self.request.recv(4096)
            if not chunk:
                break
            head += chunk
        if not head:
            return
        request_line = head.split(b"\r\n", 1)[0].decode(errors="replace")
        self.server.owner.record(request_line, head)
        parts = request_line.split()
        if len(parts) >= 2 and parts[0] == "CONNECT":
            self.tunnel(parts[1])
        else:
            self.request.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    def tunnel(self, target):
        host, _, port = target.rpartition(":")
        try:
            upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=30)
        except OSError:
            self.request.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return
        with upstream:
            self.request.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            ends = [self.request, upstream]
            while True:
                readable, _, _ = select.select(ends, [], [], 30)
                if not readable:
                    return
                for end in readable:
                    data = end.recv(65536)
                    if not data:
                        return
                    (upstream if end is self.request else self.request).sendall(data)


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class RecordingProxy:
    """An HTTP proxy that records every request it is sent: a CONNECT is
    tunnelled to its target (so that a configured proxy can be seen to
    work), a request for a plain http URL is recorded with its body and
    refused with 502, so that nothing sent to it in clear goes further."""

    def __init__(self):
        self._lock = threading.Lock()
        self._requests = []
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self.url = "http://127.0.0.1:%d" % self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def record(self, request_line, head):
        with self._lock:
            self._requests.append((request_line, head))

    def requests(self):
        """The request lines it was sent, in order ("CONNECT host:port HTTP/1.1", ...)."""
        with self._lock:
            return [line for line, _ in self._requests]

    def received(self):
        """Everything it read, as one byte string."""
        with self._lock:
            return b"".join(head for _, head in self._requests)

    def close(self):
        self._server.shutdown()
        self._server.server_close()


class _ListenerHandler(socketserver.BaseRequestHandler):
    def handle(self):
        self.server.owner.connected()
        connection = self.request
        connection.settimeout(30)
        try:
            if self.server.owner.context:
                connection = self.server.owner.context.wrap_socket(connection, server_side=True)
            request = connection.recv(65536)
            self.server.owner.read(request)
            connection.sendall(b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
                               b"Connection: close\r\n\r\n{}")
        except (OSError, ssl.SSLError):
            pass


class RecordingListener:
    """Counts every TCP connection to it, before any TLS: a client that
    refuses to talk to it must not even connect. With `certs`, it speaks TLS
    with that directory's server certificate (so a client that trusts its
    CA would talk to it); it answers any request with 201 and {}."""

    def __init__(self, host="127.0.0.1", certs=None):
        self.context = None
        if certs:
            self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            self.context.load_cert_chain(os.path.join(str(certs), "server.pem"), os.path.join(str(certs), "server.key"))
        self._lock = threading.Lock()
        self._connections = 0
        self._received = b""
        self._server = _Server((host, 0), _ListenerHandler)
        self._server.owner = self
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def connected(self):
        with self._lock:
            self._connections += 1

    def read(self, data):
        with self._lock:
            self._received += data

    def connections(self):
        with self._lock:
            return self._connections

    def received(self):
        with self._lock:
            return self._received

    def close(self):
        self._server.shutdown()
        self._server.server_close()
