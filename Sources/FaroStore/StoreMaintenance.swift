/// Keeps the store bounded while Faro runs for weeks (docs/storage.md): visits older than their retention and
/// delivered outbox rows older than `deliveredRetentionDays` are deleted, and the WAL is copied back into the
/// database file.
public enum StoreMaintenance {
    /// Days a delivered outbox row is kept as history.
    public static let deliveredRetentionDays = 30

    /// What one run did.
    public struct Report: Equatable, Sendable {
        public var visitsDeleted: Int
        public var deliveredDeleted: Int
        public var checkpoint: FaroDatabase.Checkpoint
    }

    /// Deletes what is past its time at `now` (seconds since 1970) and checkpoints.
    @discardableResult
    public static func run(on database: FaroDatabase, now: Double, visitsRetentionDays: Int) throws(StoreError)
        -> Report
    {
        let day = 86_400.0
        let (visits, delivered) = try database.connection.transaction { () throws(StoreError) -> (Int, Int) in
            let visits = try database.visits.deleteEntered(before: now - Double(max(1, visitsRetentionDays)) * day)
            let delivered = try database.outbox.deleteDelivered(
                before: now - Double(deliveredRetentionDays) * day)
            return (visits, delivered)
        }
        return Report(visitsDeleted: visits, deliveredDeleted: delivered, checkpoint: try database.checkpoint())
    }
}
