/// The last distances of one beacon (one per tick, oldest first; NaN where unknown), for the sparkline.
///
/// A fixed-capacity ring: appending overwrites the oldest value in place, and copies share storage until one of
/// them changes, so a snapshot costs no allocation per beacon.
public struct DistanceHistory: RandomAccessCollection, Equatable, Sendable {
    @usableFromInline var storage: [Float] = []
    @usableFromInline var start = 0
    public let capacity: Int

    public init(capacity: Int) { self.capacity = Swift.max(0, capacity) }

    /// A history holding `values` (the last `capacity` of them), for tests and previews.
    public init(_ values: [Float], capacity: Int? = nil) {
        self.init(capacity: capacity ?? values.count)
        for v in values { append(v) }
    }

    @inlinable
    public mutating func append(_ value: Float) {
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(value)
        } else {
            storage[start] = value
            start = (start + 1) % capacity
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }

    public subscript(position: Int) -> Float {
        let i = start + position
        return storage[i < storage.count ? i : i - storage.count]
    }

    /// The values oldest first, as an array: two block copies of the ring's halves (what a list row keeps; going
    /// through the collection's indices copied one value at a time).
    public var values: [Float] {
        var out: [Float] = []
        out.reserveCapacity(storage.count)
        out.append(contentsOf: storage[start...])
        out.append(contentsOf: storage[..<start])
        return out
    }

    public static func == (a: DistanceHistory, b: DistanceHistory) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in x == y || (x.isNaN && y.isNaN) }
    }
}
