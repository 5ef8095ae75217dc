import FaroApp
import FaroCore
import Foundation
import Testing

@Suite("Monitoring preference and zone notifications")
struct MonitoringTests {
    @Test func storedFormRoundTrips() {
        for value in [MonitoringPreference.on, .off, .paused(until: 1_800_000_000)] {
            #expect(MonitoringPreference(storedValue: value.storedValue) == value)
        }
        #expect(MonitoringPreference(storedValue: nil) == .on)
        #expect(MonitoringPreference(storedValue: "paused:soon") == .on)
    }

    @Test func pausesExpire() {
        let now = 1_800_000_000.0
        let hour = MonitoringPreference.pausedForAnHour(from: now)
        #expect(!hour.isActive(at: now + 3599))
        #expect(hour.isActive(at: now + 3600))
        #expect(hour.normalized(at: now + 3600) == .on)
        #expect(hour.normalized(at: now) == hour)
        #expect(!MonitoringPreference.off.isActive(at: now))
    }

    @Test func untilTomorrowIsTheNextLocalMidnight() throws {
        let mexico = try #require(TimeZone(identifier: "America/Mexico_City"))
        // 2026-11-29 23:30 in Mexico City (UTC−6) is 2026-11-30 05:30 UTC.
        let now = 1_796_016_600.0
        guard case .paused(let until) = MonitoringPreference.pausedUntilTomorrow(from: now, timeZone: mexico) else {
            Issue.record("not paused")
            return
        }
        #expect(until - now == 1800)
    }

    let uuid = BeaconUUID(high: 1, low: 2)
    func place(_ minor: UInt16, _ name: String) -> CatalogPlace {
        CatalogPlace(
            identity: BeaconIdentity(uuid: uuid, major: 1, minor: minor), cliente: name, titulo: "T\(minor)",
            url: "http://127.0.0.1/\(minor)")
    }
    func enter(_ minor: UInt16, announce: Bool = true) -> RegionEvent {
        RegionEvent(
            kind: .enter, region: Region(identifier: "\(minor)", uuid: uuid), time: 0,
            beacon: BeaconIdentity(uuid: uuid, major: 1, minor: minor), announce: announce)
    }

    @Test func entriesMergeIntoOneNotification() {
        var planner = ZoneNotificationPlanner(localize: .english)
        let first = planner.entered(enter(1), place: place(1, "Café"), monitoringActive: true)
        #expect(first?.title == "You are near Café")
        #expect(first?.body == "T1")
        #expect(first?.replacesShown == false)
        let second = planner.entered(enter(2), place: place(2, "Librería"), monitoringActive: true)
        #expect(second?.title == "You are near 2 places")
        #expect(second?.body == "Librería, Café")
        #expect(second?.replacesShown == true)
        planner.closed()
        let third = planner.entered(enter(3), place: place(3, "Cine"), monitoringActive: true)
        #expect(third?.replacesShown == false)
        #expect(third?.places.count == 1)
    }

    @Test func silentWhenCoolingDownInactiveOrUnknown() {
        var planner = ZoneNotificationPlanner(localize: .english)
        #expect(planner.entered(enter(1, announce: false), place: place(1, "Café"), monitoringActive: true) == nil)
        #expect(planner.entered(enter(1), place: place(1, "Café"), monitoringActive: false) == nil)
        #expect(planner.entered(enter(1), place: nil, monitoringActive: true) == nil)
        #expect(planner.places.isEmpty)
    }
}

@Suite("Outbox status line")
struct OutboxStatusTests {
    @Test func wordsForCounts() {
        #expect(outboxStatusText(pending: 0, failed: 0, localize: .english) == nil)
        #expect(outboxStatusText(pending: 1, failed: 0, localize: .english) == "1 submission pending")
        #expect(
            outboxStatusText(pending: 3, failed: 2, localize: .english)
                == "3 submissions pending · 2 submissions refused by the server")
        let es = Localizer { $0 == "%@ submissions pending" ? "%@ envíos pendientes" : $0 }
        #expect(outboxStatusText(pending: 2, failed: 0, localize: es) == "2 envíos pendientes")
    }
}
