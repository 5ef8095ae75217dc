import Testing

@testable import FaroCore

/// The outbox's clock on a wall clock and a monotonic clock the test moves (docs/outbox.md).
@Suite("Steady outbox clock")
struct SteadyOutboxClockTests {
    final class Clocks: @unchecked Sendable {
        var wall = 1_800_000_000.0
        var monotonic = 500.0
        func advance(_ seconds: Double) {
            wall += seconds
            monotonic += seconds
        }
    }

    @Test func followsTheWallClockAndItsStepsForward() {
        let clocks = Clocks()
        let clock = SteadyOutboxClock(wall: { clocks.wall }, monotonic: { clocks.monotonic })
        #expect(clock.now() == 1_800_000_000)
        clocks.advance(10)
        #expect(clock.now() == 1_800_000_010)
        // Asleep for eight hours: the wall clock jumps, the monotonic clock stood still.
        clocks.wall += 8 * 3600
        #expect(clock.now() == 1_800_000_010 + 8 * 3600)
    }

    @Test func aStepBackIsNotFollowedUntilTheWallClockMovesPastIt() {
        let clocks = Clocks()
        let clock = SteadyOutboxClock(wall: { clocks.wall }, monotonic: { clocks.monotonic })
        let start = clock.now()
        clocks.wall -= 7200
        #expect(clock.now() == start)
        clocks.advance(5)
        #expect(clock.now() == start + 5, "goes on at the monotonic pace")
        clocks.advance(3600)
        #expect(clock.now() == start + 3605)
        // A step forward past it (a resume, a correction): the wall clock leads again.
        clocks.wall += 8 * 3600
        #expect(clock.now() == clocks.wall)
        clocks.advance(1)
        #expect(clock.now() == clocks.wall)
    }

    @Test func theSystemClocksMove() {
        let clock = SteadyOutboxClock()
        let first = clock.now()
        #expect(first > 1_600_000_000)
        #expect(clock.now() >= first)
    }
}
