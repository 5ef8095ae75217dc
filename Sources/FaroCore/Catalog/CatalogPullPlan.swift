/// The page rules of one incremental catalog pull, without any I/O: which request comes next, and what a page that
/// came back means (docs/backend-protocols.md). Rows are asked for after the cursor (see `CatalogCursor`), so a
/// group of rows sharing one `updatedAt` larger than a page, a server that ignores `$top` (one huge page) or caps
/// pages below it (short pages) are all read the same way.
///
/// - 2.0.0: every page is a new query from the cursor (no `$skip`), and the pull ends at the first empty page.
/// - 3.0.0: the first page is a query from the cursor; the server's `nextLink` (checked by `CatalogNextLink`) is
///   followed with its `$skip` one lower, so each page starts with the last row of the one before. If it does not (a
///   row before it was updated or deleted meanwhile, which moves every later row one place), the page is dropped
///   and the next one is asked for from the cursor again: nothing is skipped. The pull ends when `nextLink` is null.
///
/// A cursor on a whole second (`CatalogCursor.isWholeSecond`) starts the pull with `updatedAt ge T` instead: that
/// second is read again, once per pull, and rows held at the same version change nothing.
///
/// A page that moves the cursor nowhere, is not sorted by `updatedAt`, holds a row without `id` or `updatedAt`, or a
/// `nextLink` seen before stops the pull instead of looping; the pages before it stay applied.
public struct CatalogPullPlan: Sendable {
    public private(set) var cursor: CatalogCursor?
    public let pageSize: Int
    public let maxPages: Int
    public let generation: BackendProtocol
    /// Pages received so far.
    public private(set) var pages = 0
    /// Pages of a `nextLink` that did not start where the page before ended, asked for again from the cursor.
    public private(set) var restarts = 0
    public private(set) var isFinished = false
    /// The request for the next page.
    public private(set) var next: Request
    /// The `nextLink`s followed so far (a repeat is a loop).
    private var followed: Set<String> = []
    /// The pull reads the cursor's whole second again: its first pages may hold only rows already held.
    private var rereading: Bool
    /// A pull that reads a second again ends (at `maxPages`) only once it has moved past the cursor, so pulls
    /// stopped after a page each still get through a second holding more rows than a page.
    private var mustAdvance: Bool

    /// One page's request.
    public enum Request: Equatable, Sendable {
        /// `GET {table}?{query}` (an encoded query string).
        case query(String)
        /// `GET {url}` (a server's `nextLink`, absolute, on the table); its first row must be `overlap`.
        case link(url: String, overlap: CatalogCursor)
    }

    /// A pull that starts after `cursor` (nil: from the beginning), asking `pageSize` rows per page (2.0.0; a 3.0.0
    /// server pages by its own cap), at most `maxPages` pages (the rest waits for the next pull, from where this one
    /// stopped).
    public init(
        cursor: CatalogCursor?, pageSize: Int = 50, maxPages: Int = 10_000, generation: BackendProtocol = .v2
    ) {
        self.cursor = cursor
        self.pageSize = min(max(1, pageSize), 1000)
        self.maxPages = max(1, maxPages)
        self.generation = generation
        rereading = cursor?.isWholeSecond ?? false
        mustAdvance = rereading
        next = .query(
            CatalogPullPlan.query(
                after: cursor, pageSize: self.pageSize, generation: generation, reread: rereading))
    }

    /// The encoded query string of a page after `cursor` (`reread`: at or after its second).
    static func query(
        after cursor: CatalogCursor?, pageSize: Int, generation: BackendProtocol, reread: Bool = false
    ) -> String {
        var parts: [String] = []
        if let cursor {
            let filter = reread ? cursor.rereadFilter(for: generation) : cursor.filter(for: generation)
            parts.append("$filter=" + PercentEncoding.encodeComponent(filter))
        }
        parts.append("$orderby=" + PercentEncoding.encodeComponent("updatedAt,id"))
        switch generation {
        case .v2:
            parts.append("$top=\(pageSize)")
            parts.append("__includeDeleted=true")
        case .v3:
            parts.append("$count=true")
            parts.append("__includedeleted=true")
        }
        return parts.joined(separator: "&")
    }

    /// The encoded query string of the next page when it is a query (2.0.0 always; 3.0.0's first page).
    public var nextQuery: String {
        if case .query(let query) = next { return query }
        return CatalogPullPlan.query(after: cursor, pageSize: pageSize, generation: generation)
    }

    /// Why a page cannot be used.
    public enum PageProblem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Every row of a non-empty page is at or before the cursor (the server ignores `$filter`).
        case noProgress
        /// `updatedAt` goes backwards inside the page (the server ignores `$orderby`).
        case unordered(previous: String, next: String)
        /// A row without `id` or a readable `updatedAt`: the page is refused whole.
        case rowWithoutPosition(String)
        /// The `nextLink` cannot be followed.
        case nextLink(CatalogNextLink.Problem)
        /// The server sent a `nextLink` it had sent before in this pull.
        case nextLinkLoop(String)

        public var description: String {
            switch self {
            case .noProgress:
                return "the backend sent rows Faro already has instead of newer ones (does it ignore $filter?)"
            case .unordered(let previous, let next):
                return "the backend's rows are not sorted by updatedAt (\(next) came after \(previous))"
            case .rowWithoutPosition(let reason):
                return "the backend sent a page with \(reason); the page was refused whole"
            case .nextLink(let problem): return problem.description
            case .nextLinkLoop(let link):
                return "the backend sent the same nextLink twice (\(link)); the pull was stopped instead of looping"
            }
        }
    }

    /// One page as the local catalog applies it: the changes in order and the cursor to store with them.
    public struct Page: Equatable, Sendable {
        public var changes: [CatalogRowChange]
        public var cursor: CatalogCursor?
        /// Whether the pull is over (the last page, or the page limit reached).
        public var isLast: Bool
    }

    /// Takes the rows of the page just received (in the order the server sent them), with the answer's `nextLink`
    /// (3.0.0; nil for none) and the table's URL it is resolved against.
    public mutating func receive(
        _ rows: [JSONValue], nextLink: String? = nil, tableURL: String = ""
    ) throws(PageProblem) -> Page {
        pages += 1
        let empty = rows.isEmpty
        var rows = rows[...]
        if case .link(_, let overlap) = next {
            guard let first = rows.first.map(CatalogPulledRow.read)?.position, first.id == overlap.id,
                first.instant == overlap.instant
            else {
                // Rows moved under the link's `$skip`: ask again from the cursor.
                restarts += 1
                rereading = false
                next = .query(CatalogPullPlan.query(after: cursor, pageSize: pageSize, generation: generation))
                isFinished = pages >= maxPages && !mustAdvance
                return Page(changes: [], cursor: cursor, isLast: isFinished)
            }
            rows = rows.dropFirst()
        }
        let pulled = try CatalogPullPlan.read(rows)
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
        if !pulled.isEmpty, !advanced, !rereading { throw .noProgress }
        // 2.0.0 asks by the cursor from the second page on; 3.0.0 follows the re-read's links until it moves past.
        if advanced || generation == .v2 { rereading = false }
        if advanced { mustAdvance = false }
        cursor = last
        switch generation {
        case .v2:
            isFinished = pulled.isEmpty
            next = .query(CatalogPullPlan.query(after: cursor, pageSize: pageSize, generation: generation))
        case .v3:
            if let nextLink, !empty {
                let url: String
                do { url = try CatalogNextLink.resolve(nextLink, tableURL: tableURL) } catch {
                    throw .nextLink(error)
                }
                guard followed.insert(url).inserted else { throw .nextLinkLoop(nextLink) }
                if let overlapping = CatalogNextLink.overlapping(url), let cursor {
                    next = .link(url: overlapping, overlap: cursor)
                } else {
                    // A link that pages some other way cannot show whether rows moved: the cursor asks instead.
                    next = .query(CatalogPullPlan.query(after: cursor, pageSize: pageSize, generation: generation))
                }
            } else {
                isFinished = true
            }
        }
        if pages >= maxPages, !mustAdvance { isFinished = true }
        return Page(changes: pulled.map(\.change), cursor: cursor, isLast: isFinished)
    }

    /// The page's rows read, or the problem that refuses the page whole.
    private static func read(_ rows: ArraySlice<JSONValue>) throws(PageProblem) -> [CatalogPulledRow] {
        var pulled: [CatalogPulledRow] = []
        pulled.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() {
            let read = CatalogPulledRow.read(row)
            guard read.position != nil else {
                let id = row["id"]?.stringValue ?? ""
                throw .rowWithoutPosition(
                    id.isEmpty
                        ? "a row without an id (row \(i + 1))"
                        : "row \(id) without a readable updatedAt (\(row["updatedAt"]?.serialized ?? "missing"))")
            }
            pulled.append(read)
        }
        return pulled
    }
}
