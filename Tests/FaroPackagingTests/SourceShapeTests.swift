import FaroTestSupport
import Foundation
import Testing

/// The shape docs/architecture.md promises a newcomer, checked on the source tree: a GTK view split by concern
/// (no file of FaroUI over 350 lines), and a core that imports none of the project's C modules (the C library's
/// own `Glibc` aside).
@Suite("Source shape")
struct SourceShapeTests {
    static let sources = Paths.packageRoot + "/Sources"

    /// Every Swift file under `Sources/<module>`, as (path relative to Sources, text).
    static func swiftFiles(_ module: String) throws -> [(String, String)] {
        let folder = sources + "/" + module
        return try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
            .map { (module + "/" + $0, try String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) }
    }

    @Test func noGTKFileIsOver350Lines() throws {
        let files = try Self.swiftFiles("FaroUI")
        #expect(files.count > 10)
        let long = files.compactMap { path, text -> String? in
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            return lines > 350 ? "\(path): \(lines) lines" : nil
        }
        #expect(long.isEmpty, "split these by concern, as docs/architecture.md describes: \(long)")
    }

    @Test func theCoreImportsNoCModule() throws {
        let files = try Self.swiftFiles("FaroCore")
        #expect(files.count > 10)
        let cModules = try FileManager.default.contentsOfDirectory(atPath: Self.sources).filter {
            $0.hasPrefix("C") && FileManager.default.fileExists(atPath: Self.sources + "/" + $0 + "/module.modulemap")
        }
        #expect(cModules.contains("CGtk"))
        for (path, text) in files {
            for line in text.split(separator: "\n") where line.contains("import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(!cModules.contains(module) && module != "CShim", "\(path): \(line)")
            }
        }
    }
}
