import FaroTestSupport
import Foundation

/// A plain-HTTP peer on 127.0.0.1 for FaroCurl's own tests: Python's `http.server` (HTTP/1.1, keep-alive) with
/// routes that show what the client sent and answer in the shapes libcurl must handle.
///
/// `/echo` answers `METHOD`, then one line per request header (`name: value`), then `BODY:` and the request body;
/// `/headers` repeats a header and spells names in mixed case; `/bytes/N` N bytes with a length, `/chunked/N`
/// chunked without one; `/slow` promises 100,000 bytes and sends 1,000 every 0.1 s; `/redirect` a 302 to `/echo`,
/// `/to-ftp` a 302 to an ftp URL; `/set-cookie` sets `faro=galleta`; `/gzip` a gzip body when asked for one.
final class LoopbackPeer: @unchecked Sendable {
    let port: Int
    private let server: ChildProcess
    private let folder: TemporaryDirectory

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        folder = try TemporaryDirectory("faro-curl-peer")
        try LoopbackPeer.script.write(toFile: folder.file("peer.py"), atomically: true, encoding: .utf8)
        server = try ChildProcess("/usr/bin/python3", [folder.file("peer.py")])
        guard let line = server.waitForLine(timeout: 30, { $0.hasPrefix("READY ") }),
            let port = Int(line.dropFirst(6))
        else { throw StartFailure(description: "the peer did not start: \(server.stderr)") }
        self.port = port
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// The requests received so far, oldest first: `GET /echo`.
    var requests: [String] {
        server.stdout.split(separator: "\n").filter { $0.hasPrefix("REQ ") }.map { String($0.dropFirst(4)) }
    }

    /// `requests` once it holds `count` of them (the peer's log reaches the test a moment after its answer), or as it
    /// is after 10 seconds.
    func requests(count: Int) -> [String] { settled(count) { self.requests } }

    deinit {
        server.signal(SIGKILL)
        server.wait(timeout: 5)
    }

    static let script = #"""
        import gzip, http.server, socketserver, sys, time

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, body=b"", headers=()):
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                self.do_GET()

            def do_GET(self):
                print("REQ %s %s" % (self.command, self.path), flush=True)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                path = self.path.split("?")[0]
                if path == "/echo":
                    lines = [self.command] + ["%s: %s" % (k, v) for k, v in self.headers.items()]
                    self.reply(200, ("\n".join(lines) + "\nBODY:").encode() + body,
                               [("Content-Type", "text/plain; charset=utf-8")])
                elif path == "/headers":
                    self.reply(200, b"ok", [("X-Faro", "uno"), ("X-Faro", "dos"), ("x-FARO-Caso", "Mixto"),
                                            ("Content-Type", "text/plain")])
                elif path.startswith("/bytes/"):
                    self.reply(200, b"b" * int(path.split("/")[2]))
                elif path.startswith("/chunked/"):
                    n = int(path.split("/")[2])
                    self.send_response(200)
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for start in range(0, n, 500):
                        piece = b"c" * min(500, n - start)
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.write(b"0\r\n\r\n")
                elif path == "/slow":
                    self.send_response(200)
                    self.send_header("Content-Length", "100000")
                    self.end_headers()
                    try:
                        for _ in range(100):
                            self.wfile.write(b"s" * 1000)
                            self.wfile.flush()
                            time.sleep(0.1)
                    except OSError:
                        pass
                elif path == "/redirect":
                    self.reply(302, headers=[("Location", "/echo")])
                elif path == "/to-ftp":
                    self.reply(302, headers=[("Location", "ftp://127.0.0.1/file")])
                elif path == "/set-cookie":
                    self.reply(200, b"ok", [("Set-Cookie", "faro=galleta; Path=/")])
                elif path == "/gzip":
                    text = b"comprimido " * 200
                    if "gzip" in (self.headers.get("Accept-Encoding") or ""):
                        self.reply(200, gzip.compress(text), [("Content-Encoding", "gzip")])
                    else:
                        self.reply(200, text)
                else:
                    self.reply(404, b"not here")

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            def handle_error(self, request, client_address):
                pass

        server = Server(("127.0.0.1", 0), Handler)
        print("READY %d" % server.server_address[1], flush=True)
        server.serve_forever()
        """#
}

/// `read()` once it returns at least `count` items, or as it is after 10 seconds.
func settled(_ count: Int, _ read: () -> [String]) -> [String] {
    let deadline = Date().addingTimeInterval(10)
    var items = read()
    while items.count < count, Date() < deadline {
        Thread.sleep(forTimeInterval: 0.02)
        items = read()
    }
    return items
}
