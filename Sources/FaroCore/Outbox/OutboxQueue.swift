/// One row of the outbox as the window's panel and `faro outbox` show it.
public struct OutboxEntry: Sendable, Equatable {
    /// The client-generated id (also the row's `id` on the backend).
    public var id: String
    public var table: OutboxTable
    public var state: OutboxRowState
    public var attempts: Int
    /// The last error, or the server's reason for refusing the row, in the terminal's English.
    public var lastError: String?
    /// The same as a value (nil for rows stored before reasons were values: only `lastError` says why).
    public var reason: OutboxReason?
    /// Seconds since 1970.
    public var createdAt: Double
    /// The backend base URL the row was queued for; nil for rows queued before Faro recorded it (they go to the
    /// backend configured when they are delivered).
    public var backend: String?
    /// Who or what the row is about, to tell rows apart in the panel: the business of a registration, the site's
    /// title of a contact request or a rating.
    public var subject: String?

    public init(
        id: String, table: OutboxTable, state: OutboxRowState, attempts: Int, lastError: String?,
        createdAt: Double, backend: String?, subject: String? = nil, reason: OutboxReason? = nil
    ) {
        self.subject = subject
        self.reason = reason
        self.id = id
        self.table = table
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.createdAt = createdAt
        self.backend = backend
    }

    /// Whether the row waits for a backend other than `backend` (it is never sent anywhere else by itself).
    public func isQueued(forAnotherThan backend: String?) -> Bool {
        guard let mine = self.backend else { return false }
        return mine != backend
    }
}

/// Why an outbox action could not be done: what went wrong with the database as a value (the window words it),
/// and the store's English detail for logs and the terminal.
public struct OutboxQueueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure it was: the store's problem.
    public typealias Kind = StorageProblem

    public var kind: Kind
    /// In English; never shown in the window.
    public var description: String

    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.description = detail
    }
}

/// What the user can do with the outbox's undelivered rows (FaroStore's `OutboxRepository` is the real one). Only
/// these actions ever remove a row: nothing is dropped unless the user says so.
public protocol OutboxQueue {
    /// Pending and failed rows, oldest first.
    func undelivered() throws(OutboxQueueError) -> [OutboxEntry]
    /// Queues a pending or failed row again, due at `now`, its attempts counted from zero. False: no such row.
    func retry(id: String, now: Double) throws(OutboxQueueError) -> Bool
    /// `retry` for every pending and failed row; returns how many.
    func retryAll(now: Double) throws(OutboxQueueError) -> Int
    /// Deletes a pending or failed row. False: no such row (delivered rows are history and stay).
    func discard(id: String) throws(OutboxQueueError) -> Bool
    /// Deletes every pending and failed row; returns how many.
    func discardAll() throws(OutboxQueueError) -> Int
    /// Queues a row again for `backend` (a row that waited for another backend). False: no such row.
    func move(id: String, to backend: String, now: Double) throws(OutboxQueueError) -> Bool
    /// `move` for every undelivered row queued for a backend other than `backend`; returns how many.
    func moveAll(to backend: String, now: Double) throws(OutboxQueueError) -> Int
}
