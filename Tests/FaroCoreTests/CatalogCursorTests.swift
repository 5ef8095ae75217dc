import Testing

@testable import FaroCore

@Suite struct CatalogTimestampTests {
    @Test func oneInstantInEverySpellingComparesEqual() throws {
        let z = try #require(CatalogTimestamp("2026-11-29T14:03:07.123Z"))
        #expect(CatalogTimestamp("2026-11-29T14:03:07.123+00:00") == z)
        #expect(CatalogTimestamp("2026-11-29T09:03:07.123-05:00") == z)
        #expect(CatalogTimestamp("2026-11-29 14:03:07.1234567Z") == z)
        #expect(z.description == "2026-11-29T14:03:07.123Z")
        #expect(CatalogTimestamp("2026-11-29T14:03:07Z")?.description == "2026-11-29T14:03:07.000Z")
        #expect(CatalogTimestamp("1970-01-01T00:00:00.000Z")?.milliseconds == 0)
        #expect(CatalogTimestamp("2000-02-29T00:00:00.500Z")?.milliseconds == 951_782_400_500)
        #expect(CatalogTimestamp("1969-12-31T23:59:59.999Z")?.description == "1969-12-31T23:59:59.999Z")
    }

    @Test(arguments: [
        "", "2026-11-29", "2026-11-29T14:03:07", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
        "2026-11-29T24:00:00Z", "2026-11-29T14:03:07.Z", "2026-11-29T14:03:07.123+0500", "2026-11-29T14:03:07Zjunk",
        "datetimeoffset", "２０２６-11-29T14:03:07Z",
    ])
    func notATimestamp(_ text: String) {
        #expect(CatalogTimestamp(text) == nil)
    }

    @Test func orderIsByInstant() throws {
        let a = try #require(CatalogTimestamp("2026-11-29T14:03:07.123Z"))
        let b = try #require(CatalogTimestamp("2026-11-29T14:03:07.124Z"))
        let c = try #require(CatalogTimestamp("2026-11-29T15:03:07.000+01:00"))
        #expect(a < b && c < b && c < a)
    }
}

@Suite struct CatalogCursorTests {
    @Test func theFilterAsksForRowsStrictlyAfterTheCursor() {
        let cursor = CatalogCursor(updatedAt: "2026-11-29T14:03:07.123Z", id: "it's")
        #expect(
            cursor.filter
                == "(updatedAt gt datetimeoffset'2026-11-29T14:03:07.123Z') or "
                + "((updatedAt eq datetimeoffset'2026-11-29T14:03:07.123Z') and (id gt 'it''s'))")
    }

    @Test func rowsSharingTheBoundaryTimestampComeAfterItByID() throws {
        let cursor = CatalogCursor(updatedAt: "2026-11-29T14:03:07.123Z", id: "b")
        let same = try #require(cursor.instant)
        let later = try #require(CatalogTimestamp("2026-11-29T14:03:07.124Z"))
        #expect(cursor.precedes(instant: same, id: "c"))
        #expect(!cursor.precedes(instant: same, id: "b"))
        #expect(!cursor.precedes(instant: same, id: "a"))
        #expect(cursor.precedes(instant: later, id: "a"))
        #expect(!cursor.precedes(instant: CatalogTimestamp(milliseconds: same.milliseconds - 1), id: "z"))
    }
}

@Suite struct CatalogRowTests {
    let uuid = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"

    func row(_ fields: [(String, JSONValue)]) -> JSONValue { .object(fields) }

    @Test func aRowBecomesAPlace() throws {
        let pulled = CatalogPulledRow.read(
            row([
                ("id", .string("b1")), ("uuid", .string(uuid.uppercased())), ("major", .integer(100)),
                ("minor", .integer(1)), ("cliente", .string("Café")), ("titulo", .string("Menú")),
                ("url", .string("https://x/")), ("updatedAt", .string("2026-11-29T14:03:07.123Z")),
                ("deleted", .bool(false)),
            ]))
        guard case .upsert(let place) = pulled.change else {
            Issue.record("not an upsert: \(pulled.change)")
            return
        }
        #expect(place.id == "b1" && place.cliente == "Café" && place.uuid?.description == uuid && !place.anyUUID)
        #expect(pulled.position == CatalogCursor(updatedAt: "2026-11-29T14:03:07.123Z", id: "b1"))
    }

    @Test func aRowWithoutUUIDMatchesEveryUUID() throws {
        let pulled = CatalogPulledRow.read(
            row([
                ("id", .string("b2")), ("uuid", .null), ("major", .integer(7)), ("minor", .integer(42)),
                ("cliente", .string("C")), ("titulo", .string("T")), ("url", .string("u")),
                ("updatedAt", .string("2026-11-29T14:03:07.123Z")),
            ]))
        guard case .upsert(let place) = pulled.change else {
            Issue.record("not an upsert")
            return
        }
        #expect(place.anyUUID && place.uuid == nil)
        let beacon = BeaconIdentity(uuid: try #require(BeaconUUID(uuid)), major: 7, minor: 42)
        #expect(place.matches(beacon) && place.bound(to: beacon).identity == beacon)
        #expect(!place.matches(BeaconIdentity(uuid: beacon.uuid, major: 7, minor: 43)))
        // Its beacon page ("Detalles") is the matched beacon's; before the match there is none to show.
        #expect(place.beacon == nil && place.bound(to: beacon).beacon == beacon)
    }

    @Test func deletedRowsAndUnusableRowsStillMoveTheCursor() {
        let stamp = JSONValue.string("2026-11-29T14:03:07.123Z")
        let deleted = CatalogPulledRow.read(
            row([("id", .string("d")), ("updatedAt", stamp), ("deleted", .bool(true))]))
        #expect(deleted.change == .delete(id: "d") && deleted.position?.id == "d")
        for bad: [(String, JSONValue)] in [
            [("id", .string("x")), ("updatedAt", stamp), ("major", .integer(70_000)), ("minor", .integer(1))],
            [("id", .string("x")), ("updatedAt", stamp), ("major", .integer(1)), ("minor", .integer(1))],
            [
                ("id", .string("x")), ("updatedAt", stamp), ("major", .integer(1)), ("minor", .integer(1)),
                ("uuid", .string("nope")), ("cliente", .string("c")), ("titulo", .string("t")), ("url", .string("u")),
            ],
        ] {
            let pulled = CatalogPulledRow.read(row(bad))
            guard case .skip(let id, let reason) = pulled.change else {
                Issue.record("\(bad) must be skipped")
                continue
            }
            #expect(id == "x" && !reason.isEmpty && pulled.position?.id == "x")
        }
        #expect(CatalogPulledRow.read(row([("updatedAt", stamp)])).position == nil)
        #expect(CatalogPulledRow.read(row([("id", .string("y")), ("updatedAt", .string("soon"))])).position == nil)
    }
}
