import FaroCommandLine
import FaroCore
import FaroStore
import Glibc

/// `faro-bench catalog-lookup`: how long the question asked for every sighted beacon takes once a large catalog is
/// synced (bench/catalog-sync). The local catalog of `source` is read from the profile database as the window reads
/// it, indexed (`CatalogIndex`), and asked for `lookups` beacons, half of them catalogued; each lookup is timed on
/// its own. The same beacons are also asked of SQLite directly (`CatalogRepository.place`), the store's own lookup.
enum CatalogLookupBench {
    static func run(database path: String, source: String, lookups: Int) throws {
        let database: FaroDatabase
        do { database = try FaroDatabase(path: path, durable: false) } catch {
            throw CommandFailure(description: error.description)
        }
        let loadStart = now()
        let places: [CatalogPlace]
        do { places = try database.catalog.places(source: source) } catch {
            throw CommandFailure(description: error.description)
        }
        let index = CatalogIndex(places)
        let loaded = now() - loadStart
        guard !places.isEmpty else { throw CommandFailure(description: "no catalog for \(source) in \(path)") }
        var random = SplitMix64(seed: 42)
        let beacons = (0..<lookups).map { i -> BeaconIdentity in
            let place = places[Int(random.next() % UInt64(places.count))]
            let uuid = place.anyUUID ? BeaconUUID(high: random.next(), low: random.next()) : place.identity.uuid
            // Every other beacon is not catalogued (another minor than any row has with this major, usually).
            let minor = i % 2 == 0 ? place.identity.minor : UInt16(truncatingIfNeeded: random.next())
            return BeaconIdentity(uuid: uuid, major: place.identity.major, minor: minor)
        }
        var found = 0
        var times: [Double] = []
        times.reserveCapacity(lookups)
        for beacon in beacons {
            let start = now()
            let place = index.place(for: beacon)
            times.append(now() - start)
            if place != nil { found += 1 }
        }
        var sqliteTimes: [Double] = []
        for beacon in beacons.prefix(min(lookups, 20_000)) {
            let start = now()
            _ = try? database.catalog.place(source: source, for: beacon)
            sqliteTimes.append(now() - start)
        }
        Output.line(
            "catalog_lookup_places=\(places.count) catalog_lookup_found=\(found) catalog_index_load_s="
                + String(cFormat: "%.3f", loaded))
        Output.line(
            "catalog_lookup_p50_us=\(micro(times, 0.50)) catalog_lookup_p99_us=\(micro(times, 0.99)) "
                + "catalog_lookup_max_us=\(micro(times, 1.0)) catalog_lookup_sqlite_p99_us=\(micro(sqliteTimes, 0.99))")
    }

    /// The `q` quantile of `times` (seconds), in microseconds with two decimals.
    static func micro(_ times: [Double], _ q: Double) -> String {
        let sorted = times.sorted()
        guard !sorted.isEmpty else { return "0" }
        let i = min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)
        return String(cFormat: "%.2f", sorted[max(0, i)] * 1e6)
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
