import FaroCore

/// One row of the window's outbox panel: what it is, where it stands, why, and what the user may do with it.
public struct OutboxPanelRow: Equatable, Sendable {
    /// Where a row stands, as the panel tells it.
    public enum Status: Equatable, Sendable {
        /// Waiting for (another) attempt; `attempts` made so far.
        case pending(attempts: Int)
        /// Refused for good (or given up after too many attempts); `reason` says why.
        case failed
        /// Queued for another backend than the configured one: the user moves it here or discards it.
        case queuedForAnotherBackend(String)
    }

    public var id: String
    public var table: OutboxTable
    public var status: Status
    /// Why the row waits or was refused (nil when there is none yet, or the row was stored before reasons were
    /// values: the panel then says where it stands only).
    public var reason: OutboxReason?
    /// The backend the row was queued for (nil: queued before Faro recorded it; it goes to the current one).
    public var backend: String?
    /// Seconds since 1970.
    public var createdAt: Double
    /// Who or what the row is about (a business, a site's title), when the row says.
    public var subject: String? = nil

    /// "Reintentar": for rows of the configured backend.
    public var canRetry: Bool { if case .queuedForAnotherBackend = status { return false } else { return true } }
    /// "Enviar a este servidor": for rows queued for another backend.
    public var canMove: Bool { !canRetry }
}

/// The counts the outbox line and the panel's heading show.
public struct OutboxPanelSummary: Equatable, Sendable {
    public var pending = 0
    public var failed = 0
    /// Rows waiting for another backend (included in neither count above).
    public var queuedElsewhere = 0
    public init(pending: Int = 0, failed: Int = 0, queuedElsewhere: Int = 0) {
        self.pending = pending
        self.failed = failed
        self.queuedElsewhere = queuedElsewhere
    }
    public var isEmpty: Bool { pending + failed + queuedElsewhere == 0 }
}

/// The outbox panel without any display: the pending and failed rows with their reasons and backends, and
/// "Reintentar" / "Descartar" for one row or all, "move here" for rows queued for another backend. Pure code over
/// an `OutboxQueue`; after every action `onChange` runs (the app wakes its deliverer there) and `rows` is fresh.
public final class OutboxPanelModel {
    private let queue: any OutboxQueue
    private let now: () -> Double
    /// The configured backend's base URL (nil: none configured; no row is then "for another backend").
    public var currentBackend: String?
    /// Called after an action changed something (wake the deliverer, redraw).
    public var onChange: () -> Void = {}
    public private(set) var rows: [OutboxPanelRow] = []
    /// Why the last refresh or action failed (the database could not be used), nil when it worked.
    public private(set) var problem: StorageProblem?

    public init(queue: any OutboxQueue, currentBackend: String?, now: @escaping () -> Double) {
        self.queue = queue
        self.currentBackend = currentBackend
        self.now = now
        refresh()
    }

    /// Reads the rows again.
    public func refresh() {
        do {
            rows = try queue.undelivered().map(row)
            problem = nil
        } catch {
            problem = error.kind
        }
    }

    public var summary: OutboxPanelSummary {
        var summary = OutboxPanelSummary()
        for row in rows {
            switch row.status {
            case .pending: summary.pending += 1
            case .failed: summary.failed += 1
            case .queuedForAnotherBackend: summary.queuedElsewhere += 1
            }
        }
        return summary
    }

    private func row(_ entry: OutboxEntry) -> OutboxPanelRow {
        let status: OutboxPanelRow.Status
        if entry.isQueued(forAnotherThan: currentBackend), let backend = entry.backend {
            status = .queuedForAnotherBackend(backend)
        } else if entry.state == .failed {
            status = .failed
        } else {
            status = .pending(attempts: entry.attempts)
        }
        return OutboxPanelRow(
            id: entry.id, table: entry.table, status: status, reason: entry.reason, backend: entry.backend,
            createdAt: entry.createdAt, subject: entry.subject)
    }

    /// "Reintentar" on one row: queued again, due now, attempts counted from zero.
    public func retry(_ id: String) { act { () throws(OutboxQueueError) in _ = try queue.retry(id: id, now: now()) } }

    /// "Reintentar todo": every row of the configured backend (rows for another backend are moved, not retried).
    public func retryAll() {
        act { () throws(OutboxQueueError) in
            for row in rows where row.canRetry { _ = try queue.retry(id: row.id, now: now()) }
        }
    }

    /// "Descartar" on one row: deleted, on the user's word.
    public func discard(_ id: String) { act { () throws(OutboxQueueError) in _ = try queue.discard(id: id) } }

    /// "Descartar todo": every pending and failed row.
    public func discardAll() { act { () throws(OutboxQueueError) in _ = try queue.discardAll() } }

    /// Sends a row queued for another backend to the configured one.
    public func moveHere(_ id: String) {
        guard let backend = currentBackend else { return }
        act { () throws(OutboxQueueError) in _ = try queue.move(id: id, to: backend, now: now()) }
    }

    /// `moveHere` for every row queued for another backend.
    public func moveAllHere() {
        guard let backend = currentBackend else { return }
        act { () throws(OutboxQueueError) in _ = try queue.moveAll(to: backend, now: now()) }
    }

    private func act(_ body: () throws(OutboxQueueError) -> Void) {
        var failure: StorageProblem?
        do { try body() } catch { failure = error.kind }
        refresh()
        if let failure { problem = failure }
        onChange()
    }
}
