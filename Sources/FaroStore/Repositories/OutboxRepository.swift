import FaroCore

/// One row of the outbox as stored: what is sent (`body`, with its client id), where, and how delivery stands.
public struct OutboxRow: Sendable, Equatable {
    /// Commit order; rows with the same `orderKey` are delivered in this order.
    public var seq: Int64
    /// The client-generated id, also the `id` field of `body`.
    public var id: String
    public var table: OutboxTable
    /// The JSON object POSTed to the backend.
    public var body: String
    public var state: OutboxRowState
    public var attempts: Int
    public var nextAttemptAt: Double
    public var lastError: String?
    public var createdAt: Double
    public var updatedAt: Double
    /// The backend base URL the row was queued for (nil: queued before Faro recorded it; it goes to the backend
    /// that delivers it, and is bound to it then).
    public var backend: String? = nil
    /// Rows with the same key (about the same site) keep their commit order; nil waits for nobody.
    public var orderKey: String? = nil
    /// "Try again" answers of the backend so far (bounded by `OutboxRetryPolicy`).
    public var serverErrors = 0
    /// When the row was queued, or queued again by the user (the policy's maximum age counts from here).
    public var queuedAt: Double = 0
    /// `lastError` as a value (nil for rows stored before reasons were values).
    public var reason: OutboxReason? = nil

    /// What the retry policy needs to know of the row.
    public var progress: OutboxRowProgress {
        OutboxRowProgress(attempts: attempts, serverErrors: serverErrors, queuedAt: queuedAt)
    }

    /// The row as the panel and `faro outbox` show it.
    public var entry: OutboxEntry {
        OutboxEntry(
            id: id, table: table, state: state, attempts: attempts, lastError: lastError, createdAt: createdAt,
            backend: backend, subject: subject, reason: reason)
    }

    /// The business of a registration, the site's title otherwise (read from the stored body).
    var subject: String? {
        guard let fields = try? JSONValue.parse(body) else { return nil }
        return (table == .interested ? fields["nombre"] : fields["titulo"])?.stringValue
    }
}

/// The persistent outbox (docs/outbox.md): rows are committed here before anything says "sent", and only their
/// state ever changes afterwards (or the user discards them). Every delivery write is conditional on the row still
/// being pending, so two deliverers (the window and `faro outbox flush`) never undo each other's result. Each row
/// remembers the backend it was queued for and is only ever handed to a deliverer of that backend.
public struct OutboxRepository {
    let connection: SQLiteConnection

    static let columns =
        "seq, id, table_name, body, state, attempts, next_attempt_at, last_error, created_at, updated_at, backend, "
        + "order_key, server_errors, queued_at, reason"

    /// Commits `submission` with the client id `id`, queued for `backend` (a base URL; nil when none is configured
    /// yet); when `now` is the clock's time the row is due at once. Returns the stored row. A second enqueue with
    /// the same id fails (ids are unique).
    @discardableResult
    public func enqueue(_ submission: OutboxSubmission, id: String, now: Double, backend: String? = nil)
        throws(StoreError) -> OutboxRow
    {
        try connection.transaction { () throws(StoreError) in
            try insert(submission, id: id, now: now, backend: backend)
        }
    }

    /// Commits `submission` and writes `mark` in the same transaction ("Enviar mis datos" disables itself,
    /// "Calificar sitio" hides itself), so the flag and the row can never disagree after a crash.
    @discardableResult
    public func enqueue(
        _ submission: OutboxSubmission, id: String, now: Double, marking mark: SiteMark, backend: String? = nil
    ) throws(StoreError) -> OutboxRow {
        try connection.transaction { () throws(StoreError) in
            let row = try insert(submission, id: id, now: now, backend: backend)
            let state = SiteStateRepository(connection: connection)
            switch mark {
            case .contactSent(let url): try state.markContactSent(url: url, at: now)
            case .rated(let url, let rating): try state.markRated(url: url, rating: rating, at: now)
            }
            return row
        }
    }

    private func insert(_ submission: OutboxSubmission, id: String, now: Double, backend: String?) throws(StoreError)
        -> OutboxRow
    {
        let body = submission.jsonBody(id: id)
        try connection.query(
            "INSERT INTO outbox (id, table_name, body, state, attempts, next_attempt_at, created_at, updated_at, "
                + "backend, order_key, server_errors, queued_at) VALUES (?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?, 0, ?)",
            [
                .text(id), .text(submission.table.rawValue), .text(body), .real(now), .real(now), .real(now),
                backend.map { .text($0) } ?? .null, submission.orderKey.map { .text($0) } ?? .null, .real(now),
            ])
        return OutboxRow(
            seq: connection.lastInsertRowID, id: id, table: submission.table, body: body,
            state: .pending, attempts: 0, nextAttemptAt: now, lastError: nil, createdAt: now,
            updatedAt: now, backend: backend, orderKey: submission.orderKey, serverErrors: 0, queuedAt: now)
    }

    /// Rows a deliverer of `backend` may hand over.
    static let scope = "(backend = ? OR backend IS NULL)"

    /// The pending rows of `backend` that are due at `now` and not waiting behind an earlier pending row about the
    /// same site, oldest first, at most `limit`.
    public func due(backend: String, now: Double, limit: Int) throws(StoreError) -> [OutboxRow] {
        try rows(
            "SELECT \(Self.columns) FROM outbox o WHERE state = 'pending' AND \(Self.scope) "
                + "AND next_attempt_at <= ? AND NOT (order_key IS NOT NULL AND EXISTS (SELECT 1 FROM outbox e "
                + "WHERE e.state = 'pending' AND e.order_key = o.order_key AND e.seq < o.seq "
                + "AND (e.backend = ? OR e.backend IS NULL))) ORDER BY seq LIMIT ?",
            [.text(backend), .real(now), .text(backend), .integer(Int64(limit))])
    }

    /// When the next pending row of `backend` becomes due (nil: none pending). A row waiting behind an earlier one
    /// about the same site is due once that one is settled, so the earliest due time of any pending row is the
    /// answer.
    public func nextDue(backend: String) throws(StoreError) -> Double? {
        try connection.query(
            "SELECT min(next_attempt_at) FROM outbox WHERE state = 'pending' AND \(Self.scope)", [.text(backend)]
        ).first?.first?.real
    }

    /// Pending rows `backend` would deliver.
    public func pendingCount(backend: String) throws(StoreError) -> Int {
        Int(
            try connection.query(
                "SELECT count(*) FROM outbox WHERE state = 'pending' AND \(Self.scope)", [.text(backend)]
            ).first?.first?.integer ?? 0)
    }

    /// Undelivered (pending or failed) rows queued for a backend other than `backend`: they wait until the user
    /// moves or discards them.
    public func queuedElsewhere(than backend: String) throws(StoreError) -> [OutboxRow] {
        try rows(
            "SELECT \(Self.columns) FROM outbox WHERE state IN ('pending', 'failed') AND backend IS NOT NULL "
                + "AND backend <> ? ORDER BY seq", [.text(backend)])
    }

    /// The oldest pending row of each table (kept for callers that look at queue heads).
    public func pendingHeads() throws(StoreError) -> [OutboxRow] {
        try rows(
            "SELECT \(Self.columns) FROM outbox o WHERE state = 'pending' AND seq = "
                + "(SELECT min(seq) FROM outbox WHERE state = 'pending' AND table_name = o.table_name) ORDER BY seq", []
        )
    }

    /// Writes the result of an attempt on row `seq`; ignored if the row is no longer pending (another deliverer
    /// settled it, or the user discarded it). A row with no backend yet that `backend` settled (delivered or
    /// refused for good) is bound to it; one still pending stays free for whichever backend delivers it. Returns
    /// whether the row changed.
    @discardableResult
    public func apply(_ transition: OutboxTransition, toRow seq: Int64, now: Double, backend: String? = nil)
        throws(StoreError) -> Bool
    {
        try connection.query(
            "UPDATE outbox SET state = ?, attempts = max(attempts, ?), next_attempt_at = ?, last_error = ?, reason = ?, "
                + "updated_at = ?, server_errors = coalesce(?, server_errors), backend = coalesce(backend, ?) "
                + "WHERE seq = ? AND state = 'pending'",
            [
                .text(transition.state.rawValue), .integer(Int64(transition.attempts)), .real(transition.nextAttemptAt),
                transition.lastError.map { .text($0) } ?? .null, transition.reason.map { .text($0.stored) } ?? .null,
                .real(now),
                transition.serverErrors.map { .integer(Int64($0)) } ?? .null,
                transition.state == .pending ? .null : backend.map { .text($0) } ?? .null, .integer(seq),
            ])
        return connection.changes > 0
    }

    /// Writes several attempt results in one transaction (one commit instead of one per row). If the process dies
    /// before the commit, those rows are simply sent again, and the backend answers 409 (= delivered).
    public func apply(_ results: [(transition: OutboxTransition, seq: Int64)], now: Double, backend: String? = nil)
        throws(StoreError)
    {
        guard !results.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            for r in results { try apply(r.transition, toRow: r.seq, now: now, backend: backend) }
        }
    }

    /// "Retry now": every pending row becomes due at `now`; with `includingFailed`, refused rows go back to pending
    /// too (for when the user fixed the cause), their attempts counted from zero. Returns how many rows became due.
    @discardableResult
    public func retryNow(now: Double, includingFailed: Bool = false) throws(StoreError) -> Int {
        try connection.transaction { () throws(StoreError) in
            try connection.query(
                "UPDATE outbox SET next_attempt_at = ?, updated_at = ? WHERE state = 'pending'",
                [.real(now), .real(now)])
            var changed = connection.changes
            if includingFailed {
                try connection.query(
                    "UPDATE outbox SET state = 'pending', next_attempt_at = ?, updated_at = ?, attempts = 0, "
                        + "server_errors = 0, queued_at = ? WHERE state = 'failed'",
                    [.real(now), .real(now), .real(now)])
                changed += connection.changes
            }
            return changed
        }
    }

    /// Queues one pending or failed row again: due at `now`, attempts and the age limit counted from now. Returns
    /// false when there is no such undelivered row.
    @discardableResult
    public func retry(id: String, now: Double) throws(StoreError) -> Bool {
        try connection.query(
            "UPDATE outbox SET state = 'pending', next_attempt_at = ?, updated_at = ?, attempts = 0, "
                + "server_errors = 0, queued_at = ? WHERE id = ? AND state IN ('pending', 'failed')",
            [.real(now), .real(now), .real(now), .text(id)])
        return connection.changes > 0
    }

    /// `retry` for every pending and failed row; returns how many.
    @discardableResult
    public func retryAll(now: Double) throws(StoreError) -> Int {
        try connection.query(
            "UPDATE outbox SET state = 'pending', next_attempt_at = ?, updated_at = ?, attempts = 0, "
                + "server_errors = 0, queued_at = ? WHERE state IN ('pending', 'failed')",
            [.real(now), .real(now), .real(now)])
        return connection.changes
    }

    /// Deletes one pending or failed row: only ever on the user's word. Returns false when there is no such row.
    @discardableResult
    public func discard(id: String) throws(StoreError) -> Bool {
        try connection.query("DELETE FROM outbox WHERE id = ? AND state IN ('pending', 'failed')", [.text(id)])
        return connection.changes > 0
    }

    /// Deletes every pending and failed row (the panel's "discard all"); returns how many.
    @discardableResult
    public func discardUndelivered() throws(StoreError) -> Int {
        try connection.query("DELETE FROM outbox WHERE state IN ('pending', 'failed')")
        return connection.changes
    }

    /// Deletes delivered rows last updated (delivered) before `time`; returns how many (docs/storage.md).
    @discardableResult
    public func deleteDelivered(before time: Double) throws(StoreError) -> Int {
        try connection.query("DELETE FROM outbox WHERE state = 'delivered' AND updated_at < ?", [.real(time)])
        return connection.changes
    }

    /// Queues one undelivered row again for `backend` (a row that waited for another backend); returns false when
    /// there is no such row.
    @discardableResult
    public func move(id: String, to backend: String, now: Double) throws(StoreError) -> Bool {
        try connection.query(
            "UPDATE outbox SET backend = ?, state = 'pending', next_attempt_at = ?, updated_at = ?, attempts = 0, "
                + "server_errors = 0, queued_at = ? WHERE id = ? AND state IN ('pending', 'failed')",
            [.text(backend), .real(now), .real(now), .real(now), .text(id)])
        return connection.changes > 0
    }

    /// `move` for every undelivered row queued for a backend other than `backend`; returns how many.
    @discardableResult
    public func moveAll(to backend: String, now: Double) throws(StoreError) -> Int {
        try connection.query(
            "UPDATE outbox SET backend = ?, state = 'pending', next_attempt_at = ?, updated_at = ?, attempts = 0, "
                + "server_errors = 0, queued_at = ? WHERE state IN ('pending', 'failed') AND backend IS NOT NULL "
                + "AND backend <> ?",
            [.text(backend), .real(now), .real(now), .real(now), .text(backend)])
        return connection.changes
    }

    /// Pending, failed and delivered counts (what the window shows).
    public func counts() throws(StoreError) -> OutboxCounts {
        var counts = OutboxCounts(pending: 0, failed: 0, delivered: 0)
        for row in try connection.query("SELECT state, count(*) FROM outbox GROUP BY state") {
            let n = Int(row[1].integer ?? 0)
            switch row[0].text {
            case "pending": counts.pending = n
            case "failed": counts.failed = n
            case "delivered": counts.delivered = n
            default: break
            }
        }
        return counts
    }

    /// Rows in `states`, oldest first, at most `limit`.
    public func list(states: [OutboxRowState] = [.pending, .failed], limit: Int = 10_000) throws(StoreError)
        -> [OutboxRow]
    {
        let marks = states.map { _ in "?" }.joined(separator: ", ")
        return try rows(
            "SELECT \(Self.columns) FROM outbox WHERE state IN (\(marks)) ORDER BY seq LIMIT ?",
            states.map { .text($0.rawValue) } + [.integer(Int64(limit))])
    }

    /// The pending rows of one table in commit order, at most `limit`.
    public func list(table: OutboxTable, limit: Int) throws(StoreError) -> [OutboxRow] {
        try rows(
            "SELECT \(Self.columns) FROM outbox WHERE state = 'pending' AND table_name = ? ORDER BY seq LIMIT ?",
            [.text(table.rawValue), .integer(Int64(limit))])
    }

    /// Commits `submission` under a new client id (`OutboxRowID`) at `now`, queued for `backend`: the library
    /// entry point of "send".
    @discardableResult
    public func submit(
        _ submission: OutboxSubmission, now: Double, marking mark: SiteMark? = nil, backend: String? = nil
    ) throws(StoreError) -> OutboxRow {
        var random = SystemRandomNumberGenerator()
        let id = OutboxRowID.make(using: &random)
        if let mark { return try enqueue(submission, id: id, now: now, marking: mark, backend: backend) }
        return try enqueue(submission, id: id, now: now, backend: backend)
    }

    /// The row with client id `id`, if any.
    public func row(id: String) throws(StoreError) -> OutboxRow? {
        try rows("SELECT \(Self.columns) FROM outbox WHERE id = ?", [.text(id)]).first
    }

    private func rows(_ sql: String, _ parameters: [SQLiteValue]) throws(StoreError) -> [OutboxRow] {
        try connection.query(sql, parameters).compactMap { r in
            guard let table = r[2].text.flatMap(OutboxTable.init(rawValue:)),
                let state = r[4].text.flatMap(OutboxRowState.init(rawValue:))
            else { return nil }
            return OutboxRow(
                seq: r[0].integer ?? 0, id: r[1].text ?? "", table: table, body: r[3].text ?? "",
                state: state, attempts: Int(r[5].integer ?? 0), nextAttemptAt: r[6].real ?? 0,
                lastError: r[7].text, createdAt: r[8].real ?? 0, updatedAt: r[9].real ?? 0, backend: r[10].text,
                orderKey: r[11].text, serverErrors: Int(r[12].integer ?? 0), queuedAt: r[13].real ?? r[8].real ?? 0,
                reason: r[14].text.flatMap(OutboxReason.init(stored:)))
        }
    }
}

/// The stored outbox as the window's panel uses it (`OutboxQueue`), with the store's errors in the panel's words.
public struct StoredOutboxQueue: OutboxQueue {
    public let repository: OutboxRepository

    public init(_ repository: OutboxRepository) { self.repository = repository }

    private func wrap<T>(_ body: () throws(StoreError) -> T) throws(OutboxQueueError) -> T {
        do { return try body() } catch { throw OutboxQueueError(error.problem, detail: error.description) }
    }

    public func undelivered() throws(OutboxQueueError) -> [OutboxEntry] {
        try wrap { () throws(StoreError) in try repository.list(states: [.pending, .failed]).map(\.entry) }
    }

    public func retry(id: String, now: Double) throws(OutboxQueueError) -> Bool {
        try wrap { () throws(StoreError) in try repository.retry(id: id, now: now) }
    }

    public func retryAll(now: Double) throws(OutboxQueueError) -> Int {
        try wrap { () throws(StoreError) in try repository.retryAll(now: now) }
    }

    public func discard(id: String) throws(OutboxQueueError) -> Bool {
        try wrap { () throws(StoreError) in try repository.discard(id: id) }
    }

    public func discardAll() throws(OutboxQueueError) -> Int {
        try wrap { () throws(StoreError) in try repository.discardUndelivered() }
    }

    public func move(id: String, to backend: String, now: Double) throws(OutboxQueueError) -> Bool {
        try wrap { () throws(StoreError) in try repository.move(id: id, to: backend, now: now) }
    }

    public func moveAll(to backend: String, now: Double) throws(OutboxQueueError) -> Int {
        try wrap { () throws(StoreError) in try repository.moveAll(to: backend, now: now) }
    }
}
