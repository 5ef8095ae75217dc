/// One pass over bytes: whether they are well-formed UTF-8 (RFC 3629), whether any character is beyond ASCII, and
/// how many bytes are not part of a well-formed sequence.
struct UTF8Check {
    var isValid = true
    var hasMultibyte = false
    var invalidBytes = 0

    init(_ bytes: ArraySlice<UInt8>) {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] < 0x80 {
                i += 1
                continue
            }
            let length = Self.sequenceLength(bytes, at: i)
            if length == 0 {
                isValid = false
                invalidBytes += 1
                i += 1
            } else {
                hasMultibyte = true
                i += length
            }
        }
    }

    /// The length of the well-formed UTF-8 sequence at `i` (1 for ASCII), or 0 when there is none.
    static func sequenceLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at i: Bytes.Index) -> Int
    where Bytes.Index == Int {
        let lead = bytes[i]
        if lead < 0x80 { return 1 }
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
        default: return 0
        }
        guard i + length <= bytes.endIndex else { return 0 }
        let second = bytes[i + 1]
        guard second >= low, second <= high else { return 0 }
        var k = 2
        while k < length {
            guard bytes[i + k] & 0xC0 == 0x80 else { return 0 }
            k += 1
        }
        return length
    }
}
