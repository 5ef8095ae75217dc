import FaroCore

/// One row of the outbox as stored: what is sent (`body`, with its client id), where, and how delivery stands.
public struct OutboxRow: Sendable, Equatable {
    /// Commit order; rows of one table are delivered in this order.
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
}

/// The persistent outbox (PRODUCT.md §11): rows are committed here before anything says "sent", and only their
/// state ever changes afterwards. Every write is conditional on the row still being pending, so two deliverers
/// (the window and `faro outbox flush`) never undo each other's result.
public struct OutboxRepository {
    let connection: SQLiteConnection

    static let columns =
        "seq, id, table_name, body, state, attempts, next_attempt_at, last_error, created_at, updated_at"

    /// Commits `submission` with the client id `id`; when `now` is the clock's time the row is due at once.
    /// Returns the stored row. A second enqueue with the same id fails (ids are unique).
    @discardableResult
    public func enqueue(_ submission: OutboxSubmission, id: String, now: Double) throws(StoreError) -> OutboxRow {
        try connection.transaction { () throws(StoreError) in try insert(submission, id: id, now: now) }
    }

    /// Commits `submission` and marks the site in the same transaction ("Enviar mis datos" disables itself,
    /// "Calificar sitio" hides itself), so the flag and the row can never disagree after a crash.
    @discardableResult
    public func enqueue(_ submission: OutboxSubmission, id: String, now: Double, marking site: String)
        throws(StoreError) -> OutboxRow
    {
        try connection.transaction { () throws(StoreError) in
            let row = try insert(submission, id: id, now: now)
            let state = SiteStateRepository(connection: connection)
            switch submission {
            case .contactame: try state.markContactSent(url: site, at: now)
            case .rateme(_, _, let rating, _): try state.markRated(url: site, rating: rating, at: now)
            case .interested: break
            }
            return row
        }
    }

    private func insert(_ submission: OutboxSubmission, id: String, now: Double) throws(StoreError) -> OutboxRow {
        let body = submission.jsonBody(id: id)
        try connection.query(
            "INSERT INTO outbox (id, table_name, body, state, attempts, next_attempt_at, created_at, updated_at) "
                + "VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)",
            [.text(id), .text(submission.table.rawValue), .text(body), .real(now), .real(now), .real(now)])
        return OutboxRow(
            seq: connection.lastInsertRowID, id: id, table: submission.table, body: body,
            state: .pending, attempts: 0, nextAttemptAt: now, lastError: nil, createdAt: now,
            updatedAt: now)
    }

    /// The oldest pending row of each table (delivery is in order per table: a table waits on its head).
    public func pendingHeads() throws(StoreError) -> [OutboxRow] {
        try rows(
            "SELECT \(Self.columns) FROM outbox o WHERE state = 'pending' AND seq = "
                + "(SELECT min(seq) FROM outbox WHERE state = 'pending' AND table_name = o.table_name) ORDER BY seq", []
        )
    }

    /// Writes the result of an attempt on row `seq`; ignored if the row is no longer pending (another deliverer
    /// settled it). Returns whether the row changed.
    @discardableResult
    public func apply(_ transition: OutboxTransition, toRow seq: Int64, now: Double) throws(StoreError) -> Bool {
        try connection.query(
            "UPDATE outbox SET state = ?, attempts = max(attempts, ?), next_attempt_at = ?, last_error = ?, "
                + "updated_at = ? WHERE seq = ? AND state = 'pending'",
            [
                .text(transition.state.rawValue), .integer(Int64(transition.attempts)), .real(transition.nextAttemptAt),
                transition.lastError.map { .text($0) } ?? .null, .real(now), .integer(seq),
            ])
        return connection.changes > 0
    }

    /// Writes several attempt results in one transaction (one commit instead of one per row). If the process dies
    /// before the commit, those rows are simply sent again, and the backend answers 409 (= delivered).
    public func apply(_ results: [(transition: OutboxTransition, seq: Int64)], now: Double) throws(StoreError) {
        guard !results.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            for r in results { try apply(r.transition, toRow: r.seq, now: now) }
        }
    }

    /// "Retry now": every pending row becomes due at `now`; with `includingFailed`, refused rows go back to pending
    /// too (for when the user fixed the cause). Returns how many rows became due.
    @discardableResult
    public func retryNow(now: Double, includingFailed: Bool = false) throws(StoreError) -> Int {
        try connection.transaction { () throws(StoreError) in
            try connection.query(
                "UPDATE outbox SET next_attempt_at = ?, updated_at = ? WHERE state = 'pending'",
                [.real(now), .real(now)])
            var changed = connection.changes
            if includingFailed {
                try connection.query(
                    "UPDATE outbox SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE state = 'failed'",
                    [.real(now), .real(now)])
                changed += connection.changes
            }
            return changed
        }
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

    /// The pending rows of one table in delivery order, at most `limit`.
    public func list(table: OutboxTable, limit: Int) throws(StoreError) -> [OutboxRow] {
        try rows(
            "SELECT \(Self.columns) FROM outbox WHERE state = 'pending' AND table_name = ? ORDER BY seq LIMIT ?",
            [.text(table.rawValue), .integer(Int64(limit))])
    }

    /// Commits `submission` under a new client id (`OutboxRowID`) at `now`: the library entry point of "send".
    @discardableResult
    public func submit(_ submission: OutboxSubmission, now: Double, marking site: String? = nil) throws(StoreError)
        -> OutboxRow
    {
        var random = SystemUnitRandom()
        let id = OutboxRowID.make(using: &random)
        if let site { return try enqueue(submission, id: id, now: now, marking: site) }
        return try enqueue(submission, id: id, now: now)
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
                lastError: r[7].text, createdAt: r[8].real ?? 0, updatedAt: r[9].real ?? 0)
        }
    }
}
