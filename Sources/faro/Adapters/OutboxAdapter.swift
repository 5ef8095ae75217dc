import FaroApp
import FaroCore
import FaroGLib
import FaroNet
import FaroStore
import FoundationEssentials

/// The outbox in Faro's database behind FaroApp's `OutboxWriter` (rows committed by the forms and `faro register`)
/// and `OutboxMonitor` (the window's line and panel). The window uses it on the main thread only (each write is a
/// short local transaction); delivery runs on the deliverer's own thread with its own connection.
final class OutboxAdapter: OutboxWriter, OutboxMonitor, @unchecked Sendable {
    let database: FaroDatabase
    /// Woken after each commit so it is delivered at once when the backend is reachable.
    var deliverer: OutboxDeliverer? {
        didSet { tellAboutPasses() }
    }
    var onStateChange: (@MainActor () -> Void)? {
        didSet { tellAboutPasses() }
    }
    /// The backend new rows are queued for (docs/outbox.md: each row goes only there); nil until one is configured.
    var backend: String?

    init(database: FaroDatabase) { self.database = database }

    func commit(_ submission: OutboxSubmission, at time: Double, marking mark: SiteMark?) throws(StorageFailure)
        -> String
    {
        let row: OutboxRow
        do {
            row = try database.outbox.submit(submission, now: time, marking: mark, backend: backend)
        } catch {
            throw StorageFailure(error)
        }
        deliverer?.wake()
        return row.id
    }

    var state: OutboxState? {
        guard let status = deliverer?.status, let counts = status.counts else { return nil }
        return OutboxState(
            pending: status.pendingHere ?? counts.pending, failed: counts.failed,
            queuedElsewhere: status.queuedElsewhere, keyRefused: status.keyRefused, unreachable: status.unreachable)
    }

    /// Each pass of the deliverer reaches `onStateChange` on the main thread.
    private func tellAboutPasses() {
        guard let deliverer, let onStateChange else { return }
        deliverer.observe { _ in MainThread.run { onStateChange() } }
    }

    /// "Reintentar ahora": refused rows are queued again too (the user fixed the cause, or wants another try).
    func retryNow() {
        _ = try? database.outbox.retryNow(now: Date().timeIntervalSince1970, includingFailed: true)
        deliverer?.retryNow()
    }

    func panel() -> OutboxPanelModel? {
        let model = OutboxPanelModel(
            queue: StoredOutboxQueue(database.outbox), currentBackend: backend,
            now: { Date().timeIntervalSince1970 })
        model.onChange = { [weak self] in self?.deliverer?.wake() }
        return model
    }
}
