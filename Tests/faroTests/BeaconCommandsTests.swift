import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// `faro calibrate` end to end (docs/calibration.md): a recording taken at 1 m, the stored result used by
/// `faro range`, the listing, the resets, and the refusals with their exit statuses.
@Suite("faro calibrate")
struct CalibrateCommandTests {
    let faro = Paths.executable("faro")
    static let uuid = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"
    let near = "\(CalibrateCommandTests.uuid):100:1"

    /// Two beacons advertising −59: 100/1 held 1 m away reading about −65 dBm, 100/2 further off at about −80.
    static func recording(readings: Int, into path: String) throws {
        var lines: [String] = []
        var rng = SystemRandomNumberGenerator()
        func frame(_ minor: Int) -> String {
            "0201061aff4c000215" + uuid.replacingOccurrences(of: "-", with: "") + "0064"
                + String(format: "%04x", minor) + "c5"
        }
        for i in 0..<readings {
            let t = Double(i) * 0.5
            let a = -65 + Int.random(in: -3...3, using: &rng)
            let b = -80 + Int.random(in: -3...3, using: &rng)
            lines.append(
                #"{"t": \#(t), "address": "C0:FF:EE:00:00:01", "rssi": \#(a), "kind": "ad", "data": "\#(frame(1))"}"#)
            lines.append(
                #"{"t": \#(t + 0.1), "address": "C0:FF:EE:00:00:02", "rssi": \#(b), "kind": "ad", "data": "\#(frame(2))"}"#
            )
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    func run(_ args: [String], _ dir: TemporaryDirectory) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(faro, args, environment: dir.xdgEnvironment, timeout: 60)
    }

    /// The distance `faro range --json` gives beacon `minor` at the last tick.
    func lastDistance(_ output: String, minor: Int) throws -> Double {
        let line = try #require(output.split(separator: "\n").last)
        let tick = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let beacons = try #require(tick["beacons"] as? [[String: Any]])
        let beacon = try #require(beacons.first { ($0["minor"] as? Int) == minor })
        return try #require(beacon["distance"] as? Double)
    }

    @Test func calibratesStoresAndRangeUsesIt() throws {
        let dir = try TemporaryDirectory("faro-calibrate")
        let file = dir.file("at-1m.jsonl")
        try Self.recording(readings: 60, into: file)
        let before = try run(["range", "--replay", file, "--json"], dir)
        #expect(before.status == 0, "\(before.stderr)")
        let r = try run(["calibrate", "--replay", file, "--beacon", near, "--apply-to-adapter"], dir)
        #expect(r.status == 0, "\(r.stderr)")
        let words = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        #expect(words.count == 4 && words[0] == Substring(near), "\(r.stdout)")
        #expect(words.contains("readings=60"), "\(r.stdout)")
        let power = try #require(words.first { $0.hasPrefix("measured_power=") }.flatMap { Int($0.dropFirst(15)) })
        #expect((-68)...(-62) ~= power, "\(r.stdout)")
        let offset = try #require(words.first { $0.hasPrefix("adapter_offset=") }.flatMap { Double($0.dropFirst(15)) })
        #expect(abs(offset - Double(power + 59)) <= 0.6, "\(r.stdout)")

        let after = try run(["range", "--replay", file, "--json"], dir)
        // The calibrated beacon now reads about 1 m; the other one moves by the adapter's offset too.
        #expect(abs(try lastDistance(after.stdout, minor: 1) - 1) < 0.35, "\(after.stdout.suffix(300))")
        #expect(try lastDistance(before.stdout, minor: 1) > 1.3)
        #expect(try lastDistance(after.stdout, minor: 2) < lastDistance(before.stdout, minor: 2))

        let list = try run(["calibrate", "--list", "--json"], dir)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
        let calibrations = try #require(object["calibrations"] as? [[String: Any]])
        let adapters = try #require(object["adapters"] as? [[String: Any]])
        #expect(calibrations.first?["beacon"] as? String == near)
        #expect(calibrations.first?["adapter"] as? String == "replay")
        #expect(adapters.first?["adapter"] as? String == "replay")

        #expect(try run(["calibrate", "--reset", near], dir).status == 0)
        #expect(try run(["calibrate", "--reset", "--adapter", "replay"], dir).status == 0)
        let missing = try run(["calibrate", "--reset", "--adapter", "replay"], dir)
        #expect(missing.status == 1 && missing.stderr.contains("no offset"))
        let reset = try run(["range", "--replay", file, "--json"], dir)
        #expect(try lastDistance(reset.stdout, minor: 1) == lastDistance(before.stdout, minor: 1))
        #expect(try run(["calibrate", "--reset", "--all"], dir).status == 0)
        #expect(try run(["calibrate", "--list"], dir).stdout.contains("No calibrations."))
    }

    @Test func refusesWithTheReasonAndStoresNothing() throws {
        let dir = try TemporaryDirectory("faro-calibrate-bad")
        let file = dir.file("short.jsonl")
        try Self.recording(readings: 6, into: file)
        let few = try run(["calibrate", "--replay", file, "--beacon", near], dir)
        #expect(few.status == 1)
        #expect(few.stderr.contains("only 6 readings"), "\(few.stderr)")
        let unheard = try run(["calibrate", "--replay", file, "--beacon", "\(Self.uuid):100:9"], dir)
        #expect(unheard.status == 1)
        #expect(unheard.stderr.contains("was not heard"), "\(unheard.stderr)")
        for bad in ["\(Self.uuid):100", "nope:1:2", "\(Self.uuid):1:99999"] {
            let r = try run(["calibrate", "--replay", file, "--beacon", bad], dir)
            #expect(r.status == 2, "\(bad): \(r.stderr)")
            #expect(r.stderr.contains("Usage: faro calibrate"), "\(r.stderr)")
        }
        #expect(try run(["calibrate", "--replay", file, "--beacon", near, "--distance", "50"], dir).status == 2)
        #expect(try run(["calibrate", "--list"], dir).stdout.contains("No calibrations."))
    }

    @Test func calibratesLiveFromTheDemo() throws {
        let dir = try TemporaryDirectory("faro-calibrate-demo")
        // The demo walk passes 100/1 within a few metres; at 20× speed 15 s of demo time takes under a second.
        let r = try run(
            ["calibrate", "--source", "demo", "--speed", "20", "--seconds", "1", "--beacon", near, "--distance", "2"],
            dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix(near + " measured_power="), "\(r.stdout)")
        #expect(r.stderr.contains("readings after"), "\(r.stderr)")
    }

    @Test func theDemosDeskBeaconCalibratesAtOneMetre() throws {
        // 7/42 sits on the desk about 1 m away, heard once a second (docs/calibration.md): at 20× speed, 1 s of
        // collecting gets 20 readings, and its 1 m power comes out below the −59 dBm it advertises.
        let dir = try TemporaryDirectory("faro-calibrate-desk")
        let desk = "e2c56db5-dffb-48d2-b060-d0f5a71096e0:7:42"
        let r = try run(["calibrate", "--source", "demo", "--speed", "20", "--seconds", "1", "--beacon", desk], dir)
        #expect(r.status == 0, "\(r.stderr)")
        let power = r.stdout.split(separator: " ").first { $0.hasPrefix("measured_power=") }
        let measured = try #require(power.flatMap { Int($0.dropFirst("measured_power=".count)) }, "\(r.stdout)")
        #expect((-70...(-60)).contains(measured), "\(r.stdout)")
        let listed = try run(["calibrate", "--list", "--json"], dir)
        #expect(listed.stdout.contains(#""beacon": "\#(desk)""#), "\(listed.stdout)")
        #expect(listed.stdout.contains(#""advertised_power": -59"#), "\(listed.stdout)")
    }
}

/// `faro range --replay FILE --csv` and `faro scan --csv` (docs/beacon-page.md), read back column by column.
@Suite("faro range and scan --csv")
struct ReadingsCSVCommandTests {
    let faro = Paths.executable("faro")
    let demo = Paths.data + "/demo/walk.jsonl"

    func fields(_ line: Substring) -> [String] {
        line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func rangeWritesOneRowPerReadingThatMatchesTheRecordingAndTheJSON() throws {
        let dir = try TemporaryDirectory("faro-csv")
        let csv = try ChildProcess.run(faro, ["range", "--replay", demo, "--csv"], environment: dir.xdgEnvironment)
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout.hasPrefix("time_utc,address,rssi,rssi_filtered,distance_m,proximity,uuid,major,minor\r\n"))
        let rows = csv.stdout.split(separator: "\r\n").dropFirst()
        // The recording: every line with an iBeacon (other devices' advertisements are skipped) and a usable RSSI
        // is one row, in order. The demo's iBeacon lines are all "ad" or "msd" records.
        let records = try String(contentsOfFile: demo, encoding: .utf8).split(separator: "\n").compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }.filter {
            ($0["rssi"] as? Int ?? 0) < 0 && ($0["data"] as? String ?? "").lowercased().contains("4c000215")
        }
        #expect(rows.count == records.count)
        var lastDistance: [String: Double] = [:]
        for (row, record) in zip(rows, records) {
            let f = fields(row)
            #expect(f.count == 9, "\(row)")
            let t = try #require(record["t"] as? Double)
            let millis = Int((t * 1000).rounded(.down))
            #expect(
                f[0]
                    == String(
                        format: "1970-01-01T00:%02d:%02d.%03dZ", millis / 60_000, millis / 1000 % 60, millis % 1000))
            #expect(f[1] == record["address"] as? String)
            #expect(Int(f[2]) == record["rssi"] as? Int)
            #expect(f[3].contains(".") && Double(f[3]) != nil && !f[3].contains(","))
            #expect(["immediate", "near", "far", "unknown"].contains(f[5]))
            if let d = Double(f[4]) { lastDistance["\(f[6]):\(f[7]):\(f[8])"] = d }
        }
        // The last tick's distances in --json are what the last reading of each beacon gave.
        let json = try ChildProcess.run(faro, ["range", "--replay", demo, "--json"], environment: dir.xdgEnvironment)
        let last = try #require(json.stdout.split(separator: "\n").last)
        let tick = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        for beacon in try #require(tick["beacons"] as? [[String: Any]]) {
            let key =
                "\(try #require(beacon["uuid"] as? String)):\(try #require(beacon["major"] as? Int)):"
                + "\(try #require(beacon["minor"] as? Int))"
            let distance = try #require(beacon["distance"] as? Double)
            #expect(abs((lastDistance[key] ?? -1) - distance) <= 0.006, "\(key)")
        }
    }

    @Test func scanWritesTheSameColumnsWithTheWallClock() throws {
        let dir = try TemporaryDirectory("faro-csv-scan")
        let r = try ChildProcess.run(
            faro, ["scan", "--source", "demo", "--speed", "10", "--duration", "2", "--csv"],
            environment: dir.xdgEnvironment.merging(["LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"]) { $1 })
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\r\n")
        #expect(lines.first == "time_utc,address,rssi,rssi_filtered,distance_m,proximity,uuid,major,minor")
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(lines.count > 5)
        for row in lines.dropFirst() {
            let f = fields(row)
            #expect(f.count == 9 && f[0].hasPrefix("\(year)-") && f[0].hasSuffix("Z"), "\(row)")
        }
        #expect(try ChildProcess.run(faro, ["range", "--replay", demo, "--csv", "--json"]).status == 2)
    }
}

/// `faro visits` on a profile database with known visits (docs/visits.md): order, --since, retention, clear, bad
/// input.
@Suite("faro visits")
struct VisitsCommandTests {
    let faro = Paths.executable("faro")

    @Test func listsFiltersAppliesRetentionAndClears() throws {
        let dir = try TemporaryDirectory("faro-visits-cli")
        let db = try FaroDatabase(path: dir.file("data/faro/faro.sqlite3"))
        let id = BeaconIdentity(uuid: BeaconUUID(high: 1, low: 2), major: 1, minor: 2)
        let now = Date().timeIntervalSince1970
        for (i, age) in [40.0, 5, 1.0 / 24].enumerated() {
            let visit = try db.visits.enter(
                placeID: "p\(i)", business: "Café \(i)", title: "Menú, \"hoy\"", url: "https://x/\(i)", identity: id,
                at: now - age * 86_400)
            _ = visit
            try db.visits.leave(placeID: "p\(i)", at: now - age * 86_400 + 60)
        }
        let r = try ChildProcess.run(faro, ["visits", "--json"], environment: dir.xdgEnvironment)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        // The 40-day-old visit is past the 30-day default retention: deleted before listing.
        #expect(lines.count == 2, "\(r.stdout)")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["business"] as? String == "Café 2")
        #expect(first["place"] as? String == "Menú, \"hoy\"")
        #expect(try db.visits.count() == 2)
        let yesterday = Date(timeIntervalSince1970: now - 2 * 86_400)
        let day = ISO8601DateFormatter.string(
            from: yesterday, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        #expect(
            try ChildProcess.run(faro, ["visits", "--since", day], environment: dir.xdgEnvironment).stdout.split(
                separator: "\n"
            ).count == 1)
        let bad = try ChildProcess.run(faro, ["visits", "--since", "yesterday"], environment: dir.xdgEnvironment)
        #expect(bad.status == 2 && bad.stderr.contains("--since must be a date"))
        let cleared = try ChildProcess.run(faro, ["visits", "clear"], environment: dir.xdgEnvironment)
        #expect(cleared.stdout.contains("2 visits deleted."))
        #expect(try db.visits.count() == 0)
    }
}

/// `faro muted` on a profile database with known muted places (docs/notifications.md): listing as text and JSON,
/// remove, clear, bad input.
@Suite("faro muted")
struct MutedCommandTests {
    let faro = Paths.executable("faro")

    @Test func listsRemovesAndClears() throws {
        let dir = try TemporaryDirectory("faro-muted-cli")
        let db = try FaroDatabase(path: dir.file("data/faro/faro.sqlite3"))
        let empty = try ChildProcess.run(faro, ["muted"], environment: dir.xdgEnvironment)
        #expect(empty.status == 0 && empty.stdout.isEmpty, "\(empty.stderr)")
        try db.mutedPlaces.mute(MutedPlace(key: "row-1", business: "Café La Parroquia", title: "Café", mutedAt: 0))
        try db.mutedPlaces.mute(
            MutedPlace(
                key: "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1/100/2", business: "Librería El Péndulo",
                title: "Libros, \"nuevos\"", mutedAt: 86_400))
        let r = try ChildProcess.run(faro, ["muted", "--json"], environment: dir.xdgEnvironment)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try r.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.map { $0["key"] as? String } == ["fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1/100/2", "row-1"])
        #expect(rows.first?["place"] as? String == "Libros, \"nuevos\"")
        #expect(rows.first?["business"] as? String == "Librería El Péndulo")
        #expect(rows.first?["muted"] as? String == "1970-01-02T00:00:00.000Z")
        let text = try ChildProcess.run(faro, ["muted"], environment: dir.xdgEnvironment).stdout
        #expect(text.contains("row-1  1970-01-01T00:00:00.000Z  Café (Café La Parroquia)"), "\(text)")

        let removed = try ChildProcess.run(faro, ["muted", "remove", "row-1"], environment: dir.xdgEnvironment)
        #expect(removed.status == 0 && removed.stdout.contains("Un-muted row-1."), "\(removed.stderr)")
        #expect(try db.mutedPlaces.list().map(\.key) == ["fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1/100/2"])
        let unknown = try ChildProcess.run(faro, ["muted", "remove", "row-1"], environment: dir.xdgEnvironment)
        #expect(unknown.status == 1 && unknown.stderr.contains("no muted place has the key 'row-1'"))
        let missing = try ChildProcess.run(faro, ["muted", "remove"], environment: dir.xdgEnvironment)
        #expect(missing.status == 2 && missing.stderr.contains("the KEY to remove"), "\(missing.stderr)")
        let bad = try ChildProcess.run(faro, ["muted", "forget"], environment: dir.xdgEnvironment)
        #expect(bad.status == 2 && bad.stderr.contains("unknown 'faro muted' command 'forget'"), "\(bad.stderr)")

        let cleared = try ChildProcess.run(faro, ["muted", "clear"], environment: dir.xdgEnvironment)
        #expect(cleared.stdout.contains("1 place un-muted."), "\(cleared.stderr)")
        #expect(try db.mutedPlaces.list().isEmpty)
    }
}
