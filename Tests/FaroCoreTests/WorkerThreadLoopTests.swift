import FaroCore
import FoundationEssentials
import Testing

/// The worker loop shared by the catalog service and the outbox deliverer (`WorkerThread`): passes, sleeps until
/// due on an injected clock, wake-ups, clock jumps and stop. Waits are for states, bounded by generous real-time
/// limits; no assertion is about time taken.
@Suite struct WorkerThreadLoopTests {
    /// A loop that records the clock's time at each pass and sleeps until `period` after it (nil: until woken).
    final class Loop: @unchecked Sendable {
        let lock = ConditionLock()
        let clock = ManualClock(now: 1000)
        let worker: WorkerThread
        let period: Double?
        var passes: [Double] = []

        init(period: Double?) {
            self.period = period
            worker = WorkerThread(name: "faro-test-loop", condition: lock, clock: clock)
        }

        func start() {
            worker.start(run: { [self] in
                while worker.beginPass() {
                    let now = clock.now()
                    lock.withLock { passes.append(now) }
                    worker.sleep(until: period.map { now + $0 })
                }
            })
        }

        /// Waits until the thread sleeps with nothing to do; returns the passes so far (nil on the time limit).
        func settled() -> [Double]? {
            let deadline = Date().addingTimeInterval(20)
            lock.lock()
            defer { lock.unlock() }
            while !worker.isIdle { if !lock.wait(until: deadline) { return nil } }
            return passes
        }
    }

    @Test func sleepsUntilTheNextPassIsDueOnTheInjectedClock() {
        let loop = Loop(period: 60)
        loop.start()
        defer { loop.worker.stop(timeout: 10) }
        #expect(loop.settled() == [1000])
        loop.clock.advance(by: 59)  // not due yet: the thread looks at the time and sleeps on
        #expect(loop.settled() == [1000])
        loop.clock.advance(by: 1)
        #expect(loop.settled() == [1000, 1060])
        loop.clock.advance(by: 600)  // one pass for a long jump, then the next due from then
        #expect(loop.settled() == [1000, 1060, 1660])
    }

    @Test func aWakeMakesAPassAtOnceAndASignalDuringAPassIsNotLost() {
        let loop = Loop(period: nil)
        loop.start()
        defer { loop.worker.stop(timeout: 10) }
        #expect(loop.settled() == [1000])
        loop.clock.advance(by: 5)  // with nothing due, a jump makes no pass
        #expect(loop.settled() == [1000])
        loop.worker.wake()
        #expect(loop.settled() == [1000, 1005])
        // Signalled between a pass's start and its sleep: the sleep ends at once and another pass follows.
        let lock = ConditionLock()
        let clock = ManualClock(now: 0)
        let worker = WorkerThread(name: "faro-test-race", condition: lock, clock: clock)
        nonisolated(unsafe) var passes = 0
        worker.start(run: {
            while worker.beginPass() {
                let first = lock.withLock { () -> Bool in
                    passes += 1
                    return passes == 1
                }
                if first { worker.wake() }
                worker.sleep(until: nil)
            }
        })
        defer { worker.stop(timeout: 10) }
        let deadline = Date().addingTimeInterval(20)
        lock.lock()
        while !(worker.isIdle && passes >= 2), lock.wait(until: deadline) {}
        #expect(passes == 2)
        lock.unlock()
    }

    @Test func stopEndsASleepingLoop() {
        let loop = Loop(period: 3600)
        loop.start()
        #expect(loop.settled() == [1000])
        loop.worker.stop(timeout: 10)
        loop.lock.withLock {
            #expect(loop.worker.hasFinished)
            #expect(loop.worker.isIdle)
        }
        loop.clock.advance(by: 7200)  // a stopped loop makes no more passes
        #expect(loop.settled() == [1000])
        // It starts again, and sleeps on the same clock.
        loop.start()
        defer { loop.worker.stop(timeout: 10) }
        let deadline = Date().addingTimeInterval(20)
        loop.lock.lock()
        while !(loop.worker.isIdle && loop.passes.count == 2), loop.lock.wait(until: deadline) {}
        #expect(loop.passes == [1000, 8200])
        loop.lock.unlock()
    }
}
