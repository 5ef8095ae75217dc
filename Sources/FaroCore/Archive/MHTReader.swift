/// Reads MHT archives as browsers and Office write them: Chrome/Blink, Internet Explorer, Word's "single file web
/// page", Firefox extensions. Accepts CRLF or LF line ends, a preamble before the first part, quoted-printable,
/// base64, 7bit, 8bit and binary parts, nested multiparts and declared charsets; refuses malformed archives with an
/// `MHTError` that says what is wrong. Pure: bytes in, parts out, within `MHTLimits`.
public enum MHTReader {
    public static func read(_ bytes: [UInt8], limits: MHTLimits = .standard) throws(MHTError) -> MHTArchive {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(bytes: bytes.count, limit: limits.maxBytes) }
        var start = 0
        // A UTF-8 byte order mark before the headers is tolerated; so are blank lines.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, bytes[start] == 13 || bytes[start] == 10 { start += 1 }
        guard
            let (headers, bodyStart) = MIMEHeaders.parse(
                bytes, from: start, end: bytes.count, limit: limits.maxHeaderBytes)
        else {
            throw .notAnArchive("the file does not start with a MIME header block")
        }
        guard let typeText = headers["Content-Type"] else {
            throw .notAnArchive("the header block has no Content-Type")
        }
        let type = MIMEHeaderValue(typeText)
        guard type.value.hasPrefix("multipart/") else {
            throw .notAnArchive("its Content-Type is \(type.value), not multipart/related")
        }
        var parts: [MHTPart] = []
        try readMultipart(bytes, from: bodyStart, to: bytes.count, type: type, depth: 1, limits: limits, into: &parts)
        guard let mainIndex = mainPart(parts, start: type.parameters["start"]) else { throw .noMainDocument }
        return MHTArchive(headers: headers, parts: parts, mainIndex: mainIndex)
    }

    /// The page: the `start` parameter's Content-ID, else the first HTML part, else the first part that is not a
    /// subresource (Chromium's rule).
    static func mainPart(_ parts: [MHTPart], start: String?) -> Int? {
        if let start {
            let id = start.trimming(charactersIn: "<> ")
            if let i = parts.firstIndex(where: { $0.contentID == id }) { return i }
        }
        return parts.firstIndex(where: \.isHTML) ?? parts.firstIndex { !$0.isSubresource }
    }

    private static func readMultipart(
        _ bytes: [UInt8], from start: Int, to end: Int, type: MIMEHeaderValue, depth: Int,
        limits: MHTLimits, into parts: inout [MHTPart]
    ) throws(MHTError) {
        guard depth <= limits.maxDepth else { throw .nestedTooDeep(limit: limits.maxDepth) }
        guard let boundary = type.parameters["boundary"], !boundary.isEmpty else { throw .missingBoundary }
        let delimiter = Array("--".utf8) + Array(boundary.utf8)
        // Every line that starts with the delimiter: (offset of the line break before it, offset after its line).
        var bodyStart: Int?
        var partStart = 0
        var closed = false
        var lineStart = start
        while lineStart < end {
            var lineEnd = lineStart
            while lineEnd < end, bytes[lineEnd] != 10 { lineEnd += 1 }
            if let kind = delimiterKind(bytes, lineStart: lineStart, lineEnd: lineEnd, delimiter: delimiter) {
                if bodyStart != nil {
                    // The line break before the delimiter belongs to the delimiter, not to the part.
                    var partEnd = lineStart
                    if partEnd > partStart, bytes[partEnd - 1] == 10 { partEnd -= 1 }
                    if partEnd > partStart, bytes[partEnd - 1] == 13 { partEnd -= 1 }
                    try readPart(
                        bytes, from: partStart, to: max(partStart, partEnd), depth: depth, limits: limits, into: &parts)
                }
                bodyStart = lineStart
                partStart = min(lineEnd + 1, end)
                if kind == .close {
                    closed = true
                    break
                }
            }
            lineStart = lineEnd + 1
        }
        guard bodyStart != nil else { throw .boundaryNotFound(boundary) }
        guard closed else { throw .truncated }
    }

    private enum DelimiterKind { case open, close }

    private static func delimiterKind(_ bytes: [UInt8], lineStart: Int, lineEnd: Int, delimiter: [UInt8])
        -> DelimiterKind?
    {
        guard lineEnd - lineStart >= delimiter.count else { return nil }
        for (k, b) in delimiter.enumerated() where bytes[lineStart + k] != b { return nil }
        var i = lineStart + delimiter.count
        var kind = DelimiterKind.open
        if i + 1 < lineEnd, bytes[i] == UInt8(ascii: "-"), bytes[i + 1] == UInt8(ascii: "-") {
            kind = .close
            i += 2
        }
        // Only transport padding (spaces, tabs, the CR of CRLF) may follow.
        while i < lineEnd {
            let b = bytes[i]
            guard b == 32 || b == 9 || b == 13 else { return nil }
            i += 1
        }
        return kind
    }

    private static func readPart(
        _ bytes: [UInt8], from start: Int, to end: Int, depth: Int, limits: MHTLimits,
        into parts: inout [MHTPart]
    ) throws(MHTError) {
        guard parts.count < limits.maxParts else { throw .tooManyParts(limit: limits.maxParts) }
        let index = parts.count
        let headers: MIMEHeaders
        let bodyStart: Int
        // A part of only headers and no body (some writers emit those for empty resources) ends at the delimiter.
        if let parsed = MIMEHeaders.parse(
            bytes, from: start, end: end, limit: limits.maxHeaderBytes, endTerminates: true)
        {
            (headers, bodyStart) = parsed
        } else {
            throw .malformedPart(index: index, reason: "its header block never ends")
        }
        let type = MIMEHeaderValue(headers["Content-Type"] ?? "text/plain")
        if type.value.hasPrefix("multipart/") {
            try readMultipart(
                bytes, from: bodyStart, to: end, type: type, depth: depth + 1, limits: limits, into: &parts)
            return
        }
        let raw = Array(bytes[min(bodyStart, end)..<end])
        let encoding = MIMEHeaderValue(headers["Content-Transfer-Encoding"] ?? "7bit").value
        let body: [UInt8]
        switch encoding {
        case "quoted-printable":
            body = QuotedPrintable.decode(raw)
        case "base64":
            guard let decoded = Base64.decode(raw) else {
                throw .malformedPart(
                    index: index, reason: "its base64 data holds characters outside the base64 alphabet")
            }
            body = decoded
        case "7bit", "8bit", "binary", "":
            body = raw
        default:
            throw .malformedPart(index: index, reason: "unknown Content-Transfer-Encoding \"\(encoding)\"")
        }
        parts.append(MHTPart(headers: headers, body: body))
    }
}
