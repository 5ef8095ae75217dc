import FaroCore
import Foundation

/// `faro scan [--source replay FILE|demo] [--json] [--duration SECONDS] [--speed X]`: the live ranging table.
enum ScanCommand {
    static let usage = "faro scan [--source replay FILE|demo] [--json] [--duration SECONDS] [--speed X]"

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let json = args.flag("--json")
        let duration = try args.number("--duration", in: 0...1e9)
        let speed = try args.number("--speed", in: 0.01...10_000) ?? 1
        let source = try args.option("--source") ?? "demo"
        var loop = false
        let records: [ReplayRecord]
        switch source {
        case "replay":
            records = try ReplayFile.load(try args.positional("FILE after --source replay"))
        case "demo":
            let path = try DataDirectory.demoRecording()
            records = try ReplayFile.load(path)
            loop = true
            if !json { Output.line("Demo: replaying simulated beacons from \(path). Press Ctrl-C to stop.") }
        case "bluez", "hci":
            throw CommandFailure(description:
                "the \(source) scanner is not part of this build; use --source demo or --source replay FILE")
        default:
            throw UsageError(description: "--source must be bluez, hci, replay FILE or demo, not '\(source)'")
        }
        try args.finish()
        try ScanSession(records: records, loop: loop, speed: speed, json: json).run(duration: duration)
        return 0
    }
}

/// A live scan over recorded advertisements: records are released when the wall clock (scaled by `speed`) reaches
/// their time, and the table is printed once per second of scan time.
struct ScanSession {
    let records: [ReplayRecord]
    let loop: Bool
    let speed: Double
    let json: Bool
    var clock = MonotonicClock()

    static func makePipeline() -> BeaconPipeline<KalmanRSSIFilter> {
        BeaconPipeline(ranging: RangingEngine(strategy: .faroDefault), regions: RegionMonitor(regions: []))
    }

    /// Ticks once per second of scan time until `duration` (or the recording's end, or forever for a loop).
    func run(duration: Double?) throws {
        var pipeline = ScanSession.makePipeline()
        var player = ReplayPlayer(records: records)
        let start = clock.now()
        let firstTime = records.first?.time ?? 0
        let length = (records.last?.time ?? 0) - firstTime
        var elapsed = 0.0
        while true {
            elapsed += 1
            if let duration, elapsed > duration { break }
            clock.sleep(until: start + elapsed / speed)
            let recordingTime = firstTime + elapsed
            try player.feed(until: recordingTime, into: &pipeline)
            if player.isFinished, loop { player.loop(after: recordingTime) }
            let snapshot = pipeline.tick(at: recordingTime) { _ in }
            Output.line(json ? JSON.tick(snapshot, time: elapsed) : Table.tick(snapshot, time: elapsed))
            if !loop, player.isFinished, elapsed >= length { break }
        }
    }
}

/// Seconds on the system's monotonic clock; the only clock the terminal front end reads.
struct MonotonicClock {
    func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func sleep(until deadline: Double) {
        let wait = deadline - now()
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }
}

/// Where Faro's data files are: `$FARO_DATA_DIR`, the installed `share/faro`, or the source tree's `data/`.
enum DataDirectory {
    static func locate() -> String? {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["FARO_DATA_DIR"], !env.isEmpty { return env }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        let installed = dir.deletingLastPathComponent().appendingPathComponent("share/faro")
        if fm.fileExists(atPath: installed.appendingPathComponent("demo").path) { return installed.path }
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("data")
            if fm.fileExists(atPath: candidate.appendingPathComponent("demo").path) { return candidate.path }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    static func demoRecording() throws -> String {
        guard let dir = locate() else {
            throw CommandFailure(description: "cannot find Faro's data folder; set FARO_DATA_DIR to the data/ folder")
        }
        return dir + "/demo/walk.jsonl"
    }
}
