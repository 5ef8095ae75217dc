import FoundationEssentials

/// Writes MHT archives the way Chromium's "Save as… single file" does (RFC 2557 `multipart/related`, Blink's
/// header lines, quoted-printable text and base64 binaries, CRLF everywhere), so that Chromium, Edge and Faro's own
/// reader open them.
public struct MHTWriter: Sendable {
    /// A subresource to store beside the page: its absolute URL, media type and bytes as fetched.
    public struct Resource: Sendable, Equatable {
        public var url: String
        public var contentType: String
        public var body: [UInt8]

        public init(url: String, contentType: String, body: [UInt8]) {
            self.url = url
            self.contentType = contentType
            self.body = body
        }
    }

    /// The page to archive: its address (already without the device id), title, HTML bytes as fetched and their
    /// declared charset, when it was saved, and its resources.
    public struct Page: Sendable {
        public var url: String
        public var title: String
        public var html: [UInt8]
        public var charset: String?
        public var savedAt: Date
        public var resources: [Resource]

        public init(url: String, title: String, html: [UInt8], charset: String?, savedAt: Date, resources: [Resource]) {
            self.url = url
            self.title = title
            self.html = html
            self.charset = charset
            self.savedAt = savedAt
            self.resources = resources
        }
    }

    private var makeBoundaryToken: @Sendable () -> String

    /// `boundaryToken` makes the random middle of the boundary (tests pass a fixed one).
    public init(boundaryToken: @escaping @Sendable () -> String = { MHTWriter.randomToken() }) {
        makeBoundaryToken = boundaryToken
    }

    /// The archive's bytes. Every address it writes goes through `DeviceIDURL.stripping(from:)`, and every text part
    /// through `DeviceIDScrubber`, so no archive carries an `imei` parameter.
    public func write(_ page: Page) -> [UInt8] {
        let htmlType = "text/html" + (page.charset.map { "; charset=\(MHTWriter.headerSafe($0))" } ?? "")
        var encodedParts: [(headers: [(String, String)], body: [UInt8])] = []
        encodedParts.append(
            (
                [
                    ("Content-Type", htmlType),
                    ("Content-ID", "<frame-\(MHTWriter.randomToken().prefix(32))@mhtml.blink>"),
                    ("Content-Transfer-Encoding", "quoted-printable"),
                    ("Content-Location", MHTWriter.headerURL(page.url)),
                ], QuotedPrintable.encode(DeviceIDScrubber.scrub(page.html))
            ))
        for resource in page.resources {
            let textual = MHTWriter.isTextual(resource.contentType)
            encodedParts.append(
                (
                    [
                        ("Content-Type", MHTWriter.headerSafe(resource.contentType)),
                        ("Content-Transfer-Encoding", textual ? "quoted-printable" : "base64"),
                        ("Content-Location", MHTWriter.headerURL(resource.url)),
                    ],
                    textual
                        ? QuotedPrintable.encode(DeviceIDScrubber.scrub(resource.body)) : Base64.encode(resource.body)
                ))
        }
        var boundary = "----MultipartBoundary--\(makeBoundaryToken())----"
        while encodedParts.contains(where: { MHTWriter.contains($0.body, Array(boundary.utf8)) }) {
            boundary = "----MultipartBoundary--\(MHTWriter.randomToken())----"
        }

        var out: [UInt8] = []
        out.reserveCapacity(encodedParts.reduce(1024) { $0 + $1.body.count + 256 })
        func line(_ text: String) { out += Array(text.utf8) + [13, 10] }
        line("From: <Saved by Blink>")
        line("Snapshot-Content-Location: \(MHTWriter.headerURL(page.url))")
        line("Subject: \(MHTWriter.encodedSubject(page.title))")
        line("Date: \(MHTWriter.rfc5322Date(page.savedAt))")
        line("MIME-Version: 1.0")
        line("Content-Type: multipart/related;")
        line("\ttype=\"text/html\";")
        line("\tboundary=\"\(boundary)\"")
        line("")
        line("")
        for part in encodedParts {
            line("--" + boundary)
            for (name, value) in part.headers { line("\(name): \(value)") }
            line("")
            out += part.body
            line("")
        }
        line("--" + boundary + "--")
        return out
    }

    /// Text types travel quoted-printable, everything else base64 (Chromium's choice).
    public static func isTextual(_ contentType: String) -> Bool {
        let type = MIMEHeaderValue(contentType).value
        return type.hasPrefix("text/") || type.hasSuffix("+xml") || type.hasSuffix("javascript")
            || type == "application/json"
            || type == "image/svg+xml"
    }

    /// Forty random letters and digits.
    public static func randomToken() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<40).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// A header value with line breaks and other control characters removed, so a value can never add a header.
    static func headerSafe(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    }

    /// A URL fit for a header: without the device id, control characters removed, non-ASCII bytes percent-encoded.
    static func headerURL(_ url: String) -> String {
        var out = ""
        for byte in headerSafe(DeviceIDURL.stripping(from: url)).utf8 {
            if byte < 0x80 {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + PercentEncoding.hexDigit(byte >> 4) + PercentEncoding.hexDigit(byte & 0x0F)
            }
        }
        return out
    }

    /// The title as `Subject`: plain when printable ASCII, else RFC 2047 `=?utf-8?Q?…?=` words of at most 75
    /// characters, folded onto continuation lines (what Blink writes for non-ASCII titles).
    static func encodedSubject(_ title: String) -> String {
        let clean = headerSafe(title)
        if clean.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) && !clean.contains("=?") { return clean }
        var words: [String] = []
        var current = ""
        for scalar in clean.unicodeScalars {
            var piece = ""
            for byte in String(scalar).utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "-"),
                    UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: ":"):
                    piece.unicodeScalars.append(Unicode.Scalar(byte))
                case UInt8(ascii: " "): piece += "_"
                default: piece += "=" + PercentEncoding.hexDigit(byte >> 4) + PercentEncoding.hexDigit(byte & 0x0F)
                }
            }
            if current.count + piece.count > 75 - 12 {
                words.append(current)
                current = ""
            }
            current += piece
        }
        if !current.isEmpty || words.isEmpty { words.append(current) }
        return words.map { "=?utf-8?Q?\($0)?=" }.joined(separator: "\r\n ")
    }

    /// `Sun, 29 Nov 2026 14:05:09 -0000`: RFC 5322's date in UTC, computed without locale or calendar settings.
    static func rfc5322Date(_ date: Date) -> String {
        let (days, secondOfDay) = CivilDate.split(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
        let civil = CivilDate(daysSince1970: days)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let weekday = weekdays[CivilDate.weekday(daysSince1970: days)]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(weekday), \(civil.day) \(months[Int(civil.month) - 1]) \(civil.year) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) -0000"
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count, let first = needle.first else { return false }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
