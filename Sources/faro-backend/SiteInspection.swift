import FaroCore
import Foundation

/// What tests and benchmarks need to see and shape on the microsite routes: every `/sitios/…` request is logged
/// (method, path, query, and the Cache-Control, Pragma, Cookie and User-Agent it carried) and answered with a
/// `Set-Cookie`, so a client that keeps cookies between loads is caught; `GET /debug/requests` returns the log as
/// JSON (`DELETE /debug/requests` empties it); `GET /debug/redirect?to=URL` answers 302 to URL (with a cookie), `?loop=N` redirects forever;
/// and `FARO_BACKEND_SITE_LATENCY_MS` delays every microsite answer (the "slow server" of the benchmarks).
final class SiteInspection: @unchecked Sendable {
    static let shared = SiteInspection(
        siteLatencyMilliseconds: ProcessInfo.processInfo.environment["FARO_BACKEND_SITE_LATENCY_MS"].flatMap(
            Double.init) ?? 0)

    /// At most this many requests are remembered (the oldest go first).
    static let capacity = 1000

    let siteLatencyMilliseconds: Double
    private let lock = NSLock()
    private var log: [JSONValue] = []
    private var served = 0

    init(siteLatencyMilliseconds: Double) { self.siteLatencyMilliseconds = max(0, siteLatencyMilliseconds) }

    /// Logs a microsite request, lets `handle` answer it, and adds the visit cookie.
    func site(_ request: HTTPRequest, _ handle: () -> HTTPReply) -> HTTPReply {
        let number = record(request)
        var reply = handle()
        reply.headers.append(("Set-Cookie", "faro_visit=\(number); Path=/; HttpOnly"))
        return reply
    }

    /// The `/debug/…` routes.
    func debug(_ request: HTTPRequest) -> HTTPReply {
        switch (request.method, request.segments.dropFirst().first) {
        case ("GET", "requests"):
            lock.lock()
            let entries = log
            lock.unlock()
            return .json(200, .array(entries))
        case ("DELETE", "requests"):
            lock.lock()
            log.removeAll()
            lock.unlock()
            return HTTPReply(status: 204, contentType: nil)
        case ("GET", "redirect"):
            let number = record(request)
            if request.query["loop"] != nil {
                // A redirect to itself, for clients' redirect limits.
                return HTTPReply(
                    status: 302, contentType: "text/plain", body: [],
                    headers: [("Location", "/debug/redirect?loop=\(number)")])
            }
            guard let target = request.query["to"], target.hasPrefix("http://127.0.0.1") || target.hasPrefix("/") else {
                return .error(400, "to= must be a loopback URL or a path")
            }
            return HTTPReply(
                status: 302, contentType: "text/plain", body: Array("moved\n".utf8),
                headers: [("Location", target), ("Set-Cookie", "faro_redirect=\(number); Path=/")])
        default:
            return .error(404, "Not found")
        }
    }

    /// The delay for `request`: `FARO_BACKEND_SITE_LATENCY_MS` for microsite requests, 0 otherwise.
    func delayMilliseconds(_ request: HTTPRequest) -> Double {
        request.segments.first == "sitios" ? siteLatencyMilliseconds : 0
    }

    private func record(_ request: HTTPRequest) -> Int {
        var fields: [(String, JSONValue)] = [
            ("method", .string(request.method)),
            ("path", .string("/" + request.segments.joined(separator: "/"))),
            ("query", request.rawQuery.map(JSONValue.string) ?? .null),
        ]
        for name in ["Cache-Control", "Pragma", "Cookie", "User-Agent"] {
            fields.append((name.lowercased(), request.header(name).map(JSONValue.string) ?? .null))
        }
        lock.lock()
        defer { lock.unlock() }
        served += 1
        log.append(.object(fields))
        if log.count > Self.capacity { log.removeFirst(log.count - Self.capacity) }
        return served
    }
}
