/// Trimming without Foundation's `CharacterSet`, which FoundationEssentials (all Faro links, to keep the window's
/// launch light) does not have.
extension StringProtocol {
    /// The text without the leading and trailing characters for which `isTrimmed` is true.
    public func trimmed(where isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }),
            let last = lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(self[first...last])
    }

    /// Without leading and trailing spaces and tabs (Foundation's `.whitespaces`: tab and Unicode space separators).
    public func trimmingWhitespace() -> String { trimmed(where: \.isHorizontalSpace) }

    /// Without leading and trailing white space of any kind, line breaks included (`.whitespacesAndNewlines`).
    public func trimmingWhitespaceAndNewlines() -> String { trimmed(where: \.isWhitespace) }

    /// Without leading and trailing characters that occur in `characters`.
    public func trimming(charactersIn characters: String) -> String { trimmed(where: characters.contains) }
}

extension Character {
    /// A tab or a space separator (general category Zs): white space that does not break a line.
    public var isHorizontalSpace: Bool {
        self == "\t" || unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
    }
}
