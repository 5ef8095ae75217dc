import FaroTestSupport
import Foundation
import Testing

/// "Lugares visitados" from a walk (docs/visits.md): the real window replays the demo walk against faro-backend,
/// its monitoring records each zone entry, exit and closest distance, and `faro visits` lists, filters and clears
/// them while the window runs (Tests/UI/visits-walk.sh).
@Suite("Visits recorded from a walk", .serialized)
struct VisitsWalkTests {
    @Test func aWalkIsRecordedListedAndCleared() throws {
        let backend = try BackendProcess()
        let data = try TemporaryDirectory("faro-visits")
        var env = try data.windowEnvironment(language: "es")
        env["GTK_A11Y"] = "atspi"
        let r = try ChildProcess.run(
            Paths.packageRoot + "/Tests/UI/visits-walk.sh",
            [
                Paths.executable("faro"), Paths.packageRoot + "/build/glib-2.0/schemas",
                Paths.data + "/demo/walk.jsonl",
                backend.url,
            ], environment: env, timeout: 200)
        #expect(!r.stdout.contains("FAIL"), "\(r.stdout)")
        for step in [
            "visits-recorded", "visits-left", "visits-closest", "visits-since-today", "visits-since-future-empty",
            "visits-page-lists", "visit-opens-site", "visit-site-details", "visits-history-cleared",
            "visits-spanish", "visits-page-clear-reached-the-store",
        ] {
            #expect(r.stdout.contains("OK \(step)"), "\(step): \(r.stdout)")
        }
        // Every listed visit names a catalogued place with its site.
        let json = r.stdout.components(separatedBy: "VISITS\n").last?.components(separatedBy: "END").first ?? ""
        for line in json.split(separator: "\n") {
            let visit = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((visit["url"] as? String)?.hasPrefix(backend.url + "/sitios/") == true, "\(line)")
            #expect((visit["entered"] as? String)?.hasSuffix("Z") == true)
        }
    }
}
