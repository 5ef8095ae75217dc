/// Quoted-printable (RFC 2045 §6.7) as MHT archives use it for HTML and CSS parts.
public enum QuotedPrintable {
    /// Encodes `bytes` with CRLF line ends and soft line breaks so no line exceeds 76 characters. Line breaks of the
    /// input (CRLF, LF or CR) become hard CRLF breaks; `=`, control bytes, bytes ≥ 0x80 and a space or tab before a
    /// line end are escaped as `=XX`.
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var lineLength = 0
        var i = 0
        let crlf: [UInt8] = [13, 10]
        func put(_ chunk: [UInt8]) {
            // Keep room for the soft break's `=` within the 76-character limit.
            if lineLength + chunk.count > 75 {
                out.append(UInt8(ascii: "="))
                out += crlf
                lineLength = 0
            }
            out += chunk
            lineLength += chunk.count
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 13 || b == 10 {
                out += crlf
                lineLength = 0
                i += (b == 13 && i + 1 < bytes.count && bytes[i + 1] == 10) ? 2 : 1
                continue
            }
            let atLineEnd = i + 1 == bytes.count || bytes[i + 1] == 13 || bytes[i + 1] == 10
            let literal = (b >= 33 && b <= 126 && b != UInt8(ascii: "=")) || ((b == 32 || b == 9) && !atLineEnd)
            if literal {
                put([b])
            } else {
                put([UInt8(ascii: "="), hex(b >> 4), hex(b & 0x0F)])
            }
            i += 1
        }
        return out
    }

    /// Decodes quoted-printable leniently, as mail readers do: soft breaks (`=` before CRLF or LF) vanish, `=XX`
    /// (either case) becomes its byte, a malformed `=` is kept literally, trailing spaces before a line end go.
    public static func decode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        var pendingSpaces: [UInt8] = []
        while i < bytes.count {
            let b = bytes[i]
            if b == 32 || b == 9 {
                pendingSpaces.append(b)
                i += 1
                continue
            }
            if b == 13 || b == 10 {
                pendingSpaces.removeAll()  // transport padding before a hard break is dropped
                out.append(b)
                i += 1
                continue
            }
            out += pendingSpaces
            pendingSpaces.removeAll()
            if b == UInt8(ascii: "=") {
                // Soft line break: `=` followed by optional whitespace and a line end.
                var j = i + 1
                while j < bytes.count, bytes[j] == 32 || bytes[j] == 9 { j += 1 }
                if j < bytes.count, bytes[j] == 13 || bytes[j] == 10 {
                    i = j + ((bytes[j] == 13 && j + 1 < bytes.count && bytes[j + 1] == 10) ? 2 : 1)
                    continue
                }
                if j == bytes.count {
                    i = j
                    continue
                }
                if i + 2 < bytes.count, let hi = PercentEncoding.hexValue(bytes[i + 1]),
                    let lo = PercentEncoding.hexValue(bytes[i + 2])
                {
                    out.append(hi << 4 | lo)
                    i += 3
                    continue
                }
            }
            out.append(b)
            i += 1
        }
        out += pendingSpaces
        return out
    }

    static func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? nibble + 48 : nibble + 55 }
}

/// Base64 (RFC 2045 §6.8) for binary MHT parts.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes `bytes` in lines of 76 characters ending in CRLF, as Chromium writes binary parts.
    public static func encode(_ bytes: [UInt8], lineLength: Int = 76) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 4 / 3 + bytes.count / 38 + 4)
        var column = 0
        var i = 0
        func emit(_ c: UInt8) {
            out.append(c)
            column += 1
            if column == lineLength {
                out += [13, 10]
                column = 0
            }
        }
        while i < bytes.count {
            let b0 = bytes[i]
            let b1 = i + 1 < bytes.count ? bytes[i + 1] : 0
            let b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            emit(alphabet[Int(b0 >> 2)])
            emit(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            emit(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            emit(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            i += 3
        }
        if column != 0 { out += [13, 10] }
        return out
    }

    /// Decodes base64, skipping whitespace and line breaks; missing padding is tolerated. Returns nil when a
    /// character outside the alphabet appears or data follows the padding.
    public static func decode(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 4)
        var quad: UInt32 = 0
        var count = 0
        var padded = false
        for c in bytes {
            let value: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(c) - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(c) - 71
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(c) + 4
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="):
                padded = true
                continue
            case 32, 9, 10, 13, 12, 11: continue
            default: return nil
            }
            if padded { return nil }
            quad = quad << 6 | value
            count += 1
            if count == 4 {
                out += [
                    UInt8(truncatingIfNeeded: quad >> 16), UInt8(truncatingIfNeeded: quad >> 8),
                    UInt8(truncatingIfNeeded: quad),
                ]
                quad = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2: out.append(UInt8(truncatingIfNeeded: quad >> 4))
        case 3: out += [UInt8(truncatingIfNeeded: quad >> 10), UInt8(truncatingIfNeeded: quad >> 2)]
        default: return nil
        }
        return out
    }
}
