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

    @Test func syncPrintsWhatChangedAndTheCatalogIsListedOneBeaconPerLine() throws {
        let home = try TemporaryDirectory("faro-cli")
        let backend = try BackendProcess()
        var env = home.xdgEnvironment
        env["FARO_BACKEND"] = backend.url
        let first = try run(["catalog", "sync"], env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("added: 8  updated: 0  deleted: 0  pages: 2  bytes: "))
        let second = try run(["catalog", "sync", "--backend", backend.url], env)
        #expect(second.stdout == "added: 0  updated: 0  deleted: 0  pages: 1  bytes: 2\n")

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

    @Test func failuresSayWhyAndMistakesAreUsageErrors() throws {
        let home = try TemporaryDirectory("faro-cli")
        let env = home.xdgEnvironment
        let none = try run(["catalog", "sync"], env)
        #expect(none.status == 1 && none.stderr.contains("--backend"))
        let refusing = try BackendProcess(["--refuse-listing", "beacons"])
        let refused = try run(["catalog", "sync", "--backend", refusing.url], env)
        #expect(refused.status == 1 && refused.stderr.contains("refuses listing the catalog (HTTP 403)"))
        let keyed = try BackendProcess(["--app-key", "k"])
        let key = try run(["catalog", "sync", "--backend", keyed.url], env)
        #expect(key.status == 1 && key.stderr.contains("refused the app key"))
        for mistake in [
            ["catalog", "sync", "--json"], ["catalog", "--full"], ["catalog", "frob"], ["catalog", "x", "y"],
        ] {
            #expect(try run(mistake, env).status == 2, "\(mistake)")
        }
    }
}
