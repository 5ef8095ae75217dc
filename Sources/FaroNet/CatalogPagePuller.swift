import FaroCore

/// The network half of a catalog pull, on a thread of its own: it fetches a page, reads it (JSON and the page rules
/// of `CatalogPullPlan`) and asks for the next one at once, while the caller stores the pages already read. With the
/// (updatedAt, id) cursor the next query is known as soon as a page is read, so the pull's pace is the network's
/// and the JSON's, and the SQLite writes happen beside it. At most `depth` read pages wait for the caller; the
/// thread only touches the client between `start` and the end of `finish`.
final class CatalogPagePuller: @unchecked Sendable {
    /// One page read, with what the report counts of it.
    struct Received {
        var page: CatalogPullPlan.Page
        var rows: Int
        var bytes: Int
    }

    private let client: TablesClient
    private let depth: Int
    private var plan: CatalogPullPlan
    private let condition = ConditionLock()
    private var ready: [Result<Received, CatalogSyncError>] = []
    private var running = false
    private var stopping = false

    init(client: TablesClient, plan: CatalogPullPlan, depth: Int = 4) {
        self.client = client
        self.plan = plan
        self.depth = max(1, depth)
    }

    /// Starts pulling from the plan's cursor.
    func start() {
        condition.withLock { running = true }
        DetachedThread.start(name: "faro-catalog-io") { [self] in self.threadMain() }
    }

    /// The next page in order, or the error that ended the pull; nil after the last page (or the error).
    func next() -> Result<Received, CatalogSyncError>? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty, running { condition.wait() }
        guard !ready.isEmpty else { return nil }
        let item = ready.removeFirst()
        condition.broadcast()
        return item
    }

    /// Stops asking for pages and waits until the request in flight (if any) is done, so the client is free again.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
    }

    private func threadMain() {
        defer {
            condition.withLock {
                running = false
                condition.broadcast()
            }
        }
        while !plan.isFinished {
            let stop = condition.withLock { () -> Bool in
                while ready.count >= depth, !stopping { condition.wait() }
                return stopping
            }
            if stop { return }
            let item = readNextPage()
            let failed: Bool
            if case .failure = item { failed = true } else { failed = false }
            condition.withLock {
                ready.append(item)
                condition.broadcast()
            }
            if failed { return }
        }
    }

    private func readNextPage() -> Result<Received, CatalogSyncError> {
        let listed: TablesClient.ListPage
        do { listed = try TablesClient.listPage(client.catalogPageResponse(query: plan.nextQuery)) } catch {
            return .failure(CatalogSync.classify(error, table: client.configuration.tables.catalog, listing: true))
        }
        do {
            let page = try plan.receive(listed.rows)
            return .success(Received(page: page, rows: listed.rows.count, bytes: listed.bytes))
        } catch {
            return .failure(.unusableAnswer(error.description))
        }
    }
}
