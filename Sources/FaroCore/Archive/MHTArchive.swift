import FoundationEssentials

/// One decoded part of an MHT archive: its headers and its body with the transfer encoding undone.
public struct MHTPart: Sendable, Equatable {
    public var headers: MIMEHeaders
    /// The media type, lower-cased (`text/html`, `image/png`); `text/plain` when the part declares none.
    public var mediaType: String
    /// The declared `charset` parameter, if any.
    public var charset: String?
    /// `Content-Location`, as written (absolute in Chromium's archives, sometimes relative in Word's).
    public var contentLocation: String?
    /// `Content-ID` without its angle brackets.
    public var contentID: String?
    /// The decoded body bytes.
    public var body: [UInt8]

    public init(headers: MIMEHeaders, body: [UInt8]) {
        self.headers = headers
        self.body = body
        let type = MIMEHeaderValue(headers["Content-Type"] ?? "text/plain")
        mediaType = type.value.isEmpty ? "text/plain" : type.value
        charset = type.parameters["charset"]
        contentLocation = headers["Content-Location"].map { $0.trimmingWhitespace() }
        contentID = headers["Content-ID"].map { $0.trimming(charactersIn: " <>") }
    }

    /// The body as text in its declared charset.
    public var text: String { Charset.decode(body, charset: charset) }

    /// Whether this part is a page (HTML or XHTML).
    public var isHTML: Bool { mediaType == "text/html" || mediaType == "application/xhtml+xml" }

    /// Whether this part is a subresource (image, script, stylesheet, font) rather than a document.
    public var isSubresource: Bool {
        mediaType.hasPrefix("image/") || mediaType.hasPrefix("font/") || mediaType == "text/css"
            || mediaType.hasSuffix("javascript") || mediaType.hasSuffix("ecmascript")
    }
}

/// A parsed MHT (MHTML, RFC 2557) archive: the top-level headers, the flattened parts (nested multiparts
/// expanded in order) and which part is the page.
public struct MHTArchive: Sendable, Equatable {
    public var headers: MIMEHeaders
    public var parts: [MHTPart]
    /// The index in `parts` of the page that opens when the archive is opened.
    public var mainIndex: Int

    /// The page.
    public var main: MHTPart { parts[mainIndex] }

    /// The decoded `Subject` (the page's title as saved).
    public var subject: String? { headers["Subject"].map(Charset.decodeEncodedWords) }

    /// The page's address: `Snapshot-Content-Location`, else the main part's `Content-Location`.
    public var location: String? { headers["Snapshot-Content-Location"] ?? main.contentLocation }

    /// The part a reference in the page points at: `cid:` references by Content-ID, others by Content-Location,
    /// resolved against the page's location (or `base`) the way the page's own relative URLs resolve.
    public func resource(for reference: String, base: String? = nil) -> MHTPart? {
        let trimmed = reference.trimmingWhitespace()
        if trimmed.lowercased().hasPrefix("cid:") {
            let id = PercentEncoding.decode(String(trimmed.dropFirst(4)))
            return parts.first { $0.contentID == id }
        }
        var candidates = [trimmed]
        if let baseText = base ?? main.contentLocation ?? location, let baseURL = URL(string: baseText),
            let resolved = URL(string: trimmed, relativeTo: baseURL)?.absoluteString
        {
            candidates.append(resolved)
        }
        for candidate in candidates {
            if let part = parts.first(where: { $0.contentLocation == candidate }) { return part }
        }
        let normalized = Set(candidates.map { PercentEncoding.decode($0) })
        return parts.first { $0.contentLocation.map { normalized.contains(PercentEncoding.decode($0)) } ?? false }
    }
}
