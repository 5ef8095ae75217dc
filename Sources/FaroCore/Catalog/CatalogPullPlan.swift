/// The page rules of one incremental catalog pull, without any I/O: which query comes next, and what a page that
/// came back means. Pages are asked for after the cursor (see `CatalogCursor`), so paging needs no `$skip`: a
/// server that ignores `$top` (one huge page), caps pages below it (short pages) or sends no `Link` header is read
/// the same way — the pull ends at the first empty page. A page that moves the cursor nowhere, or is not sorted by
/// `updatedAt`, stops the pull instead of looping.
public struct CatalogPullPlan: Sendable {
    public private(set) var cursor: CatalogCursor?
    public let pageSize: Int
    public let maxPages: Int
    /// Pages received so far.
    public private(set) var pages = 0
    public private(set) var isFinished = false

    /// A pull that starts after `cursor` (nil: from the beginning), asking `pageSize` rows per page, at most
    /// `maxPages` pages (the rest waits for the next pull, from where this one stopped).
    public init(cursor: CatalogCursor?, pageSize: Int = 50, maxPages: Int = 10_000) {
        self.cursor = cursor
        self.pageSize = min(max(1, pageSize), 1000)
        self.maxPages = max(1, maxPages)
    }

    /// The encoded query string of the next page's request (`$filter=…&$orderby=updatedAt,id&$top=…&…`).
    public var nextQuery: String {
        var parts: [String] = []
        if let cursor { parts.append("$filter=" + PercentEncoding.encodeComponent(cursor.filter)) }
        parts.append("$orderby=" + PercentEncoding.encodeComponent("updatedAt,id"))
        parts.append("$top=\(pageSize)")
        parts.append("__includeDeleted=true")
        return parts.joined(separator: "&")
    }

    /// Why a page cannot be used.
    public enum PageProblem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Every row of a non-empty page is at or before the cursor (the server ignores `$filter`).
        case noProgress
        /// `updatedAt` goes backwards inside the page (the server ignores `$orderby`).
        case unordered(previous: String, next: String)

        public var description: String {
            switch self {
            case .noProgress:
                return "the backend sent rows Faro already has instead of newer ones (does it ignore $filter?)"
            case .unordered(let previous, let next):
                return "the backend's rows are not sorted by updatedAt (\(next) came after \(previous))"
            }
        }
    }

    /// One page as the local catalog applies it: the changes in order and the cursor to store with them.
    public struct Page: Equatable, Sendable {
        public var changes: [CatalogRowChange]
        public var cursor: CatalogCursor?
        /// Whether the pull is over (an empty page, or the page limit reached).
        public var isLast: Bool
    }

    /// Takes the rows of the page just received (in the order the server sent them).
    public mutating func receive(_ rows: [JSONValue]) throws(PageProblem) -> Page {
        pages += 1
        guard !rows.isEmpty else {
            isFinished = true
            return Page(changes: [], cursor: cursor, isLast: true)
        }
        let pulled = rows.map(CatalogPulledRow.read)
        var previous: CatalogCursor?
        var last = cursor
        var advanced = false
        for row in pulled {
            guard let position = row.position, let instant = position.instant else { continue }
            if let before = previous, let beforeInstant = before.instant, instant < beforeInstant {
                throw .unordered(previous: before.updatedAt, next: position.updatedAt)
            }
            previous = position
            if last?.precedes(instant: instant, id: position.id) ?? true {
                last = position
                advanced = true
            }
        }
        guard advanced else { throw .noProgress }
        cursor = last
        isFinished = pages >= maxPages
        return Page(changes: pulled.map(\.change), cursor: last, isLast: isFinished)
    }
}
