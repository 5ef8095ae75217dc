import Testing

@testable import FaroCore

@Suite struct CatalogSyncSchedulerTests {
    let beacon = BeaconIdentity(uuid: BeaconUUID(high: 1, low: 2), major: 7, minor: 42)
    let other = BeaconIdentity(uuid: BeaconUUID(high: 1, low: 2), major: 7, minor: 43)

    /// A scheduler whose retries have no jitter worth speaking of (the seed is fixed).
    func scheduler(_ change: (inout CatalogSyncSettings) -> Void = { _ in }) -> CatalogSyncScheduler {
        var settings = CatalogSyncSettings()
        change(&settings)
        return CatalogSyncScheduler(settings: settings)
    }

    /// Runs the due action at `now` with `outcome`; returns the action.
    @discardableResult
    func run(
        _ s: inout CatalogSyncScheduler, at now: Double, _ outcome: CatalogAttemptOutcome,
        known: Set<BeaconIdentity> = []
    ) -> CatalogSyncScheduler.Action? {
        guard let action = s.nextAction(at: now) else { return nil }
        s.begin(action, at: now)
        s.finished(outcome, at: now, isKnown: known.contains)
        return action
    }

    @Test func pullsAtStartThenEveryPeriod() {
        var s = scheduler()
        #expect(s.nextAction(at: 0) == nil && s.nextWake == nil)
        s.handle(.start, at: 0)
        #expect(run(&s, at: 0, .pulled(CatalogPullReport())) == .pull)
        #expect(s.reachability == .reachable)
        #expect(s.nextWake == 900)
        #expect(s.nextAction(at: 899) == nil)
        #expect(s.nextAction(at: 900) == .pull)
    }

    @Test func failuresBackOffAndTheNetworkComingBackRetriesAtOnce() throws {
        var s = scheduler()
        s.handle(.start, at: 0)
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<8 {
            #expect(run(&s, at: now, .unreachable("connection refused")) == .pull)
            let next = try #require(s.nextWake)
            waits.append(next - now)
            #expect(s.nextAction(at: next - 0.01) == nil)  // nothing before the retry: no hot loop
            now = next
        }
        #expect(s.reachability == .unreachable(reason: "connection refused"))
        #expect(waits.first.map { (2.5...5).contains($0) } == true)  // 5 s with equal jitter
        #expect(waits.last.map { (150...300).contains($0) } == true)  // capped at 5 minutes
        #expect(zip(waits, waits.dropFirst()).prefix(5).allSatisfy { $0 < $1 * 1.01 || $1 >= 150 })
        // GIO says the network is back: pull now, and success forgets the failures.
        s.handle(.networkAvailable, at: now + 1)
        #expect(run(&s, at: now + 1, .pulled(CatalogPullReport())) == .pull)
        #expect(s.reachability == .reachable && s.nextWake == now + 1 + 900)
    }

    @Test func anUnknownBeaconBringsAPullForwardButNotTooOften() throws {
        var s = scheduler()
        s.handle(.start, at: 0)
        run(&s, at: 0, .pulled(CatalogPullReport()))
        // Sighted 10 s after the last pull: the pull comes 30 s after that pull, not at once.
        s.handle(.unknownBeacon(beacon), at: 10)
        #expect(s.nextAction(at: 10) == nil)
        #expect(s.nextWake == 30)
        run(&s, at: 30, .pulled(CatalogPullReport()))  // the catalog still does not name it
        // Sighted again at once: asked again only after the backoff (60 s, with jitter: 30–60 s).
        s.handle(.unknownBeacon(beacon), at: 31)
        #expect(s.nextWake == 930)
        let retryAt = 30 + 60.0
        s.handle(.unknownBeacon(beacon), at: retryAt)
        #expect(try #require(s.nextWake) <= retryAt)
        run(&s, at: retryAt, .pulled(CatalogPullReport()), known: [beacon])
        #expect(s.unknownBeacons.isEmpty)
    }

    @Test func theSetOfUnknownBeaconsIsBounded() {
        var s = scheduler { $0.maxUnknownBeacons = 3 }
        for minor in 0..<10 {
            s.handle(
                .unknownBeacon(BeaconIdentity(uuid: beacon.uuid, major: 1, minor: UInt16(minor))), at: Double(minor))
        }
        #expect(s.unknownBeacons.count == 3)
        #expect(s.unknownBeacons.map(\.minor).sorted() == [7, 8, 9])
    }

    @Test func whereListingIsRefusedBeaconsAreLookedUpAndRetriedOnceReachable() throws {
        var s = scheduler()
        s.handle(.start, at: 0)
        run(&s, at: 0, .listingRefused(status: 403))
        #expect(!s.listingAllowed && s.reachability == .reachable)
        #expect(s.nextAction(at: 1) == nil)
        s.handle(.unknownBeacon(beacon), at: 5)
        s.handle(.unknownBeacon(other), at: 6)
        #expect(s.nextAction(at: 6) == .lookUp([beacon, other]))
        // The backend went away during the lookup: retried with backoff, not before.
        run(&s, at: 6, .unreachable("timeout"))
        let retry = try #require(s.nextWake)
        #expect(retry > 6 && s.nextAction(at: retry - 0.01) == nil)
        // The network is back: both are looked up again at once; one is found, the other is not in the catalog.
        s.handle(.networkAvailable, at: 7)
        #expect(
            run(&s, at: 7, .lookedUp(found: [beacon], missing: [other]), known: [beacon]) == .lookUp([beacon, other]))
        #expect(s.unknownBeacons == [other])
        #expect(s.nextAction(at: 8) == nil)  // the missing one waits its backoff
        #expect(s.nextAction(at: 900) == .pull)  // and listing is asked for again every period
    }

    @Test func aRefusedAppKeyWaitsForTheConfiguration() {
        var s = scheduler()
        s.handle(.start, at: 0)
        run(&s, at: 0, .keyRefused("HTTP 401"))
        #expect(s.reachability == .appKeyRefused(reason: "HTTP 401"))
        s.handle(.networkAvailable, at: 1)
        s.handle(.unknownBeacon(beacon), at: 2)
        #expect(s.nextAction(at: 3) == nil)
        s.handle(.configurationChanged, at: 4)
        #expect(s.nextAction(at: 4) == .pull)
        #expect(s.reachability == .unknown)
    }

    @Test func aMisconfiguredBackendIsAskedAgainAtThePeriodNotInALoop() {
        var s = scheduler()
        s.handle(.start, at: 0)
        run(&s, at: 0, .misconfigured("table beacons not found on the backend (HTTP 404)"))
        #expect(s.reachability == .unreachable(reason: "table beacons not found on the backend (HTTP 404)"))
        #expect(s.nextWake == 900)
    }

    @Test func theNetworkComingBackDuringAFailingPullRetriesRightAfterIt() {
        var s = scheduler()
        s.handle(.start, at: 0)
        s.begin(.pull, at: 0)
        s.handle(.networkAvailable, at: 1)
        #expect(s.nextAction(at: 1) == nil)  // one attempt at a time
        s.finished(.unreachable("refused"), at: 2, isKnown: { _ in false })
        #expect(s.nextAction(at: 2) == .pull)
    }

    @Test func settingsComeFromTheEnvironmentWhenValid() {
        let s = CatalogSyncSettings(environment: [
            "FARO_CATALOG_SYNC_MINUTES": "5", "FARO_CATALOG_PAGE_SIZE": "200", "FARO_CATALOG_SIGHTING_SECONDS": "2",
        ])
        #expect(s.period == 300 && s.pageSize == 200 && s.sightingInterval == 2)
        let bad = CatalogSyncSettings(environment: [
            "FARO_CATALOG_SYNC_MINUTES": "0", "FARO_CATALOG_PAGE_SIZE": "5000", "FARO_CATALOG_SIGHTING_SECONDS": "x",
        ])
        #expect(bad == CatalogSyncSettings())
    }
}

@Suite struct CatalogIndexTests {
    let uuid = BeaconUUID(high: 0xFA20, low: 1)
    let stranger = BeaconUUID(high: 0xE2C5, low: 2)

    func place(_ id: String, _ uuid: BeaconUUID?, _ minor: UInt16, _ name: String) -> CatalogPlace {
        CatalogPlace(
            identity: BeaconIdentity(uuid: uuid ?? CatalogPlace.unspecifiedUUID, major: 100, minor: minor),
            cliente: name, titulo: "t", url: "u", id: id, anyUUID: uuid == nil)
    }

    @Test func aRowWithTheBeaconsUUIDWinsOverAUUIDLessOne() {
        let index = CatalogIndex([place("any", nil, 1, "Cualquiera"), place("own", uuid, 1, "Propio")])
        let mine = BeaconIdentity(uuid: uuid, major: 100, minor: 1)
        let theirs = BeaconIdentity(uuid: stranger, major: 100, minor: 1)
        #expect(index.place(for: mine)?.cliente == "Propio")
        #expect(index.place(for: theirs)?.cliente == "Cualquiera")
        #expect(index.place(for: theirs)?.identity == theirs)  // bound to the sighted beacon
        #expect(index.place(for: BeaconIdentity(uuid: uuid, major: 100, minor: 2)) == nil)
        #expect(index.regions.map(\.identifier) == ["\(uuid)/100/1"])
        #expect(index.region(for: theirs)?.contains(theirs) == true)
    }

    @Test func containsAnswersExactlyWhenAPlaceIsFound() {
        let index = CatalogIndex([
            place("any", nil, 1, "Cualquiera"), place("own", uuid, 2, "Propio"), place("both-own", uuid, 3, "A"),
            place("both-any", nil, 3, "B"),
        ])
        for minor: UInt16 in 0...4 {
            for u in [uuid, stranger, CatalogPlace.unspecifiedUUID] {
                let beacon = BeaconIdentity(uuid: u, major: 100, minor: minor)
                #expect(index.contains(beacon) == (index.place(for: beacon) != nil))
            }
        }
        #expect(index.contains(BeaconIdentity(uuid: stranger, major: 100, minor: 1)))
        #expect(!index.contains(BeaconIdentity(uuid: stranger, major: 100, minor: 2)))
        #expect(index.contains(BeaconIdentity(uuid: uuid, major: 100, minor: 2)))
        #expect(!index.contains(BeaconIdentity(uuid: uuid, major: 101, minor: 2)))
        #expect(!CatalogIndex().contains(BeaconIdentity(uuid: uuid, major: 100, minor: 2)))
    }

    @Test func changesNameTheSightedBeaconsWhosePlaceChanged() {
        let a = BeaconIdentity(uuid: uuid, major: 100, minor: 1)
        let b = BeaconIdentity(uuid: uuid, major: 100, minor: 2)
        let c = BeaconIdentity(uuid: uuid, major: 100, minor: 3)
        let old = CatalogIndex([place("1", uuid, 1, "Uno"), place("3", uuid, 3, "Tres")])
        let new = CatalogIndex([place("1", uuid, 1, "Uno"), place("2", uuid, 2, "Dos")])
        #expect(new.changes(from: old, among: [a, b, c]) == [b, c])
    }
}
