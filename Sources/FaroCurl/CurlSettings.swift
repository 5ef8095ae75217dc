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
