/// The text a search compares, folded so that case and accents do not count (docs/beacons.md, "Search"): "nandu"
/// finds "Ferretería Ñandú", "LIBRERIA" finds "Librería".
///
/// Folding, scalar by scalar: ASCII is lowercased; a combining mark that sits on a letter (a nonspacing mark, such
/// as U+0301 after an "e") is dropped; a Latin letter with a diacritic ("Ñ", "é", "ø", "İ") becomes its bare
/// lowercase letter, as its Unicode name says ("LATIN CAPITAL LETTER N WITH TILDE": "n"); anything else is
/// lowercased. Letters of other scripts keep their marks.
public enum SearchText {
    /// `text` folded: lowercase, without accents.
    public static func fold(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let value = scalar.value
                folded.append(value >= 0x41 && value <= 0x5A ? Unicode.Scalar(UInt8(value + 0x20)) : scalar)
                continue
            }
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark { continue }
            if let bare = latinBase(properties.name) {
                folded.append(bare)
                continue
            }
            folded.append(contentsOf: properties.lowercaseMapping.unicodeScalars)
        }
        return String(folded)
    }

    /// The bare lowercase letter of a Latin letter with a diacritic, from its name ("LATIN SMALL LETTER E WITH
    /// ACUTE": "e"), or nil for any other character (a Latin letter without a single-letter base, "ß", is nil).
    static func latinBase(_ name: String?) -> Unicode.Scalar? {
        guard let name, name.hasPrefix("LATIN "), let letter = name.firstRange(of: " LETTER ") else { return nil }
        let rest = name[letter.upperBound...].utf8
        guard let first = rest.first, first >= 0x41, first <= 0x5A else { return nil }
        let after = rest.dropFirst()
        guard after.isEmpty || after.starts(with: " WITH ".utf8) else { return nil }
        return Unicode.Scalar(first + 0x20)
    }
}

/// What the user typed in a search bar, folded once: a row matches when any of its fields, folded, contains it.
/// An empty query (nothing typed, or only spaces) matches every row.
public struct SearchQuery: Sendable, Equatable {
    /// As typed, without the spaces around it (what "Sin resultados para «…»" quotes).
    public let text: String
    /// `text` folded (`SearchText.fold`), as UTF-8.
    private let folded: [UInt8]

    public init(_ typed: String) {
        text = typed.trimmingWhitespaceAndNewlines()
        folded = Array(SearchText.fold(text).utf8)
    }

    /// No filter.
    public static let everything = SearchQuery("")

    public var isEmpty: Bool { folded.isEmpty }

    /// Whether `folded` (text already folded with `SearchText.fold`) contains the query.
    public func matches(folded haystack: String) -> Bool {
        if folded.isEmpty { return true }
        var haystack = haystack
        return haystack.withUTF8 { bytes in SearchQuery.contains(bytes, folded) }
    }

    /// Whether any of `fields` (not folded) contains the query.
    public func matches(_ fields: [String]) -> Bool {
        isEmpty || matches(folded: SearchText.fold(fields: fields))
    }

    /// Byte search: both sides are valid UTF-8, so a match always starts and ends on whole characters.
    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        let n = needle.count
        guard n <= haystack.count, let first = needle.first else { return n == 0 }
        var i = 0
        let last = haystack.count - n
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < n, haystack[i + j] == needle[j] { j += 1 }
                if j == n { return true }
            }
            i += 1
        }
        return false
    }
}

extension SearchText {
    /// `fields` folded and joined by line breaks: the text a row is searched in (a query, typed on one line, never
    /// matches across two fields).
    public static func fold(fields: [String]) -> String {
        fold(fields.joined(separator: "\n"))
    }
}
