/// `data:` URLs (RFC 2397) as pages embed small images: `data:image/png;base64,iVBOR…` or percent-encoded text.
public enum DataURL {
    /// The media type and bytes of a `data:` URL, or nil when `url` is not one or its payload is malformed.
    public static func decode(_ url: String) -> (mediaType: String, bytes: [UInt8])? {
        guard url.utf8.count > 5, url.prefix(5).lowercased() == "data:", let comma = url.firstIndex(of: ",") else {
            return nil
        }
        let header = url[url.index(url.startIndex, offsetBy: 5)..<comma]
        let payload = url[url.index(after: comma)...]
        let parameters = header.split(separator: ";").map { $0.lowercased() }
        let mediaType = parameters.first.flatMap { $0.contains("/") ? String($0) : nil } ?? "text/plain"
        if parameters.contains("base64") {
            guard let bytes = Base64.decode(Array(PercentEncoding.decode(String(payload)).utf8)) else { return nil }
            return (mediaType, bytes)
        }
        return (mediaType, Array(PercentEncoding.decode(String(payload)).utf8))
    }
}
