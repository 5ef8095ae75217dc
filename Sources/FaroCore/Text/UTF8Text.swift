/// Strings from bytes that must be UTF-8, checked strictly (RFC 3629: no overlong forms, no surrogates, nothing
/// above U+10FFFF) without going through the standard library's generic `String(validating:as:)`, which is not
/// specialised in a static build and asks the runtime for generic metadata on every call. A catalog page is
/// thousands of short strings, so this is on the sync's path.
public enum UTF8Text {
    /// Whether `bytes` are well-formed UTF-8.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The second byte's allowed range depends on the lead (RFC 3629 §4); later ones are 0x80...0xBF.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard i + length <= n else { return false }
            let second = bytes[i + 1]
            guard second >= low, second <= high else { return false }
            var k = 2
            while k < length {
                guard bytes[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += length
        }
        return true
    }

    /// The text of `bytes`, or nil when they are not well-formed UTF-8.
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard isValid(bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same, for an array.
    public static func string(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { string($0) }
    }
}
