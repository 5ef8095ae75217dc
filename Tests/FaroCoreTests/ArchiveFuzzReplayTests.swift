import Foundation
import Testing

@testable import FaroCore

/// Replays the MHT fuzzer's seeds and every input that ever crashed it (Tests/Fuzz/seeds-mht, regressions-mht)
/// with the fuzz target's properties, so a fixed crash stays fixed without running the fuzzer.
@Suite("MHT fuzz regressions")
struct ArchiveFuzzReplayTests {
    static var inputs: [(String, [UInt8])] {
        let root = #filePath.components(separatedBy: "/Tests/")[0] + "/Tests/Fuzz"
        var out: [(String, [UInt8])] = []
        for folder in ["seeds-mht", "regressions-mht"] {
            let dir = root + "/" + folder
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                if let data = FileManager.default.contents(atPath: dir + "/" + name) {
                    out.append((folder + "/" + name, Array(data)))
                }
            }
        }
        return out
    }

    /// CRLF, LF and CR all become CRLF, as the quoted-printable encoder writes line breaks.
    static func canonicalLines(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 13 || bytes[i] == 10 {
                out += [13, 10]
                i += (bytes[i] == 13 && i + 1 < bytes.count && bytes[i + 1] == 10) ? 2 : 1
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    @Test func thereAreSeedsForEverySelector() {
        let selectors = Set(Self.inputs.compactMap { $0.1.first.map { $0 % 5 } })
        #expect(selectors == [0, 1, 2, 3, 4])
    }

    @Test(arguments: inputs.map(\.0))
    func replay(_ name: String) throws {
        let input = try #require(Self.inputs.first { $0.0 == name }?.1)
        let bytes = Array(input.dropFirst())
        switch input[0] % 5 {
        case 0:
            if let archive = try? MHTReader.read(
                bytes, limits: MHTLimits(maxBytes: 1 << 20, maxParts: 64, maxDepth: 4, maxHeaderBytes: 4096))
            {
                #expect(archive.parts.indices.contains(archive.mainIndex))
                #expect(archive.parts.reduce(0) { $0 + $1.body.count } <= bytes.count)
            } else {
                #expect(name.contains("truncated"), "the seed archive \(name) should read")
            }
        case 1:
            #expect(QuotedPrintable.decode(QuotedPrintable.encode(bytes)) == Self.canonicalLines(bytes))
        case 2:
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        case 3:
            let html = Array(bytes.prefix { $0 != 0 })
            let page = MHTWriter.Page(
                url: "http://127.0.0.1/sitios/fuzz/", title: "fuzz", html: html, charset: "utf-8",
                savedAt: Date(timeIntervalSince1970: 0), resources: [])
            let read = try MHTReader.read(MHTWriter(boundaryToken: { "fuzz" }).write(page))
            #expect(String(decoding: read.main.body, as: UTF8.self).contains("</body></html>"))
        default:
            #expect(Charset.decodeEncodedWords(String(decoding: bytes, as: UTF8.self)).contains("Café"))
        }
    }
}
