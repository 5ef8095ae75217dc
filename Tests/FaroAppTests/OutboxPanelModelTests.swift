import FaroApp
import FaroCore
import Testing

/// The outbox in memory, with the same rules as the stored one (FaroStore's `StoredOutboxQueue` is tested there).
final class MemoryOutboxQueue: OutboxQueue {
    var entries: [OutboxEntry]
    var failing = false

    init(_ entries: [OutboxEntry]) { self.entries = entries }

    private func check() throws(OutboxQueueError) {
        if failing { throw OutboxQueueError(.readOnly, detail: "Faro's database is read-only") }
    }

    func undelivered() throws(OutboxQueueError) -> [OutboxEntry] {
        try check()
        return entries.filter { $0.state != .delivered }
    }

    func retry(id: String, now: Double) throws(OutboxQueueError) -> Bool {
        try check()
        guard let i = entries.firstIndex(where: { $0.id == id && $0.state != .delivered }) else { return false }
        entries[i].state = .pending
        entries[i].attempts = 0
        return true
    }

    func retryAll(now: Double) throws(OutboxQueueError) -> Int {
        var n = 0
        for e in entries where try retry(id: e.id, now: now) { n += 1 }
        return n
    }

    func discard(id: String) throws(OutboxQueueError) -> Bool {
        try check()
        let before = entries.count
        entries.removeAll { $0.id == id && $0.state != .delivered }
        return entries.count < before
    }

    func discardAll() throws(OutboxQueueError) -> Int {
        try check()
        let before = entries.count
        entries.removeAll { $0.state != .delivered }
        return before - entries.count
    }

    func move(id: String, to backend: String, now: Double) throws(OutboxQueueError) -> Bool {
        try check()
        guard let i = entries.firstIndex(where: { $0.id == id && $0.state != .delivered }) else { return false }
        entries[i].backend = backend
        entries[i].state = .pending
        return true
    }

    func moveAll(to backend: String, now: Double) throws(OutboxQueueError) -> Int {
        var n = 0
        for e in entries where e.backend != nil && e.backend != backend && e.state != .delivered {
            if try move(id: e.id, to: backend, now: now) { n += 1 }
        }
        return n
    }
}

@Suite struct OutboxPanelModelTests {
    func entry(_ id: String, _ state: OutboxRowState, backend: String?, reason: OutboxReason? = nil) -> OutboxEntry {
        OutboxEntry(
            id: id, table: .rateme, state: state, attempts: 3, lastError: reason?.english, createdAt: 10,
            backend: backend, reason: reason)
    }

    func model() -> (OutboxPanelModel, MemoryOutboxQueue) {
        let queue = MemoryOutboxQueue([
            entry("p", .pending, backend: "https://here", reason: .serverTrouble(status: 503, message: "")),
            entry("f", .failed, backend: nil, reason: .refused(status: 400, message: "bad")),
            entry("o", .pending, backend: "https://before"),
            entry("d", .delivered, backend: "https://here"),
        ])
        return (OutboxPanelModel(queue: queue, currentBackend: "https://here", now: { 99 }), queue)
    }

    @Test func rowsSayWhereTheyStandAndWhy() {
        let (panel, _) = model()
        #expect(panel.rows.map(\.id) == ["p", "f", "o"])
        #expect(
            panel.rows.map(\.status) == [.pending(attempts: 3), .failed, .queuedForAnotherBackend("https://before")])
        #expect(
            panel.rows.map(\.reason) == [
                .serverTrouble(status: 503, message: ""), .refused(status: 400, message: "bad"), nil,
            ])
        #expect(panel.rows.map(\.canRetry) == [true, true, false])
        #expect(panel.rows.map(\.canMove) == [false, false, true])
        #expect(panel.summary == OutboxPanelSummary(pending: 1, failed: 1, queuedElsewhere: 1))
    }

    @Test func retryDiscardAndMoveActOnTheQueueAndTellTheApp() {
        let (panel, queue) = model()
        var changes = 0
        panel.onChange = { changes += 1 }
        panel.retry("f")
        #expect(panel.rows.first { $0.id == "f" }?.status == .pending(attempts: 0))
        panel.moveHere("o")
        #expect(queue.entries.first { $0.id == "o" }?.backend == "https://here")
        #expect(panel.summary.queuedElsewhere == 0)
        panel.discard("p")
        #expect(panel.rows.map(\.id) == ["f", "o"])
        panel.discardAll()
        #expect(panel.rows.isEmpty && panel.summary.isEmpty)
        #expect(queue.entries.map(\.id) == ["d"])  // delivered rows are history, never discarded
        #expect(changes == 4)
    }

    @Test func retryAllLeavesRowsOfAnotherBackendToTheUser() {
        let (panel, queue) = model()
        panel.retryAll()
        #expect(queue.entries.first { $0.id == "o" }?.attempts == 3)
        #expect(queue.entries.first { $0.id == "f" }?.state == .pending)
        panel.moveAllHere()
        #expect(panel.summary == OutboxPanelSummary(pending: 3, failed: 0, queuedElsewhere: 0))
    }

    @Test func aQueueThatFailsIsReportedAndNothingIsLost() {
        let (panel, queue) = model()
        queue.failing = true
        panel.discardAll()
        #expect(panel.problem == .readOnly)
        #expect(panel.rows.count == 3)  // what was shown stays shown
        queue.failing = false
        panel.refresh()
        #expect(panel.problem == nil && queue.entries.count == 4)
    }
}
