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
