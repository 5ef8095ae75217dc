import FaroCore
import FaroStore
import FoundationEssentials

/// A client of the Azure Mobile Apps tables protocol 2.0.0 (docs/backend.md) over libcurl: catalog pages and
/// lookups, and inserts. Each request carries `ZUMO-API-VERSION: 2.0.0` and `Accept: application/json`. Blocking: use it on a
/// worker thread (never the UI thread); one client per thread; its connection is reused between requests until
/// `closeConnection()`.
public final class TablesClient {
    public let configuration: BackendConfiguration
    private var easy: CurlEasy?

    /// Makes the client and its libcurl handle (so that a libcurl that cannot start is reported here).
    public init(configuration: BackendConfiguration) throws(TablesError) {
        self.configuration = configuration
        easy = try TablesClient.makeHandle(configuration)
    }

    /// Makes the client without a handle: libcurl is loaded by the first request, and a libcurl that cannot start
    /// is that request's `.transport` failure. For a worker that may have nothing to send (the outbox's idle
    /// passes only read the database).
    public init(connectingOnFirstRequest configuration: BackendConfiguration) {
        self.configuration = configuration
        easy = nil
    }

    private static func makeHandle(_ configuration: BackendConfiguration) throws(TablesError) -> CurlEasy {
        do {
            return try CurlEasy(
                connectTimeout: configuration.connectTimeout, totalTimeout: configuration.totalTimeout)
        } catch {
            throw .transport(error.description)
        }
    }

    /// Closes the kept-alive connection and frees the libcurl handle; the next request makes a new one. Called
    /// when a pull or a delivery pass ends: with no handle left, libcurl itself is closed after a while
    /// (`CurlRuntime`), which is most of a tray app's day between two pulls.
    public func closeConnection() { easy = nil }

    private func perform(url: String, headers: [String], body: [UInt8]?, limit: Int) -> Result<
        HTTPResponse, TablesError
    > {
        let handle: CurlEasy
        if let easy {
            handle = easy
        } else {
            do { handle = try TablesClient.makeHandle(configuration) } catch { return .failure(error) }
            easy = handle
        }
        return handle.perform(url: url, headers: headers, body: body, limit: limit)
    }

    private var headers: [String] {
        var h = ["ZUMO-API-VERSION: 2.0.0", "Accept: application/json"]
        if let key = configuration.appKey { h.append("\(configuration.appKeyHeader): \(key)") }
        return h
    }

    /// The URL of a table (name percent-encoded).
    public func tableURL(_ table: String) -> String {
        configuration.baseURL + "/tables/" + TablesClient.encode(table)
    }

    static func encode(_ text: String) -> String {
        PercentEncoding.encodeComponent(text)
    }

    /// A raw GET of `url` with the protocol headers; the answer may hold at most `limit` bytes (default: the
    /// configuration's `maxResponseBytes`).
    public func get(_ url: String, limit: Int? = nil) -> Result<HTTPResponse, TablesError> {
        perform(url: url, headers: headers, body: nil, limit: limit ?? configuration.maxResponseBytes)
    }

    /// A raw POST of a JSON body to `url`.
    public func post(_ url: String, json: String) -> Result<HTTPResponse, TablesError> {
        perform(
            url: url, headers: headers + ["Content-Type: application/json"], body: Array(json.utf8),
            limit: configuration.maxResponseBytes)
    }

    /// Inserts one row (`POST /tables/{table}`) and reports what happened, for `DeliveryVerdict.classify`.
    public func insert(table: String, json: String) -> DeliveryAttemptResult {
        switch post(tableURL(table), json: json) {
        case .failure(let error): return .transportFailure(error.description)
        case .success(let response):
            if (300..<400).contains(response.status) {
                return .response(
                    status: response.status, message: "to \(response.header("Location") ?? "another address")")
            }
            return .response(status: response.status, message: TablesClient.errorMessage(response))
        }
    }

    /// The server's error text: `error` (or `message`) of a JSON body, else the start of the body.
    static func errorMessage(_ response: HTTPResponse) -> String {
        guard !(200..<300).contains(response.status) else { return "" }
        if let json = try? JSONValue.parse(bytes: response.body),
            let text = json["error"]?.stringValue ?? json["message"]?.stringValue
        {
            return text
        }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            .trimmingWhitespaceAndNewlines()
        return text.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" }) ? text : ""
    }

    /// A list request's answer.
    public struct ListPage: Sendable, Equatable {
        public var rows: [JSONValue]
        /// With `$inlinecount=allpages`.
        public var count: Int?
        /// The `Link: <…>; rel=next` URL when the server has more.
        public var next: String?
        /// Bytes of the response body.
        public var bytes = 0
    }

    /// `GET /tables/{table}?{query}` where `query` holds already encoded OData options (`$filter=…&$top=…`).
    public func list(table: String, query: String = "") throws(TablesError) -> ListPage {
        try list(url: tableURL(table) + (query.isEmpty ? "" : "?" + query))
    }

    /// Follows a `next` link (only on the configured backend: never to another host). `limit` caps the answer's
    /// size (default: the configuration's `maxResponseBytes`).
    public func list(url: String, limit: Int? = nil) throws(TablesError) -> ListPage {
        guard url.hasPrefix(configuration.baseURL + "/") else {
            throw .redirected(status: 0, location: url)
        }
        return try TablesClient.listPage(get(url, limit: limit))
    }

    /// A list request's answer read as a page (rows, count, next link), or the error that explains why not.
    public static func listPage(_ result: Result<HTTPResponse, TablesError>) throws(TablesError) -> ListPage {
        let json = try jsonAnswer(result)
        let next = TablesClient.nextLink(json.response.header("Link"))
        let bytes = json.response.body.count
        if let rows = json.value.arrayValue { return ListPage(rows: rows, count: nil, next: next, bytes: bytes) }
        if let rows = json.value["results"]?.arrayValue, let count = json.value["count"]?.intValue {
            return ListPage(rows: rows, count: count, next: next, bytes: bytes)
        }
        throw .malformedResponse("expected an array of rows or {results, count}")
    }

    /// The raw answer to one page of an incremental catalog pull: `GET /tables/{catalog}?{query}` (see
    /// `CatalogPullPlan`), allowed up to `maxCatalogPageBytes` (a server that ignores `$top` sends the whole table at
    /// once). `listPage` reads it; the sync does so on its own thread while the next page is on its way.
    public func catalogPageResponse(query: String) -> Result<HTTPResponse, TablesError> {
        get(tableURL(configuration.tables.catalog) + "?" + query, limit: configuration.maxCatalogPageBytes)
    }

    /// One page of an incremental catalog pull, fetched and read.
    public func catalogPage(query: String) throws(TablesError) -> ListPage {
        try TablesClient.listPage(catalogPageResponse(query: query))
    }

    /// `GET /tables/{table}/{id}`: the row, or nil for 404.
    public func item(table: String, id: String) throws(TablesError) -> JSONValue? {
        let result = get(tableURL(table) + "/" + TablesClient.encode(id))
        if case .success(let r) = result, r.status == 404 { return nil }
        let json = try TablesClient.jsonAnswer(result)
        guard json.value.objectMembers != nil else { throw .malformedResponse("expected a row object") }
        return json.value
    }

    /// The catalog's places for a beacon (the lookup used where listing is refused):
    /// `$filter=(major eq M) and (minor eq N)` (and the UUID when given). Rows Faro cannot use (no `cliente`,
    /// `titulo` or `url`, another major or minor, a deleted row) are left out; with a UUID, rows of another UUID too.
    public func catalog(major: Int, minor: Int, uuid: String? = nil) throws(TablesError) -> [CatalogPlace] {
        var filter = "(major eq \(major)) and (minor eq \(minor))"
        if let uuid { filter += " and (uuid eq '\(uuid.lowercased().replacing("'", with: "''"))')" }
        let page = try list(table: configuration.tables.catalog, query: "$filter=" + TablesClient.encode(filter))
        var places = page.rows.compactMap { row -> CatalogPlace? in
            guard case .upsert(let place) = CatalogPulledRow.read(row).change,
                Int(place.identity.major) == major, Int(place.identity.minor) == minor
            else { return nil }
            return place
        }
        if let uuid, let wanted = BeaconUUID(uuid) {
            places = places.filter { $0.anyUUID || $0.identity.uuid == wanted }
        } else if uuid != nil {
            places = []
        }
        return places
    }

    /// A 2xx JSON answer, or the error that explains why not.
    private static func jsonAnswer(_ result: Result<HTTPResponse, TablesError>) throws(TablesError)
        -> (response: HTTPResponse, value: JSONValue)
    {
        let response = try result.get()
        if (300..<400).contains(response.status) {
            throw .redirected(status: response.status, location: response.header("Location") ?? "")
        }
        guard (200..<300).contains(response.status) else {
            throw .http(status: response.status, message: TablesClient.errorMessage(response))
        }
        let type = response.header("Content-Type") ?? ""
        guard type.lowercased().hasPrefix("application/json") else {
            throw .unexpectedContentType(type.isEmpty ? "no content type" : type)
        }
        do { return (response, try JSONValue.parse(bytes: response.body)) } catch {
            throw .malformedResponse(error.description)
        }
    }

    /// The URL in `<…>; rel=next` (URLs may contain commas, so links are read by their angle brackets).
    static func nextLink(_ header: String?) -> String? {
        guard let header else { return nil }
        var rest = Substring(header)
        for _ in 0..<16 {  // bounded: a Link header holds a few links at most
            guard let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") else { return nil }
            let url = rest[rest.index(after: open)..<close]
            let params = rest[rest.index(after: close)...].prefix { $0 != "<" }
            if params.contains("rel=next") || params.contains("rel=\"next\"") { return String(url) }
            rest = rest[rest.index(after: close)...]
        }
        return nil
    }
}
