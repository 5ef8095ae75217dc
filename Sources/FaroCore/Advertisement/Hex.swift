/// Hexadecimal text to bytes and back, for the command line, replay files and tests.
public enum Hex {
    /// Why a hex string was refused.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case oddLength(Int)
        case invalidCharacter(Character, position: Int)

        public var description: String {
            switch self {
            case .oddLength(let n): return "hex text has an odd number of digits (\(n))"
            case .invalidCharacter(let c, let p): return "'\(c)' at position \(p + 1) is not a hex digit"
            }
        }
    }

    /// Decodes hex digits; spaces, colons and an optional `0x` prefix are ignored (`4c 00 02 15`, `4C:00`).
    public static func decode(_ text: String) throws(Hex.Error) -> [UInt8] {
        if let bytes = plainDigits(text.utf8) { return bytes }
        var digits: [UInt8] = []
        digits.reserveCapacity(text.utf8.count)
        var body = Substring(text)
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        for (position, scalar) in body.unicodeScalars.enumerated() {
            switch scalar {
            case " ", ":", "\t", "\n", "\r": continue
            default:
                guard let v = nibble(scalar) else { throw .invalidCharacter(Character(scalar), position: position) }
                digits.append(v)
            }
        }
        guard digits.count % 2 == 0 else { throw .oddLength(digits.count) }
        var bytes = [UInt8](repeating: 0, count: digits.count / 2)
        for i in bytes.indices { bytes[i] = digits[2 * i] << 4 | digits[2 * i + 1] }
        return bytes
    }

    /// An even number of ASCII hex digits and nothing else (what replay files hold), read from the bytes; nil for
    /// any other text, which `decode` reads scalar by scalar (separators, a prefix, the position of a bad digit).
    static func plainDigits(_ utf8: some Collection<UInt8>) -> [UInt8]? {
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var high: UInt8?
        for byte in utf8 {
            guard let nibble = nibble(Unicode.Scalar(byte)) else { return nil }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    /// Lower-case hex digits, two per byte, no separators.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let table = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(table[Int(b >> 4)])
            out.append(table[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of one ASCII hex digit, or nil.
    @inlinable
    public static func nibble(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x30...0x39: return UInt8(scalar.value - 0x30)
        case 0x61...0x66: return UInt8(scalar.value - 0x61 + 10)
        case 0x41...0x46: return UInt8(scalar.value - 0x41 + 10)
        default: return nil
        }
    }
}
