/// The 16-byte proximity UUID of an iBeacon, kept as two big-endian halves so that hashing and comparing are cheap.
public struct BeaconUUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Bytes 0–7 of the UUID, most significant first.
    public var high: UInt64
    /// Bytes 8–15 of the UUID, most significant first.
    public var low: UInt64

    @inlinable
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Reads 16 bytes starting at `offset`; the caller guarantees they are there.
    ///
    /// Two unaligned 8-byte loads (big-endian on the wire) rather than sixteen byte reads: this runs once per
    /// decoded iBeacon and is always inlined into the decoder's hot loop.
    @inlinable @inline(__always)
    init(unchecked bytes: UnsafeRawBufferPointer, at offset: Int) {
        let h = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let l = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
        self.init(high: UInt64(bigEndian: h), low: UInt64(bigEndian: l))
    }

    /// Parses the canonical text form (`e2c56db5-dffb-48d2-b060-d0f5a71096e0`), with or without dashes, any case.
    public init?(_ text: String) {
        let hex = text.filter { $0 != "-" }
        guard hex.count == 32, let bytes = try? Hex.decode(hex) else { return nil }
        self = bytes.withUnsafeBytes { BeaconUUID(unchecked: $0, at: 0) }
    }

    /// The 16 bytes, most significant first.
    public var bytes: [UInt8] {
        (0..<16).map { i in UInt8(truncatingIfNeeded: (i < 8 ? high >> (56 - 8 * i) : low >> (56 - 8 * (i - 8)))) }
    }

    /// Lower-case, dashed 8-4-4-4-12 form, as `faro decode` prints it.
    public var description: String {
        let hex = Hex.encode(bytes)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range -> Substring in
            let start = hex.index(hex.startIndex, offsetBy: range.lowerBound)
            let end = hex.index(hex.startIndex, offsetBy: range.upperBound)
            return hex[start..<end]
        }
        return parts.joined(separator: "-")
    }

    public static func < (a: BeaconUUID, b: BeaconUUID) -> Bool { (a.high, a.low) < (b.high, b.low) }
}
