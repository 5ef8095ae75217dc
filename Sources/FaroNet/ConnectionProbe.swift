import FaroCore

/// "Probar conexión" in Preferences (docs/preferences.md): one catalog request to a backend URL, and what happened
/// in words a user can act on. Blocking: run it off the main thread.
public enum ConnectionProbe {
    /// What one probe found.
    public enum Outcome: Equatable, Sendable {
        /// The backend answered with its catalog; `places` is its row count.
        case connected(places: Int)
        /// The backend refused the request (HTTP 401 or 403): the app key is missing or wrong.
        case refused(status: Int)
        /// The URL is not HTTPS (and not loopback), with the rule.
        case notHTTPS(String)
        /// The text is not a backend URL.
        case notAURL(String)
        /// Nothing answered (refused connection, timeout, DNS, TLS), with libcurl's words.
        case noAnswer(String)
        /// It answered, but not as a backend does (another HTTP error, not JSON, a redirect).
        case unexpected(String)
    }

    /// Probes `baseURL` with `appKey`, asking the catalog table `table` for its size.
    public static func run(baseURL: String, appKey: String?, table: String = "beacons", timeout: Double = 8)
        -> Outcome
    {
        var configuration: BackendConfiguration
        do { configuration = try BackendConfiguration(baseURL: baseURL, appKey: appKey) } catch {
            switch error {
            case .insecure: return .notHTTPS(error.description)
            case .notAURL: return .notAURL(error.description)
            }
        }
        configuration.tables.catalog = table
        configuration.connectTimeout = min(configuration.connectTimeout, timeout)
        configuration.totalTimeout = timeout
        let client = TablesClient(connectingOnFirstRequest: configuration)
        defer { client.closeConnection() }
        do {
            let page = try client.list(table: table, query: "$top=1&$inlinecount=allpages")
            return .connected(places: page.count ?? page.rows.count)
        } catch {
            switch error {
            case .http(let status, _) where status == 401 || status == 403: return .refused(status: status)
            case .transport(let message): return .noAnswer(message)
            default: return .unexpected(error.description)
            }
        }
    }
}
