import FaroCore

/// Where a page's character encoding was found.
public enum EncodingSource: String, Sendable, Equatable {
    case byteOrderMark = "byte order mark"
    case http = "HTTP header"
    case meta = "<meta>"
    /// Nothing was declared: the bytes are valid UTF-8.
    case utf8Check = "UTF-8 check"
    /// Nothing was declared and the bytes are not UTF-8: windows-1252, what browsers assume.
    case fallback = "default"
}

/// A character encoding as browsers name it (the WHATWG Encoding Standard's names), with the glibc iconv converter
/// that decodes it.
public struct HTMLCharset: Sendable, Equatable {
    /// The encoding's standard name (`utf-8`, `windows-1252`, `shift_jis`, `gbk`, …).
    public var name: String
    /// The iconv name of its decoder (nil for utf-8 and windows-1252, which Faro decodes itself).
    var iconvName: String?

    public static let utf8 = HTMLCharset(name: "utf-8", iconvName: nil)
    public static let windows1252 = HTMLCharset(name: "windows-1252", iconvName: nil)

    /// The encoding a label names (`charset=` in HTTP or `<meta>`), as browsers map labels: `iso-8859-1` and
    /// `us-ascii` are windows-1252, `gb2312` is GBK (decoded as GB18030, its superset), `shift_jis` is Windows-31J,
    /// `euc-kr` is windows-949. Nil for a label no browser knows.
    public init?(label: String) {
        let key = label.trimmingWhitespaceAndNewlines().trimming(charactersIn: "\"'").lowercased()
        guard let found = Self.labels[key] else { return nil }
        self = found
    }

    init(name: String, iconvName: String?) {
        self.name = name
        self.iconvName = iconvName
    }

    private static let labels: [String: HTMLCharset] = {
        var table: [String: HTMLCharset] = [:]
        func add(_ charset: HTMLCharset, _ labels: [String]) {
            for label in labels { table[label] = charset }
        }
        add(.utf8, ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"])
        add(
            .windows1252,
            [
                "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
                "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252",
                "x-cp1252",
            ])
        let isoNames: [Int: [String]] = [
            2: ["latin2", "l2", "csisolatin2", "iso-ir-101"], 3: ["latin3", "l3", "csisolatin3", "iso-ir-109"],
            4: ["latin4", "l4", "csisolatin4", "iso-ir-110"], 5: ["cyrillic", "csisolatincyrillic", "iso-ir-144"],
            6: ["arabic", "asmo-708", "csisolatinarabic", "ecma-114", "iso-ir-127"],
            7: ["greek", "greek8", "csisolatingreek", "ecma-118", "elot_928", "iso-ir-126", "sun_eu_greek"],
            8: ["hebrew", "csisolatinhebrew", "iso-ir-138", "visual", "iso-8859-8-i", "logical"],
            10: ["latin6", "l6", "csisolatin6", "iso-ir-157"], 13: [], 14: [], 15: ["latin9", "l9", "csisolatin9"],
            16: [],
        ]
        for (n, extra) in isoNames {
            add(
                HTMLCharset(name: "iso-8859-\(n)", iconvName: "ISO-8859-\(n)"),
                ["iso-8859-\(n)", "iso8859-\(n)", "iso_8859-\(n)", "iso8859\(n)"] + extra)
        }
        for n in 1250...1258 where n != 1252 {
            add(
                HTMLCharset(name: "windows-\(n)", iconvName: "CP\(n)"),
                ["windows-\(n)", "cp\(n)", "x-cp\(n)"])
        }
        // Browsers read ISO-8859-9 as its superset windows-1254, and ISO-8859-11 / TIS-620 as windows-874.
        add(
            HTMLCharset(name: "windows-1254", iconvName: "CP1254"),
            ["iso-8859-9", "iso8859-9", "iso_8859-9", "iso88599", "latin5", "l5", "csisolatin5", "iso-ir-148"])
        add(
            HTMLCharset(name: "windows-874", iconvName: "CP874"),
            ["windows-874", "dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620"])
        add(HTMLCharset(name: "koi8-r", iconvName: "KOI8-R"), ["koi8-r", "koi8_r", "koi8", "koi", "cskoi8r"])
        add(HTMLCharset(name: "koi8-u", iconvName: "KOI8-U"), ["koi8-u", "koi8-ru"])
        add(HTMLCharset(name: "ibm866", iconvName: "IBM866"), ["ibm866", "866", "cp866", "csibm866"])
        add(HTMLCharset(name: "macintosh", iconvName: "MACINTOSH"), ["macintosh", "mac", "x-mac-roman", "csmacintosh"])
        add(
            HTMLCharset(name: "shift_jis", iconvName: "CP932"),
            ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"])
        add(HTMLCharset(name: "euc-jp", iconvName: "EUC-JP"), ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"])
        add(HTMLCharset(name: "iso-2022-jp", iconvName: "ISO-2022-JP"), ["csiso2022jp", "iso-2022-jp"])
        add(
            HTMLCharset(name: "gbk", iconvName: "GB18030"),
            [
                "chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58",
                "x-gbk",
            ])
        add(HTMLCharset(name: "gb18030", iconvName: "GB18030"), ["gb18030"])
        add(
            HTMLCharset(name: "big5", iconvName: "BIG5-HKSCS"), ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"])
        add(
            HTMLCharset(name: "euc-kr", iconvName: "CP949"),
            [
                "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989",
                "ksc5601", "ksc_5601", "windows-949",
            ])
        add(
            HTMLCharset(name: "utf-16le", iconvName: "UTF-16LE"),
            ["utf-16", "utf-16le", "ucs-2", "unicode", "csunicode"])
        add(HTMLCharset(name: "utf-16be", iconvName: "UTF-16BE"), ["utf-16be", "unicodefffe"])
        return table
    }()

    var isUTF16: Bool { name == "utf-16le" || name == "utf-16be" }
}

/// A page's bytes made ready for libxml2: its encoding decided as browsers decide it, and its text as UTF-8.
public struct DecodedHTML: Sendable {
    /// The page as well-formed UTF-8 (no byte order mark).
    public var utf8: [UInt8]
    /// The encoding the bytes were read in, and where it came from.
    public var charset: HTMLCharset
    public var source: EncodingSource
    /// What did not go as declared (a charset that did not fit the bytes, bytes that fit no charset), one line each,
    /// for the debug log; empty when the page is as it says.
    public var warnings: [String]
}

/// Decides a page's character encoding and decodes it, in the order browsers use (docs/reading-pages.md): a byte
/// order mark, then the HTTP `charset`, then a `<meta charset>` (or `http-equiv` Content-Type) in the page's head,
/// then a UTF-8 check, else windows-1252. A declared charset that the bytes do not fit while they are valid UTF-8
/// (a site migrated to UTF-8 that kept its old `<meta>`) is read as UTF-8. Bytes that fit nothing (encodings mixed
/// in one page) get the best reading: UTF-8 where they are UTF-8, the rest one byte at a time (windows-1252, or
/// U+FFFD), with a warning; never an error.
public enum HTMLEncoding {
    /// The bytes scanned for a `<meta>` declaration when no `<body>` comes first.
    static let metaScanLimit = 65_536

    public static func decode(_ bytes: [UInt8], httpCharset: String?) -> DecodedHTML {
        var warnings: [String] = []
        let (charset, source, skip) = sniff(bytes, httpCharset: httpCharset, warnings: &warnings)
        let body = bytes[skip...]
        if source == .utf8Check {
            // The sniff has just found the bytes valid UTF-8.
            return DecodedHTML(utf8: bytes, charset: .utf8, source: source, warnings: warnings)
        }
        if charset == .utf8 {
            if isValidUTF8(bytes, from: skip) {
                return DecodedHTML(
                    utf8: skip == 0 ? bytes : Array(body), charset: .utf8, source: source, warnings: warnings)
            }
            let check = UTF8Check(body)
            let mixed = decodeMixedUTF8(body)
            warnings.append(
                "\(check.invalidBytes) byte(s) are not UTF-8 as the \(source.rawValue) says: read one at a time as "
                    + "windows-1252")
            return DecodedHTML(utf8: mixed, charset: .utf8, source: source, warnings: warnings)
        }
        if source == .http || source == .meta, !charset.isUTF16 {
            let check = UTF8Check(body)
            if check.isValid, check.hasMultibyte {
                warnings.append("the \(source.rawValue) says \(charset.name) but the bytes are UTF-8: read as UTF-8")
                return DecodedHTML(utf8: Array(body), charset: .utf8, source: .utf8Check, warnings: warnings)
            }
        }
        let (text, errors) = decodeLegacy(body, charset)
        if errors > 0 {
            warnings.append(
                "\(errors) byte(s) are not \(charset.name) as the \(source.rawValue) says: shown as U+FFFD")
        }
        return DecodedHTML(utf8: text, charset: charset, source: source, warnings: warnings)
    }

    /// The encoding, where it came from, and how many bytes of byte order mark to skip.
    static func sniff(
        _ bytes: [UInt8], httpCharset: String?, warnings: inout [String]
    ) -> (HTMLCharset, EncodingSource, Int) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, .byteOrderMark, 3) }
        if bytes.starts(with: [0xFF, 0xFE]) {
            return (HTMLCharset(name: "utf-16le", iconvName: "UTF-16LE"), .byteOrderMark, 2)
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return (HTMLCharset(name: "utf-16be", iconvName: "UTF-16BE"), .byteOrderMark, 2)
        }
        if let label = httpCharset, !label.isEmpty {
            if let charset = HTMLCharset(label: label) { return (charset, .http, 0) }
            warnings.append("the HTTP header names an unknown charset \"\(label)\": ignored")
        }
        if let label = metaCharset(bytes) {
            if var charset = HTMLCharset(label: label) {
                // A page cannot declare UTF-16 in itself (it could not be read to find the declaration).
                if charset.isUTF16 { charset = .utf8 }
                return (charset, .meta, 0)
            }
            warnings.append("the page's <meta> names an unknown charset \"\(label)\": ignored")
        }
        return isValidUTF8(bytes, from: 0) ? (.utf8, .utf8Check, 0) : (.windows1252, .fallback, 0)
    }

    /// Whether `bytes` from `start` are well-formed UTF-8: the common case, checked on the raw buffer, eight ASCII
    /// bytes at a time.
    static func isValidUTF8(_ bytes: [UInt8], from start: Int) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            let raw = UnsafeRawPointer(base)
            var i = start
            let n = buffer.count
            while i < n {
                if i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
                if buffer[i] < 0x80 {
                    i += 1
                    continue
                }
                let length = UTF8Check.sequenceLength(buffer, at: i)
                if length == 0 { return false }
                i += length
            }
            return true
        }
    }

    // MARK: <meta> prescan

    /// The charset label a `<meta charset>` or `<meta http-equiv="Content-Type" content="…; charset=…">` gives in
    /// the page's head (before `<body>`, within `metaScanLimit` bytes), skipping comments, scripts and styles.
    static func metaCharset(_ bytes: [UInt8]) -> String? {
        let end = min(bytes.count, metaScanLimit)
        var i = 0
        while i < end {
            guard bytes[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            if matches(bytes, i, "<!--") {
                i = find(bytes, "-->", from: i + 4, end: end).map { $0 + 3 } ?? end
            } else if matches(bytes, i, "<meta"), i + 5 < end, isSpaceOrSlash(bytes[i + 5]) {
                let (attributes, next) = tagAttributes(bytes, from: i + 5, end: end)
                if let charset = attributes["charset"], !charset.isEmpty { return charset }
                if attributes["http-equiv"]?.lowercased() == "content-type", let content = attributes["content"],
                    let charset = charsetParameter(content)
                {
                    return charset
                }
                i = next
            } else if matches(bytes, i, "<script") || matches(bytes, i, "<style") {
                let close = matches(bytes, i, "<script") ? "</script" : "</style"
                i = find(bytes, close, from: i + 6, end: end) ?? end
            } else if matches(bytes, i, "<body") {
                return nil
            } else {
                i += 1
            }
        }
        return nil
    }

    /// `charset=` in a Content-Type value (`text/html; charset="shift_jis"`).
    static func charsetParameter(_ value: String) -> String? {
        let lower = value.lowercased()
        guard let range = lower.firstRange(of: "charset") else { return nil }
        var rest = lower[range.upperBound...].drop { $0 == " " || $0 == "\t" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        if let quote = rest.first, quote == "\"" || quote == "'" {
            rest = rest.dropFirst()
            return String(rest.prefix { $0 != quote })
        }
        let label = String(rest.prefix { $0 != ";" && $0 != " " && $0 != "\t" && $0 != "," })
        return label.isEmpty ? nil : label
    }

    /// The attributes of a tag from just after its name, lower-case names, and where the tag ends.
    private static func tagAttributes(_ bytes: [UInt8], from start: Int, end: Int) -> ([String: String], Int) {
        var attributes: [String: String] = [:]
        var i = start
        func skipSpace() { while i < end, isSpaceOrSlash(bytes[i]) { i += 1 } }
        while i < end {
            skipSpace()
            guard i < end, bytes[i] != UInt8(ascii: ">") else { return (attributes, i + 1) }
            let nameStart = i
            while i < end, !isSpaceOrSlash(bytes[i]), bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ">") {
                i += 1
            }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
            while i < end, isSpace(bytes[i]) { i += 1 }
            var value = ""
            if i < end, bytes[i] == UInt8(ascii: "=") {
                i += 1
                while i < end, isSpace(bytes[i]) { i += 1 }
                if i < end, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                    let quote = bytes[i]
                    i += 1
                    let valueStart = i
                    while i < end, bytes[i] != quote { i += 1 }
                    value = String(decoding: bytes[valueStart..<i], as: UTF8.self)
                    i += 1
                } else {
                    let valueStart = i
                    while i < end, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
                    value = String(decoding: bytes[valueStart..<i], as: UTF8.self)
                }
            }
            if !name.isEmpty, attributes[name] == nil { attributes[name] = value }
        }
        return (attributes, end)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func isSpaceOrSlash(_ byte: UInt8) -> Bool { isSpace(byte) || byte == UInt8(ascii: "/") }

    /// Whether `bytes` at `i` start with the ASCII `text`, ignoring case.
    private static func matches(_ bytes: [UInt8], _ i: Int, _ text: String) -> Bool {
        let pattern = Array(text.utf8)
        let count = pattern.count
        guard i + count <= bytes.count else { return false }
        for k in 0..<count {
            var byte = bytes[i + k]
            if byte >= 0x41, byte <= 0x5A { byte += 0x20 }
            if byte != pattern[k] { return false }
        }
        return true
    }

    private static func find(_ bytes: [UInt8], _ text: String, from start: Int, end: Int) -> Int? {
        var i = start
        while i < end {
            if bytes[i] == UInt8(ascii: "<") || bytes[i] == UInt8(ascii: "-"), matches(bytes, i, text) { return i }
            i += 1
        }
        return nil
    }

    // MARK: Decoding

    /// UTF-8 where the bytes are UTF-8; each byte that is not, as windows-1252.
    static func decodeMixedUTF8(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let length = UTF8Check.sequenceLength(bytes, at: i)
            if length > 0 {
                out += bytes[i..<(i + length)]
                i += length
            } else {
                appendScalar(windows1252Scalar(bytes[i]), to: &out)
                i += 1
            }
        }
        return out
    }

    /// The bytes decoded from a legacy encoding, and how many could not be (each became U+FFFD).
    static func decodeLegacy(_ bytes: ArraySlice<UInt8>, _ charset: HTMLCharset) -> ([UInt8], Int) {
        guard let iconvName = charset.iconvName else {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 4)
            for byte in bytes { appendScalar(windows1252Scalar(byte), to: &out) }
            return (out, 0)
        }
        guard let converted = Iconv.decode(bytes, from: iconvName) else {
            // No converter on this system: the best reading left is byte by byte.
            return (decodeMixedUTF8(bytes), bytes.count)
        }
        return converted
    }

    /// The windows-1252 character of a byte (the WHATWG table: 0x80–0x9F are the typographic marks, the five
    /// unassigned ones map to the C1 control of the same number).
    static func windows1252Scalar(_ byte: UInt8) -> UInt32 {
        guard byte >= 0x80, byte <= 0x9F else { return UInt32(byte) }
        return UInt32(windows1252High[Int(byte - 0x80)])
    }

    private static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D,
        0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x009D, 0x017E, 0x0178,
    ]

    static func appendScalar(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
