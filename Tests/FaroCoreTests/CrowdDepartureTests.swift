import FaroCore
import Testing

/// When the beacon session hands free memory back: when a crowd has left, never for a steady list.
@Suite("Crowd departure")
struct CrowdDepartureTests {
    func fired(_ counts: [Int], minimumDrop: Int = 64) -> [Int] {
        var departure = CrowdDeparture(minimumDrop: minimumDrop)
        return counts.enumerated().compactMap { departure.observe(listed: $0.element) ? $0.offset : nil }
    }

    @Test func aCrowdThatLeavesIsSeenOnceWhenTheListIsBackToHalfOrLess() {
        // 40 around, a crowd brings it to 160 and leaves: seen at 80 (down 80, half of 160), not again at 40.
        #expect(fired([40, 100, 160, 120, 90, 80, 60, 40, 40]) == [5])
        // A second crowd later is seen again: at 120 (down 180), and once more when 80 more have gone.
        #expect(fired([40, 160, 40, 40, 300, 200, 120, 40, 40]) == [2, 6, 7])
    }

    @Test func aSteadyOrSmallListIsNeverSeenAsACrowdLeaving() {
        #expect(fired(Array(repeating: 40, count: 100)).isEmpty)
        // Down by 60 (under 64), or by 70 but not to half.
        #expect(fired([10, 70, 10, 10]).isEmpty)
        #expect(fired([200, 130]).isEmpty)
        #expect(fired([0, 0, 0]).isEmpty)
    }
}
