import Testing

@testable import FaroCore

/// Faro's UTF-8 check agrees with the standard library's strict decoder, byte sequence for byte sequence: every
/// one- and two-byte sequence, every lead byte with every second byte (and valid or invalid continuations), and
/// random runs of bytes that lean towards the boundaries.
@Suite struct UTF8TextTests {
    private func reference(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }

    @Test func everyShortSequenceMatchesTheStandardLibrary() {
        var mismatches: [[UInt8]] = []
        for a in 0...255 {
            let one = [UInt8(a)]
            if UTF8Text.string(one) != reference(one) { mismatches.append(one) }
            for b in 0...255 {
                let two = [UInt8(a), UInt8(b)]
                if UTF8Text.string(two) != reference(two) { mismatches.append(two) }
                // Three and four bytes: the lead and second byte over their whole range, then one good and one
                // bad continuation.
                for tail: [UInt8] in [[0x80], [0xBF], [0x41], [0xC0], [0x80, 0x80], [0xBF, 0x7F]] {
                    let longer = two + tail
                    if UTF8Text.string(longer) != reference(longer) { mismatches.append(longer) }
                }
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

    @Test func randomRunsMatchTheStandardLibrary() {
        var generator = SplitMix64(seed: 0xFA20)
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
            0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        var mismatches: [[UInt8]] = []
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 12)
            let bytes = (0..<count).map { _ -> UInt8 in
                let r = generator.next()
                return r % 3 == 0
                    ? UInt8(truncatingIfNeeded: r >> 8) : interesting[Int((r >> 8) % UInt64(interesting.count))]
            }
            if UTF8Text.string(bytes) != reference(bytes) { mismatches.append(bytes) }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

    @Test func textRoundTrips() {
        for text in ["", "plain", "café ☕", "x😀y", "\u{10FFFF}", "\u{FFFD}", "日本語のテキスト"] {
            #expect(UTF8Text.string(Array(text.utf8)) == text)
        }
        // Overlong slash, a UTF-16 surrogate, and a code point past U+10FFFF.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            #expect(UTF8Text.string(bad) == nil, "\(bad)")
        }
    }

    @Test func jsonNumbersReadInPlaceKeepTheirValue() throws {
        for (json, value) in [
            ("0", Int64(0)), ("-0", 0), ("7", 7), ("-12", -12), ("65535", 65535),
            ("999999999999999999", 999_999_999_999_999_999), ("-99999999999999999", -99_999_999_999_999_999),
            ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
        ] {
            #expect(try JSONValue.parse(json) == .integer(value), "\(json)")
        }
        #expect(try JSONValue.parse("9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(try JSONValue.parse("[true,false,null]") == .array([.bool(true), .bool(false), .null]))
        for bad in ["tru", "nul", "fals", "trUe", "01", "-", "1."] {
            #expect(throws: JSONValue.ParseError.self, "\(bad)") { try JSONValue.parse(bad) }
        }
    }
}
