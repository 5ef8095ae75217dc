/// Brings the rows near the viewport up to date a slice at a time, so that no single main-loop callback does all
/// of them: the rows on screen first, all in the first slice (a frame never shows the screen half updated), then
/// the rows around them, nearest to the screen first, as many per slice as fit in a time budget. The time comes
/// from the caller's clock, so the slicing is tested without a display.
public struct RowRefreshQueue<Item> {
    private var items: [Item]
    private var next = 0
    /// Items at the front that the first slice does whatever the budget.
    private var mandatory: Int

    /// A queue of the `visible` items (in order) and then the `around` ones (in order).
    public init(visible: [Item], around: [Item]) {
        items = visible + around
        mandatory = visible.count
    }

    /// Nothing is queued.
    public init() {
        items = []
        mandatory = 0
    }

    public var isEmpty: Bool { next >= items.count }

    /// The items not refreshed yet, in the order they will be.
    public var remaining: ArraySlice<Item> { items[next...] }

    /// Runs `refresh` on queued items until the budget (in `now`'s units) is spent: first every item still owed
    /// to the first slice, then at least one more, then more while time is left. `refresh` returns whether it did
    /// any work; an item that needed none does not count towards the one item a slice must do. Returns whether
    /// items remain.
    @discardableResult
    public mutating func runSlice(budget: Double, now: () -> Double, refresh: (Item) -> Bool) -> Bool {
        let start = now()
        var worked = false
        while next < items.count {
            if next >= mandatory, worked, now() - start >= budget { break }
            let item = items[next]
            next += 1
            if refresh(item) { worked = true }
        }
        mandatory = 0
        return !isEmpty
    }

    /// The order of the rows `window` to refresh, by index: those in `visible` top to bottom, then the others
    /// nearest to the screen first, alternating below and above it.
    public static func order(visible: Range<Int>, window: Range<Int>) -> (visible: [Int], around: [Int]) {
        let shown = visible.clamped(to: window)
        var around: [Int] = []
        around.reserveCapacity(window.count - shown.count)
        var below = shown.isEmpty ? window.lowerBound : shown.upperBound
        var above = (shown.isEmpty ? window.lowerBound : shown.lowerBound) - 1
        while below < window.upperBound || above >= window.lowerBound {
            if below < window.upperBound {
                around.append(below)
                below += 1
            }
            if above >= window.lowerBound {
                around.append(above)
                above -= 1
            }
        }
        return (Array(shown), around)
    }
}
extension RowRefreshQueue: Sendable where Item: Sendable {}
