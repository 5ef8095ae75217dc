import FaroCore
import FaroCurl
import FaroStore
import FoundationEssentials

/// A client of the tables protocol over libcurl, in both generations (docs/backend.md, docs/backend-protocols.md):
/// Azure Mobile Apps 2.0.0 and Datasync 3.0.0. Catalog pages and lookups, and inserts. Each request carries
/// `ZUMO-API-VERSION` (2.0.0 until the generation is known) and `Accept: application/json`. Blocking: use it on a
/// worker thread (never the UI thread); one client per thread; its connection is reused between requests until
/// `closeConnection()`.
public final class TablesClient {
    public let configuration: BackendConfiguration
    /// The kept-alive handle: Faro's one `CurlHandle`, with its protections (http/https only, no redirects
    /// followed, TLS verified), keep-alive and the backend's timeouts.
    private var easy: CurlHandle?
    /// What drives a catalog pull's requests (`startCatalogPage`), so that the next page's request is on its way
    /// while the page before is read. Every request of a pull goes through it, so they share one kept-alive
    /// connection (libcurl keeps a multi handle's connections apart from those of a blocking transfer).
    private var pullMulti: CurlMulti?
    /// A catalog page request that finished while it was being started (refused at once, say).
    private var pullDone: Result<CurlResponse, CurlError>?
    /// The generation this client speaks: the setting's when it names one, else the one learned from the server's
    /// answers (or remembered from before: `remember`); nil until then.
    public private(set) var generation: BackendProtocol?

    /// Makes the client and its libcurl handle (so that a libcurl that cannot start is reported here).
    public init(configuration: BackendConfiguration) throws(TablesError) {
        self.configuration = configuration
        easy = try TablesClient.makeHandle(configuration)
        if case .fixed(let generation) = configuration.backendProtocol { self.generation = generation }
    }

    /// Makes the client without a handle: libcurl is loaded by the first request, and a libcurl that cannot start
    /// is that request's `.transport` failure. For a worker that may have nothing to send (the outbox's idle
    /// passes only read the database).
    public init(connectingOnFirstRequest configuration: BackendConfiguration) {
        self.configuration = configuration
        easy = nil
        if case .fixed(let generation) = configuration.backendProtocol { self.generation = generation }
    }

    /// With the `auto` setting, the generation remembered for this backend from an earlier answer (used until an
    /// answer says otherwise). Ignored when the setting names one.
    public func remember(_ generation: BackendProtocol?) {
        guard configuration.backendProtocol == .auto else { return }
        self.generation = generation
    }

    /// With the `auto` setting, takes the generation an answer's shape showed; returns whether it changed.
    @discardableResult
    public func learn(_ shape: BackendProtocol) -> Bool {
        guard configuration.backendProtocol == .auto, generation != shape else { return false }
        generation = shape
        return true
    }

    /// The error for an answer of generation `shape` when the setting names another one, else nil.
    public func mismatch(_ shape: BackendProtocol) -> TablesError? {
        guard case .fixed(let wanted) = configuration.backendProtocol, wanted != shape else { return nil }
        return .protocolMismatch(setting: wanted, server: shape)
    }

    private static func makeHandle(_ configuration: BackendConfiguration) throws(TablesError) -> CurlHandle {
        do {
            return try CurlHandle(
                CurlSettings(
                    connectTimeout: configuration.connectTimeout, totalTimeout: configuration.totalTimeout,
                    userAgent: "Faro/1.0 (Linux)", keepAlive: true))
        } catch {
            throw .transport(error.description)
        }
    }

    /// Closes the kept-alive connection and frees the libcurl handle; the next request makes a new one. Called
    /// when a pull or a delivery pass ends: with no handle left, libcurl itself is closed after a while
    /// (`CurlRuntime`), which is most of a tray app's day between two pulls.
    public func closeConnection() {
        pullMulti = nil
        pullDone = nil
        easy = nil
    }

    /// Performs one request. `body` nil means GET, else POST with that body.
    private func perform(url: String, headers: [String], body: [UInt8]?, limit: Int) -> Result<
        CurlResponse, TablesError
    > {
        let handle: CurlHandle
        if let easy {
            handle = easy
        } else {
            do { handle = try TablesClient.makeHandle(configuration) } catch { return .failure(error) }
            easy = handle
        }
        return TablesClient.answer(handle.perform(CurlRequest(url: url, headers: headers, body: body, maxBytes: limit)))
    }

    private static func answer(_ result: Result<CurlResponse, CurlError>) -> Result<CurlResponse, TablesError> {
        switch result {
        case .success(let response): return .success(response)
        case .failure(.tooLarge(let limit)): return .failure(.responseTooLarge(limit: limit))
        case .failure(let error): return .failure(.transport(error.description))
        }
    }

    private var headers: [String] { headers(version: (generation ?? .v2).version) }

    private func headers(version: String) -> [String] {
        var h = ["ZUMO-API-VERSION: " + version, "Accept: application/json"]
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
    public func get(_ url: String, limit: Int? = nil) -> Result<CurlResponse, TablesError> {
        perform(url: url, headers: headers, body: nil, limit: limit ?? configuration.maxResponseBytes)
    }

    /// A raw GET of `url` with `ZUMO-API-VERSION: version` (whatever generation the client speaks).
    public func getWithVersion(_ url: String, version: String) -> Result<CurlResponse, TablesError> {
        perform(url: url, headers: headers(version: version), body: nil, limit: configuration.maxResponseBytes)
    }

    /// A raw POST of a JSON body to `url`.
    public func post(_ url: String, json: String) -> Result<CurlResponse, TablesError> {
        perform(
            url: url, headers: headers + ["Content-Type: application/json"], body: Array(json.utf8),
            limit: configuration.maxResponseBytes)
    }

    /// Inserts one row (`POST /tables/{table}`) and reports what happened, for `DeliveryVerdict.classify`. On a
    /// 3.0.0 backend a 409 counts as delivered only when the stored row it carries is the row sent (`conflict`
    /// otherwise, with what differs).
    public func insert(table: String, json: String) -> DeliveryAttemptResult {
        switch post(tableURL(table), json: json) {
        case .failure(let error): return .transportFailure(error.description)
        case .success(let response):
            if (300..<400).contains(response.status) {
                return .response(
                    status: response.status, message: "to \(response.header("Location") ?? "another address")")
            }
            if response.status == 409, generation == .v3,
                let difference = TablesClient.storedRowDifference(sent: json, answer: response.body)
            {
                return .conflict(reason: difference)
            }
            return .response(status: response.status, message: TablesClient.errorMessage(response))
        }
    }

    /// Why the stored row of a 409 answer is not the row sent (nil when every field sent is stored as sent). System
    /// columns the server sets are not compared; a body that is not a row is a difference too.
    static func storedRowDifference(sent: String, answer: [UInt8]) -> String? {
        guard let sentRow = try? JSONValue.parse(sent), let fields = sentRow.objectMembers else { return nil }
        guard let stored = try? JSONValue.parse(bytes: answer), stored.objectMembers != nil else {
            return "the backend holds another row with this id (its answer carries no row to compare)"
        }
        let system: Set<String> = ["createdat", "updatedat", "version", "deleted"]
        for (name, value) in fields where !system.contains(name.lowercased()) {
            let held = stored[name] ?? .null
            let same: Bool
            switch (value, held) {
            case (.integer, _), (.number, _): same = value.doubleValue == held.doubleValue
            default: same = value == held
            }
            if !same {
                let id = sentRow["id"]?.stringValue ?? ""
                return "the backend holds another row with id \(id): its \(name) is \(held.serialized), "
                    + "Faro sent \(value.serialized)"
            }
        }
        return nil
    }

    /// The server's error text: `error` (or `message`) of a JSON body, else the start of the body.
    static func errorMessage(_ response: CurlResponse) -> String {
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
        /// With `$inlinecount=allpages` (2.0.0) or `$count=true` (3.0.0).
        public var count: Int?
        /// The `Link: <…>; rel=next` URL when the server has more (2.0.0).
        public var next: String?
        /// Bytes of the response body.
        public var bytes = 0
        /// The generation the answer's shape belongs to.
        public var shape: BackendProtocol = .v2
        /// A 3.0.0 answer's `nextLink`, as sent (a query string or a URL; nil when null).
        public var nextLink: String?
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

    /// A list request's answer read as a page (rows, count, next link) of either generation, or the error that
    /// explains why not: 2.0.0 is an array or `{results, count}`, 3.0.0 `{items, count, nextLink}`.
    public static func listPage(_ result: Result<CurlResponse, TablesError>) throws(TablesError) -> ListPage {
        let json = try jsonAnswer(result)
        let next = TablesClient.nextLink(json.response.header("Link"))
        let bytes = json.response.body.count
        if let rows = json.value.arrayValue { return ListPage(rows: rows, count: nil, next: next, bytes: bytes) }
        if let rows = json.value["items"]?.arrayValue {
            let count = json.value["count"]
            let link = json.value["nextLink"]
            guard count == nil || count == .null || count?.intValue != nil else {
                throw .unexpectedShape("a 3.0.0 answer whose count is \(count?.serialized ?? "")")
            }
            guard link == nil || link == .null || link?.stringValue != nil else {
                throw .unexpectedShape("a 3.0.0 answer whose nextLink is \(link?.serialized ?? "")")
            }
            return ListPage(
                rows: rows, count: count?.intValue, next: nil, bytes: bytes, shape: .v3,
                nextLink: link?.stringValue.flatMap { $0.isEmpty ? nil : $0 })
        }
        if let rows = json.value["results"]?.arrayValue, let count = json.value["count"]?.intValue {
            return ListPage(rows: rows, count: count, next: next, bytes: bytes)
        }
        let members = json.value.objectMembers.map { "an object with " + $0.prefix(5).map(\.0).joined(separator: ", ") }
        throw .unexpectedShape(members ?? "a JSON \(TablesClient.kind(json.value))")
    }

    private static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The raw answer to a 3.0.0 `nextLink` of a catalog pull (already resolved to an absolute URL on the catalog
    /// table by `CatalogNextLink`; anything else is refused without a request).
    public func catalogLinkResponse(url: String) -> Result<CurlResponse, TablesError> {
        let table = tableURL(configuration.tables.catalog)
        guard url.hasPrefix(table + "?") else { return .failure(.redirected(status: 0, location: url)) }
        return get(url, limit: configuration.maxCatalogPageBytes)
    }

    /// A catalog page request under way (`startCatalogPage`) until `finishCatalogPage` or `cancelCatalogPage`.
    public struct PendingPage {
        /// The URL asked for.
        public let url: String
        fileprivate let started: Result<CurlHandle, TablesError>
    }

    /// Sends the request of one page of a catalog pull (a query on the catalog table, or a `nextLink` already
    /// resolved on it: anything else is refused without a request) and returns without waiting for the answer. At
    /// most one is under way at a time; `finishCatalogPage` waits for it, `cancelCatalogPage` drops it.
    public func startCatalogPage(_ request: CatalogPullPlan.Request) -> PendingPage {
        switch request {
        case .query(let query):
            let url = tableURL(configuration.tables.catalog) + "?" + query
            return PendingPage(url: url, started: start(url: url))
        case .link(let url, _): return startCatalogPage(link: url)
        }
    }

    /// The same for a `nextLink` resolved on the catalog table (`CatalogNextLink.resolve`).
    public func startCatalogPage(link url: String) -> PendingPage {
        guard url.hasPrefix(tableURL(configuration.tables.catalog) + "?") else {
            return PendingPage(url: url, started: .failure(.redirected(status: 0, location: url)))
        }
        return PendingPage(url: url, started: start(url: url))
    }

    private func start(url: String) -> Result<CurlHandle, TablesError> {
        pullDone = nil
        let handle: CurlHandle
        let multi: CurlMulti
        do throws(TablesError) {
            if let easy {
                handle = easy
            } else {
                handle = try TablesClient.makeHandle(configuration)
                easy = handle
            }
            if let pullMulti {
                multi = pullMulti
            } else {
                do { multi = try CurlMulti() } catch { throw TablesError.transport(error.description) }
                pullMulti = multi
            }
            let request = CurlRequest(
                url: url, headers: headers, body: nil, maxBytes: configuration.maxCatalogPageBytes)
            do { try handle.prepare(request) } catch { throw TablesError.transport(error.description) }
        } catch {
            return .failure(error)
        }
        guard multi.add(handle) else { return .failure(.transport("libcurl refused to start the request")) }
        // One turn sends the request on the kept-alive connection; the answer is read by finishCatalogPage.
        let turn = multi.perform()
        if let done = turn.finished.first(where: { $0.0 === handle }) { pullDone = done.1 }
        return .success(handle)
    }

    /// Waits for the answer of the page request `pending` (blocking).
    public func finishCatalogPage(_ pending: PendingPage) -> Result<CurlResponse, TablesError> {
        let handle: CurlHandle
        switch pending.started {
        case .failure(let error): return .failure(error)
        case .success(let started): handle = started
        }
        guard let multi = pullMulti else { return .failure(.transport("the connection was closed")) }
        while true {
            if let done = pullDone {
                pullDone = nil
                return TablesClient.answer(done)
            }
            let turn = multi.perform()
            if let done = turn.finished.first(where: { $0.0 === handle }) { return TablesClient.answer(done.1) }
            guard turn.ok else {
                multi.remove(handle)
                return .failure(.transport("libcurl's multi handle failed"))
            }
            // libcurl shortens the wait to its own next timeout (the request's time limit).
            multi.wait(milliseconds: 1000)
        }
    }

    /// Drops the page request `pending` (its answer, if it comes, is not read; an unfinished transfer closes the
    /// connection).
    public func cancelCatalogPage(_ pending: PendingPage) {
        pullDone = nil
        if case .success(let handle) = pending.started { pullMulti?.remove(handle) }
    }

    /// Which generation the backend speaks, from the shape of one small catalog listing sent with
    /// `ZUMO-API-VERSION: 2.0.0` (every server kind answers it: the Community Toolkit ignores the header, ASP.NET
    /// Core Datasync answers 2.0 in the 2.0.0 shape, Mobile Apps requires it). Nil when the answer has neither shape
    /// or is an error (`error` says which).
    public func probeGeneration() -> Result<(generation: BackendProtocol, count: Int?), TablesError> {
        let url = tableURL(configuration.tables.catalog) + "?$top=1"
        do {
            let page = try TablesClient.listPage(getWithVersion(url, version: BackendProtocol.v2.version))
            return .success((page.shape, page.count))
        } catch {
            return .failure(error)
        }
    }

    /// The raw answer to one page of an incremental catalog pull: `GET /tables/{catalog}?{query}` (see
    /// `CatalogPullPlan`), allowed up to `maxCatalogPageBytes` (a server that ignores `$top` sends the whole table at
    /// once). `listPage` reads it; the sync does so on its own thread while the next page is on its way.
    public func catalogPageResponse(query: String) -> Result<CurlResponse, TablesError> {
        get(tableURL(configuration.tables.catalog) + "?" + query, limit: configuration.maxCatalogPageBytes)
    }

    /// One page of an incremental catalog pull, fetched and read.
    public func catalogPage(query: String) throws(TablesError) -> ListPage {
        try TablesClient.listPage(catalogPageResponse(query: query))
    }

    /// `GET /tables/{table}/{id}`: the row, or nil for 404 (and for 410, a 3.0.0 server's soft-deleted row).
    public func item(table: String, id: String) throws(TablesError) -> JSONValue? {
        let result = get(tableURL(table) + "/" + TablesClient.encode(id))
        if case .success(let r) = result, r.status == 404 || r.status == 410 { return nil }
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
    private static func jsonAnswer(_ result: Result<CurlResponse, TablesError>) throws(TablesError)
        -> (response: CurlResponse, value: JSONValue)
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
