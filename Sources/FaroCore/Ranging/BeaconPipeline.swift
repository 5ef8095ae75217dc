/// Which sightings the pipeline keeps: an optional UUID allow-list and an RSSI floor.
public struct SightingFilter: Sendable {
    /// Only these UUIDs, or every UUID when nil.
    public var uuids: Set<BeaconUUID>?
    /// Sightings weaker than this (dBm) are dropped; RSSI 127 ("not available") always passes to keep presence.
    public var minimumRSSI: Int8

    public init(uuids: Set<BeaconUUID>? = nil, minimumRSSI: Int8 = -127) {
        self.uuids = uuids
        self.minimumRSSI = minimumRSSI
    }

    @inlinable
    public func accepts(_ beacon: IBeacon, rssi: Int8) -> Bool {
        if rssi != 127, rssi < minimumRSSI { return false }
        if let uuids, !uuids.contains(beacon.uuid) { return false }
        return true
    }
}

/// One advertisement's whole path: decode → filter → ranging and regions. The scanners, replay and the
/// benchmarks all feed advertisements through here.
public struct BeaconPipeline<Filter: RSSIFilter> {
    public var filter: SightingFilter
    public var ranging: RangingEngine<Filter>
    public var regions: RegionMonitor

    public init(filter: SightingFilter = SightingFilter(), ranging: RangingEngine<Filter>, regions: RegionMonitor) {
        self.filter = filter
        self.ranging = ranging
        self.regions = regions
    }

    /// Feeds one advertisement of raw AD structures. Returns why it held no iBeacon, or nil.
    @inlinable
    public mutating func ingest(
        advertisingData data: UnsafeRawBufferPointer, address: BluetoothAddress, rssi: Int8, at time: Double,
        events: (RegionEvent) -> Void
    ) -> IBeaconRejection? {
        let any = AdvertisementDecoder.forEachBeacon(in: data, kind: .ad) { decoded in
            accept(decoded.beacon, address: address, rssi: rssi, at: time, events: events)
        }
        return any ? nil : IBeaconDecoder.rejection(inAdvertisingData: data)
    }

    /// Feeds an iBeacon that a source already decoded (BlueZ hands over manufacturer data by company id).
    @inlinable
    public mutating func accept(
        _ beacon: IBeacon, address: BluetoothAddress, rssi: Int8, at time: Double, events: (RegionEvent) -> Void
    ) {
        guard filter.accepts(beacon, rssi: rssi) else { return }
        ranging.observe(beacon, address: address, rssi: rssi, at: time)
        regions.observe(beacon.identity, at: time, emit: events)
    }

    /// Feeds a sighting a source made (the beacon session's path).
    @inlinable
    public mutating func accept(_ sighting: BeaconSighting, events: (RegionEvent) -> Void) {
        accept(sighting.beacon, address: sighting.address, rssi: sighting.rssi, at: sighting.time, events: events)
    }

    /// Feeds an advertisement of any kind (a replay line); HCI events bring their own address and RSSI.
    public mutating func ingest(_ record: ReplayRecord, events: (RegionEvent) -> Void) -> DecodeFailure? {
        record.data.withUnsafeBytes { p in
            let any = AdvertisementDecoder.forEachBeacon(in: p, kind: record.kind) { decoded in
                accept(
                    BeaconSighting(decoded, heardFrom: record.address, rssi: record.rssi, at: record.time),
                    events: events)
            }
            return any ? nil : AdvertisementDecoder.rejection(of: p, kind: record.kind)
        }
    }

    /// Advances the clock: exits and the ranging snapshot.
    public mutating func tick(at time: Double, events: (RegionEvent) -> Void) -> RangingSnapshot {
        regions.tick(at: time, emit: events)
        return ranging.tick(at: time)
    }
}
