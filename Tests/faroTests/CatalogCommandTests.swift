import FaroCore
import FaroNet
import FaroTestSupport
import Foundation
import Testing

/// `faro catalog sync` and `faro catalog [--json]` against faro-backend's demo catalog.
@Suite(.serialized) struct CatalogCommandTests {
    let faro = Paths.executable("faro")

    func run(_ arguments: [String], _ env: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(faro, arguments, environment: env, timeout: 60)
    }

    /// The same summary on both generations, and the generation found on its own line.
    @Test(arguments: [2, 3]) func syncPrintsWhatChangedAndTheCatalogIsListedOneBeaconPerLine(_ generation: Int) throws {
        let home = try TemporaryDirectory("faro-cli")
        let backend = try BackendProcess(["--protocol", String(generation)])
        var env = home.xdgEnvironment
        env["FARO_BACKEND"] = backend.url
        let named = generation == 2 ? "protocol: 2.0.0 (Azure Mobile Apps)\n" : "protocol: 3.0.0 (Datasync)\n"
        let first = try run(["catalog", "sync"], env)
        #expect(first.status == 0, "\(first.stderr)")
        // 2.0.0: the page and the empty page that ends the pull; 3.0.0 (learned): the first answer, in the 3.0.0
        // shape to a 2.0.0 query, then the page in 3.0.0 with a null nextLink.
        #expect(first.stdout.hasPrefix("added: 8  updated: 0  deleted: 0  pages: 2  bytes: "))
        #expect(first.stdout.hasSuffix(named))
        let second = try run(["catalog", "sync", "--backend", backend.url], env)
        let empty = generation == 2 ? "2" : String(#"{"items":[],"count":0,"nextLink":null}"#.utf8.count)
        #expect(second.stdout == "added: 0  updated: 0  deleted: 0  pages: 1  bytes: \(empty)\n" + named)
        let forced = try run(["catalog", "sync", "--protocol", String(generation)], env)
        #expect(forced.status == 0 && forced.stdout.hasSuffix(named))
        let wrong = try run(["catalog", "sync", "--protocol", String(5 - generation)], env)
        let speaks = generation == 2 ? "speaks tables protocol 2.0.0" : "speaks tables protocol 3.0.0"
        #expect(wrong.status == 1 && wrong.stderr.contains(speaks), "\(wrong.stderr)")

        let json = try run(["catalog", "--json"], env)
        #expect(json.status == 0)
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count == 8)
        let first8 = try JSONValue.parse(String(lines[0]))
        #expect(first8.objectMembers?.map(\.0) == ["uuid", "major", "minor", "cliente", "titulo", "url", "updatedAt"])
        #expect(first8["uuid"] == .string("fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"))
        #expect(first8["major"] == .integer(100) && first8["minor"] == .integer(1))
        #expect(first8["cliente"] == .string("Café La Parroquia"))
        #expect(first8["url"] == .string("\(backend.url)/sitios/cafe-la-parroquia/"))
        #expect(first8["updatedAt"]?.stringValue.flatMap(CatalogTimestamp.init) != nil)
        let text = try run(["catalog"], env)
        #expect(text.stdout.split(separator: "\n").count == 8 && text.stdout.contains("\tCafé La Parroquia\t"))

        // --full starts again from nothing.
        let full = try run(["catalog", "sync", "--full"], env)
        #expect(full.stdout.hasPrefix("added: 8  "))
    }

    @Test(arguments: [2, 3]) func failuresSayWhyAndMistakesAreUsageErrors(_ generation: Int) throws {
        let home = try TemporaryDirectory("faro-cli")
        let env = home.xdgEnvironment
        let none = try run(["catalog", "sync"], env)
        #expect(none.status == 1 && none.stderr.contains("--backend"))
        let refusing = try BackendProcess(["--refuse-listing", "beacons", "--protocol", String(generation)])
        let refused = try run(["catalog", "sync", "--backend", refusing.url], env)
        #expect(refused.status == 1 && refused.stderr.contains("refuses listing the catalog (HTTP 403)"))
        let keyed = try BackendProcess(["--app-key", "k", "--protocol", String(generation)])
        let key = try run(["catalog", "sync", "--backend", keyed.url], env)
        #expect(key.status == 1 && key.stderr.contains("refused the app key"))
        for mistake in [
            ["catalog", "sync", "--json"], ["catalog", "--full"], ["catalog", "frob"], ["catalog", "x", "y"],
            ["catalog", "sync", "--protocol", "4"], ["catalog", "--protocol", "3"],
        ] {
            #expect(try run(mistake, env).status == 2, "\(mistake)")
        }
    }
}
