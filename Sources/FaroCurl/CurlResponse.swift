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
