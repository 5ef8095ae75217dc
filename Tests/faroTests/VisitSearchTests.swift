import FaroApp
import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@testable import faro

/// A search of "Lugares visitados" covers the whole history, not only the latest screenful the page lists
/// (docs/visits.md), on a real SQLite file through the window's profile adapter.
@Suite("Visits search over the whole history")
@MainActor
struct VisitSearchTests {
    static let uuid = BeaconUUID(high: 7, low: 7)

    static func place(_ major: UInt16, _ minor: UInt16, _ business: String, _ title: String) -> CatalogPlace {
        CatalogPlace(
            identity: BeaconIdentity(uuid: uuid, major: major, minor: minor), cliente: business, titulo: title,
            url: "https://example.mx/\(minor)")
    }

    @Test func aPlaceVisitedBeforeTheLatest500IsFound() throws {
        let dir = try TemporaryDirectory("faro-visit-search")
        let database = try FaroDatabase(path: dir.file("faro.sqlite3"))
        var now = 1_796_000_000.0
        let profile = DatabaseProfileAdapters(database: database, clock: { now })
        let old = Self.place(8, 1, "Ferretería Ñandú", "Tornillos")
        let others = (2..<12).map { Self.place(9, UInt16($0), "Negocio \($0)", "Lugar \($0)") }
        // Three visits to the ferretería, then 600 elsewhere: the ferretería is not among the latest 500.
        for visit in 0..<603 {
            let place = visit < 3 ? old : others[visit % others.count]
            let region = CatalogIndex.region(place.identity).identifier
            profile.entered(regionID: region, place: place, at: now)
            now += 600
            profile.left(regionID: region, at: now)
            now += 60
        }
        #expect(!profile.visits(limit: 500).contains { $0.place.cliente == old.cliente })

        let found = profile.visits(matching: SearchQuery("nandu"), limit: 500)
        #expect(found.count == 3)
        #expect(found.allSatisfy { $0.place == old })
        #expect(found.map(\.enteredAt) == found.map(\.enteredAt).sorted(by: >))
        // Its beacon finds it too; a name no place had finds nothing; an empty search lists the latest.
        #expect(profile.visits(matching: SearchQuery("8/1"), limit: 500).count == 3)
        #expect(profile.visits(matching: SearchQuery("zapatería"), limit: 500).isEmpty)
        #expect(profile.visits(matching: SearchQuery(""), limit: 500).count == 500)
        // A place first visited after a search was typed is found by the next one.
        let new = Self.place(8, 2, "Nieves Ñandú", "Helados")
        profile.entered(regionID: CatalogIndex.region(new.identity).identifier, place: new, at: now)
        #expect(profile.visits(matching: SearchQuery("nandu"), limit: 500).count == 4)
    }
}
