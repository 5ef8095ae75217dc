import FaroCurl

/// How every content request is made: fresh (no-cache headers, a new cookie store), bounded (timeouts, redirect
/// and size limits).
public struct FetchOptions: Sendable, Equatable {
    public var connectTimeout: Double
    public var totalTimeout: Double
    public var maxRedirects: Int
    public var maxBytes: Int
    public var userAgent: String
    /// Which certificates are trusted: the system's, unless the test-only `FARO_TEST_CA_BUNDLE` names a bundle.
    var trust = CurlTrust.fromEnvironment()
    /// The protocols libcurl may speak; only tests change it (a list libcurl refuses must stop every fetch).
    var protocols = "http,https"

    public init(
        connectTimeout: Double = 10, totalTimeout: Double = 30, maxRedirects: Int = 10,
        maxBytes: Int = 32 << 20, userAgent: String = "Faro/0.1 (Linux; libcurl)"
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxRedirects = maxRedirects
        self.maxBytes = maxBytes
        self.userAgent = userAgent
    }

    /// The defaults (read anew each time: the trust follows the environment).
    public static var standard: FetchOptions { FetchOptions() }
}
