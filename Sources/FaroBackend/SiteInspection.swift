import FaroCore
import FoundationEssentials

/// What tests and benchmarks need to see and shape, served under `/debug/…` only when faro-backend runs with
/// `--debug` (the log holds cookies and device ids; without the flag nothing is logged and `/debug/…` is 404):
///
/// - every `/sitios/…` request is logged (method, path, query, and the Cache-Control, Pragma, Cookie and User-Agent
///   it carried), `GET /debug/requests` returns the log as JSON and `DELETE /debug/requests` empties it;
/// - every insert answered 201 is counted per table and row id: `GET /debug/inserts` returns
///   `{"table": {"id": count}}`, so a test sees whether a row was accepted more than once;
/// - every listing of a table (`GET /tables/{table}`) is counted: `GET /debug/lists` returns `{"table": count}`, so
///   a test sees when the app pulled its catalog;
/// - `GET /debug/redirect?to=URL` answers 302 to URL (with a cookie), `?loop=N` redirects forever.
///
/// Every microsite answer carries a `Set-Cookie`, so a client that keeps cookies between loads is caught, and
/// `FARO_BACKEND_SITE_LATENCY_MS` delays every microsite answer (the "slow server" of the benchmarks).
final class SiteInspection: @unchecked Sendable {
    /// At most this many requests are remembered (the oldest go first).
    static let capacity = 1000

    let siteLatencyMilliseconds: Double
    /// Whether `/debug/…` is served and requests are logged (`--debug`).
    let debug: Bool
    private let lock = BackendLock()
    private var log: [JSONValue] = []
    private var served = 0
    private var accepted: [String: [String: Int]] = [:]
    private var listings: [String: Int] = [:]

    init(siteLatencyMilliseconds: Double, debug: Bool) {
        self.siteLatencyMilliseconds = max(0, siteLatencyMilliseconds)
        self.debug = debug
    }

    /// The inspection of a faro-backend process: the latency from `FARO_BACKEND_SITE_LATENCY_MS`.
    static func fromEnvironment(debug: Bool) -> SiteInspection {
        SiteInspection(
            siteLatencyMilliseconds: ProcessInfo.processInfo.environment["FARO_BACKEND_SITE_LATENCY_MS"].flatMap(
                Double.init) ?? 0, debug: debug)
    }

    /// Logs a microsite request (with `--debug`), lets `handle` answer it, and adds the visit cookie.
    func site(_ request: HTTPRequest, _ handle: () -> HTTPReply) -> HTTPReply {
        let number = record(request)
        var reply = handle()
        reply.headers.append(("Set-Cookie", "faro_visit=\(number); Path=/; HttpOnly"))
        return reply
    }

    /// Counts an insert the server answered with 201 (with `--debug`).
    func accepted(table: String, id: String) {
        guard debug else { return }
        lock.lock()
        accepted[table, default: [:]][id, default: 0] += 1
        lock.unlock()
    }

    /// Counts a listing of `table` (with `--debug`).
    func listed(table: String) {
        guard debug else { return }
        lock.withLock { listings[table, default: 0] += 1 }
    }

    /// The `/debug/…` routes: 404 without `--debug`.
    func debug(_ request: HTTPRequest) -> HTTPReply {
        guard debug else { return .error(404, "Not found") }
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
        case ("GET", "inserts"):
            lock.lock()
            let counts = accepted
            lock.unlock()
            return .json(
                200,
                .object(
                    counts.keys.sorted().map { table in
                        let ids = counts[table] ?? [:]
                        return (table, .object(ids.keys.sorted().map { ($0, .integer(Int64(ids[$0] ?? 0))) }))
                    }))
        case ("GET", "lists"):
            let counts = lock.withLock { listings }
            return .json(200, .object(counts.keys.sorted().map { ($0, .integer(Int64(counts[$0] ?? 0))) }))
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

    /// Logs `request` when debugging, and returns its number among those served.
    private func record(_ request: HTTPRequest) -> Int {
        lock.lock()
        defer { lock.unlock() }
        served += 1
        guard debug else { return served }
        var fields: [(String, JSONValue)] = [
            ("method", .string(request.method)),
            ("path", .string("/" + request.segments.joined(separator: "/"))),
            ("query", request.rawQuery.map(JSONValue.string) ?? .null),
        ]
        for name in ["Cache-Control", "Pragma", "Cookie", "User-Agent"] {
            fields.append((name.lowercased(), request.header(name).map(JSONValue.string) ?? .null))
        }
        log.append(.object(fields))
        if log.count > Self.capacity { log.removeFirst(log.count - Self.capacity) }
        return served
    }
}
