extension StringProtocol {
    /// The folder part of a file path: everything before the last `/` ("/" for a file at the root, "" for a bare
    /// name), as NSString's `deletingLastPathComponent` gives for plain paths.
    public var parentDirectoryPath: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        var parent = path[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }
}
