import Testing

@testable import FaroCore

@Suite("Region monitoring")
struct RegionMonitorTests {
    let uuid = BeaconUUID(high: 1, low: 2)
    let other = BeaconUUID(high: 3, low: 4)

    func id(_ major: UInt16, _ minor: UInt16, uuid: BeaconUUID? = nil) -> BeaconIdentity {
        BeaconIdentity(uuid: uuid ?? self.uuid, major: major, minor: minor)
    }

    @Test func wildcards() {
        let any = Region(identifier: "all", uuid: uuid)
        let major = Region(identifier: "m", uuid: uuid, major: 100)
        let exact = Region(identifier: "e", uuid: uuid, major: 100, minor: 2)
        #expect(any.contains(id(7, 7)))
        #expect(!any.contains(id(7, 7, uuid: other)))
        #expect(major.contains(id(100, 9)) && !major.contains(id(101, 9)))
        #expect(exact.contains(id(100, 2)) && !exact.contains(id(100, 3)))
    }

    @Test func enterOnFirstSightingExitAfterThePeriod() {
        var monitor = RegionMonitor(
            regions: [Region(identifier: "shop", uuid: uuid, major: 100)],
            configuration: RegionMonitorConfiguration(exitPeriod: 30, coolDown: 600))
        let first = monitor.observe(id(100, 1), at: 5)
        #expect(first.map(\.kind) == [.enter])
        #expect(first[0].beacon == id(100, 1))
        #expect(first[0].announce)
        #expect(monitor.observe(id(100, 2), at: 6).isEmpty)  // already inside
        #expect(monitor.tick(at: 36).isEmpty)  // 30 s since the last sighting, not more
        let exit = monitor.tick(at: 36.5)
        #expect(exit.map(\.kind) == [.exit])
        #expect(exit[0].region.identifier == "shop")
        #expect(!monitor.isInside("shop"))
    }

    @Test func reentryInsideTheCoolDownIsSilent() {
        var monitor = RegionMonitor(
            regions: [Region(identifier: "shop", uuid: uuid)],
            configuration: RegionMonitorConfiguration(exitPeriod: 10, coolDown: 600))
        #expect(monitor.observe(id(1, 1), at: 0).first?.announce == true)
        #expect(monitor.tick(at: 11).first?.kind == .exit)
        let back = monitor.observe(id(1, 1), at: 100)
        #expect(back.first?.kind == .enter)
        #expect(back.first?.announce == false)
        #expect(monitor.tick(at: 111).first?.kind == .exit)
        // 600 s after the last announced entry (t=0), an entry is announced again.
        #expect(monitor.observe(id(1, 1), at: 600).first?.announce == true)
    }

    @Test func aWithdrawnAnnouncementStartsNoCoolDown() {
        var monitor = RegionMonitor(
            regions: [Region(identifier: "shop", uuid: uuid)],
            configuration: RegionMonitorConfiguration(exitPeriod: 10, coolDown: 600))
        #expect(monitor.observe(id(1, 1), at: 0).first?.announce == true)
        // The caller showed nothing for it (a muted place): the next entry is announced.
        monitor.withdrawAnnouncement(of: "shop", at: 0)
        _ = monitor.tick(at: 11)
        #expect(monitor.observe(id(1, 1), at: 100).first?.announce == true)
        _ = monitor.tick(at: 111)
        // That one was shown: the cool-down counts from it. Withdrawing an entry that was not announced, or one of
        // another region, changes nothing.
        #expect(monitor.observe(id(1, 1), at: 200).first?.announce == false)
        monitor.withdrawAnnouncement(of: "shop", at: 200)
        monitor.withdrawAnnouncement(of: "elsewhere", at: 100)
        _ = monitor.tick(at: 211)
        #expect(monitor.observe(id(1, 1), at: 650).first?.announce == false)
        _ = monitor.tick(at: 661)
        // Announced at 700 and withdrawn: the cool-down counts from 100 again.
        #expect(monitor.observe(id(1, 1), at: 700).first?.announce == true)
        monitor.withdrawAnnouncement(of: "shop", at: 700)
        _ = monitor.tick(at: 711)
        #expect(monitor.observe(id(1, 1), at: 720).first?.announce == true)
    }

    @Test func oneSightingCanEnterSeveralRegions() {
        var monitor = RegionMonitor(regions: [
            Region(identifier: "street", uuid: uuid),
            Region(identifier: "bakery", uuid: uuid, major: 100, minor: 3),
            Region(identifier: "elsewhere", uuid: other),
        ])
        let events = monitor.observe(id(100, 3), at: 1)
        #expect(Set(events.map(\.region.identifier)) == ["street", "bakery"])
    }

    @Test func pipelineEmitsRegionEvents() {
        var pipeline = BeaconPipeline(
            ranging: RangingEngine(strategy: .faroDefault),
            regions: RegionMonitor(regions: [Region(identifier: "x", uuid: uuid)]))
        var events: [RegionEvent] = []
        let beacon = IBeacon(uuid: uuid, major: 1, minor: 1, measuredPower: -59)
        pipeline.accept(beacon, address: BluetoothAddress(value: 1), rssi: -60, at: 0) { events.append($0) }
        _ = pipeline.tick(at: 31) { events.append($0) }
        #expect(events.map(\.kind) == [.enter, .exit])
    }
}

@Suite("Region monitoring: regions added while running")
struct RegionMonitorAddTests {
    @Test func aRegionAddedLaterIsEnteredOnTheNextSighting() {
        let uuid = BeaconUUID(high: 9, low: 9)
        let beacon = BeaconIdentity(uuid: uuid, major: 1, minor: 1)
        var monitor = RegionMonitor(regions: [])
        #expect(monitor.observe(beacon, at: 0).isEmpty)
        monitor.add(Region(identifier: "cafe", uuid: uuid, major: 1, minor: 1))
        monitor.add(Region(identifier: "cafe", uuid: uuid, major: 1, minor: 1))
        #expect(monitor.regions.count == 1)
        #expect(monitor.observe(beacon, at: 1).map(\.region.identifier) == ["cafe"])
    }
}
