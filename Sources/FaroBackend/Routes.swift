import FaroCore
import FoundationEssentials

/// One HTTP answer, before it is handed to libsoup.
struct HTTPReply {
    var status: Int
    var contentType: String?
    var body: [UInt8] = []
    var headers: [(String, String)] = []

    static func json(_ status: Int, _ value: JSONValue, headers: [(String, String)] = []) -> HTTPReply {
        HTTPReply(status: status, contentType: "application/json", body: Array(value.serialized.utf8), headers: headers)
    }

    /// An error body shaped like the real server's: `{"error": "…"}`.
    static func error(_ status: Int, _ message: String) -> HTTPReply {
        json(status, .object([("error", .string(message))]))
    }
}

/// What a request looks like to the routes, independent of libsoup.
struct HTTPRequest {
    var method: String
    /// The path, percent-decoded, split into segments.
    var segments: [String]
    /// The raw (still encoded) query string, for building `Link` URLs.
    var rawQuery: String?
    var query: [String: String]
    var header: (String) -> String?
    var body: [UInt8]
}

/// The tables protocol routes (`/tables/...`), the demo microsites (`/sitios/...`) and, with `--debug`, the
/// inspection routes (`/debug/...`).
final class Routes {
    /// The largest request body accepted: larger ones are refused with 413 (the HTTP server stops reading them).
    static let maxBodyBytes = 1 << 20
    let tables: TableStore
    let demo: DemoContent?
    let appKey: String?
    let inspection: SiteInspection
    var baseURL = "http://127.0.0.1"
    /// 3.0.0 `nextLink`s as absolute URLs (ASP.NET Core Datasync) instead of bare query strings (the Toolkit).
    var absoluteNextLinks = false
    /// Where each /tables request line is appended (`--request-log`), nil for nowhere.
    var requestLog: RequestLog?
    private let clock: () -> Double

    init(
        tables: TableStore, demo: DemoContent?, appKey: String?, debug: Bool = false,
        inspection: SiteInspection? = nil, clock: @escaping () -> Double
    ) {
        self.tables = tables
        self.demo = demo
        self.appKey = appKey
        self.inspection = inspection ?? SiteInspection.fromEnvironment(debug: debug)
        self.clock = clock
    }

    func isTablesRequest(_ request: HTTPRequest) -> Bool { request.segments.first == "tables" }

    func handle(_ request: HTTPRequest) -> HTTPReply {
        switch request.segments.first {
        case "tables": return handleTables(request)
        case "sitios": return inspection.site(request) { handleSite(request) }
        case "debug": return inspection.debug(request)
        case nil: return index()
        default: return .error(404, "Not found")
        }
    }

    private func index() -> HTTPReply {
        let html = """
            <!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>faro-backend</title></head>
            <body><h1>faro-backend</h1><p>Tablas en <code>/tables/{tabla}</code>, sitios de demostración en
            <code>/sitios/{slug}/</code>.</p></body></html>
            """
        return HTTPReply(status: 200, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }

    private func handleSite(_ request: HTTPRequest) -> HTTPReply {
        guard request.method == "GET" || request.method == "HEAD" else { return .error(405, "Method not allowed") }
        guard request.segments.count >= 2, request.segments.count <= 3, let demo else {
            return .error(404, "Not found")
        }
        guard
            let file = demo.siteFile(
                slug: request.segments[1], file: request.segments.count == 3 ? request.segments[2] : "")
        else {
            return .error(404, "Not found")
        }
        return HTTPReply(status: 200, contentType: file.contentType, body: file.bytes)
    }

    private func apiVersion(_ request: HTTPRequest) -> String? {
        if let h = request.header("ZUMO-API-VERSION") { return h }
        return request.query.first(where: { $0.key.lowercased() == "zumo-api-version" })?.value
    }

    private var generation: Int { tables.generation }

    private func handleTables(_ request: HTTPRequest) -> HTTPReply {
        if let requestLog {
            let line =
                request.method + " /" + request.segments.joined(separator: "/")
                + (request.rawQuery.map { "?" + $0 } ?? "") + "\n"
            requestLog.append(line)
        }
        // 2.0.0 (azure-mobile-apps-node) requires 2.0.x; the Community Toolkit (3.0.0) ignores the header.
        if generation == 2 {
            guard let version = apiVersion(request), version.hasPrefix("2.0.") else {
                return .error(
                    400,
                    "An invalid API version was specified in the request, this could mean that the "
                        + "ZUMO-API-VERSION header is missing or has an unsupported value (expected 2.0.x).")
            }
        }
        if let appKey, request.header("ZUMO-API-KEY") != appKey {
            return .error(401, "Unauthorized: a valid ZUMO-API-KEY header is required.")
        }
        guard request.segments.count >= 2, request.segments.count <= 3 else { return .error(404, "Not found") }
        let table = request.segments[1]
        guard TableStore.isValidName(table) else { return .error(404, "The table '\(table)' does not exist.") }
        let id = request.segments.count == 3 ? request.segments[2] : nil
        switch (request.method, id) {
        case ("GET", nil):
            inspection.listed(table: table)
            return list(table, request)
        case ("GET", let id?):
            do {
                if generation == 3 {
                    // A soft-deleted row answers 410 Gone.
                    guard let row = try tables.row(table: table, id: id, includeDeleted: true) else {
                        return .error(404, "The item does not exist")
                    }
                    if row["deleted"] == .bool(true) { return .error(410, "The item was deleted") }
                    return .json(200, row, headers: etag(row))
                }
                guard
                    let row = try tables.row(
                        table: table, id: id,
                        includeDeleted: request.query["__includeDeleted"]?.lowercased() == "true")
                else { return .error(404, "The item does not exist") }
                return .json(200, row, headers: etag(row))
            } catch {
                return .error(500, "Storage failed: \(error)")
            }
        case ("DELETE", let id?):
            do {
                let row = try tables.delete(table: table, id: id, ifMatch: request.header("If-Match"), now: clock())
                return .json(200, row, headers: etag(row))
            } catch {
                if error.status == 412, let existing = error.existing {
                    return .json(412, existing, headers: etag(existing))
                }
                return .error(error.status, error.message)
            }
        case ("POST", nil): return insert(table, request)
        default: return .error(405, "Method \(request.method) is not supported on this route by faro-backend.")
        }
    }

    private func etag(_ row: JSONValue) -> [(String, String)] {
        row["version"]?.stringValue.map { [("ETag", "\"\($0)\"")] } ?? []
    }

    private func insert(_ table: String, _ request: HTTPRequest) -> HTTPReply {
        guard request.body.count <= Routes.maxBodyBytes else { return .error(413, "The request body is too large.") }
        let body: JSONValue
        do { body = try JSONValue.parse(bytes: request.body) } catch {
            return .error(400, "The request body is not valid JSON: \(error)")
        }
        do {
            let row = try tables.insert(table: table, body: body, now: clock())
            if let id = row["id"]?.stringValue { inspection.accepted(table: table, id: id) }
            return .json(201, row, headers: etag(row))
        } catch {
            if error.status == 409, let existing = error.existing {
                return .json(409, existing, headers: etag(existing))
            }
            return .error(error.status, error.message)
        }
    }

    private func list(_ table: String, _ request: HTTPRequest) -> HTTPReply {
        let query: TableQuery
        do { query = try TableQuery(parameters: request.query, generation: generation) } catch {
            return .error(400, error.description)
        }
        let page: TableStore.Page
        do { page = try tables.list(table: table, query: query) } catch { return .error(error.status, error.message) }
        if generation == 3 { return listV3(table, request, query, page) }
        var headers: [(String, String)] = []
        if query.top > 0, page.rows.count == query.top {
            headers.append(("Link", "<\(nextLink(table, request, query))>; rel=next"))
        }
        if let count = page.totalCount {
            return .json(
                200, .object([("results", .array(page.rows)), ("count", .integer(Int64(count)))]), headers: headers)
        }
        return .json(200, .array(page.rows), headers: headers)
    }

    /// A 3.0.0 list answer: `{"items", "count", "nextLink"}` with nulls present. `nextLink` is null once the rows
    /// up to this page reach the count (or `$top`); otherwise the same query with `$skip` moved on, as a bare query
    /// string (the Toolkit) or an absolute URL (`--next-link absolute`, ASP.NET Core Datasync).
    private func listV3(_ table: String, _ request: HTTPRequest, _ query: TableQuery, _ page: TableStore.Page)
        -> HTTPReply
    {
        let total = page.totalCount ?? 0
        var end = total
        if let top = query.topGiven { end = min(end, query.skip + top) }
        let reached = query.skip + page.rows.count
        var link: JSONValue = .null
        if !page.rows.isEmpty, reached < end {
            var parts = (request.rawQuery ?? "").split(separator: "&").map(String.init).filter {
                let name = QueryString.decode(String($0.split(separator: "=", maxSplits: 1).first ?? "")).lowercased()
                return name != "$skip" && name != "$top"
            }
            if let top = query.topGiven { parts.append("$top=\(top - page.rows.count)") }
            parts.append("$skip=\(reached)")
            let text = parts.joined(separator: "&")
            link = .string(absoluteNextLinks ? "\(baseURL)/tables/\(table)?" + text : text)
        }
        return .json(
            200,
            .object([
                ("items", .array(page.rows)),
                ("count", query.inlineCount ? .integer(Int64(total)) : .null),
                ("nextLink", link),
            ]))
    }

    private func nextLink(_ table: String, _ request: HTTPRequest, _ query: TableQuery) -> String {
        var parts = (request.rawQuery ?? "").split(separator: "&").map(String.init).filter {
            let name = QueryString.decode(String($0.split(separator: "=", maxSplits: 1).first ?? "")).lowercased()
            return name != "$skip" && name != "$top"
        }
        parts.append("$top=\(query.top)")
        parts.append("$skip=\(query.skip + query.top)")
        return "\(baseURL)/tables/\(table)?" + parts.joined(separator: "&")
    }
}

/// Decoding of URL query strings and paths.
enum QueryString {
    /// `a=1&b=x%20y` → ["a": "1", "b": "x y"]; `+` is a space as in HTML forms. The last of repeated names wins.
    static func parse(_ raw: String?) -> [String: String] {
        var result: [String: String] = [:]
        for pair in (raw ?? "").split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(String(kv[0]))
            result[name] = kv.count > 1 ? decode(String(kv[1])) : ""
        }
        return result
    }

    /// Percent-decoding (invalid escapes are kept as they are).
    static func decode(_ text: String, plusIsSpace: Bool = true) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            let c = utf8[i]
            if c == UInt8(ascii: "%"), i + 2 < utf8.count,
                let v = UInt8(String(decoding: utf8[i + 1...i + 2], as: UTF8.self), radix: 16)
            {
                bytes.append(v)
                i += 3
            } else {
                bytes.append(plusIsSpace && c == UInt8(ascii: "+") ? 0x20 : c)
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
