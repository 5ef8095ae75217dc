import Testing

@testable import FaroCore

/// The quiet-scanner watchdog's rules on a clock the test passes in (docs/monitoring.md).
@Suite("Scan watchdog")
struct ScanWatchdogTests {
    /// Readings every `gap` seconds from `start` to `end` (inclusive).
    func hear(_ watchdog: inout ScanWatchdog, from start: Double, to end: Double, every gap: Double = 1) {
        var time = start
        while time <= end {
            watchdog.heard(at: time)
            time += gap
        }
    }

    /// The actions asked for from `start` to `end`, checking once a second, with their times.
    func actions(
        _ watchdog: inout ScanWatchdog, from start: Double, to end: Double, canPowerCycle: Bool = false
    ) -> [(Double, ScanWatchdogAction)] {
        var out: [(Double, ScanWatchdogAction)] = []
        var time = start
        while time <= end {
            if let action = watchdog.check(at: time, canPowerCycle: canPowerCycle) { out.append((time, action)) }
            time += 1
        }
        return out
    }

    @Test func anEmptyRoomIsNotAFault() {
        var watchdog = ScanWatchdog()
        #expect(actions(&watchdog, from: 0, to: 3600).isEmpty)
        watchdog.heard(at: 10)  // one passer-by is not traffic
        #expect(actions(&watchdog, from: 11, to: 3600).isEmpty)
        #expect(watchdog.silence(at: 3600) == nil)
    }

    @Test func aMinuteOfSilenceAfterTrafficRestartsDiscoveryThenBacksOff() {
        var watchdog = ScanWatchdog()
        hear(&watchdog, from: 0, to: 60)
        let taken = actions(&watchdog, from: 61, to: 60 + 60 + 120 + 240 + 480 + 5)
        // 60 s after the last reading, then each wait twice the one before.
        #expect(taken.map(\.0) == [120, 240, 480, 960])
        #expect(taken.allSatisfy { $0.1 == .restartDiscovery })
        #expect(watchdog.silence(at: 240) == 180)
    }

    @Test func thePowerCycleComesAfterTheRestartsOnlyWhenAllowed() {
        var allowed = ScanWatchdog(configuration: ScanWatchdogConfiguration(restartsBeforePowerCycle: 2))
        hear(&allowed, from: 0, to: 60)
        let withPower = actions(&allowed, from: 61, to: 4000, canPowerCycle: true).map(\.1)
        #expect(
            Array(withPower.prefix(6)) == [
                .restartDiscovery, .restartDiscovery, .powerCycle, .restartDiscovery, .restartDiscovery, .powerCycle,
            ])
        var refused = ScanWatchdog(configuration: ScanWatchdogConfiguration(restartsBeforePowerCycle: 2))
        hear(&refused, from: 0, to: 60)
        #expect(actions(&refused, from: 61, to: 4000).allSatisfy { $0.1 == .restartDiscovery })
    }

    @Test func theWaitStopsDoublingAtItsLongest() {
        var watchdog = ScanWatchdog(configuration: ScanWatchdogConfiguration(maximumWait: 300))
        hear(&watchdog, from: 0, to: 60)
        let times = actions(&watchdog, from: 61, to: 2000).map(\.0)
        let waits = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(Array(waits.prefix(3)) == [120, 240, 300])
        #expect(waits.dropFirst(2).allSatisfy { $0 == 300 })
    }

    @Test func sparseTrafficWaitsLonger() {
        var watchdog = ScanWatchdog()
        hear(&watchdog, from: 0, to: 60, every: 20)  // four readings, 20 s apart
        // Ten average gaps: 200 s of silence before acting.
        #expect(actions(&watchdog, from: 61, to: 400).first?.0 == 260)
    }

    @Test func aReadingEndsTheFault() {
        var watchdog = ScanWatchdog()
        hear(&watchdog, from: 0, to: 60)
        #expect(actions(&watchdog, from: 61, to: 130).count == 1)
        #expect(watchdog.silence(at: 130) == 70)
        watchdog.heard(at: 131)
        #expect(watchdog.silence(at: 131) == nil)
        #expect(watchdog.actions == 0)
        // One reading after a long silence is not traffic yet; a few are, and a new silence is a fault again, from
        // the first wait.
        #expect(actions(&watchdog, from: 132, to: 300).isEmpty)
        hear(&watchdog, from: 301, to: 310)
        #expect(actions(&watchdog, from: 311, to: 400).map(\.0) == [370])
    }

    @Test func aClockSetBackForgetsTheTrafficAndAResetForgetsEverything() {
        var watchdog = ScanWatchdog()
        hear(&watchdog, from: 1000, to: 1060)
        watchdog.heard(at: 5)  // earlier than what was heard: the traffic before it is not judged
        #expect(actions(&watchdog, from: 6, to: 500).isEmpty)
        hear(&watchdog, from: 0, to: 60)
        watchdog.reset()
        #expect(actions(&watchdog, from: 61, to: 500).isEmpty)
        #expect(watchdog.lastHeard == nil)
    }
}
