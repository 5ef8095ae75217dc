import FaroCore

/// Fetches the next catalog page on a thread of its own while the caller reads and stores the current one: with
/// the (updatedAt, id) cursor the next query is known as soon as a page is read, so the network overlaps the JSON
/// parse and the SQLite writes. One request at a time; the client is only touched by this
/// thread between `request` and `take`.
final class CatalogPageFetcher: @unchecked Sendable {
    private let client: TablesClient
    private let condition = ConditionLock()
    private var query: String?
    private var result: Result<HTTPResponse, TablesError>?
    private var closing = false
    private var started = false

    init(client: TablesClient) { self.client = client }

    /// Starts fetching the page for `query` (the previous one must have been taken).
    func request(_ query: String) {
        condition.withLock {
            if !started {
                started = true
                DetachedThread.start(name: "faro-catalog-io") { [self] in self.threadMain() }
            }
            self.query = query
            result = nil
            condition.broadcast()
        }
    }

    /// Waits for the page asked for last.
    func take() -> Result<HTTPResponse, TablesError> {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        let taken = result ?? .failure(.transport("no answer"))
        result = nil
        return taken
    }

    /// Ends the thread once the request in flight (if any) is done.
    func close() {
        condition.withLock {
            closing = true
            condition.broadcast()
        }
    }

    private func threadMain() {
        while true {
            let next = condition.withLock { () -> String? in
                while query == nil, !closing { condition.wait() }
                let taken = query
                query = nil
                return taken
            }
            guard let next else { return }
            let page = client.catalogPageResponse(query: next)
            condition.withLock {
                result = page
                condition.broadcast()
            }
        }
    }
}
