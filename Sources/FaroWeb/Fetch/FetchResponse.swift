/// A successful response: where it ended up after redirects, its status, media type and charset, and its bytes.
public struct FetchResponse: Sendable, Equatable {
    public var requestedURL: String
    public var finalURL: String
    public var status: Int
    /// The `Content-Type` header as sent (e.g. `text/html; charset=utf-8`), if any.
    public var contentType: String?
    public var body: [UInt8]
    /// How long libcurl's transfer took by its own clock (connect, request, response, every hop), the span
    /// `curl -w %{time_total}` reports.
    public var transferDuration: Duration = .zero
    /// The fetch on the calling thread from the first `curl_easy_perform` to the response in hand (libcurl's
    /// per-call set-up and Faro's reading of the answer included); zero for transfers of a multi handle.
    public var performDuration: Duration = .zero

    /// The media type without parameters, lower-cased.
    public var mediaType: String? {
        contentType.map { ($0.split(separator: ";").first.map(String.init) ?? $0).trimmingWhitespace().lowercased() }
    }

    /// The `charset` parameter of the Content-Type, if any.
    public var charset: String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimming(charactersIn: "\"'")
            }
        }
        return nil
    }
}
