/// A JSON value as the tables protocol uses it (rows, errors, `{results, count}`), with a strict, bounded parser
/// and a writer. Integers and fractions are kept apart so that `major: 100` stays an integer.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order (the tables protocol has no duplicate keys; the last one wins on lookup).
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member `key` of an object (nil for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.0 == key })?.1
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var intValue: Int? {
        switch self {
        case .integer(let n): return Int(exactly: n)
        case .number(let d): return Int(exactly: d)
        default: return nil
        }
    }
    /// Any number as a Double (integers too).
    public var doubleValue: Double? {
        switch self {
        case .integer(let n): return Double(n)
        case .number(let d): return d
        default: return nil
        }
    }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectMembers: [(String, JSONValue)]? { if case .object(let m) = self { return m } else { return nil } }

    /// Compact JSON text.
    public var serialized: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let n): return String(n)
        case .number(let d):
            guard d.isFinite else { return "null" }
            if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
            return String(d)
        case .string(let s): return JSONString.literal(s)
        case .array(let items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONString.literal($0.0) + ":" + $0.1.serialized }.joined(separator: ",") + "}"
        }
    }

    /// JSON text with a space after each comma and colon, as Faro's commands print it (a stable contract). Fractions
    /// keep their decimal point (`12.0`, `2.41`): round them first with `rounded(_:decimals:)`.
    public var spaced: String {
        switch self {
        case .number(let d): return d.isFinite ? String(d) : "null"
        case .array(let items): return "[" + items.map(\.spaced).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { JSONString.literal($0.0) + ": " + $0.1.spaced }.joined(separator: ", ") + "}"
        default: return serialized
        }
    }

    /// `value` rounded to `decimals` places, for output (`distance: 2.41`).
    public static func rounded(_ value: Double, decimals: Int) -> JSONValue {
        guard value.isFinite else { return .null }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return .number((value * scale).rounded() / scale)
    }

    /// A string, or null when there is none.
    public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// Why a text is not acceptable JSON, with the byte offset.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Parses a complete JSON text (RFC 8259), nesting at most `maxDepth` levels.
    public static func parse(_ text: String, maxDepth: Int = 64) throws(ParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8), maxDepth: maxDepth)
    }

    public static func parse(bytes: [UInt8], maxDepth: Int = 64) throws(ParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }
}

/// The recursive-descent reader behind `JSONValue.parse`.
struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var position = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ reason: String) -> JSONValue.ParseError { .init(offset: position, reason: reason) }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipSpace() {
        while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { position += 1 }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONValue.ParseError) -> JSONValue {
        var at = position
        for expected in word.utf8 {
            guard at < bytes.count, bytes[at] == expected else { throw error("unknown literal") }
            at += 1
        }
        position = at
        return value
    }

    mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth < maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
        guard let c = current else { throw error("unexpected end") }
        switch c {
        case UInt8(ascii: "{"):
            position += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let key = try string()
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                if current == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            position += 1
            var items: [JSONValue] = []
            skipSpace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                if current == UInt8(ascii: "]") {
                    position += 1
                    return .array(items)
                }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    mutating func number() throws(JSONValue.ParseError) -> JSONValue {
        let start = position
        var isInteger = true
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, first >= 0x30, first <= 0x39 else { throw error("expected a value") }
        if first == 0x30 {
            position += 1
        } else {
            while let c = current, c >= 0x30, c <= 0x39 { position += 1 }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let c = current, c >= 0x30, c <= 0x39 else { throw error("expected digits after '.'") }
            while let c = current, c >= 0x30, c <= 0x39 { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let c = current, c >= 0x30, c <= 0x39 else { throw error("expected exponent digits") }
            while let c = current, c >= 0x30, c <= 0x39 { position += 1 }
        }
        // Up to 18 digits cannot overflow an Int64: read them in place (rows are full of small integers).
        if isInteger, position - start <= 18 {
            let negative = bytes[start] == UInt8(ascii: "-")
            var n: Int64 = 0
            for k in (negative ? start + 1 : start)..<position { n = n * 10 + Int64(bytes[k] &- 0x30) }
            return .integer(negative ? -n : n)
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let n = Int64(text) { return .integer(n) }
        guard let d = Double(text) else { throw error("number out of range") }
        return .number(d)
    }

    mutating func hex4() throws(JSONValue.ParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw error("bad \\u escape")
            }
            v = v << 4 | digit
            position += 1
        }
        return v
    }

    mutating func string() throws(JSONValue.ParseError) -> String {
        position += 1  // opening quote
        // Most strings have no escape: read them straight from the input (a catalog page is thousands of them).
        let start = position
        var ascii = true
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                let end = position
                let text = bytes.withUnsafeBufferPointer { all -> String? in
                    let piece = UnsafeBufferPointer(rebasing: all[start..<end])
                    return ascii ? String(decoding: piece, as: UTF8.self) : String(validating: piece, as: UTF8.self)
                }
                guard let text else { throw error("invalid UTF-8 in string") }
                position += 1
                return text
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            if c >= 0x80 { ascii = false }
            position += 1
        }
        var out = Array(bytes[start..<position])
        while true {
            guard let c = current else { throw error("unterminated string") }
            position += 1
            switch c {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
                return s
            case UInt8(ascii: "\\"):
                guard let e = current else { throw error("unterminated escape") }
                position += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error("lone surrogate") }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("bad surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw error("lone surrogate")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("bad code point") }
                    UTF8.encode(scalar) { out.append($0) }
                default: throw error("unknown escape")
                }
            case 0x00..<0x20: throw error("control character in string")
            default: out.append(c)
            }
        }
    }
}
