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
