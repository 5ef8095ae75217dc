import FaroCore
import FaroCurl

/// The network half of a catalog pull, on a thread of its own: it fetches a page, reads it (JSON and the page rules
/// of `CatalogPullPlan`) and asks for the next one at once, while the caller stores the pages already read. With the
/// (updatedAt, id) cursor the next request is known as soon as a page is read, so the pull's pace is the network's
/// and the JSON's, and the SQLite writes happen beside it. On 3.0.0 the next request goes out even before the page
/// is read: the `nextLink` is picked out of the answer's bytes (`CatalogNextLink.peek`), and the page is read while
/// the server prepares the next one. The page as read then decides: when the plan asks for another request than
/// the one sent ahead (the page was refused, rows moved, the link was not the answer's), that answer is dropped and
/// the plan's request is made. A link is never sent ahead twice, nor off the catalog table (`CatalogNextLink
/// .resolve`). At most `depth` read pages wait for the caller; the thread only touches the client between `start`
/// and the end of `finish`.
final class CatalogPagePuller: @unchecked Sendable {
    /// One page read, with what the report counts of it.
    struct Received {
        var page: CatalogPullPlan.Page
        var rows: Int
        var bytes: Int
        /// The page was dropped: it did not start where the page before ended (3.0.0 `nextLink`).
        var restarted: Bool
    }

    /// Why the pull stopped before its end.
    enum Stop: Error {
        case failed(CatalogSyncError)
        /// With the `auto` setting, the backend answered in the other generation (the client has learned it): the
        /// pull starts again from the stored cursor in that one.
        case generationChanged(BackendProtocol)
    }

    private let client: TablesClient
    private let depth: Int
    private var plan: CatalogPullPlan
    private let condition = ConditionLock()
    private var ready: [Result<Received, Stop>] = []
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

    /// The next page in order, or what ended the pull; nil after the last page (or the stop).
    func next() -> Result<Received, Stop>? {
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
        var ahead: TablesClient.PendingPage?
        defer { if let ahead { client.cancelCatalogPage(ahead) } }
        var sentAhead: Set<String> = []
        while !plan.isFinished {
            let stop = condition.withLock { () -> Bool in
                while ready.count >= depth, !stopping { condition.wait() }
                return stopping
            }
            if stop { return }
            let pending: TablesClient.PendingPage
            if let sent = ahead, case .link(let url, _) = plan.next, sent.url == url {
                pending = sent
            } else {
                if let sent = ahead { client.cancelCatalogPage(sent) }
                if case .link(let url, _) = plan.next { sentAhead.insert(url) }
                pending = client.startCatalogPage(plan.next)
            }
            ahead = nil
            let response = client.finishCatalogPage(pending)
            if let link = linkAhead(response), sentAhead.insert(link).inserted {
                ahead = client.startCatalogPage(link: link)
            }
            let item = read(response)
            let failed: Bool
            if case .failure = item { failed = true } else { failed = false }
            condition.withLock {
                ready.append(item)
                condition.broadcast()
            }
            if failed { return }
        }
    }

    private var table: String { client.configuration.tables.catalog }

    /// The request the page in `response` will most likely lead to, when it can be sent before the page is read:
    /// its `nextLink`, resolved on the catalog table, with `$skip` one lower (as `CatalogPullPlan` follows it).
    private func linkAhead(_ response: Result<CurlResponse, TablesError>) -> String? {
        guard plan.generation == .v3, case .success(let answer) = response, (200..<300).contains(answer.status),
            let link = CatalogNextLink.peek(answer.body),
            let url = try? CatalogNextLink.resolve(link, tableURL: client.tableURL(table))
        else { return nil }
        return CatalogNextLink.overlapping(url)
    }

    private func read(_ response: Result<CurlResponse, TablesError>) -> Result<Received, Stop> {
        let listed: TablesClient.ListPage
        do { listed = try TablesClient.listPage(response) } catch {
            if case .http(400, _) = error, let stop = generationBehind400() { return .failure(stop) }
            return .failure(.failed(CatalogSync.classify(error, table: table, listing: true)))
        }
        if listed.shape != plan.generation {
            if let mismatch = client.mismatch(listed.shape) {
                return .failure(.failed(.unusableAnswer(mismatch.description)))
            }
            client.learn(listed.shape)
            return .failure(.generationChanged(listed.shape))
        }
        do {
            let before = plan.restarts
            let page = try plan.receive(
                listed.rows, nextLink: listed.nextLink, tableURL: client.tableURL(table))
            return .success(
                Received(page: page, rows: listed.rows.count, bytes: listed.bytes, restarted: plan.restarts > before))
        } catch {
            return .failure(.failed(.unusableAnswer(error.description)))
        }
    }

    /// A 400 to a listing may be the other generation refusing this one's header or date literal: one small
    /// listing with the 2.0.0 header tells (`probeGeneration`). Nil when the backend speaks the plan's generation
    /// (the 400 stands).
    private func generationBehind400() -> Stop? {
        guard case .success(let probe) = client.probeGeneration(), probe.generation != plan.generation else {
            return nil
        }
        if let mismatch = client.mismatch(probe.generation) { return .failed(.unusableAnswer(mismatch.description)) }
        client.learn(probe.generation)
        return .generationChanged(probe.generation)
    }
}
