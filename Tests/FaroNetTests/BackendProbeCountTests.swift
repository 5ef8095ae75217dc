import FaroCore
import FaroNet
import FaroTestSupport
import Foundation
import Testing

/// "Probar conexión" against a 2.0.0 server that answers plain arrays and ignores `$inlinecount` (as an Azure
/// Mobile Apps table with the count switched off does): a real HTTP peer (Python's `http.server` on loopback) that
/// honours `$top`, `$skip` and `$select` and pages with `Link: rel=next`.
@Suite(.serialized) struct BackendProbeCountTests {
    /// The peer: `peer.py ROWS PAGE` serves `ROWS` rows on `/tables/beacons`, at most `PAGE` a page.
    final class PlainArrayServer {
        struct StartFailure: Error, CustomStringConvertible {
            var description: String
        }

        let url: String
        private let process: ChildProcess
        private let folder: TemporaryDirectory

        init(rows: Int, page: Int) throws {
            folder = try TemporaryDirectory("faro-plain-array")
            try PlainArrayServer.script.write(toFile: folder.file("peer.py"), atomically: true, encoding: .utf8)
            process = try ChildProcess(
                "/usr/bin/python3", [folder.file("peer.py"), String(rows), String(page)])
            guard let line = process.waitForLine(timeout: 30, { $0.hasPrefix("READY ") }),
                let port = Int(line.dropFirst(6))
            else { throw StartFailure(description: "the peer did not start: \(process.stderr)") }
            url = "http://127.0.0.1:\(port)"
        }

        /// The queries the peer was asked, oldest first.
        var requests: [String] {
            process.stdout.split(separator: "\n").filter { $0.hasPrefix("REQ ") }.map { String($0.dropFirst(4)) }
        }

        deinit {
            process.signal(SIGKILL)
            process.wait(timeout: 5)
        }

        static let script = #"""
            import http.server, json, sys, urllib.parse

            ROWS = [{"id": "p%d" % i, "uuid": "B9407F30-F5F8-466E-AFF9-25556B57FE6D", "major": 1, "minor": i,
                     "nombre": "Lugar %d" % i, "url": "https://example.com/%d" % i, "deleted": False,
                     "updatedAt": "2026-11-29T14:03:07.123Z"} for i in range(int(sys.argv[1]))]
            PAGE = int(sys.argv[2])

            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"

                def log_message(self, *args):
                    pass

                def do_GET(self):
                    print("REQ " + self.path, flush=True)
                    path, _, query = self.path.partition("?")
                    if path != "/tables/beacons":
                        body, status, headers = b'{"error":"not found"}', 404, []
                    else:
                        q = dict(urllib.parse.parse_qsl(query))
                        skip = int(q.get("$skip", "0"))
                        top = int(q.get("$top", "50"))
                        rows = ROWS[skip:skip + min(top, PAGE)]
                        if "$select" in q:
                            names = q["$select"].split(",")
                            rows = [{k: v for k, v in r.items() if k in names} for r in rows]
                        headers = []
                        end = skip + len(rows)
                        if end < len(ROWS) and len(rows) < top:
                            more = dict(q, **{"$skip": str(end)})
                            link = "http://127.0.0.1:%d%s?%s" % (
                                self.server.server_port, path, urllib.parse.urlencode(more, safe="$,"))
                            headers.append(("Link", '<%s>; rel=next' % link))
                        body, status = json.dumps(rows).encode(), 200
                    self.send_response(status)
                    for name, value in headers:
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)

            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            print("READY %d" % server.server_port, flush=True)
            server.serve_forever()
            """#
    }

    /// Eight places in one page: the probe counts the ids it was given, never 0.
    @Test func aCatalogInOnePageIsCounted() throws {
        let server = try PlainArrayServer(rows: 8, page: 50)
        #expect(BackendProbe.run(baseURL: server.url) == .connected(places: 8, generation: .v2))
        #expect(BackendProbe.run(baseURL: server.url, setting: .fixed(.v2)) == .connected(places: 8, generation: .v2))
        #expect(server.requests.count == 4, "two requests a probe: \(server.requests)")
        #expect(server.requests.contains { $0.contains("$select=id") })
    }

    /// More places than one page holds: the count is unknown, not the page's size and not 0.
    @Test func aPagedCatalogHasNoCount() throws {
        let server = try PlainArrayServer(rows: 8, page: 5)
        #expect(BackendProbe.run(baseURL: server.url) == .connected(places: nil, generation: .v2))
    }

    /// An empty catalog is 0 places: the one case where 0 is the truth.
    @Test func anEmptyCatalogIsZero() throws {
        let server = try PlainArrayServer(rows: 0, page: 50)
        #expect(BackendProbe.run(baseURL: server.url) == .connected(places: 0, generation: .v2))
    }
}
