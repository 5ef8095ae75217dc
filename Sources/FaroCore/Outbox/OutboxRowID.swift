/// The client-generated id of an outbox row: a random (version 4) UUID in lower case, generated once when the row
/// is committed and sent unchanged on every attempt, so that a retry of a row the server already holds gets 409
/// instead of creating a duplicate.
public enum OutboxRowID {
    /// A new id from `random` (the system's secure generator in production).
    public static func make(using random: inout some RandomNumberGenerator) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            var word = random.next()
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        let hex = bytes.map { byte -> String in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
        let groups = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]]
        return groups.map { $0.joined() }.joined(separator: "-")
    }

    /// A new id from the system's secure generator.
    public static func make() -> String {
        var random = SystemRandomNumberGenerator()
        return make(using: &random)
    }

    /// Whether `text` is an id this policy could have produced (36 characters, lower-case hex, version 4).
    public static func isValid(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        guard chars.count == 36 else { return false }
        for (i, c) in chars.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                if c != UInt8(ascii: "-") { return false }
            } else if !((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66)) {
                return false
            }
        }
        return chars[14] == UInt8(ascii: "4")
    }
}
