"""An HTTP proxy on loopback that records every request it is sent: a
CONNECT is tunnelled to its target (so that a configured proxy can be seen
to work), a request for a plain http URL is recorded with its body and
refused with 502, so that nothing sent to it in clear goes further."""

import select
import socket
import socketserver
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
