import Dispatch
import FaroApp
import FaroBluetooth
import FaroCore
import FaroGLib
import FaroInstall
import FoundationEssentials
import Glibc

/// `faro scan [--source bluez|hci|replay FILE|demo] …`: the live ranging table, from a radio or a recording.
enum ScanCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let source = OptionSpec(
            "--source bluez|hci|replay FILE|demo",
            "Where advertisements come from: bluez (bluetoothd over D-Bus), hci (a raw HCI socket; needs "
                + "CAP_NET_RAW), replay FILE (a recording, in real time) or demo (the demo walk, looped).")
        static let adapter = OptionSpec("--adapter hciN", "bluez: the adapter to use (default: the first).")
        static let powerOn = OptionSpec("--power-on", "bluez: switch the adapter on when it is off.")
        static let device = OptionSpec("--device hciN", "hci: the controller to use (default: the first).")
        static let active = OptionSpec("--active", "hci: active scanning (ask for scan responses).")
        static let json = OptionSpec("--json", "One JSON object per tick, as 'faro range --json' prints.")
        static let csv = OptionSpec(
            "--csv", "One CSV row per reading instead, as 'faro range --csv' writes, with the wall-clock time (UTC).")
        static let duration = OptionSpec("--duration SECONDS", "Stop after this long.", range: 0...1e9)
        static let speed = OptionSpec(
            "--speed X", "replay and demo: play the recording X times as fast.", range: 0.01...10_000)
        static let stats = OptionSpec("--stats", "Report on stderr how many advertisements and beacons were seen.")
        static let declared = [source, adapter, powerOn, device, active, json, csv, duration, speed, stats]
    }

    static let help = CommandHelp(
        name: "scan",
        synopsis: [
            "faro scan [--source bluez [--adapter hciN] [--power-on] | hci [--device hciN] [--active]"
                + " | replay FILE | demo] [--json | --csv] [--duration SECONDS] [--speed X] [--stats]"
        ],
        summary: "Scan for iBeacons and print the live ranging table.",
        description: """
            Listens for iBeacons and prints, once a second, the beacons in range with their estimated distance, \
            nearest first; t counts the seconds since the scan started. The default source is BlueZ (bluetoothd on \
            the system bus). Ctrl-C ends the scan cleanly (discovery stopped, the controller's scan state restored).
            """,
        options: Option.declared,
        examples: [
            ExampleHelp(
                "faro scan --source demo --json --duration 10",
                "Ten seconds of the demo walk, one JSON tick per second.")
        ])

    @MainActor
    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let json = args.flag(Option.json)
        let csv = args.flag(Option.csv)
        if json, csv { throw UsageError(description: "--json and --csv cannot be used together") }
        let statistics = args.flag(Option.stats)
        let duration = try args.number(Option.duration)
        let source = try args.option(Option.source)
        var loop = false
        let records: [ReplayRecord]
        switch source {
        case "replay":
            let speed = try args.number(Option.speed) ?? 1
            records = try ReplayFile.load(try args.positional("FILE after --source replay"))
            try args.finish()
            try ScanSession(records: records, loop: loop, speed: speed, json: json, csv: csv).run(duration: duration)
            return 0
        case "demo":
            let speed = try args.number(Option.speed) ?? 1
            let path = try DataDirectory.demoRecording()
            records = try ReplayFile.load(path)
            loop = true
            try args.finish()
            if !json, !csv { Output.line("Demo: replaying simulated beacons from \(path). Press Ctrl-C to stop.") }
            try ScanSession(records: records, loop: loop, speed: speed, json: json, csv: csv).run(duration: duration)
            return 0
        case "bluez":
            let options = BlueZSource.Options(
                adapter: try args.option(Option.adapter), powerOn: args.flag(Option.powerOn))
            try args.finish()
            return try LiveScanSession(
                makeSource: { BlueZSource(options: options) }, json: json, csv: csv, statistics: statistics
            )
            .run(duration: duration)
        case "hci":
            let device = try args.option(Option.device)
            let active = args.flag(Option.active)
            try args.finish()
            return try LiveScanSession(
                makeSource: { HCISource(device: device, active: active) }, json: json, csv: csv,
                statistics: statistics
            )
            .run(duration: duration)
        case nil:
            // The default: bluetoothd when it is on the system bus, otherwise say which sources work without it.
            let options = BlueZSource.Options(
                adapter: try args.option(Option.adapter), powerOn: args.flag(Option.powerOn))
            try args.finish()
            switch BlueZSource.isServiceRunning() {
            case .success(true):
                return try LiveScanSession(
                    makeSource: { BlueZSource(options: options) }, json: json, csv: csv, statistics: statistics
                )
                .run(duration: duration)
            case .success(false):
                throw CommandFailure(description: ScanError.bluezNotRunning.description)
            case .failure(let error):
                throw CommandFailure(description: error.description)
            }
        case let other?:
            throw UsageError(description: "--source must be bluez, hci, replay FILE or demo, not '\(other)'")
        }
    }
}

/// A live scan from a radio on a GLib main loop: sightings go into the beacon session as they arrive, the table is printed
/// once a second, state changes go to stderr, and SIGINT/SIGTERM end the scan cleanly (discovery stopped, the
/// controller's scan state restored).
///
/// It follows logind as the window does, through the same `SleepWatch` (docs/cli.md): a delay inhibitor lock is held
/// while it runs; before a sleep the source stops, the readings not yet written are written and every beacon is
/// forgotten, and then the lock goes; after the sleep a new source starts (a new discovery) and every beacon counts
/// as not yet seen. `t` is awake time (the monotonic clock), so it neither jumps nor repeats across a sleep.
struct LiveScanSession {
    /// Makes the source: once at the start, and again after each resume.
    let makeSource: () -> AdvertisementSource
    let json: Bool
    var csv = false
    let statistics: Bool

    @MainActor
    func run(duration: Double?) throws -> Int32 {
        let loop = GLibMainLoop()
        var session = BeaconSession()
        var failure: ScanError?
        let start = GLibMainLoop.monotonicSeconds()
        /// The wall-clock time of `start`, for --csv: set again after a resume, since the monotonic clock that
        /// stamps readings does not count the time asleep.
        var wallStart = Date().timeIntervalSince1970
        if csv {
            session.collectReadings(true)
            CSVOutput.header()
        }
        /// Every source started (for --stats), the one listening now, and its number: events of a source stopped
        /// for a sleep that still arrive are dropped.
        var sources: [AdvertisementSource] = []
        var source: AdvertisementSource?
        var generation = 0
        func startSource() throws(ScanError) {
            generation += 1
            let number = generation
            let started = makeSource()
            source = started
            sources.append(started)
            try started.start { event in
                guard number == generation else { return }
                switch event {
                case .sighting(var s):
                    s.time -= start
                    session.observe(s) { _ in }
                case .state(let state):
                    Output.error("faro: \(state)")
                    if case .scanning(let name) = state {
                        // Calibrations, and the offset of the adapter now in use (by address when known).
                        let address = (started as? BlueZSource)?.adapterAddress ?? name
                        session.setCalibration(StoredCalibration.load(adapter: address))
                    }
                case .failed(let error):
                    failure = error
                    loop.quit()
                }
            }
        }
        do {
            try startSource()
        } catch {
            throw CommandFailure(description: error.description)
        }
        let sleepWatch = SleepWatch { DebugLog.write("sleep", $0) }
        sleepWatch.onPrepareForSleep = { sleeping in
            if sleeping {
                guard let stopping = source else { return }
                source = nil
                generation += 1
                stopping.stop { _ = stopping }
                // Written before the lock goes: the readings collected since the last tick.
                if csv { CSVOutput.rows(session.takeCollected(), epoch: wallStart) }
                session.reset()
            } else {
                guard source == nil, failure == nil else { return }
                session.reset()
                wallStart = Date().timeIntervalSince1970 - (GLibMainLoop.monotonicSeconds() - start)
                do throws(ScanError) {
                    try startSource()
                } catch {
                    failure = error
                    loop.quit()
                }
            }
        }
        sleepWatch.start()
        var elapsed = 0.0
        func scheduleTick() {
            elapsed += 1
            if let duration, elapsed > duration {
                loop.quit()
                return
            }
            let wait = max(0, start + elapsed - GLibMainLoop.monotonicSeconds())
            loop.after(wait) {
                let snapshot = session.tick(at: elapsed) { _ in }
                if csv {
                    CSVOutput.rows(session.takeCollected(), epoch: wallStart)
                } else {
                    Output.line(json ? JSON.tick(snapshot, time: elapsed) : Table.tick(snapshot, time: elapsed))
                }
                scheduleTick()
            }
        }
        if duration == 0 { loop.after(0) { loop.quit() } } else { scheduleTick() }
        let interrupt = loop.onSignal(SIGINT) { loop.quit() }
        let terminate = loop.onSignal(SIGTERM) { loop.quit() }
        loop.run()
        var stopped = source == nil
        source?.stop { stopped = true }
        sleepWatch.stop()
        _ = loop.iterate(timeout: 3) { stopped }
        loop.cancel(interrupt)
        loop.cancel(terminate)
        if statistics, let first = sources.first {
            Output.error("faro: \(first.name) statistics: \(LiveScanSession.counters(of: sources))")
        }
        if let failure { throw CommandFailure(description: failure.description) }
        return 0
    }

    /// The sources' counters, added up, as `key=value` words, for `--stats` and the benchmark.
    static func counters(of sources: [AdvertisementSource]) -> String {
        let bluez = sources.compactMap { ($0 as? BlueZSource)?.statistics }
        if !bluez.isEmpty {
            let signals = bluez.reduce(0) { $0 + $1.signals }
            let sightings = bluez.reduce(0) { $0 + $1.sightings }
            let rejected = bluez.reduce(0) { $0 + $1.rejected }
            return "signals=\(signals) sightings=\(sightings) rejected=\(rejected)"
        }
        let hci = sources.compactMap { ($0 as? HCISource)?.statistics }
        if !hci.isEmpty {
            let events = hci.reduce(0) { $0 + $1.events }
            let sightings = hci.reduce(0) { $0 + $1.sightings }
            let rejected = hci.reduce(0) { $0 + $1.rejected }
            return "events=\(events) sightings=\(sightings) rejected=\(rejected)"
        }
        return "none"
    }

    /// One source's counters (`counters(of:)` of it alone).
    static func counters(of source: AdvertisementSource) -> String { counters(of: [source]) }
}

/// A live scan over recorded advertisements: records are released when the wall clock (scaled by `speed`) reaches
/// their time, and the table is printed once per second of scan time.
struct ScanSession {
    let records: [ReplayRecord]
    let loop: Bool
    let speed: Double
    let json: Bool
    var csv = false
    var clock = MonotonicClock()

    /// Ticks once per second of scan time until `duration` (or the recording's end, or forever for a loop).
    func run(duration: Double?) throws {
        var session = BeaconSession(
            configuration: BeaconSessionConfiguration(
                calibration: StoredCalibration.load(adapter: CalibrateCommand.replayAdapter)))
        let source = ReplaySource(records: records, name: loop ? "demo" : "replay", loops: loop, speed: speed)
        let start = clock.now()
        let firstTime = source.firstTime
        let length = (records.last?.time ?? 0) - firstTime
        var elapsed = 0.0
        // Recording time firstTime is when the scan started, on the wall clock.
        let epoch = Date().timeIntervalSince1970 - firstTime
        if csv {
            session.collectReadings(true)
            CSVOutput.header()
        }
        while true {
            elapsed += 1
            if let duration, elapsed > duration { break }
            clock.sleep(until: start + elapsed / speed)
            let recordingTime = firstTime + elapsed
            source.release(until: recordingTime) { s in session.observe(s) { _ in } }
            if source.isFinished, loop { source.loop(after: recordingTime) }
            let snapshot = session.tick(at: recordingTime) { _ in }
            if csv {
                CSVOutput.rows(session.takeCollected(), epoch: epoch)
            } else {
                Output.line(json ? JSON.tick(snapshot, time: elapsed) : Table.tick(snapshot, time: elapsed))
            }
            if !loop, source.isFinished, elapsed >= length { break }
        }
    }
}
