import FaroApp
import FaroCore
import Testing

/// Counted messages go through the localizer's plural form (gettext's ngettext in the app), never through a
/// singular msgid chosen in the code: "1 estrella", "2 estrellas", "1 envío pendiente".
@Suite("Plural forms")
struct PluralTests {
    /// A catalog as gettext holds it: each msgid/msgid_plural pair with one translation per plural form, and the
    /// language's rule picking the form for a count (`Plural-Forms`).
    static func catalog(_ forms: [String: [String]], rule: @escaping @Sendable (Int) -> Int) -> Localizer {
        Localizer({ $0 }, plural: { one, _, n in forms[one]?[rule(n)] ?? one })
    }

    /// Spanish, as po/es.po says: nplurals=2; plural=(n != 1).
    static let spanish = catalog(
        [
            "%@ star": ["%@ estrella", "%@ estrellas"],
            "%@ submission pending": ["%@ envío pendiente", "%@ envíos pendientes"],
            "%@ submission refused by the server": [
                "%@ envío rechazado por el servidor", "%@ envíos rechazados por el servidor",
            ],
            "You are near %@ place": ["Estás cerca de %@ lugar", "Estás cerca de %@ lugares"],
        ], rule: { $0 != 1 ? 1 : 0 })

    @Test func englishPicksByTheEnglishRule() {
        let english = Localizer.english
        #expect(english.plural("%@ star", "%@ stars", 1) == "1 star")
        #expect(english.plural("%@ star", "%@ stars", 0) == "0 stars")
        #expect(english.plural("%@ star", "%@ stars", 5) == "5 stars")
    }

    @Test func theCatalogsRuleDecides() {
        #expect(Self.spanish.plural("%@ star", "%@ stars", 1) == "1 estrella")
        #expect(Self.spanish.plural("%@ star", "%@ stars", 4) == "4 estrellas")
        // A language with three forms (one, few, many: plural=(n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2)).
        let three = Self.catalog(["%@ star": ["%@ gwiazdka", "%@ gwiazdki", "%@ gwiazdek"]]) { n in
            n == 1 ? 0 : (2...4).contains(n % 10) && !(12...14).contains(n % 100) ? 1 : 2
        }
        #expect(three.plural("%@ star", "%@ stars", 1) == "1 gwiazdka")
        #expect(three.plural("%@ star", "%@ stars", 3) == "3 gwiazdki")
        #expect(three.plural("%@ star", "%@ stars", 5) == "5 gwiazdek")
        #expect(three.plural("%@ star", "%@ stars", 22) == "22 gwiazdki")
    }

    @Test func aTranslateOnlyTableStillTranslatesThePickedForm() {
        let table = Localizer { $0 == "%@ stars" ? "%@ estrellas" : $0 }
        #expect(table.plural("%@ star", "%@ stars", 2) == "2 estrellas")
    }

    @Test func furtherPlaceholdersTakeTheOtherArguments() {
        let l = Localizer.english
        #expect(l.plural("%@ place near %@", "%@ places near %@", 2, "Coyoacán") == "2 places near Coyoacán")
        // An argument holding "%@" is not filled in again.
        #expect(l.plural("%@ place near %@", "%@ places near %@", 1, "%@") == "1 place near %@")
    }

    @Test func theOutboxLineCountsInSpanish() {
        #expect(outboxStatusText(pending: 1, failed: 0, localize: Self.spanish) == "1 envío pendiente")
        #expect(outboxStatusText(pending: 2, failed: 0, localize: Self.spanish) == "2 envíos pendientes")
        #expect(
            outboxStatusText(pending: 1, failed: 3, localize: Self.spanish)
                == "1 envío pendiente · 3 envíos rechazados por el servidor")
        #expect(
            outboxStatusText(pending: 0, failed: 1, localize: Self.spanish) == "1 envío rechazado por el servidor")
    }

    @Test func mergedZoneNotificationsCountPlaces() {
        let uuid = BeaconUUID(high: 1, low: 2)
        func place(_ minor: UInt16) -> CatalogPlace {
            CatalogPlace(
                identity: BeaconIdentity(uuid: uuid, major: 1, minor: minor), cliente: "Lugar \(minor)",
                titulo: "T", url: "https://example.com/\(minor)")
        }
        func entry(_ minor: UInt16) -> RegionEvent {
            RegionEvent(
                kind: .enter, region: Region(identifier: "\(minor)", uuid: uuid), time: 0,
                beacon: BeaconIdentity(uuid: uuid, major: 1, minor: minor), announce: true)
        }
        var planner = ZoneNotificationPlanner(localize: Self.spanish)
        _ = planner.entered(entry(1), place: place(1), monitoringActive: true)
        let two = planner.entered(entry(2), place: place(2), monitoringActive: true)
        #expect(two?.title == "Estás cerca de 2 lugares")
        let three = planner.entered(entry(3), place: place(3), monitoringActive: true)
        #expect(three?.title == "Estás cerca de 3 lugares")
    }
}
