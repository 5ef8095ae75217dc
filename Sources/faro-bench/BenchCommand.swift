import Dispatch
import FaroCommandLine
import FaroCore
import FaroStore
import FoundationEssentials
import Glibc

/// `faro-bench decode FILE | pipeline | memory | distance`: the measurements behind `make bench`. Each prints `key=value`
/// pairs that the bench script reads and sets side by side with the reference implementations.
enum BenchCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let kind = OptionSpec("--kind ad|msd|hci", "What each line of FILE holds (decode; default ad).")
        static let repeatOption = OptionSpec(
            "--repeat N", "Timed passes (decode: default 7; pipeline: default 5).", range: 1...1000)
        static let beacons = OptionSpec(
            "--beacons N", "Beacons simulated (pipeline: default 1000; memory: default 10000).", range: 1...10_000_000)
        static let adverts = OptionSpec(
            "--adverts N", "Advertisements fed to the pipeline (default 3000000).", range: 1...1e9)
        static let places = OptionSpec(
            "--places N", "Catalogued places (monitoring regions) in the pipeline (default 100).", range: 0...1_000_000)
        static let data = OptionSpec("--data DIR", "The evaluation data for distance (default data/evaluation).")
        static let database = OptionSpec(
            "--database FILE", "catalog-lookup: the profile database a catalog was synced into.")
        static let source = OptionSpec("--source URL", "catalog-lookup: the catalog table's URL (BASE/tables/TABLE).")
        static let lookups = OptionSpec(
            "--lookups N", "catalog-lookup: beacons looked up, half of them catalogued (default 200000).",
            range: 1...10_000_000)
        static let rows = OptionSpec("--rows N", "visits: visits recorded (default 50000).", range: 1...10_000_000)
        static let declared = [kind, repeatOption, beacons, adverts, places, data, database, source, lookups, rows]
    }

    static let help = CommandHelp(
        name: "faro-bench",
        synopsis: [
            "faro-bench decode FILE [--kind ad|msd|hci] [--repeat N]",
            "faro-bench pipeline [--beacons N] [--adverts N] [--places N] [--repeat N]",
            "faro-bench memory [--beacons N]",
            "faro-bench distance [--data DIR]",
            "faro-bench catalog-lookup --database FILE --source URL [--lookups N]",
            "faro-bench calibration [--data DIR]",
            "faro-bench history [--beacons N]",
            "faro-bench visits [--rows N]",
        ],
        summary: "The measurements behind 'make bench' (key=value lines).",
        description: """
            Measures one part of Faro and prints key=value lines that scripts/bench.sh sets beside its references: \
            decode times the decoder over FILE (one advertisement per line, in hex); pipeline feeds synthetic \
            advertisements through the beacon session the window runs (decoding, filtering, ranging, regions and \
            the list); memory reports what the engine holds for \
            many beacons; catalog-lookup times place lookups in a synced catalog; distance compares the distance estimate with AltBeacon's on recorded and simulated data.
            """,
        options: Option.declared,
        actions: ["decode", "pipeline", "memory", "distance", "catalog-lookup", "calibration", "history", "visits"],
        examples: [
            ExampleHelp(
                "faro-bench pipeline --beacons 1000", "Prints pipeline_cpu_adverts_per_s=... and the figures behind it."
            )
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let what = try args.positional("what to measure (decode, pipeline, memory)")
        switch what {
        case "decode":
            let kindText = try args.option(Option.kind) ?? AdvertisementKind.ad.rawValue
            guard let kind = AdvertisementKind(rawValue: kindText) else {
                throw UsageError(description: "--kind must be ad, msd or hci, not '\(kindText)'")
            }
            let path = try args.positional("FILE (one advertisement per line, hex)")
            let repeats = Int(try args.number(Option.repeatOption) ?? 7)
            try args.finish()
            try decode(path: path, kind: kind, repeats: repeats)
        case "pipeline":
            let beacons = Int(try args.number(Option.beacons, in: 1...1_000_000) ?? 1000)
            let adverts = Int(try args.number(Option.adverts) ?? 3_000_000)
            let repeats = Int(try args.number(Option.repeatOption) ?? 5)
            let places = Int(try args.number(Option.places) ?? 100)
            try args.finish()
            PipelineBench.run(beacons: beacons, adverts: adverts, repeats: repeats, places: places)
        case "memory":
            let beacons = Int(try args.number(Option.beacons) ?? 10_000)
            try args.finish()
            memory(beacons: beacons)
        case "distance":
            let directory = try args.option(Option.data) ?? "data/evaluation"
            try args.finish()
            try DistanceBench.run(dataDirectory: directory)
        case "catalog-lookup":
            guard let database = try args.option(Option.database), let source = try args.option(Option.source) else {
                throw UsageError(description: "catalog-lookup needs --database FILE and --source URL")
            }
            let lookups = Int(try args.number(Option.lookups) ?? 200_000)
            try args.finish()
            try CatalogLookupBench.run(database: database, source: source, lookups: lookups)
        case "history":
            let beacons = Int(try args.number(Option.beacons, in: 1...100_000) ?? 1000)
            try args.finish()
            history(beacons: beacons)
        case "visits":
            let rows = Int(try args.number(Option.rows) ?? 50_000)
            try args.finish()
            try visits(rows: rows)
        case "calibration":
            let directory = try args.option(Option.data) ?? "data/evaluation"
            try args.finish()
            try CalibrationBench.run(dataDirectory: directory)
        default:
            throw UsageError(description: "unknown benchmark '\(what)'")
        }
        return 0
    }

    // MARK: decode

    /// A corpus in one contiguous buffer: advertisement i is `bytes[starts[i]..<starts[i+1]]`.
    struct Corpus {
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        var count: Int { starts.count - 1 }
    }

    static func loadCorpus(_ path: String) throws -> Corpus {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(description: "cannot read corpus \(path)")
        }
        var corpus = Corpus()
        corpus.bytes.reserveCapacity(data.count / 2)
        var line = 1
        var high: UInt8? = nil
        for c in data {
            if c == 0x0A {
                guard high == nil else {
                    throw CommandFailure(description: "\(path): line \(line): odd number of hex digits")
                }
                corpus.starts.append(corpus.bytes.count)
                line += 1
                continue
            }
            if c == 0x0D { continue }
            guard let v = Hex.nibble(Unicode.Scalar(c)) else {
                throw CommandFailure(
                    description: "\(path): line \(line): '\(Character(Unicode.Scalar(c)))' is not a hex digit")
            }
            if let h = high {
                corpus.bytes.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        if high != nil { throw CommandFailure(description: "\(path): line \(line): odd number of hex digits") }
        if corpus.bytes.count != corpus.starts.last { corpus.starts.append(corpus.bytes.count) }
        return corpus
    }

    /// What the timed loop found, printed so that the bench script can check the C reference found the same.
    struct DecodeSummary: Equatable {
        /// Advertisements holding at least one iBeacon.
        var valid = 0
        /// iBeacons found in all (an advertisement may hold several).
        var beacons = 0
        var majorSum = 0
        var minorSum = 0
        var txSum = 0
        var uuidHigh: UInt64 = 0
        var uuidLow: UInt64 = 0
        /// RSSI and address, which HCI events carry: the sum leaves out RSSI "not available" (nil).
        var rssiSum = 0
        var addressXor: UInt64 = 0
    }

    /// The timed loop: every advertisement, straight from the shared buffer, through the production decode path
    /// that the scanners call (`AdvertisementDecoder.forEachBeacon`, as they call it: found or not, no reason
    /// asked), every iBeacon it finds summed up.
    ///
    /// The summary is updated through a pointer: a `var` captured by the closure would be checked for exclusive
    /// access at run time on every update (`swift_beginAccess`), a cost of this loop's bookkeeping, not of the
    /// decoder, which the C reference's plain struct does not pay either.
    static func decodeAll(_ corpus: Corpus, kind: AdvertisementKind) -> DecodeSummary {
        var summary = DecodeSummary()
        withUnsafeMutablePointer(to: &summary) { s in
            corpus.bytes.withUnsafeBytes { all in
                corpus.starts.withUnsafeBufferPointer { starts in
                    for i in 0..<(starts.count - 1) {
                        let advert = UnsafeRawBufferPointer(rebasing: all[starts[i]..<starts[i + 1]])
                        let any = AdvertisementDecoder.forEachBeacon(in: advert, kind: kind) { decoded in
                            let b = decoded.beacon
                            s.pointee.beacons &+= 1
                            s.pointee.majorSum &+= Int(b.major)
                            s.pointee.minorSum &+= Int(b.minor)
                            s.pointee.txSum &+= Int(b.measuredPower)
                            s.pointee.uuidHigh ^= b.uuid.high
                            s.pointee.uuidLow ^= b.uuid.low
                            if let rssi = decoded.rssi { s.pointee.rssiSum &+= Int(rssi) }
                            if let address = decoded.address { s.pointee.addressXor ^= address.value }
                        }
                        if any { s.pointee.valid &+= 1 }
                    }
                }
            }
        }
        return summary
    }

    static func decode(path: String, kind: AdvertisementKind, repeats: Int) throws {
        let corpus = try loadCorpus(path)
        // CPU time of this thread, as the C reference measures: time spent descheduled on a shared machine is not
        // the decoder's.
        let clock = ThreadCPUClock()
        var times: [Double] = []
        var summary = DecodeSummary()
        for _ in 0..<repeats {
            let t0 = clock.now()
            let s = decodeAll(corpus, kind: kind)
            times.append(clock.now() - t0)
            summary = s
        }
        let median = times.sorted()[times.count / 2]
        let n = Double(max(corpus.count, 1))
        Output.line(
            "adverts_per_s=\(String(cFormat: "%.1f", n / median)) ns_per_advert=\(String(cFormat: "%.3f", median * 1e9 / n))"
        )
        let uuid = BeaconUUID(high: summary.uuidHigh, low: summary.uuidLow).bytes
        let address = (0..<6).map { UInt8(truncatingIfNeeded: summary.addressXor >> (40 - 8 * $0)) }
        Output.line(
            "valid=\(summary.valid) beacons=\(summary.beacons) major_sum=\(summary.majorSum) "
                + "minor_sum=\(summary.minorSum) "
                + "tx_sum=\(summary.txSum) uuid_xor=\(Hex.encode(uuid)) rssi_sum=\(summary.rssiSum) "
                + "address_xor=\(Hex.encode(address))")
    }

    // MARK: memory

    /// Resident memory of the engine holding `beacons` beacons with a minute of history each.
    static func memory(beacons: Int) {
        var generator = SplitMix64(seed: 7)
        let frames = SyntheticFrames(beacons: beacons, generator: &generator)
        let before = ResidentMemory.kilobytes()
        var pipeline = BeaconPipeline(
            ranging: RangingEngine(strategy: .faroDefault), regions: RegionMonitor(regions: []))
        frames.bytes.withUnsafeBytes { all in
            for second in 0..<60 {
                for b in 0..<beacons {
                    let advert = UnsafeRawBufferPointer(rebasing: all[(b * 30)..<(b * 30 + 30)])
                    _ = pipeline.ingest(
                        advertisingData: advert, address: BluetoothAddress(value: UInt64(b)),
                        rssi: Int8(-60 - (b + second) % 30), at: Double(second)
                    ) { _ in }
                }
                _ = pipeline.tick(at: Double(second)) { _ in }
            }
        }
        let after = ResidentMemory.kilobytes()
        let tracked = pipeline.ranging.count
        Output.line(
            "memory_beacons=\(tracked) rss_before_kb=\(before) rss_after_kb=\(after) delta_mb=\(String(cFormat: "%.2f", Double(after - before) / 1024))"
        )
    }
}

extension BenchCommand {
    /// "Lugares visitados" with a year of visits (docs/visits.md): `rows` visits over 365 days in a fresh profile
    /// database, then the query of the page's first screen (the latest 500) timed, best of 20.
    static func visits(rows: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("faro-bench-visits-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database: FaroDatabase
        do { database = try FaroDatabase(path: folder.path + "/faro.sqlite3", durable: false) } catch {
            throw CommandFailure(description: error.description)
        }
        let identity = BeaconIdentity(uuid: BeaconUUID(high: 1, low: 1), major: 1, minor: 1)
        let start = 1_733_000_000.0
        do {
            try database.connection.transaction { () throws(StoreError) in
                // Closed visits, written straight into the table in one transaction (what a year of
                // `VisitRepository.enter` and `leave` calls leaves behind).
                for i in 0..<rows {
                    let t = start + Double(i) * 365 * 86_400 / Double(rows)
                    try database.connection.query(
                        "INSERT INTO visits (place_id, cliente, titulo, url, uuid, major, minor, entered_at, left_at, "
                            + "closest_m) VALUES (?, ?, ?, ?, ?, 1, 1, ?, ?, 2)",
                        [
                            .text("p\(i % 400)"), .text("Negocio \(i % 400)"), .text("Lugar \(i % 400)"),
                            .text("https://example.com/\(i % 400)"), .text(identity.uuid.description), .real(t),
                            .real(t + 300),
                        ])
                }
            }
        } catch { throw CommandFailure(description: error.description) }
        var best = Double.infinity
        var listed = 0
        for _ in 0..<20 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            listed = ((try? database.visits.list(limit: 500)) ?? []).count
            let t1 = DispatchTime.now().uptimeNanoseconds
            best = min(best, Double(t1 - t0) / 1e6)
        }
        Output.line(
            "visits_rows=\((try? database.visits.count()) ?? 0) visits_first_screen_rows=\(listed) "
                + "visits_first_screen_query_ms=" + String(cFormat: "%.2f", best))
    }

    /// The readings history's memory (docs/beacon-page.md): `beacons` beacons, 10 minutes at 1 Hz, ranged by two
    /// engines side by side in one process, one keeping the history and one not; the difference in resident memory
    /// is what the history costs.
    static func history(beacons: Int) {
        let identities = (0..<beacons).map {
            IBeacon(
                uuid: BeaconUUID(high: 7, low: UInt64($0)), major: 1, minor: UInt16($0 % 65_536), measuredPower: -59)
        }
        func fill(_ engine: inout RangingEngine<KalmanRSSIFilter>) {
            for second in 0..<600 {
                for (b, beacon) in identities.enumerated() {
                    engine.observe(
                        beacon, address: BluetoothAddress(value: UInt64(b)), rssi: Int8(-60 - (b + second) % 30),
                        at: Double(second))
                }
                if second % 10 == 0 { _ = engine.tick(at: Double(second)) }
            }
        }
        let start = ResidentMemory.kilobytes()
        var plain = RangingEngine(strategy: .faroDefault)
        fill(&plain)
        let withoutHistory = ResidentMemory.kilobytes()
        var kept = RangingEngine(
            configuration: RangingConfiguration(readings: ReadingHistoryLimits(seconds: 600)), strategy: .faroDefault)
        fill(&kept)
        let withHistory = ResidentMemory.kilobytes()
        let readings = identities.reduce(0) { $0 + (kept.readings(of: $1.identity)?.count ?? 0) }
        let history = Double((withHistory - withoutHistory) - (withoutHistory - start)) / 1024
        Output.line(
            "history_beacons=\(plain.count) history_readings=\(readings) session_mb="
                + String(cFormat: "%.2f", Double(withoutHistory - start) / 1024) + " session_with_history_mb="
                + String(cFormat: "%.2f", Double(withHistory - withoutHistory) / 1024) + " history_mb="
                + String(cFormat: "%.2f", history) + " history_goal_16mb=" + (history <= 16 ? "yes" : "no"))
    }
}

/// iBeacon frames for `beacons` distinct identities, 30 bytes each, in one buffer.
struct SyntheticFrames {
    var bytes: [UInt8] = []
    var uuids: [BeaconUUID] = []

    init(beacons: Int, generator: inout SplitMix64) {
        for _ in 0..<8 { uuids.append(BeaconUUID(high: generator.next(), low: generator.next())) }
        bytes.reserveCapacity(beacons * 30)
        for b in 0..<beacons {
            let uuid = uuids[b % uuids.count].bytes
            bytes += [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + uuid
            bytes += [UInt8(b % 16), UInt8(b & 0xFF), UInt8((b >> 8) & 0xFF), UInt8((b >> 16) & 0xFF), 0xC5]
        }
    }
}

/// CPU seconds this thread has used: "per second on one core" stays meaningful while other work shares the
/// machine (wall-clock rates on a busy 2-core box understate what one core does).
struct ThreadCPUClock {
    func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// The process's resident set size, from /proc/self/status.
enum ResidentMemory {
    static func kilobytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
}
