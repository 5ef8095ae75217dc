import Testing

@testable import FaroCore

/// JSON strings with and without escapes read the same (plain strings take a shortcut straight from the input).
@Suite struct JSONStringTests {
    @Test(arguments: [
        (#""plain""#, "plain"), (#""""#, ""), (#""café ☕""#, "café ☕"), (#""ab\ncd""#, "ab\ncd"),
        (#""tail\"""#, "tail\""), (#""\u00e9t\u00e9""#, "été"), (#""x\ud83d\ude00y""#, "x😀y"),
        (#""path\/to""#, "path/to"),
    ])
    func stringsReadTheirValue(_ json: String, _ value: String) throws {
        #expect(try JSONValue.parse(json) == .string(value))
        #expect(try JSONValue.parse("[\(json),\(json)]") == .array([.string(value), .string(value)]))
    }

    @Test func badStringsAreRefused() {
        for bytes: [UInt8] in [
            Array(#""open"#.utf8), [0x22, 0xC3, 0x28, 0x22], [0x22, 0x61, 0x0A, 0x22], Array(#""bad\q""#.utf8),
            Array(#""\ud800""#.utf8), [0x22, 0x61, 0x5C, 0x6E, 0xFF, 0x22],
        ] {
            #expect(throws: JSONValue.ParseError.self, "\(bytes)") { try JSONValue.parse(bytes: bytes) }
        }
    }
}

/// Faro's one JSON string escaper, which outbox rows, faro-backend and the terminal's `--json` output all use.
@Suite struct JSONStringLiteralTests {
    @Test(arguments: [
        ("plain", #""plain""#), ("", #""""#), ("a\"b", #""a\"b""#), ("back\\slash", #""back\\slash""#),
        ("line\nfeed\r\ttab", #""line\nfeed\r\ttab""#), ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
        ("café ☕ 😀", #""café ☕ 😀""#), ("\u{7F}\u{2028}/", "\"\u{7F}\u{2028}/\""),
    ])
    func writesTheLiteral(_ text: String, _ literal: String) {
        #expect(JSONString.literal(text) == literal)
    }

    @Test func everyStringReadsBackAsItself() throws {
        // Every control character, the two that must be escaped, and text around them.
        var samples = (0..<0x20).map { "x" + String(UnicodeScalar(UInt8($0))) + "y" }
        samples += ["\"", "\\", "\\\"", "ñandú \"quoted\"\n", String(repeating: "\u{1}", count: 3)]
        for text in samples {
            #expect(try JSONValue.parse(JSONString.literal(text)) == .string(text), "\(Array(text.unicodeScalars))")
        }
        // Outbox rows and faro-backend's replies write their strings through it.
        #expect(JSONValue.object([("k\"", .string("v\n"))]).serialized == #"{"k\"":"v\n"}"#)
        #expect(JSONValue.object([("k", .string("\u{1}"))]).serialized == #"{"k":"\u0001"}"#)
    }

    @Test func commandsPrintSpacedJSONWithFractionsKept() throws {
        let tick = JSONValue.object([
            ("t", .rounded(12, decimals: 3)), ("d", .rounded(2.4149, decimals: 2)), ("n", .string(nil)),
            ("l", .array([.integer(-59), .bool(true)])),
        ])
        #expect(tick.spaced == #"{"t": 12.0, "d": 2.41, "n": null, "l": [-59, true]}"#)
        // What the commands print is JSON the reader takes back, values unchanged.
        #expect(try JSONValue.parse(tick.spaced) == tick)
    }
}
