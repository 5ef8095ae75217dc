import FoundationEssentials

/// Where the outbox and the catalog sync read the time: seconds since 1970 (UTC). Injected so that backoff,
/// periods and `fechahora` are testable.
public protocol OutboxClock: Sendable {
    func now() -> Double
    /// Calls `observer` whenever the time jumps (a test clock stepped forward), so that a thread sleeping until a
    /// clock time looks again. A real clock never jumps: the default does nothing.
    func whenAdvanced(_ observer: @escaping @Sendable () -> Void)
}

extension OutboxClock {
    public func whenAdvanced(_ observer: @escaping @Sendable () -> Void) {}
}

/// The real wall clock.
public struct SystemOutboxClock: OutboxClock {
    public init() {}
    public func now() -> Double { Date().timeIntervalSince1970 }
}

/// A source of uniformly distributed numbers in [0, 1): injected so backoff jitter and row ids are reproducible.
public protocol UnitRandomSource {
    mutating func nextUnit() -> Double
    mutating func nextUInt64() -> UInt64
}

extension UnitRandomSource {
    public mutating func nextUnit() -> Double { Double(nextUInt64() >> 11) / Double(UInt64(1) << 53) }
}

/// The system's cryptographically secure generator (what production uses).
public struct SystemUnitRandom: UnitRandomSource {
    private var generator = SystemRandomNumberGenerator()
    public init() {}
    public mutating func nextUInt64() -> UInt64 { generator.next() }
}

/// A deterministic generator (SplitMix64) for tests and reproducible fault injection.
public struct SeededUnitRandom: UnitRandomSource, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func nextUInt64() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
