import Foundation

/// A real HTTPS server for one test, and a plain-HTTP one beside it: Python's `ssl` around `http.server`, with a
/// certificate authority and a server certificate for `IP:127.0.0.1` that the test makes with `openssl req` (so a
/// client trusts it only through the test-only `FARO_TEST_CA_BUNDLE`, and asking for `localhost` is a wrong host
/// name). Both servers log every request they get; neither touches anything outside the test's folder.
///
/// Routes (same on both): `/page` a small page whose links and image echo the request's query back (as a page that
/// puts `imei=` into its own links would), `/to-http` a 302 to the plain server's `/landing`, `/to-ftp` a 302 to an
/// `ftp:` URL, `/to-page` a 302 to `/page`, `/status/N` answers N, and anything else (including a proxy request for
/// a remote host, `GET http://shop.example/…`) a page naming the path it was asked for.
public final class HTTPSPeer: @unchecked Sendable {
    public let httpsPort: Int
    public let httpPort: Int
    /// The PEM file of the test's certificate authority: what `FARO_TEST_CA_BUNDLE` names to trust the server.
    public let caBundle: String
    private let server: ChildProcess
    private let folder: TemporaryDirectory

    /// Why the peer did not start.
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    public init() throws {
        try RequiredTool.openssl.require()
        folder = try TemporaryDirectory("faro-https")
        let f = folder
        func openssl(_ arguments: [String]) throws {
            let r = try ChildProcess.run("/usr/bin/openssl", arguments, timeout: 60)
            guard r.status == 0 else { throw StartFailure(description: "openssl \(arguments[0]) failed: \(r.stderr)") }
        }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + ec + [
                "-keyout", f.file("ca.key"), "-out", f.file("ca.pem"), "-days", "2", "-subj", "/CN=Faro Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try openssl(
            ["req"] + ec + ["-keyout", f.file("server.key"), "-out", f.file("server.csr"), "-subj", "/CN=127.0.0.1"])
        try "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".write(
            toFile: f.file("server.ext"), atomically: true, encoding: .utf8)
        try openssl([
            "x509", "-req", "-in", f.file("server.csr"), "-CA", f.file("ca.pem"), "-CAkey", f.file("ca.key"),
            "-CAcreateserial", "-out", f.file("server.pem"), "-days", "2", "-extfile", f.file("server.ext"),
        ])
        try HTTPSPeer.script.write(toFile: f.file("peer.py"), atomically: true, encoding: .utf8)
        caBundle = f.file("ca.pem")
        server = try ChildProcess(
            "/usr/bin/python3", [f.file("peer.py"), f.file("server.pem"), f.file("server.key")])
        guard let line = server.waitForLine(timeout: 30, { $0.hasPrefix("READY ") }) else {
            throw StartFailure(description: "the HTTPS peer did not start: \(server.stderr)")
        }
        let ports = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard ports.count == 2 else { throw StartFailure(description: "unexpected start line: \(line)") }
        httpsPort = ports[0]
        httpPort = ports[1]
    }

    /// `https://127.0.0.1:PORT`: the name the certificate is for.
    public var httpsBase: String { "https://127.0.0.1:\(httpsPort)" }
    /// `https://localhost:PORT`: the same server under a name its certificate does not carry.
    public var wrongNameBase: String { "https://localhost:\(httpsPort)" }
    /// `http://127.0.0.1:PORT`: the plain server (also a proxy for any absolute URL).
    public var httpBase: String { "http://127.0.0.1:\(httpPort)" }

    /// The requests both servers received so far, oldest first: `https GET /page?x=1` or `http GET http://…`.
    public var requests: [String] {
        server.stdout.split(separator: "\n").filter { $0.hasPrefix("REQ ") }.map { String($0.dropFirst(4)) }
    }

    /// The environment that makes a `faro` process trust this peer (test-only `FARO_TEST_CA_BUNDLE`).
    public var trustEnvironment: [String: String] { ["FARO_TEST_CA_BUNDLE": caBundle] }

    deinit {
        server.signal(SIGKILL)
        server.wait(timeout: 5)
    }

    static let script = #"""
        import http.server, socketserver, ssl, sys, threading

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            scheme = "http"
            plain_port = 0

            def log_message(self, *args):
                pass

            def reply(self, status, body=b"", headers=()):
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                if body:
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                print("REQ %s GET %s" % (self.scheme, self.path), flush=True)
                path, _, query = self.path.partition("?")
                if path == "/page":
                    q = ("?" + query) if query else ""
                    body = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Pagina segura</title></head>'
                            '<body><h1>Pagina segura</h1><p>Texto de la pagina segura.</p>'
                            '<p><a href="/next%s">siguiente</a> <a href="https://otro.example/x%s">otro</a></p>'
                            '<img src="/pixel.png%s" alt="pixel"></body></html>' % (q, q, q)).encode()
                    self.reply(200, body)
                elif path == "/to-http":
                    self.reply(302, headers=[("Location", "http://127.0.0.1:%d/landing" % Handler.plain_port)])
                elif path == "/to-ftp":
                    self.reply(302, headers=[("Location", "ftp://127.0.0.1:%d/file" % Handler.plain_port)])
                elif path == "/to-page":
                    self.reply(302, headers=[("Location", "/page" + (("?" + query) if query else ""))])
                elif path.startswith("/status/"):
                    self.reply(int(path.split("/")[2]), b"<p>status</p>")
                else:
                    body = ('<html><head><title>%s</title></head><body><p>Asked for %s</p></body></html>'
                            % (path, path)).encode()
                    self.reply(200, body)

        class Secure(Handler):
            scheme = "https"

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            def handle_error(self, request, client_address):
                pass

        plain = Server(("127.0.0.1", 0), Handler)
        Handler.plain_port = plain.server_address[1]
        secure = Server(("127.0.0.1", 0), Secure)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        secure.socket = context.wrap_socket(secure.socket, server_side=True)
        threading.Thread(target=plain.serve_forever, daemon=True).start()
        print("READY %d %d" % (secure.server_address[1], plain.server_address[1]), flush=True)
        secure.serve_forever()
        """#
}
