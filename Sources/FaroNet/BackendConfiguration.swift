import FaroCore
import FoundationEssentials

/// Where and how Faro talks to its backend (docs/backend.md): base URL, optional app key header, table names,
/// protocol generation (docs/backend-protocols.md), timeouts. HTTPS is required except for loopback addresses; TLS
/// certificates are always verified.
public struct BackendConfiguration: Sendable, Equatable {
    /// The table names on the backend; the defaults are the contract's.
    public struct TableNames: Sendable, Equatable {
        public var catalog = "beacons"
        public var interested = "interested"
        public var contactame = "contactame"
        public var rateme = "rateme"
        public init() {}
    }

    /// The base URL without a trailing slash (`https://faro.azurewebsites.net`).
    public let baseURL: String
    /// Sent as `appKeyHeader: appKey` when set.
    public var appKey: String?
    public var appKeyHeader = "ZUMO-API-KEY"
    public var tables = TableNames()
    /// Seconds to establish a connection.
    public var connectTimeout: Double = 5
    /// Seconds for a whole request, connection included.
    public var totalTimeout: Double = 20
    /// Responses larger than this are cut off and reported, never buffered without bound.
    public var maxResponseBytes = 4 << 20
    /// The cap for one page of a catalog pull (larger: a server that ignores `$top` sends the whole table).
    public var maxCatalogPageBytes = 64 << 20
    /// The tables protocol generation to speak (the `backend-protocol` setting; docs/backend-protocols.md).
    public var backendProtocol: BackendProtocolSetting = .auto

    /// Why a backend URL was refused.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case notAURL(String)
        case insecure(String)

        public var description: String {
            switch self {
            case .notAURL(let url):
                return "'\(url)' is not a backend URL; use one like https://example.azurewebsites.net"
            case .insecure(let url):
                return "'\(url)' is not HTTPS; Faro only talks plain HTTP to this computer (127.0.0.1, ::1, "
                    + "localhost). Use the https:// address of the backend."
            }
        }
    }

    /// Checks and normalises `baseURL` (scheme http/https, a host, no query; http only for loopback).
    public init(baseURL: String, appKey: String? = nil) throws(Problem) {
        var text = baseURL.trimmingWhitespace()
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host,
            !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw .notAURL(baseURL)
        }
        switch scheme {
        case "https": break
        case "http": guard BackendConfiguration.isLoopback(host) else { throw .insecure(baseURL) }
        default: throw .notAURL(baseURL)
        }
        self.baseURL = text
        self.appKey = appKey.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// 127.0.0.0/8, ::1 and localhost: the hosts plain http may go to (`LoopbackHost`, the same rule the device id
    /// follows).
    public static func isLoopback(_ host: String) -> Bool { LoopbackHost.contains(host) }

    /// What the local catalog and its delta token are kept under: the catalog table's URL (a catalog never mixes
    /// backends or tables).
    public var catalogSource: String { baseURL + "/tables/" + PercentEncoding.encodeComponent(tables.catalog) }

    /// The backend table name for an outbox table.
    public func tableName(for table: OutboxTableName) -> String {
        switch table {
        case .interested: return tables.interested
        case .contactame: return tables.contactame
        case .rateme: return tables.rateme
        }
    }
}

/// The outbox's logical tables (an alias kept here so callers of the configuration need not import FaroCore).
public typealias OutboxTableName = OutboxTable
