import FaroApp
import FaroCore
import Foundation
import Testing

/// Muted places kept in memory, as the profile database keeps them (most recently muted first, one per key).
@MainActor
final class MemoryMutedPlaceStore: MutedPlaceStore {
    var places: [MutedPlace] = []
    var failing = false

    func mutedPlaces() throws(ProfileStoreError) -> [MutedPlace] {
        if failing { throw ProfileStoreError(.other, detail: "disk I/O error") }
        return places.sorted { $0.mutedAt > $1.mutedAt }
    }

    func mute(_ place: MutedPlace) throws(ProfileStoreError) {
        if failing { throw ProfileStoreError(.other, detail: "disk I/O error") }
        places.removeAll { $0.key == place.key }
        places.append(place)
    }

    func unmute(key: String) throws(ProfileStoreError) -> Bool {
        let before = places.count
        places.removeAll { $0.key == key }
        return places.count < before
    }
}

/// The visits monitoring records (entries only).
@MainActor
final class VisitLog: VisitRecorder {
    private(set) var entered: [String] = []
    func entered(regionID: String, place: CatalogPlace, at time: Double) { entered.append(place.cliente) }
    func ranged(regionID: String, distance: Double) {}
    func left(regionID: String, at time: Double) {}
    func leftAll(at time: Double) {}
}

@Suite("Who may notify")
struct PlaceNotificationRuleTests {
    @Test func aMutedPlaceNeverNotifies() {
        for setting in NotifyPlaces.allCases {
            for saved in [false, true] {
                #expect(!PlaceNotificationRule.mayNotify(setting: setting, muted: true, hasSavedPage: saved))
            }
        }
    }

    @Test func theSettingDecidesForPlacesThatAreNotMuted() {
        #expect(PlaceNotificationRule.mayNotify(setting: .all, muted: false, hasSavedPage: false))
        #expect(PlaceNotificationRule.mayNotify(setting: .all, muted: false, hasSavedPage: true))
        #expect(!PlaceNotificationRule.mayNotify(setting: .saved, muted: false, hasSavedPage: false))
        #expect(PlaceNotificationRule.mayNotify(setting: .saved, muted: false, hasSavedPage: true))
        #expect(!PlaceNotificationRule.mayNotify(setting: .none, muted: false, hasSavedPage: true))
    }

    @Test func theStoredValueReadsAsAllWhenMissingOrUnknown() {
        #expect(NotifyPlaces(storedValue: nil) == .all)
        #expect(NotifyPlaces(storedValue: "favourites") == .all)
        #expect(NotifyPlaces(storedValue: "saved") == .saved)
        #expect(NotifyPlaces(storedValue: "none") == .none)
    }

    @Test func aPlaceIsMutedByItsRowIdOrByItsBeaconWithoutOne() {
        let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)
        let identity = BeaconIdentity(uuid: uuid, major: 100, minor: 2)
        let row = CatalogPlace(identity: identity, cliente: "Librería", titulo: "Libros", url: "u", id: "row-7")
        #expect(MutedPlace.key(for: row) == "row-7")
        let bare = CatalogPlace(identity: identity, cliente: "Librería", titulo: "Libros", url: "u")
        #expect(MutedPlace.key(for: bare) == "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1/100/2")
        let muted = MutedPlace(row, at: 42)
        #expect(muted == MutedPlace(key: "row-7", business: "Librería", title: "Libros", mutedAt: 42))
    }
}

@MainActor
@Suite("Muted places")
struct MutedPlacesTests {
    let store = MemoryMutedPlaceStore()
    let cafe = CatalogPlace(
        identity: BeaconIdentity(uuid: BeaconUUID(high: 1, low: 2), major: 1, minor: 1), cliente: "Café",
        titulo: "T1", url: "https://example.com/1", id: "cafe")

    @Test func muteAndUnmuteTellEveryObserverAndFollowTheStore() throws {
        let muted = MutedPlaces(store: store, clock: { 1000 })
        var heard = 0
        let observation = muted.observe { heard += 1 }
        try muted.mute(cafe)
        #expect(muted.isMuted(cafe))
        #expect(muted.all == [MutedPlace(key: "cafe", business: "Café", title: "T1", mutedAt: 1000)])
        #expect(heard == 1)
        try muted.unmute(cafe)
        #expect(!muted.isMuted(cafe))
        #expect(heard == 2)
        // Another process cleared the store: read at once, and observers hear of it when told to reload.
        try muted.mute(cafe)
        store.places = []
        #expect(!muted.isMuted(cafe))
        muted.reload()
        #expect(heard == 4)
        observation.cancel()
        try muted.mute(cafe)
        #expect(heard == 4)
    }

    @Test func aStoreThatFailsSaysSoAndMutesNothing() {
        let muted = MutedPlaces(store: store, clock: { 1000 })
        store.failing = true
        #expect(throws: ProfileStoreError.self) { try muted.mute(cafe) }
        #expect(!muted.isMuted(cafe))
        #expect(muted.all.isEmpty)
    }
}

/// The rule where zone notifications are planned: a muted place, or one `notify-places` leaves out, is still
/// entered (listed and visited) but raises no notification.
@MainActor
@Suite("Monitoring: who may notify")
struct MonitoringNotifyPlacesTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)
    let harness = MonitoringHarness()

    func place(_ minor: UInt16, _ name: String) -> CatalogPlace {
        CatalogPlace(
            identity: BeaconIdentity(uuid: uuid, major: 7, minor: minor), cliente: name, titulo: "Sitio \(minor)",
            url: "https://example.com/\(minor)", id: "row-\(minor)")
    }

    func sight(_ minor: UInt16, at time: Double) {
        harness.source.emit(
            .sighting(
                BeaconSighting(
                    beacon: IBeacon(uuid: uuid, major: 7, minor: minor, measuredPower: -59),
                    address: BluetoothAddress(value: UInt64(minor)), rssi: -60, time: time)))
    }

    var notifications: [ZoneNotification] {
        harness.updates.compactMap { if case .notify(let n) = $0 { n } else { nil } }
    }

    func eventually(_ what: String, _ condition: () -> Bool) async {
        for _ in 0..<500 where !condition() { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(condition(), "\(what)")
    }

    @Test func aMutedPlaceIsVisitedButNotAnnouncedWhileAnotherIs() async throws {
        harness.places.places = [place(1, "Café"), place(2, "Librería")]
        try #require(harness.service.mutedPlaces).mute(place(1, "Café"))
        harness.service.start()
        sight(1, at: 10)
        sight(2, at: 11)
        await eventually("both visited") { harness.visits.entered.count == 2 }
        await eventually("the librería announced") { notifications.count == 1 }
        #expect(harness.visits.entered == ["Café", "Librería"])
        #expect(notifications.map(\.title) == ["You are near Librería"])
        #expect(notifications.flatMap(\.places).map(\.cliente) == ["Librería"])
    }

    @Test func noneSilencesEveryPlaceAndSavedOnlyThoseWithAPage() async {
        harness.places.places = [place(1, "Café"), place(2, "Librería"), place(3, "Cine")]
        harness.settings.values[SettingsKey.notifyPlaces.rawValue] = "none"
        harness.savedURLs = ["https://example.com/3"]
        harness.service.start()
        sight(1, at: 10)
        await eventually("visited with none") { harness.visits.entered.count == 1 }
        // Followed at the next entry, without a restart.
        harness.settings.changeFromOutside(SettingsKey.notifyPlaces.rawValue, "saved")
        sight(2, at: 11)
        sight(3, at: 11)
        await eventually("all visited") { harness.visits.entered.count == 3 }
        await eventually("the saved place announced") { notifications.count == 1 }
        #expect(notifications.map(\.title) == ["You are near Cine"])
        #expect(!harness.service.mayNotify(place(1, "Café")))
        harness.settings.changeFromOutside(SettingsKey.notifyPlaces.rawValue, "all")
        #expect(harness.service.mayNotify(place(1, "Café")))
    }

    /// An entry that raised no notification starts no cool-down: right after un-muting (or after `notify-places`
    /// lets the place notify again) the next entry is notified, while an entry that was notified still silences
    /// the re-entries within its cool-down (600 s here).
    @Test func anEntryLeftOutStartsNoCoolDown() async throws {
        harness.places.places = [place(1, "Café"), place(2, "Librería")]
        let muted = try #require(harness.service.mutedPlaces)
        try muted.mute(place(1, "Café"))
        harness.service.start()
        sight(1, at: 10)
        await eventually("the muted café visited") { harness.visits.entered.count == 1 }
        try muted.unmute(place(1, "Café"))
        // Left (scanning paused and resumed) and entered again 10 s later.
        harness.service.pauseForAnHour()
        harness.service.apply(.on)
        sight(1, at: 20)
        await eventually("the café announced after un-muting") { notifications.count == 1 }
        #expect(notifications.map(\.title) == ["You are near Café"])

        harness.settings.changeFromOutside(SettingsKey.notifyPlaces.rawValue, "none")
        sight(2, at: 30)
        await eventually("the librería visited with none") { harness.visits.entered.count == 3 }
        harness.settings.changeFromOutside(SettingsKey.notifyPlaces.rawValue, "all")
        harness.service.notificationClosed()
        harness.service.pauseForAnHour()
        harness.service.apply(.on)
        sight(2, at: 40)
        sight(1, at: 41)
        await eventually("both entered again") { harness.visits.entered.count == 5 }
        await eventually("the librería announced once it may notify") { notifications.count == 2 }
        // The café was notified at 20: its entry at 41 is within that cool-down.
        #expect(notifications.map(\.title) == ["You are near Café", "You are near Librería"])
    }

    @Test func aPlaceMutedWhileOnTheNotificationLeavesItsLaterUpdates() async throws {
        harness.places.places = [place(1, "Café"), place(2, "Librería")]
        harness.service.start()
        sight(1, at: 10)
        await eventually("the café announced") { notifications.count == 1 }
        try #require(harness.service.mutedPlaces).mute(place(1, "Café"))
        harness.service.placeMuted(place(1, "Café"))
        sight(2, at: 11)
        await eventually("the librería announced") { notifications.count == 2 }
        #expect(notifications.last?.title == "You are near Librería")
        #expect(notifications.last?.places.map(\.cliente) == ["Librería"])
        #expect(notifications.last?.replacesShown == true)
    }
}
