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
