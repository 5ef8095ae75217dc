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

extension RandomNumberGenerator {
    /// A uniformly distributed number in [0, 1): backoff jitter and fault injection draw from an injected generator,
    /// so they are reproducible with `SplitMix64`.
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}
