/// UUID text as catalog rows carry it (`fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1`, any case, dashes optional), read and
/// written straight from and to UTF-8 bytes: a pull of 10,000 rows does both 10,000 times, and the general
/// `BeaconUUID(String)` / `description` (built on `String` slicing) were a fifth of its CPU time.
public enum CatalogUUIDText {
    /// The UUID in `text`, or nil (same rules as `BeaconUUID(_:)`: 32 hex digits, dashes anywhere ignored).
    public static func parse(_ text: String) -> BeaconUUID? {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") { continue }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            guard digits < 32 else { return nil }
            if digits < 16 {
                high = high << 4 | UInt64(value)
            } else {
                low = low << 4 | UInt64(value)
            }
            digits += 1
        }
        return digits == 32 ? BeaconUUID(high: high, low: low) : nil
    }

    /// Lower-case, dashed 8-4-4-4-12 text (what `BeaconUUID.description` gives).
    public static func format(_ uuid: BeaconUUID) -> String {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for i in 0..<32 {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append(UInt8(ascii: "-")) }
            let word = i < 16 ? uuid.high : uuid.low
            let shift = UInt64(60 - 4 * (i % 16))
            out.append(hex[Int((word >> shift) & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
