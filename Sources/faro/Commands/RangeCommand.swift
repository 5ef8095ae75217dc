import Dispatch
import FaroApp
import FaroCore
import FoundationEssentials
import Glibc

/// `faro range --replay FILE [--json]`: the ranging pipeline over a recording, as fast as it runs, one tick per
/// second of recording time.
enum RangeCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let replay = OptionSpec(
            "--replay FILE",
            "The recording: JSON Lines, one advertisement per line, like {\"t\": 12.345, \"address\": "
                + "\"C0:FF:EE:00:00:01\", \"rssi\": -67, \"kind\": \"msd\", \"data\": \"4c000215...c5\"}.")
        static let json = OptionSpec(
            "--json",
            "One JSON object per tick: {\"t\": 12.0, \"beacons\": [{uuid, major, minor, address, rssi, distance, "
                + "proximity}]}, proximity being immediate, near, far or unknown.")
        static let csv = OptionSpec(
            "--csv",
            "One CSV row per reading instead (RFC 4180, UTF-8): time_utc, address, rssi, rssi_filtered, "
                + "distance_m, proximity, uuid, major, minor; the recording's clock is read as seconds since "
                + "1970, UTC.")
        static let declared = [replay, json, csv]
    }

    static let help = CommandHelp(
        name: "range", synopsis: ["faro range --replay FILE [--json | --csv]"],
        summary: "Run the ranging pipeline over a recorded scan, as fast as it goes.",
        description: """
            Runs the ranging pipeline (filter, distance, proximity) over a recorded scan on the recording's own clock, \
            as fast as it can, and prints the beacons in range with their estimated distance once per second of \
            recording time, nearest first. Beacons drop out when unseen for the exit period (30 s).
            """,
        options: Option.declared,
        examples: [
            ExampleHelp(
                "faro range --replay /usr/share/faro/demo/walk.jsonl --json",
                "Ranges the demo walk and prints about 120 ticks, one per second of the recording.")
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let json = args.flag(Option.json)
        let csv = args.flag(Option.csv)
        if json, csv { throw UsageError(description: "--json and --csv cannot be used together") }
        guard let path = try args.option(Option.replay) else {
            throw UsageError(description: "--replay FILE is required")
        }
        try args.finish()
        let records = try ReplayFile.load(path)
        // Recordings are the adapter `replay`: the calibrations and offset the window would use for them.
        var session = BeaconSession(
            configuration: BeaconSessionConfiguration(
                calibration: StoredCalibration.load(adapter: CalibrateCommand.replayAdapter)))
        var player = ReplayPlayer(records: records)
        // Ticks fall on whole seconds of the recording's clock, from the first second after its first record.
        guard let first = records.first, let last = records.last else { return 0 }
        var tick = (first.time + 1).rounded(.down)
        let end = last.time.rounded(.up)
        if csv {
            session.collectReadings(true)
            CSVOutput.header()
        }
        while tick <= end {
            player.feed(until: tick, into: &session)
            let snapshot = session.tick(at: tick) { _ in }
            if csv {
                // The recording's clock, read as seconds since 1970 (UTC).
                CSVOutput.rows(session.takeCollected(), epoch: 0)
            } else {
                Output.line(json ? JSON.tick(snapshot, time: tick) : Table.tick(snapshot, time: tick))
            }
            tick += 1
        }
        return 0
    }
}

/// Reading a replay file with errors that name the file and line.
enum ReplayFile {
    static func load(_ path: String) throws -> [ReplayRecord] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(description: "cannot read replay file \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure(description: "\(path): not UTF-8 text")
        }
        do {
            return try ReplayReader.parse(text: text)
        } catch {
            throw CommandFailure(description: "\(path): \(error)")
        }
    }
}

/// Walks through replay records in time order, feeding the beacon session; a record with no iBeacon is skipped,
/// as a scanner skips other devices' advertisements.
struct ReplayPlayer {
    let records: [ReplayRecord]
    private(set) var position = 0
    /// Added to every record's time (a looping demo shifts each pass).
    var offset: Double = 0

    init(records: [ReplayRecord]) { self.records = records }

    var isFinished: Bool { position >= records.count }

    mutating func feed(until time: Double, into session: inout BeaconSession) {
        while position < records.count, records[position].time + offset <= time {
            var record = records[position]
            record.time += offset
            _ = session.ingest(record) { _ in }
            position += 1
        }
    }

    /// Starts again from the first record, shifted to begin after `time`.
    mutating func loop(after time: Double) {
        guard let first = records.first else { return }
        position = 0
        offset = time - first.time + 1
    }
}
