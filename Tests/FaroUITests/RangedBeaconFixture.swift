import FaroCore

/// A beacon as the session ranges it, for the list page's tests: heard at −60 dBm, `distance` metres away, with a
/// short history (its address made from its major and minor).
func rangedBeacon(uuid: BeaconUUID, major: UInt16, minor: UInt16, distance: Double) -> RangedBeacon {
    let id = BeaconIdentity(uuid: uuid, major: major, minor: minor)
    return RangedBeacon(
        identity: id, measuredPower: -59, address: BluetoothAddress(value: UInt64(major) << 16 | UInt64(minor)),
        rssi: -60, smoothedRSSI: -60, distance: distance, proximity: Proximity(distance: distance),
        firstSeen: 0, lastSeen: 1, history: DistanceHistory([3, 2.5]))
}
