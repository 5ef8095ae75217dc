/// A 3.0.0 list answer's `nextLink`, checked before anything follows it (docs/backend-protocols.md): the Community
/// Toolkit sends a bare query string to append to the table's path, ASP.NET Core Datasync an absolute URL. Either
/// way the link must lead to the same table on the same scheme, host and port as the configured backend.
public enum CatalogNextLink {
    /// Why a `nextLink` is not followed.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Another scheme, host or port than the configured backend's.
        case offBackend(String)
        /// The same backend, but another path than the table's.
        case anotherPath(String)

        public var description: String {
            switch self {
            case .offBackend(let link):
                return "the backend's nextLink leads to another host or scheme (\(link)); Faro follows links only "
                    + "on the configured backend"
            case .anotherPath(let link):
                return "the backend's nextLink leads away from the catalog table (\(link)); not followed"
            }
        }
    }

    /// The absolute URL `link` stands for, on the table at `tableURL` (`scheme://host[:port]/path`, no query): always
    /// `tableURL` itself followed by the link's query.
    public static func resolve(_ link: String, tableURL: String) throws(Problem) -> String {
        let text = link.trimmingWhitespace()
        let table = split(tableURL)
        if text.hasPrefix("?") { return tableURL + text }
        if text.contains("://") || text.hasPrefix("//") {
            let target = split(text.hasPrefix("//") ? table.scheme + ":" + text : text)
            guard target.scheme == table.scheme, normalized(target) == normalized(table) else {
                throw .offBackend(link)
            }
            guard target.path == table.path else { throw .anotherPath(link) }
            return tableURL + (target.query.map { "?" + $0 } ?? "")
        }
        if text.hasPrefix("/") {
            let target = split(table.origin + text)
            guard target.path == table.path else { throw .anotherPath(link) }
            return tableURL + (target.query.map { "?" + $0 } ?? "")
        }
        return tableURL + "?" + text
    }

    /// The same URL with its `$skip` one lower, so that the page it asks for starts with the last row already
    /// received (and proves that no row moved in between); nil when the URL has no `$skip` above 0.
    public static func overlapping(_ url: String) -> String? {
        guard let mark = url.firstIndex(of: "?") else { return nil }
        var parts = url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map(
            String.init)
        var found = false
        for (i, part) in parts.enumerated() {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, PercentEncoding.decode(String(pair[0])).lowercased() == "$skip",
                let skip = Int(pair[1]), skip > 0
            else { continue }
            parts[i] = String(pair[0]) + "=" + String(skip - 1)
            found = true
        }
        return found ? String(url[...mark]) + parts.joined(separator: "&") : nil
    }

    /// The `nextLink` of a 3.0.0 list answer, read from its raw bytes without parsing the rows: the string after
    /// the last `"nextLink":` in the body (both server kinds write it after `items`). Nil when there is none, it is
    /// null or not a string. Only a guess, for asking for the next page while this one is read: a row holding that
    /// text can mislead it, so the page's parsed answer always decides which request is next.
    public static func peek(_ body: [UInt8]) -> String? {
        let key = Array("\"nextLink\"".utf8)
        return body.withUnsafeBufferPointer { bytes -> String? in
            var start = bytes.count - key.count
            while start >= 0 {
                if bytes[start] == key[0], matches(key, in: bytes, at: start) { break }
                start -= 1
            }
            guard start >= 0 else { return nil }
            var i = skipSpace(bytes, from: start + key.count)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(bytes, from: i + 1)
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            var end = i + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end < bytes.count else { return nil }
            let token = Array(bytes[i...end])
            return (try? JSONValue.parse(bytes: token))?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    private static func matches(_ key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        for (offset, byte) in key.enumerated() where bytes[start + offset] != byte { return false }
        return true
    }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
        return i
    }

    private struct Parts {
        var scheme: String
        var host: String
        var port: String
        var path: String
        var query: String?
        var origin: String
    }

    /// `scheme://authority/path?query` taken apart (scheme and host lower-cased, the default port made explicit).
    private static func split(_ url: String) -> Parts {
        var rest = Substring(url)
        var scheme = ""
        if let range = rest.firstRange(of: "://") {
            scheme = rest[..<range.lowerBound].lowercased()
            rest = rest[range.upperBound...]
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd].lowercased()
        rest = rest[authorityEnd...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        var host = authority
        var port = scheme == "https" ? "443" : "80"
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            host = String(authority[..<colon])
            let given = authority[authority.index(after: colon)...]
            if !given.isEmpty { port = String(given) }
        }
        let path = rest.isEmpty ? "/" : String(rest)
        return Parts(
            scheme: scheme, host: host, port: port, path: path, query: query,
            origin: scheme + "://" + authority)
    }

    private static func normalized(_ parts: Parts) -> String { parts.host + ":" + parts.port }
}
