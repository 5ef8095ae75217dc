/// Takes the device id out of documents and messages, where `DeviceIDURL.stripping(from:)` cannot reach it because
/// the URLs are inside text: the HTML and stylesheets of a page as fetched (a page may echo `imei=` back into its own
/// links) before they go into a saved archive, and any message that quotes URLs.
///
/// It works on bytes, so it is right for every ASCII-compatible charset (UTF-8, ISO-8859-1, windows-1252), and
/// removes the same parameter `DeviceIDURL` adds: `imei=VALUE` after `?`, `&` or `&amp;` (its separator goes too, so
/// the URL stays well formed), its percent-encoded form inside another URL's query (`%3Fimei%3D…`), and, when the
/// id is known, every other occurrence of the id itself.
public enum DeviceIDScrubber {
    /// Ids shorter than this are not removed by value (a one-digit test id would eat every digit of a page).
    static let minimumKnownIDLength = 6

    /// `text` with the device id taken out.
    public static func scrub(_ text: String, knownID: String? = nil) -> String {
        guard mayContainID(Array(text.utf8), knownID: knownID) else { return text }
        return String(decoding: scrub(Array(text.utf8), knownID: knownID), as: UTF8.self)
    }

    /// `bytes` with the device id taken out.
    public static func scrub(_ bytes: [UInt8], knownID: String? = nil) -> [UInt8] {
        guard mayContainID(bytes, knownID: knownID) else { return bytes }
        var out = removingParameters(bytes)
        if let knownID, knownID.utf8.count >= minimumKnownIDLength {
            for form in Set([knownID, PercentEncoding.encodeComponent(knownID)]) {
                out = removingOccurrences(of: Array(form.utf8), in: out)
            }
        }
        return out
    }

    /// A cheap first look: most documents hold neither `imei` nor the id, and are returned as they are.
    private static func mayContainID(_ bytes: [UInt8], knownID: String?) -> Bool {
        if find(Array("imei".utf8), in: bytes, from: 0, caseInsensitive: true) != nil { return true }
        guard let knownID, knownID.utf8.count >= minimumKnownIDLength else { return false }
        return find(Array(knownID.utf8), in: bytes, from: 0, caseInsensitive: false) != nil
            || find(Array(PercentEncoding.encodeComponent(knownID).utf8), in: bytes, from: 0, caseInsensitive: false)
                != nil
    }

    private static let name = Array("imei".utf8)
    private static let ampersandEntity = Array("&amp;".utf8)

    /// Where a parameter value ends in running text: a separator, a quote, markup, white space or a bracket.
    private static func endsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"),
            UInt8(ascii: ")"), UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: ";"):
            return true
        default:
            return false
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte | 0x20 : byte
    }

    /// Whether `bytes` holds `pattern` at `index` (ASCII case-insensitively when asked).
    private static func matches(_ pattern: [UInt8], _ bytes: [UInt8], at index: Int, caseInsensitive: Bool) -> Bool {
        guard index >= 0, index + pattern.count <= bytes.count else { return false }
        for k in 0..<pattern.count {
            let a = bytes[index + k]
            let b = pattern[k]
            if caseInsensitive ? lower(a) != lower(b) : a != b { return false }
        }
        return true
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int, caseInsensitive: Bool) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        var i = start
        while i + pattern.count <= bytes.count {
            if matches(pattern, bytes, at: i, caseInsensitive: caseInsensitive) { return i }
            i += 1
        }
        return nil
    }

    /// The separator that ends at `index` (exclusive) in `bytes`, if the bytes before `index` are one: its length and
    /// whether it opens the query (`?`, `%3F`) rather than joining two parameters.
    private static func separator(before index: Int, in bytes: [UInt8], encoded: Bool) -> (length: Int, opens: Bool)? {
        if encoded {
            guard index >= 3, bytes[index - 3] == UInt8(ascii: "%") else { return nil }
            let code = (lower(bytes[index - 2]), lower(bytes[index - 1]))
            if code == (UInt8(ascii: "3"), UInt8(ascii: "f")) { return (3, true) }
            if code == (UInt8(ascii: "2"), UInt8(ascii: "6")) { return (3, false) }
            return nil
        }
        guard index >= 1 else { return nil }
        switch bytes[index - 1] {
        case UInt8(ascii: "?"): return (1, true)
        case UInt8(ascii: "&"): return (1, false)
        case UInt8(ascii: ";"):
            return matches(ampersandEntity, bytes, at: index - 5, caseInsensitive: true) ? (5, false) : (1, false)
        default: return nil
        }
    }

    /// The separator that starts at `index` (`&`, `&amp;`, `%26`), and its length.
    private static func joiner(at index: Int, in bytes: [UInt8], encoded: Bool) -> Int? {
        if encoded {
            return matches(Array("%26".utf8), bytes, at: index, caseInsensitive: true) ? 3 : nil
        }
        if matches(ampersandEntity, bytes, at: index, caseInsensitive: true) { return 5 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "&") ? 1 : nil
    }

    private static func removingParameters(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            guard lower(bytes[i]) == UInt8(ascii: "i"), matches(name, bytes, at: i, caseInsensitive: true) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            let afterName = i + name.count
            let encoded: Bool
            let valueStart: Int
            if afterName < bytes.count, bytes[afterName] == UInt8(ascii: "=") {
                encoded = false
                valueStart = afterName + 1
            } else if matches(Array("%3D".utf8), bytes, at: afterName, caseInsensitive: true) {
                encoded = true
                valueStart = afterName + 3
            } else {
                out.append(bytes[i])
                i += 1
                continue
            }
            guard let opening = separator(before: i, in: bytes, encoded: encoded) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            var end = valueStart
            while end < bytes.count, !endsValue(bytes[end]),
                !(encoded && joiner(at: end, in: bytes, encoded: true) != nil)
                    && !(encoded && matches(Array("%23".utf8), bytes, at: end, caseInsensitive: true))
            {
                end += 1
            }
            if opening.opens {
                // `?imei=X&b=1` → `?b=1`; `?imei=X` → `` (the `?` goes too).
                if let joined = joiner(at: end, in: bytes, encoded: encoded) {
                    end += joined
                } else {
                    out.removeLast(min(opening.length, out.count))
                }
            } else {
                // `?a=1&imei=X` → `?a=1`.
                out.removeLast(min(opening.length, out.count))
            }
            i = end
        }
        return out
    }

    private static func removingOccurrences(of pattern: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard !pattern.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == pattern[0], matches(pattern, bytes, at: i, caseInsensitive: false) {
                i += pattern.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
