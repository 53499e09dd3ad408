"""A second origin on loopback, as a site the web app embeds would be: HTTPS
with the reference platform's certificate (so the app's web view accepts
it as it accepts the platform's frames), serving pages that try to leave
the app or write files, with no Content-Security-Policy of its own, and
recording every request it gets.

Pages (each takes what it needs from its query):
- /frame/attachment     sets its own location to /attachment
- /frame/a-download     makes an <a download> and clicks it from script
- /frame/top            navigates the top frame to /landing every 250 ms
- /frame/mailto         adds a frame of a mailto: link every 250 ms
- /attachment, /file.bin  a file with Content-Disposition: attachment
- /frame/print          calls print() with no click at once and every 2 s, each
                        time fetching /landing?print=N&QUERY first
- /landing              a plain page
- /                     `start_page`, when a test sets it
"""

import http.server
import os
import ssl
import threading

PAGES = {
    "/frame/attachment": "<p>attachment</p><script>location.href = '/attachment?secret=frame';</script>",
    "/frame/a-download": ("<p>a download</p><script>const a = document.createElement('a');"
                          "a.href = '/file.bin?secret=anchor'; a.download = 'drive-by.bin';"
                          "document.body.append(a); a.click();</script>"),
    "/frame/top": ("<p>top</p><script>let n = 0; setInterval(() => {"
                   "top.location = location.origin + '/landing?n=' + n++; }, 250);</script>"),
    "/frame/mailto": ("<p>mailto</p><script>let n = 0; setInterval(() => {"
                      "const f = document.createElement('iframe');"
                      "f.src = 'mailto:victim@example.com?subject=Invoice%20' + n++ + '&body=Pay%20now';"
                      "document.body.append(f); }, 250);</script>"),
    "/frame/print": ("<p>print</p><script>let n = 0; const ask = () => {"
                     "new Image().src = '/landing?print=' + n++ + '&' + location.search.slice(1); print(); };"
                     "ask(); setInterval(ask, 2000);</script>"),
    "/landing": "<p>landing</p>",
}
ATTACHMENT = b"a file nobody asked for\n"


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path = self.path.split("?", 1)[0]
        self.server.owner.record(self.path)
        if path in ("/attachment", "/file.bin"):
            self.reply(200, "application/octet-stream", ATTACHMENT,
                       [("Content-Disposition", 'attachment; filename="drive-by.txt"')])
        elif path in PAGES or (path == "/" and self.server.owner.start_page is not None):
            body = PAGES[path] if path in PAGES else self.server.owner.start_page
            page = "<!DOCTYPE html><html><head><meta charset=utf-8></head><body>%s</body></html>" % body
            self.reply(200, "text/html; charset=utf-8", page.encode())
        else:
            self.reply(404, "text/plain", b"not found\n")

    def reply(self, status, content_type, body, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


class OtherOrigin:
    """The second origin's server, on a port of its own."""

    def __init__(self, certs):
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.owner = self
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(os.path.join(str(certs), "server.pem"), os.path.join(str(certs), "server.key"))
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.origin = "https://127.0.0.1:%d" % self.server.server_address[1]
        # The body of its / page, for a test that makes it the app's web origin.
        self.start_page = None
        self._paths = []
        self._lock = threading.Lock()
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def record(self, path):
        with self._lock:
            self._paths.append(path)

    def requests(self):
        with self._lock:
            return list(self._paths)

    def close(self):
        self.server.shutdown()
        self.server.server_close()
