import Testing

@testable import FaroCore

/// `BeaconIdentity` hashes itself for `Dictionary` and `Set` (`_rawHashValue(seed:)`) instead of running
/// `Hasher`; these check what a table needs of it.
@Suite("Beacon identity hashing")
struct BeaconIdentityHashTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)

    func id(_ major: UInt16, _ minor: UInt16, uuid: BeaconUUID? = nil) -> BeaconIdentity {
        BeaconIdentity(uuid: uuid ?? self.uuid, major: major, minor: minor)
    }

    @Test func equalIdentitiesHashEquallyForEverySeed() {
        for seed in [0, 1, -1, 0x1234_5678, Int.max, Int.min] {
            #expect(id(100, 7)._rawHashValue(seed: seed) == id(100, 7)._rawHashValue(seed: seed))
        }
        #expect(id(100, 7).hashValue == id(100, 7).hashValue)
    }

    @Test func oneUUIDsMajorsAndMinorsNeverCollide() {
        for seed in [0, 7, -3] {
            var hashes = Set<Int>()
            for major: UInt16 in [0, 1, 2, 0xFFFF] {
                for minor in 0...0xFFFF { hashes.insert(id(major, UInt16(minor))._rawHashValue(seed: seed)) }
            }
            #expect(hashes.count == 4 * 65536)
        }
    }

    @Test func theSeedChangesTheHash() {
        let hashes = Set([0, 1, 2, 3, 0x5EED].map { id(100, 7)._rawHashValue(seed: $0) })
        #expect(hashes.count == 5)
    }

    @Test func nearbyIdentitiesSpreadOverTheLowBits() {
        // A site's beacons differ in one field by small steps, and UUIDs may differ in one bit; a table's buckets
        // are the hash's low bits.
        let uuids = [uuid, BeaconUUID(high: 0, low: 0), BeaconUUID(high: 0, low: 1)]
        var identities: [BeaconIdentity] = []
        for u in uuids {
            for minor in 0..<1000 { identities.append(id(1, UInt16(minor), uuid: u)) }
            for major in 0..<1000 { identities.append(id(UInt16(major), 1, uuid: u)) }
        }
        let distinct = Set(identities)
        let buckets = 8192
        var used = Set<Int>()
        for identity in distinct { used.insert(identity._rawHashValue(seed: 42) & (buckets - 1)) }
        // Thrown at random, n keys fill about buckets·(1 − e^(−n/buckets)) buckets (about 4,250 of 8,192 here); a
        // weak mix of these regular keys would pile them into far fewer.
        #expect(distinct.count == 5997)
        #expect(used.count > 4000)
    }

    /// Identities someone in radio range could craft against fixed constants: UUIDs whose low half is one value
    /// (it zeroed the product when the hash's keys were public), or pairs whose halves fold to one word (what
    /// `hash(into:)` fed the hasher). With random keys they spread like any others.
    @Test func craftedIdentitiesDoNotPileUp() {
        let zeroing: [BeaconIdentity] = (0..<4096).map {
            id(1, 1, uuid: BeaconUUID(high: UInt64($0) &* 0x1_0000_0001, low: 0xE703_7ED1_A0B4_28DB))
        }
        let folding: [BeaconIdentity] = (0..<4096).map { i -> BeaconIdentity in
            let high = UInt64(i) << 20
            return id(1, 1, uuid: BeaconUUID(high: high, low: 0x1234 ^ (high &* 0x9E37_79B9_7F4A_7C15)))
        }
        for crafted in [zeroing, folding] {
            let raw = Set(crafted.map { $0._rawHashValue(seed: 42) & 4095 })
            let hashed = Set(crafted.map { $0.hashValue & 4095 })
            // At random, 4,096 keys fill about 2,590 of 4,096 buckets; a crafted pile-up fills one.
            #expect(raw.count > 2000 && hashed.count > 2000, "\(raw.count) \(hashed.count)")
        }
    }

    @Test func dictionariesAndSetsKeyedByIdentityBehave() {
        var table: [BeaconIdentity: Int] = [:]
        for minor in 0..<5000 { table[id(UInt16(minor % 7), UInt16(minor))] = minor }
        #expect(table.count == 5000)
        for minor in 0..<5000 { #expect(table[id(UInt16(minor % 7), UInt16(minor))] == minor) }
        #expect(table[id(9, 9)] == nil)
        for minor in stride(from: 0, to: 5000, by: 2) { table[id(UInt16(minor % 7), UInt16(minor))] = nil }
        #expect(table.count == 2500)
        #expect(table[id(1, 1)] == 1)
        #expect(table[id(2, 2)] == nil)
        let set = Set(table.keys)
        #expect(set.count == 2500)
        #expect(set.contains(id(3, 3)))
    }
}
