import FaroCore

/// "Probar conexión": one catalog request to a backend, and what it says in words a user can act on
/// (docs/backend-protocols.md). Blocking: call it off the UI thread.
public enum BackendProbe {
    /// What the probe found.
    public enum Result: Equatable, Sendable {
        /// The backend answered the catalog listing: it holds `places` live places (nil when it did not count them)
        /// and speaks `generation`.
        case connected(places: Int?, generation: BackendProtocol)
        /// The backend refused the app key (401 or 403); `message` is its own text.
        case refused(status: Int, message: String)
        /// The URL is plain http to another computer (or not a backend URL at all): nothing was sent.
        case notHTTPS(String)
        /// No answer: refused, timed out, TLS failure, DNS.
        case noAnswer(String)
        /// An answer, but not a tables backend's (404 table, another shape, another generation than the setting).
        case unusable(String)
    }

    /// Checks `baseURL` (https, or http to this computer) and asks the catalog table for one row and its count:
    /// `$top=1&$inlinecount=allpages` with `ZUMO-API-VERSION: 2.0.0`, which a 2.0.0 server answers; a 3.0.0 server
    /// that refuses `$inlinecount` or does not count for it is asked again with `$count=true`. A 2.0.0 server that
    /// answers a plain array without a count is asked for its first page of ids, and the probe counts them when
    /// that page is the whole catalog; otherwise the count is unknown (nil). Two requests at most; `timeout`
    /// bounds each.
    public static func run(
        baseURL: String, appKey: String? = nil, catalogTable: String = "beacons",
        setting: BackendProtocolSetting = .auto, timeout: Double = 10
    ) -> Result {
        var configuration: BackendConfiguration
        do { configuration = try BackendConfiguration(baseURL: baseURL, appKey: appKey) } catch {
            return .notHTTPS(error.description)
        }
        configuration.tables.catalog = catalogTable
        configuration.backendProtocol = setting
        configuration.connectTimeout = min(configuration.connectTimeout, timeout)
        configuration.totalTimeout = timeout
        return run(configuration)
    }

    /// The probe for a configuration already checked.
    public static func run(_ configuration: BackendConfiguration) -> Result {
        let client = TablesClient(connectingOnFirstRequest: configuration)
        defer { client.closeConnection() }
        let table = configuration.tables.catalog
        let base = client.tableURL(table)
        var page: TablesClient.ListPage
        do {
            page = try TablesClient.listPage(
                client.getWithVersion(base + "?$top=1&$inlinecount=allpages", version: BackendProtocol.v2.version))
        } catch {
            // An OData v4 server may refuse `$inlinecount`: ask in 3.0.0 before reporting the first answer.
            guard case .http(400, _) = error, let counted = count3(client, base) else {
                return classify(error, table: table)
            }
            page = counted
        }
        if page.shape == .v3, page.count == nil, let counted = count3(client, base) { page = counted }
        if let mismatch = client.mismatch(page.shape) { return .unusable(mismatch.description) }
        if page.shape == .v2, page.count == nil { return .connected(places: countIDs2(client, base), generation: .v2) }
        return .connected(places: page.count, generation: page.shape)
    }

    /// The ids of the server's first 2.0.0 page (`$select=id`): their number when no `Link: rel=next` follows,
    /// nil when there are more pages or the listing fails.
    private static func countIDs2(_ client: TablesClient, _ base: String) -> Int? {
        guard
            let page = try? TablesClient.listPage(
                client.getWithVersion(base + "?$select=id", version: BackendProtocol.v2.version)),
            page.shape == .v2, page.next == nil
        else { return nil }
        return page.count ?? page.rows.count
    }

    /// `$top=1&$count=true` with the 3.0.0 header: the answer if it is a 3.0.0 listing.
    private static func count3(_ client: TablesClient, _ base: String) -> TablesClient.ListPage? {
        let page = try? TablesClient.listPage(
            client.getWithVersion(base + "?$top=1&$count=true", version: BackendProtocol.v3.version))
        return page?.shape == .v3 ? page : nil
    }

    private static func classify(_ error: TablesError, table: String) -> Result {
        switch error {
        case .http(let status, let message) where status == 401 || status == 403:
            return .refused(status: status, message: message)
        case .http(404, _): return .unusable("table \(table) not found on the backend (HTTP 404)")
        case .http(let status, _) where status >= 500: return .noAnswer(error.description)
        case .transport: return .noAnswer(error.description)
        default: return .unusable(error.description)
        }
    }
}
