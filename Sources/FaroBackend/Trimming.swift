extension StringProtocol {
    /// The text without the leading and trailing characters in `set` (spaces and tabs by default).
    func trimmed(_ set: Set<Character> = [" ", "\t"]) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
