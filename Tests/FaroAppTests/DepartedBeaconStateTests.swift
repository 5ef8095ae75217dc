import FaroApp
import FaroCore
import Testing

/// Memory levels off: every container a beacon passes through lets go of it once it has left, or holds a bounded
/// number of beacons. Each test passes a churn of short-lived beacons (as a busy street does) and counts what is
/// left; none measures memory.
@Suite("Departed beacons leave nothing behind")
struct DepartedBeaconStateTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)
    let stranger = BeaconUUID(high: 0x0123_4567_89AB_CDEF, low: 0x0123_4567_89AB_CDEF)

    func sighting(_ uuid: BeaconUUID, _ major: UInt16, _ minor: UInt16, at time: Double) -> BeaconSighting {
        BeaconSighting(
            beacon: IBeacon(uuid: uuid, major: major, minor: minor, measuredPower: -59),
            address: BluetoothAddress(value: UInt64(major) << 16 | UInt64(minor)), rssi: -70, time: time)
    }

    /// 40 beacons that stay, and `churn` waves of 300 that come for 30 s each, one every half second.
    func street(waves: Int) -> (sightings: [BeaconSighting], end: Double) {
        var out: [BeaconSighting] = []
        var t = 0.0
        for wave in 0..<waves {
            for i in 0..<300 {
                let start = t + Double(i) * 0.5
                for s in stride(from: start, to: start + 30, by: 1) {
                    out.append(sighting(stranger, UInt16(1000 + wave), UInt16(i + 1), at: s))
                }
            }
            t += 300 * 0.5 + 30
        }
        for minor in 1...40 {
            for s in stride(from: 0.0, to: t + 60, by: 1) { out.append(sighting(uuid, 400, UInt16(minor), at: s)) }
        }
        return (out.sorted { $0.time < $1.time }, t + 60)
    }

    @Test func theRangingEngineAndTheSessionForgetBeaconsThatLeft() {
        var session = BeaconSession(
            configuration: BeaconSessionConfiguration(
                ranging: RangingConfiguration(exitPeriod: 30, readings: ReadingHistoryLimits())))
        let (sightings, end) = street(waves: 2)
        var next = 0.0
        var peak = 0
        for s in sightings {
            while s.time >= next {
                session.tick(at: next) { _ in }
                peak = max(peak, session.inRange)
                next += 1
            }
            session.observe(s) { _ in }
        }
        session.tick(at: end) { _ in }
        #expect(peak > 100)
        #expect(session.inRange == 40)
        #expect(session.lastSnapshot.beacons.count == 40)
        #expect(session.readings(of: BeaconIdentity(uuid: stranger, major: 1000, minor: 1)) == nil)
        #expect(session.readings(of: BeaconIdentity(uuid: uuid, major: 400, minor: 1)) != nil)
    }

    @Test func theRegionMonitorKeepsABoundedMembershipCache() {
        let place = Region(identifier: "p", uuid: uuid, major: 400, minor: 1)
        var monitor = RegionMonitor(regions: [place])
        for i in 0..<3000 {
            _ = monitor.observe(BeaconIdentity(uuid: stranger, major: UInt16(i / 100), minor: UInt16(i % 100)), at: 0)
        }
        #expect(monitor.cachedIdentities <= RegionMonitor.membershipLimit)
        // Starting afresh loses nothing: the place is still entered by its beacon.
        let events = monitor.observe(BeaconIdentity(uuid: uuid, major: 400, minor: 1), at: 1)
        #expect(events.map(\.kind) == [.enter])
    }

    @Test func theSessionKeepsABoundedSetOfBeaconsCheckedAgainstRowsWithoutUUID() {
        var session = BeaconSession()
        let anyUUID = CatalogPlace(
            identity: BeaconIdentity(uuid: uuid, major: 7, minor: 7), cliente: "C", titulo: "T",
            url: "https://example.mx/", anyUUID: true)
        session.setCatalog(CatalogIndex([anyUUID]))
        for i in 0..<3000 { session.observe(sighting(stranger, UInt16(i / 100), UInt16(i % 100), at: 0)) { _ in } }
        #expect(session.checkedBeacons <= 1024)
        // A beacon of the row's major/minor under any UUID still becomes its region.
        var entered = false
        let third = BeaconUUID(high: 0x1111_2222_3333_4444, low: 0x5555_6666_7777_8888)
        session.observe(sighting(third, 7, 7, at: 1)) { update in
            if case .region(let event) = update, event.kind == .enter { entered = true }
        }
        #expect(entered)
    }

    @Test func theListBuilderForgetsRowsOfBeaconsThatLeft() {
        var builder = BeaconListBuilder(localize: .english)
        func ranged(_ major: UInt16, _ minor: UInt16) -> RangedBeacon {
            RangedBeacon(
                identity: BeaconIdentity(uuid: stranger, major: major, minor: minor), measuredPower: -59,
                address: BluetoothAddress(value: UInt64(minor)), rssi: -60, smoothedRSSI: -60, distance: 3,
                proximity: .near, firstSeen: 0, lastSeen: 1, history: DistanceHistory([3]))
        }
        let crowd = (1...40).map { ranged(400, $0) }
        let churn = (1...300).map { ranged(1000, $0) }
        _ = builder.update(
            snapshot: RangingSnapshot(time: 1, beacons: crowd + churn), catalog: CatalogIndex(), state: .scanning)
        #expect(builder.rememberedCount == 340)
        _ = builder.update(
            snapshot: RangingSnapshot(time: 2, beacons: crowd), catalog: CatalogIndex(), state: .scanning)
        #expect(builder.rememberedCount == 40)
    }

    @Test func theCatalogSchedulerKeepsABoundedListOfUnknownBeacons() {
        var scheduler = CatalogSyncScheduler()
        for i in 0..<600 {
            scheduler.handle(
                .unknownBeacon(BeaconIdentity(uuid: stranger, major: 1000, minor: UInt16(i))), at: Double(i))
        }
        #expect(scheduler.unknownBeacons.count <= scheduler.settings.maxUnknownBeacons)
    }
}
