/// The device-id rule of the content view (docs/content-view.md, docs/privacy.md): every content load of an https URL (or of a loopback
/// address, for the demo and the tests) asks for `URL + "?imei=" + id`, or `URL + "&imei=" + id` where the URL already
/// has a query, with the id percent-encoded; a plain-http URL from any other host is loaded without it. The id never
/// appears in a URL that is shown, logged, shared, saved or exported: `stripping(from:)` is the one function that
/// takes it out of a URL, and everything that shows a URL passes through it.
public enum DeviceIDURL {
    /// The query parameter that carries the device id.
    public static let parameter = "imei"

    /// Whether a load of `url` may carry the device id: https, or plain http to this computer (127.0.0.0/8, ::1,
    /// localhost). Anything else would send it in clear text.
    public static func mayCarryDeviceID(_ url: String) -> Bool {
        guard let (scheme, host) = schemeAndHost(url) else { return false }
        switch scheme {
        case "https": return true
        case "http": return LoopbackHost.contains(host)
        default: return false
        }
    }

    /// The URL a content load asks for: `url` with the device id where `mayCarryDeviceID` allows it, else `url`
    /// without any id at all. `deviceID` nil sends none (tests and benchmarks).
    public static func forLoad(_ url: String, deviceID: String?) -> String {
        guard let deviceID, mayCarryDeviceID(url) else { return stripping(from: url) }
        return adding(deviceID: deviceID, to: url)
    }

    /// The lower-cased scheme and host of an absolute URL (`https://user@[::1]:8443/p` → `https`, `::1`).
    static func schemeAndHost(_ url: String) -> (scheme: String, host: String)? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].lowercased()
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else {
            return nil
        }
        let rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let afterSlashes = rest.dropFirst(2)
        var authority = afterSlashes.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        return (scheme, host.lowercased())
    }

    /// The URL the content view loads: `url` with `imei=<percent-encoded id>` added to its query (before any
    /// `#fragment`). An `imei` parameter already in the URL is replaced, so the id is never sent twice.
    public static func adding(deviceID: String, to url: String) -> String {
        let (base, fragment) = splitFragment(stripping(from: url))
        let value = PercentEncoding.encodeComponent(deviceID)
        var out = base
        if let q = base.firstIndex(of: "?") {
            // A query exists: `&imei=`, unless it is empty or already ends with a separator.
            let query = base[base.index(after: q)...]
            if !query.isEmpty, !query.hasSuffix("&") { out += "&" }
        } else {
            out += "?"
        }
        out += parameter + "=" + value
        if let fragment { out += "#" + fragment }
        return out
    }

    /// `url` without any `imei` query parameter: what is shared, saved and shown. A query left empty is removed.
    public static func stripping(from url: String) -> String {
        let (base, fragment) = splitFragment(url)
        guard let q = base.firstIndex(of: "?") else { return url }
        let path = base[..<q]
        let query = base[base.index(after: q)...]
        let kept = query.split(separator: "&", omittingEmptySubsequences: true).filter { pair in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return PercentEncoding.decode(String(name)).lowercased() != parameter
        }
        var out = String(path)
        if !kept.isEmpty { out += "?" + kept.joined(separator: "&") }
        if let fragment { out += "#" + fragment }
        return out
    }

    private static func splitFragment(_ url: String) -> (String, String?) {
        guard let hash = url.firstIndex(of: "#") else { return (url, nil) }
        return (String(url[..<hash]), String(url[url.index(after: hash)...]))
    }
}

/// RFC 3986 percent-encoding, by hand so that the result does not depend on Foundation's character sets.
public enum PercentEncoding {
    /// Encodes every byte of the UTF-8 form except the unreserved characters `A–Z a–z 0–9 - . _ ~`: safe as a
    /// query value, a path segment or a `mailto:` header value.
    public static func encodeComponent(_ text: String) -> String { encode(text, keeping: isUnreserved) }

    /// Encodes every byte of the UTF-8 form for which `keeping` is false.
    public static func encode(_ text: String, keeping: (UInt8) -> Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keeping(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
            }
        }
        return out
    }

    /// RFC 3986 unreserved characters: `A–Z a–z 0–9 - . _ ~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// What may stand unescaped in a whole URL reference: the unreserved characters, the sub-delimiters
    /// `! $ & ' ( ) * + , ; =`, `: @ / ?`, and `#` and `%` (kept so existing fragments and escapes survive).
    public static func isURLReferenceAllowed(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$&'()*+,;=:@/?#%".utf8.contains(byte)
    }

    /// Decodes `%XX` escapes (a malformed escape is kept as it is); invalid UTF-8 becomes U+FFFD.
    public static func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "%"), i + 2 < utf8.count, let hi = hexValue(utf8[i + 1]),
                let lo = hexValue(utf8[i + 2])
            {
                bytes.append(hi << 4 | lo)
                i += 3
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexDigit(_ nibble: UInt8) -> String {
        String(UnicodeScalar(nibble < 10 ? nibble + 48 : nibble + 55))
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - 55
        default: return nil
        }
    }
}
