/// A 48-bit Bluetooth device address, printed most significant byte first (`C0:FF:EE:00:00:01`).
public struct BluetoothAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address as a number; the top 16 bits are always zero.
    public var value: UInt64

    public init(value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// Parses `AA:BB:CC:DD:EE:FF` (any case; `-` also accepted as separator).
    public init?(_ text: String) {
        if let value = Self.canonicalValue(text.utf8) {
            self.init(value: value)
            return
        }
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var v: UInt64 = 0
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            v = v << 8 | UInt64(byte)
        }
        self.init(value: v)
    }

    /// `C0:FF:EE:00:00:01` (or with dashes) read from its bytes, without splitting a String; nil for any other form.
    private static func canonicalValue(_ utf8: String.UTF8View) -> UInt64? {
        guard utf8.count == 17 else { return nil }
        var digits: [UInt8] = []
        digits.reserveCapacity(12)
        for (i, byte) in utf8.enumerated() {
            if i % 3 != 2 {
                digits.append(byte)
            } else if byte != UInt8(ascii: ":") && byte != UInt8(ascii: "-") {
                return nil
            }
        }
        return Hex.plainDigits(digits)?.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Reads the 6 little-endian bytes an HCI event carries (least significant byte first on the wire).
    @usableFromInline init(littleEndian bytes: UnsafeRawBufferPointer, at offset: Int) {
        var v: UInt64 = 0
        for i in (0..<6).reversed() { v = v << 8 | UInt64(bytes[offset + i]) }
        self.init(value: v)
    }

    public var description: String {
        (0..<6).map { i -> String in
            let byte = UInt8(truncatingIfNeeded: value >> (40 - 8 * i))
            return Hex.encode([byte]).uppercased()
        }.joined(separator: ":")
    }
}
