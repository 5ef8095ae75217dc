import FaroApp
import FaroBluetooth
import FaroCore
import FaroGLib
import FaroStore
import FoundationEssentials
import Glibc

/// `faro calibrate`: a beacon's 1 m power measured from a recording or live, stored in the profile database with
/// the adapter's offset (see `docs/calibration.md`); `--list` and `--reset` show and undo them.
enum CalibrateCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let replay = OptionSpec(
            "--replay FILE", "A recording made with the device held --distance metres from the beacon.")
        static let source = OptionSpec("--source bluez|hci|demo", "Calibrate live from a radio (or the demo walk).")
        static let beacon = OptionSpec("--beacon UUID:MAJOR:MINOR", "The beacon to calibrate.")
        static let distance = OptionSpec(
            "--distance M", "How far the device was from the beacon, in metres (default 1).",
            range: CalibrationLimits.distance)
        static let applyToAdapter = OptionSpec(
            "--apply-to-adapter", "Also store the adapter's offset for every other beacon.")
        static let seconds = OptionSpec(
            "--seconds S",
            "live: collect for S seconds (default 15); with fewer than 10 readings by then, go on up to 60 s.",
            range: 1...600)
        static let adapter = OptionSpec(
            "--adapter hciN", "bluez: the adapter to use; with --reset: the adapter whose offset to forget.")
        static let speed = OptionSpec("--speed X", "demo: play the demo walk X times as fast.", range: 0.01...10_000)
        static let list = OptionSpec("--list", "Print the stored calibrations and adapter offsets.")
        static let json = OptionSpec("--json", "With --list: one JSON object.")
        static let reset = OptionSpec(
            "--reset", "Forget one beacon's calibration, one adapter's offset (--adapter) or all (--all).")
        static let all = OptionSpec("--all", "With --reset: forget every calibration and adapter offset.")
        static let declared = [
            replay, source, beacon, distance, applyToAdapter, seconds, adapter, speed, list, json, reset, all,
        ]
    }

    static let help = CommandHelp(
        name: "calibrate",
        synopsis: [
            "faro calibrate --replay FILE --beacon UUID:MAJOR:MINOR [--distance M] [--apply-to-adapter]",
            "faro calibrate --source bluez|hci|demo --beacon UUID:MAJOR:MINOR [--seconds S] [--distance M]"
                + " [--apply-to-adapter] [--adapter hciN] [--speed X]",
            "faro calibrate --list [--json]",
            "faro calibrate --reset UUID:MAJOR:MINOR | --reset --adapter ADDRESS | --reset --all",
        ],
        summary: "Calibrate a beacon's 1 m power, and this adapter's offset.",
        description: """
            Measures a beacon's power at 1 m from readings taken with the device held at a known distance from it \
            (a robust estimate: the interquartile mean of the RSSI readings, from at least 10) and stores it in the \
            profile database; every distance Faro computes for that beacon (the window, monitoring, scan, range) \
            then uses it instead of the power the beacon advertises. It prints one line: \
            UUID:MAJOR:MINOR measured_power=-61 readings=143 adapter_offset=-4.0. The adapter offset is the \
            measured power minus the advertised one; --apply-to-adapter applies it to every beacon without a \
            calibration of its own heard through the same adapter (recordings and the demo are the adapter \
            'replay'). Exit status 1 with the reason when the beacon was not heard, too few readings arrived, or \
            the result is absurd (power outside -100..0 dBm, offset beyond 30 dB); nothing is stored then.
            """,
        options: Option.declared,
        examples: [
            ExampleHelp(
                "faro calibrate --replay at-1m.jsonl --beacon e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:2 --apply-to-adapter",
                "Calibrates the beacon 1/2 from a recording taken 1 m away, and this adapter's offset.")
        ])

    /// The adapter name replays and the demo are kept under.
    static let replayAdapter = "replay"

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        if args.flag(Option.list) {
            let json = args.flag(Option.json)
            try args.finish()
            return try list(json: json)
        }
        if args.flag(Option.reset) {
            let all = args.flag(Option.all)
            let adapter = try args.option(Option.adapter)
            let beacon =
                all || adapter != nil ? nil : try args.positional("UUID:MAJOR:MINOR, --adapter ADDRESS or --all")
            try args.finish()
            return try reset(all: all, adapter: adapter, beacon: beacon)
        }
        guard let beaconText = try args.option(Option.beacon) else {
            throw UsageError(description: "--beacon UUID:MAJOR:MINOR is required")
        }
        guard let identity = BeaconIdentity(colonSeparated: beaconText) else {
            throw UsageError(
                description: "--beacon must be UUID:MAJOR:MINOR (major and minor 0..65535), not '\(beaconText)'")
        }
        let distance = try args.number(Option.distance) ?? 1
        let apply = args.flag(Option.applyToAdapter)
        var sampler = CalibrationSampler(target: identity)
        let adapter: String
        if let path = try args.option(Option.replay) {
            try args.finish()
            let records = try ReplayFile.load(path)
            for record in records {
                record.data.withUnsafeBytes { p in
                    _ = AdvertisementDecoder.forEachBeacon(in: p, kind: record.kind) { decoded in
                        sampler.add(
                            BeaconSighting(decoded, heardFrom: record.address, rssi: record.rssi, at: record.time))
                    }
                }
            }
            adapter = replayAdapter
        } else if let source = try args.option(Option.source) {
            let seconds = try args.number(Option.seconds) ?? 15
            let live = try LiveCalibration.source(named: source, arguments: &args)
            try args.finish()
            adapter = try LiveCalibration(source: live.source, seconds: seconds).run(into: &sampler) ?? live.adapter
        } else {
            throw UsageError(description: "give --replay FILE or --source bluez|hci|demo")
        }
        let result: CalibrationResult
        do { result = try sampler.result(distance: distance) } catch {
            throw CommandFailure(description: describe(error))
        }
        let database = try openProfile()
        let now = Date().timeIntervalSince1970
        do {
            try database.connection.transaction { () throws(StoreError) in
                try database.calibrations.save(result, adapter: adapter, at: now)
                if apply {
                    try database.calibrations.setOffset(result.adapterOffset, adapter: adapter, from: identity, at: now)
                }
            }
        } catch {
            throw CommandFailure(description: error.description)
        }
        Output.line(
            "\(identity.colonSeparated) measured_power=\(Int(result.measuredPower.rounded())) "
                + "readings=\(result.readings) adapter_offset=\(String(cFormat: "%.1f", result.adapterOffset))")
        return 0
    }

    /// A refusal in the terminal's words (English; the window words the same values through gettext).
    static func describe(_ error: CalibrationError) -> String {
        let one = { (value: Double) in String(cFormat: "%.1f", value) }
        let limits = CalibrationLimits.self
        switch error {
        case .notHeard(let identity):
            return "the beacon \(identity.colonSeparated) was not heard; nothing was stored"
        case .tooFewReadings(let found, let needed):
            return "only \(found) reading\(found == 1 ? "" : "s") of the beacon (at least \(needed) are needed); "
                + "nothing was stored"
        case .absurdPower(let power):
            return "the measured 1 m power \(one(power)) dBm is outside \(Int(limits.power.lowerBound))..."
                + "\(Int(limits.power.upperBound)) dBm; nothing was stored"
        case .absurdOffset(let offset):
            return "the adapter offset \(one(offset)) dB is beyond ±\(Int(limits.offset)) dB (was the device at the "
                + "stated distance?); nothing was stored"
        case .invalidDistance(let metres):
            return
                "the distance \(String(cFormat: "%.2f", metres)) m must be between \(one(limits.distance.lowerBound)) "
                + "and \(Int(limits.distance.upperBound)) m"
        }
    }

    static func list(json: Bool) throws -> Int32 {
        let database = try openProfile()
        let calibrations: [CalibrationRepository.Calibration]
        let offsets: [CalibrationRepository.AdapterOffset]
        do {
            calibrations = try database.calibrations.all()
            offsets = try database.calibrations.offsets()
        } catch { throw CommandFailure(description: error.description) }
        if json {
            let c = calibrations.map { c in
                JSONValue.object([
                    ("beacon", .string(c.identity.colonSeparated)),
                    ("measured_power", .rounded(c.measuredPower, decimals: 1)),
                    ("advertised_power", .integer(Int64(c.advertisedPower))), ("readings", .integer(Int64(c.readings))),
                    ("adapter", .string(c.adapter)),
                    ("calibrated_at", .string(Fechahora.format(secondsSince1970: c.calibratedAt))),
                ])
            }
            let o = offsets.map { o in
                JSONValue.object([
                    ("adapter", .string(o.adapter)), ("offset", .rounded(o.offset, decimals: 1)),
                    ("beacon", .string(o.identity.colonSeparated)),
                    ("measured_at", .string(Fechahora.format(secondsSince1970: o.measuredAt))),
                ])
            }
            Output.line(JSONValue.object([("calibrations", .array(c)), ("adapters", .array(o))]).spaced)
            return 0
        }
        if calibrations.isEmpty, offsets.isEmpty { Output.line("No calibrations.") }
        for c in calibrations {
            Output.line(
                "\(c.identity.colonSeparated) measured_power=\(String(cFormat: "%.1f", c.measuredPower)) "
                    + "advertised_power=\(c.advertisedPower) readings=\(c.readings) adapter=\(c.adapter) "
                    + "calibrated_at=\(Fechahora.format(secondsSince1970: c.calibratedAt))")
        }
        for o in offsets {
            Output.line(
                "adapter \(o.adapter) offset=\(String(cFormat: "%.1f", o.offset)) from=\(o.identity.colonSeparated)")
        }
        return 0
    }

    static func reset(all: Bool, adapter: String?, beacon: String?) throws -> Int32 {
        let database = try openProfile()
        do {
            if all {
                try database.calibrations.deleteAll()
                Output.line("Every calibration and adapter offset was forgotten.")
            } else if let adapter {
                guard try database.calibrations.deleteOffset(adapter: adapter) else {
                    throw CommandFailure(description: "the adapter \(adapter) has no offset")
                }
                Output.line("The offset of adapter \(adapter) was forgotten.")
            } else if let beacon {
                guard let identity = BeaconIdentity(colonSeparated: beacon) else {
                    throw UsageError(description: "--reset takes UUID:MAJOR:MINOR, not '\(beacon)'")
                }
                guard try database.calibrations.delete(identity) else {
                    throw CommandFailure(description: "the beacon \(identity.colonSeparated) has no calibration")
                }
                Output.line("\(identity.colonSeparated) uses its advertised power again.")
            }
        } catch let error as StoreError { throw CommandFailure(description: error.description) }
        return 0
    }

    static func openProfile() throws -> FaroDatabase {
        do { return try FaroDatabase(path: FaroDatabase.defaultPath()) } catch {
            throw CommandFailure(description: error.description)
        }
    }
}

/// The calibrations `faro scan` and `faro range` compute distances with: read from the profile database when it
/// exists (a missing one means none; nothing is created).
enum StoredCalibration {
    static func load(adapter: String) -> PowerCalibration {
        let path = FaroDatabase.defaultPath()
        guard FileManager.default.fileExists(atPath: path) else { return .none }
        do {
            return try FaroDatabase(path: path, mode: .readWrite, durable: false).calibrations.powerCalibration(
                adapter: adapter)
        } catch {
            Output.error("faro: calibrations not used: \(error)")
            return .none
        }
    }
}

/// A live calibration: a source's sightings of the target beacon for `seconds`, then longer (up to a minute) until
/// the sampler has enough readings. Progress goes to stderr.
struct LiveCalibration {
    let source: AdvertisementSource
    let seconds: Double
    static let longest = 60.0

    /// The source `--source` names, and the adapter name its offset is kept under when the source cannot say.
    static func source(named name: String, arguments args: inout Arguments) throws -> (
        source: AdvertisementSource, adapter: String
    ) {
        switch name {
        case "bluez":
            let adapter = try args.option(CalibrateCommand.Option.adapter)
            return (BlueZSource(options: BlueZSource.Options(adapter: adapter)), adapter ?? "bluez")
        case "hci":
            let device = try args.option(CalibrateCommand.Option.adapter)
            return (HCISource(device: device, active: false), device ?? "hci")
        case "demo":
            let speed = try args.number(CalibrateCommand.Option.speed) ?? 1
            let records = try ReplayFile.load(try DataDirectory.demoRecording())
            return (
                ReplaySource(records: records, name: "demo", loops: true, speed: speed), CalibrateCommand.replayAdapter
            )
        default:
            throw UsageError(description: "--source must be bluez, hci or demo, not '\(name)'")
        }
    }

    /// Collects; returns the adapter's address when the source knows it.
    func run(into sampler: inout CalibrationSampler) throws -> String? {
        let loop = GLibMainLoop()
        var failure: ScanError?
        var collected = sampler
        let start = GLibMainLoop.monotonicSeconds()
        do {
            try source.start { event in
                switch event {
                case .sighting(let s): collected.add(s)
                case .state(let state): Output.error("faro: \(state)")
                case .failed(let error):
                    failure = error
                    loop.quit()
                }
            }
        } catch {
            throw CommandFailure(description: error.description)
        }
        func check() {
            let elapsed = GLibMainLoop.monotonicSeconds() - start
            Output.error("faro: \(collected.readings) readings after \(Int(elapsed)) s")
            if elapsed >= seconds, collected.hasEnough || elapsed >= LiveCalibration.longest {
                loop.quit()
                return
            }
            loop.after(1) { check() }
        }
        loop.after(1) { check() }
        let interrupt = loop.onSignal(SIGINT) { loop.quit() }
        loop.run()
        var stopped = false
        source.stop { stopped = true }
        _ = loop.iterate(timeout: 3) { stopped }
        loop.cancel(interrupt)
        sampler = collected
        if let failure { throw CommandFailure(description: failure.description) }
        return (source as? BlueZSource)?.adapterAddress
    }
}
