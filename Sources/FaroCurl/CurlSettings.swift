#if canImport(Glibc)
    import Glibc
#endif

/// Which certificates a handle trusts: the system's store, or (for the tests' own HTTPS peer only) one PEM bundle
/// named by `FARO_TEST_CA_BUNDLE`.
public struct CurlTrust: Sendable, Equatable {
    /// The environment variable of the test-only bundle. It replaces the system's trusted certificates for every
    /// HTTPS request of the process; it exists so that the tests can trust a certificate they made themselves, and
    /// is never needed in normal use.
    public static let testBundleVariable = "FARO_TEST_CA_BUNDLE"

    /// A PEM file of trusted certificates instead of the system's, or nil for the system's store.
    public var caBundle: String?

    public init(caBundle: String? = nil) { self.caBundle = caBundle }

    /// The system's store, unless `FARO_TEST_CA_BUNDLE` names a bundle.
    public static func fromEnvironment() -> CurlTrust {
        guard let value = getenv(testBundleVariable).map({ String(cString: $0) }), !value.isEmpty else {
            return CurlTrust()
        }
        return CurlTrust(caBundle: value)
    }
}

/// What every request of one handle shares: timeouts, the user agent, keep-alive, trust, and for content loads a
/// private cookie store and compressed transfers. The protections (http/https only, no automatic redirects,
/// certificate and host checks) are not settings: every handle has them.
public struct CurlSettings: Sendable, Equatable {
    /// Seconds to establish a connection.
    public var connectTimeout: Double
    /// Seconds for a whole request, connection included.
    public var totalTimeout: Double
    public var userAgent: String
    /// A fresh in-memory cookie store for this handle only (emptied when the handle is made): cookies live as long
    /// as one load, redirects included, and never reach another load.
    public var privateCookies: Bool
    /// Ask for gzip/deflate/br and decode them (content loads).
    public var acceptCompressed: Bool
    /// TCP keep-alive probes and no Nagle delay (a long-lived backend connection).
    public var keepAlive: Bool
    public var trust: CurlTrust
    /// The protocols libcurl may speak, as `CURLOPT_PROTOCOLS_STR` and `CURLOPT_REDIR_PROTOCOLS_STR` take them. Only
    /// tests change it (to see that a list libcurl refuses stops the handle from being made).
    package var protocols = "http,https"

    public init(
        connectTimeout: Double, totalTimeout: Double, userAgent: String, privateCookies: Bool = false,
        acceptCompressed: Bool = false, keepAlive: Bool = false, trust: CurlTrust = .fromEnvironment()
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.userAgent = userAgent
        self.privateCookies = privateCookies
        self.acceptCompressed = acceptCompressed
        self.keepAlive = keepAlive
        self.trust = trust
    }
}

/// One request on a handle: where, how (GET, or POST with a body), extra header lines and the largest answer
/// accepted.
public struct CurlRequest: Sendable, Equatable {
    public var url: String
    public var headers: [String]
    /// nil means GET.
    public var body: [UInt8]?
    /// Answers with a larger body are stopped and reported as `CurlError.tooLarge`.
    public var maxBytes: Int

    public init(url: String, headers: [String] = [], body: [UInt8]? = nil, maxBytes: Int) {
        self.url = url
        self.headers = headers
        self.body = body
        self.maxBytes = maxBytes
    }
}

/// One answer as libcurl received it. Redirects are never followed by libcurl: a 3xx answer comes back with the
/// `redirectURL` it points to, and the caller decides.
public struct CurlResponse: Sendable, Equatable {
    public var status: Int
    /// Header lines of the final response, names as sent.
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// The URL that was fetched.
    public var url: String
    /// Where a 3xx answer points (absolute), if anywhere.
    public var redirectURL: String?
    /// The `Content-Type` header as sent, if any.
    public var contentType: String?
    /// Connections libcurl had to open for this request (0 when it reused a kept-alive one).
    public var newConnections: Int
    /// The transfer's time by libcurl's own clock (`CURLINFO_TOTAL_TIME_T`: name lookup, connect, request and
    /// response, the callbacks included), the span `curl -w %{time_total}` reports.
    public var totalTime: Duration = .zero

    /// A header's value (case-insensitive name; the last one wins).
    public func header(_ name: String) -> String? {
        headers.last(where: { $0.name.lowercased() == name.lowercased() })?.value
    }
}

/// One response header line.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
