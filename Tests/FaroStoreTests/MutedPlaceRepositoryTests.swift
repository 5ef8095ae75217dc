import FaroCore
import FaroStore
import Testing

/// The muted places table (docs/notifications.md) on a real SQLite file.
@Suite("muted place repository")
struct MutedPlaceRepositoryTests {
    @Test func placesAreMutedOnceListedNewestFirstAndSurviveReopening() throws {
        let (dir, path) = try freshDatabasePath()
        _ = dir
        do {
            let db = try FaroDatabase(path: path)
            try db.mutedPlaces.mute(MutedPlace(key: "row-1", business: "Café", title: "Menú", mutedAt: 100))
            try db.mutedPlaces.mute(
                MutedPlace(
                    key: "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1/100/2", business: "Librería", title: "Libros",
                    mutedAt: 200))
            // Muted again: one row, with the new names and time.
            try db.mutedPlaces.mute(MutedPlace(key: "row-1", business: "Café Nuevo", title: "Carta", mutedAt: 300))
        }
        let db = try FaroDatabase(path: path)
        #expect(
            try db.mutedPlaces.list() == [
                MutedPlace(key: "row-1", business: "Café Nuevo", title: "Carta", mutedAt: 300),
                MutedPlace(
                    key: "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1/100/2", business: "Librería", title: "Libros",
                    mutedAt: 200),
            ])
        #expect(try db.mutedPlaces.contains(key: "row-1"))
        #expect(try !db.mutedPlaces.contains(key: "row-2"))
    }

    @Test func unmuteRemovesOneAndClearRemovesAll() throws {
        let (dir, path) = try freshDatabasePath()
        _ = dir
        let db = try FaroDatabase(path: path)
        for i in 1...3 {
            try db.mutedPlaces.mute(MutedPlace(key: "row-\(i)", business: "B\(i)", title: "T\(i)", mutedAt: Double(i)))
        }
        #expect(try db.mutedPlaces.unmute(key: "row-2"))
        #expect(try !db.mutedPlaces.unmute(key: "row-2"))
        #expect(try db.mutedPlaces.list().map(\.key) == ["row-3", "row-1"])
        #expect(try db.mutedPlaces.clear() == 2)
        #expect(try db.mutedPlaces.list().isEmpty)
        #expect(try db.mutedPlaces.clear() == 0)
    }
}
