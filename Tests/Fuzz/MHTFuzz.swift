// libFuzzer entry point for the MHT reader and its MIME pieces. Built by scripts/fuzz.sh together with
// Sources/FaroCore/Archive/*.swift, Sources/FaroCore/Privacy/*.swift and Sources/FaroCore/Text/*.swift into one
// module (`swiftc -sanitize=fuzzer,address`).
//
// The first input byte picks what is fuzzed (0 whole archives, 1 quoted-printable, 2 base64, 3 writer → reader round
// trip, 4 header values and encoded words); the rest is the input. Besides "no crash, no out-of-bounds read", it
// checks properties that must hold for every input; a violation traps and libFuzzer keeps the input.
import Foundation

/// Line breaks as the quoted-printable encoder writes them: CRLF, LF and CR all become CRLF.
func faroFuzzCanonicalLines(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
        let b = bytes[i]
        if b == 13 || b == 10 {
            out += [13, 10]
            i += (b == 13 && i + 1 < bytes.count && bytes[i + 1] == 10) ? 2 : 1
        } else {
            out.append(b)
            i += 1
        }
    }
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func faroFuzzMHT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0] % 5
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch selector {
    case 0:
        let limits = MHTLimits(maxBytes: 1 << 20, maxParts: 64, maxDepth: 4, maxHeaderBytes: 4096)
        if let archive = try? MHTReader.read(bytes, limits: limits) {
            precondition(!archive.parts.isEmpty && archive.parts.count <= limits.maxParts, "part count out of bounds")
            precondition(archive.parts.indices.contains(archive.mainIndex), "main part out of range")
            let total = archive.parts.reduce(0) { $0 + $1.body.count }
            precondition(total <= bytes.count, "decoded parts larger than the archive")
            _ = archive.subject
            _ = archive.main.text
            for part in archive.parts.prefix(4) {
                if let location = part.contentLocation { _ = archive.resource(for: location) }
            }
        }
    case 1:
        let encoded = QuotedPrintable.encode(bytes)
        precondition(
            QuotedPrintable.decode(encoded) == faroFuzzCanonicalLines(bytes), "quoted-printable round trip failed")
        var column = 0
        for b in encoded {
            if b == 10 { column = 0 } else if b != 13 { column += 1 }
            precondition(column <= 76, "quoted-printable line longer than 76")
        }
        _ = QuotedPrintable.decode(bytes)
    case 2:
        precondition(Base64.decode(Base64.encode(bytes)) == bytes, "base64 round trip failed")
        if let decoded = Base64.decode(bytes) { precondition(decoded.count <= bytes.count, "base64 grew") }
    case 3:
        let split = bytes.firstIndex(of: 0) ?? bytes.count
        let html = Array(bytes[..<split])
        let resource = split < bytes.count ? Array(bytes[(split + 1)...]) : []
        let page = MHTWriter.Page(
            url: "http://127.0.0.1/sitios/fuzz/", title: String(decoding: resource.prefix(40), as: UTF8.self),
            html: html,
            charset: "utf-8", savedAt: Date(timeIntervalSince1970: 0),
            resources: [.init(url: "http://127.0.0.1/sitios/fuzz/r.bin", contentType: "image/png", body: resource)])
        let archive = MHTWriter(boundaryToken: { "fuzz" }).write(page)
        guard let read = try? MHTReader.read(archive) else { preconditionFailure("Faro cannot read its own archive") }
        precondition(read.main.body == faroFuzzCanonicalLines(html), "page bytes changed in the round trip")
        precondition(read.resource(for: "r.bin")?.body == resource, "resource bytes changed in the round trip")
    default:
        let text = String(decoding: bytes, as: UTF8.self)
        _ = Charset.decodeEncodedWords(text)
        _ = MIMEHeaderValue(text)
        _ = Charset.decode(bytes, charset: String(text.prefix(12)))
    }
    return 0
}
