import FaroCommandLine
import FaroTestSupport
import Foundation
import Testing

/// One version: meson.build's `project(version:)`, which the Swift copy, the Debian changelog and the metainfo's
/// newest release must repeat.
@Suite("One version")
struct VersionTests {
    func read(_ path: String) throws -> String {
        try String(contentsOfFile: Paths.packageRoot + "/" + path, encoding: .utf8)
    }

    func first(_ pattern: String, in text: String) throws -> String {
        let regex = try NSRegularExpression(pattern: pattern)
        let match = try #require(regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
        return String(text[try #require(Range(match.range(at: 1), in: text))])
    }

    @Test func everyCopyIsMesonsVersion() throws {
        let meson = try first(#"project\('faro', version: '([^']+)'"#, in: read("meson.build"))
        #expect(FaroVersion.string == meson)
        #expect(try first(#"^faro \(([^)]+)\)"#, in: read("debian/changelog")) == meson)
        #expect(
            try first(#"<release version="([^"]+)""#, in: read("data/io.github.faro.Faro.metainfo.xml.in")) == meson)
    }

    /// The meson build refuses to build a Swift copy that says otherwise.
    @Test func theMesonBuildChecksTheSwiftCopy() throws {
        let r = try ChildProcess.run(
            "/bin/bash",
            [
                Paths.packageRoot + "/scripts/meson-swift-build.sh", "/bin/false", Paths.packageRoot, "release",
                "/nonexistent", "/nonexistent",
            ],
            environment: ["FARO_VERSION": "9.9.9"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("meson.build says version 9.9.9"), "\(r.stderr)")
    }
}
