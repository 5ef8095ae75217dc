import FoundationEssentials

/// The header block of a MIME entity (an archive or one of its parts): fields in order, looked up by name
/// without regard to case, folded lines already joined.
public struct MIMEHeaders: Sendable, Equatable {
    public var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// The first field called `name` (any case), trimmed.
    public subscript(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    public static func == (a: MIMEHeaders, b: MIMEHeaders) -> Bool {
        a.fields.map { [$0.name, $0.value] } == b.fields.map { [$0.name, $0.value] }
    }

    /// Parses a header block starting at `start`: lines end in CRLF or LF, continuation lines start with a space or
    /// tab, the block ends at the first empty line. Returns the headers and the offset just past the empty line,
    /// or nil when no empty line ends the block within `limit` bytes (with `endTerminates`, reaching `end` also ends
    /// the block: a part made of headers only).
    static func parse(_ bytes: [UInt8], from start: Int, end: Int, limit: Int, endTerminates: Bool = false) -> (
        MIMEHeaders, Int
    )? {
        var fields: [(String, String)] = []
        var i = start
        var current: [UInt8] = []
        func flush() {
            guard !current.isEmpty else { return }
            let line = Charset.headerText(current)
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingWhitespace()
                let value = line[line.index(after: colon)...].trimmingWhitespace()
                if !name.isEmpty { fields.append((name, value)) }
            }
            current.removeAll(keepingCapacity: true)
        }
        while i < end {
            if i - start > limit { return nil }
            var lineEnd = i
            while lineEnd < end, bytes[lineEnd] != 10 { lineEnd += 1 }
            if lineEnd == end && !endTerminates { return nil }  // the block must end in an empty line
            var contentEnd = lineEnd
            if contentEnd > i, bytes[contentEnd - 1] == 13 { contentEnd -= 1 }
            let next = min(lineEnd + 1, end)
            if contentEnd == i {
                flush()
                return (MIMEHeaders(fields), next)
            }
            let first = bytes[i]
            if first == 32 || first == 9 {
                current.append(32)
                current += bytes[i..<contentEnd].drop { $0 == 32 || $0 == 9 }
            } else {
                flush()
                current += bytes[i..<contentEnd]
            }
            i = next
        }
        if endTerminates {
            flush()
            return (MIMEHeaders(fields), end)
        }
        return nil
    }
}

/// A structured header value such as `multipart/related; type="text/html"; boundary="----x"`: the lower-cased main
/// value and its parameters (names lower-cased, quotes and backslash escapes removed).
public struct MIMEHeaderValue: Sendable, Equatable {
    public var value: String
    public var parameters: [String: String]

    public init(_ text: String) {
        var pieces: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for c in text {
            if escaped {
                current.append(c)
                escaped = false
            } else if c == "\\" && inQuotes {
                escaped = true
            } else if c == "\"" {
                inQuotes.toggle()
            } else if c == ";" && !inQuotes {
                pieces.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        pieces.append(current)
        value = (pieces.first ?? "").trimmingWhitespace().lowercased()
        var parameters: [String: String] = [:]
        for piece in pieces.dropFirst() {
            guard let eq = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<eq].trimmingWhitespace().lowercased()
            let v = piece[piece.index(after: eq)...].trimmingWhitespace()
            if !name.isEmpty, parameters[name] == nil { parameters[name] = v }
        }
        self.parameters = parameters
    }
}

/// Text decoding by declared charset, through Foundation's string encodings.
public enum Charset {
    /// Decodes `bytes` in the IANA `charset` (`utf-8`, `windows-1252`, `iso-8859-2`, `shift_jis`, …). An unknown or
    /// absent charset means UTF-8 when the bytes are valid UTF-8, else Windows-1252 (what browsers assume).
    public static func decode(_ bytes: [UInt8], charset: String?) -> String {
        if let charset, let encoding = encoding(named: charset),
            let text = String(data: Data(bytes), encoding: encoding)
        {
            return text
        }
        if let text = String(validatingUTF8Bytes: bytes) { return text }
        return String(data: Data(bytes), encoding: .windowsCP1252) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// The Foundation encoding for an IANA charset name, with the aliases real archives use.
    public static func encoding(named name: String) -> String.Encoding? {
        let key = name.trimming(charactersIn: " \"'").lowercased()
        switch key {
        case "utf-8", "utf8": return .utf8
        case "us-ascii", "ascii": return .utf8  // ASCII is a subset; lenient on stray 8-bit bytes below
        case "iso-8859-1", "latin1", "latin-1", "l1", "windows-1252", "cp1252": return .windowsCP1252
        default: return String.Encoding(ianaName: key)
        }
    }

    /// Header bytes: ASCII in theory, UTF-8 or Latin-1 in practice.
    static func headerText(_ bytes: [UInt8]) -> String {
        if let text = String(validatingUTF8Bytes: bytes) { return text }
        return String(decoding: bytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// Decodes RFC 2047 encoded words (`=?utf-8?Q?Caf=C3=A9?=`, `=?iso-8859-1?B?...?=`) in a header value;
    /// whitespace between two encoded words is dropped, anything malformed is kept as written.
    public static func decodeEncodedWords(_ text: String) -> String {
        guard text.contains("=?") else { return text }
        var out = ""
        var rest = Substring(text)
        var lastWasEncoded = false
        var pendingSpace = ""
        while !rest.isEmpty {
            if rest.hasPrefix("=?"), let word = encodedWord(in: rest) {
                if !lastWasEncoded { out += pendingSpace }
                out += word.text
                rest = rest[word.end...]
                pendingSpace = ""
                lastWasEncoded = true
                continue
            }
            let c = rest.removeFirst()
            if c == " " || c == "\t" {
                pendingSpace.append(c)
                continue
            }
            out += pendingSpace
            pendingSpace = ""
            out.append(c)
            lastWasEncoded = false
        }
        return out + pendingSpace
    }

    private static func encodedWord(in text: Substring) -> (text: String, end: Substring.Index)? {
        let body = text.dropFirst(2)
        let parts = body.split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasPrefix("=") else { return nil }
        let charset = String(parts[0].split(separator: "*").first ?? "")
        let payload = Array(parts[2].utf8)
        let bytes: [UInt8]
        switch parts[1].lowercased() {
        case "b":
            guard let decoded = Base64.decode(payload) else { return nil }
            bytes = decoded
        case "q":
            bytes = QuotedPrintable.decode(payload.map { $0 == UInt8(ascii: "_") ? 32 : $0 })
        default:
            return nil
        }
        let end = parts[3].index(after: parts[3].startIndex)
        return (decode(bytes, charset: charset), end)
    }
}

extension String {
    /// The string if `bytes` are valid UTF-8, else nil.
    init?(validatingUTF8Bytes bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self = text
    }
}
