import FaroTestSupport
import Foundation
import Testing

/// The release link's startup order (`bench/window/startup-order.txt`, read by Package.swift) goes stale silently:
/// ld.lld skips names that no longer exist. This fails once more than a tenth of the listed functions are missing
/// from the release `faro` that `make deb` links (`make test` builds it before `swift test`); then run
/// `bench/window/startup-order.sh` again (bench/README.md).
@Suite("Startup order list")
struct StartupOrderTests {
    static let binary = Paths.packageRoot + "/build/debian-meson/faro"
    static let list = Paths.packageRoot + "/bench/window/startup-order.txt"
    static let nm = RequiredTool.executable("/usr/bin/nm", package: "binutils")
    static var hasBinary: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// The function names of the list (comments and blank lines left out).
    static func listedNames(_ text: String) -> Set<String> {
        Set(
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty && !$0.hasPrefix("#")
            })
    }

    /// The names of the functions defined in `nm --defined-only`'s output (`ADDRESS TYPE NAME`).
    static func definedNames(_ nmOutput: String) -> Set<String> {
        Set(
            nmOutput.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ", maxSplits: 2)
                return fields.count == 3 ? String(fields[2]) : nil
            })
    }

    @Test(
        .enabled(
            if: RequiredTool.isCI || hasBinary,
            "no release faro at build/debian-meson/faro: run make deb (make test builds it before the Swift tests)"))
    func mostListedFunctionsAreInTheReleaseBinary() throws {
        try Self.nm.require()
        guard Self.hasBinary else {
            Issue.record("no release faro at \(Self.binary): make test runs make deb before the Swift tests")
            return
        }
        let names = Self.listedNames(try String(contentsOfFile: Self.list, encoding: .utf8))
        #expect(names.count > 1000, "the list has only \(names.count) names")
        let r = try ChildProcess.run("/usr/bin/nm", ["--defined-only", Self.binary], timeout: 300)
        #expect(r.status == 0, "\(r.stderr)")
        let defined = Self.definedNames(r.stdout)
        #expect(defined.count > names.count)
        let missing = names.subtracting(defined)
        #expect(
            missing.count * 10 <= names.count,
            """
            \(missing.count) of the \(names.count) functions of bench/window/startup-order.txt are not in the release \
            faro: run bench/window/startup-order.sh again. Some: \(missing.sorted().prefix(5))
            """)
    }
}
