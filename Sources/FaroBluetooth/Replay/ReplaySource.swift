import FaroCore
import FaroGLib

/// Recorded advertisements played back as a source: a replay file, or the looping demo recording.
///
/// Two ways to drive it. A tick-driven player (the terminal's `faro scan`) calls `release(until:)` with the
/// recording's clock and gets exactly the records due, in order, which keeps its output deterministic. Started as
/// an `AdvertisementSource`, it releases records itself from a GLib timer, scaled by `speed`, and reports
/// `.finished` at the end (or starts over, for a loop).
public final class ReplaySource: AdvertisementSource {
    public let name: String
    public let records: [ReplayRecord]
    public let loops: Bool
    public let speed: Double
    private var position = 0
    /// Added to every record's time; a loop shifts each pass so the clock keeps going forward.
    private var offset = 0.0
    private var timer: UInt32 = 0
    private var context: OpaquePointer?

    /// A source over `records` (in time order); `loops` starts over at the end; `speed` scales the timer's clock.
    public init(records: [ReplayRecord], name: String = "replay", loops: Bool = false, speed: Double = 1) {
        self.records = records
        self.name = name
        self.loops = loops
        self.speed = speed
    }

    deinit {
        if timer != 0 { MainContextSources.remove(timer, context: context) }
        MainContextSources.release(context: context)
    }

    /// Whether every record of the current pass has been released.
    public var isFinished: Bool { position >= records.count }

    /// The recording's first time (0 when empty).
    public var firstTime: Double { records.first?.time ?? 0 }

    /// Releases every record due at or before `time`, decoded into sightings; records without an iBeacon are
    /// skipped, as a radio skips other devices' advertisements. An HCI record brings its own address and RSSI.
    public func release(until time: Double, _ deliver: (BeaconSighting) -> Void) {
        while position < records.count, records[position].time + offset <= time {
            let record = records[position]
            position += 1
            let time = record.time + offset
            _ = record.data.withUnsafeBytes {
                // Records without an iBeacon are skipped: their reason is not asked for.
                AdvertisementDecoder.forEachBeacon(in: $0, kind: record.kind) { decoded in
                    deliver(BeaconSighting(decoded, heardFrom: record.address, rssi: record.rssi, at: time))
                }
            }
        }
    }

    /// Starts the next pass from the first record, shifted to begin one second after `time`.
    public func loop(after time: Double) {
        guard let first = records.first else { return }
        position = 0
        offset = time - first.time + 1
    }

    public func start(_ handler: @escaping (SourceEvent) -> Void) throws(ScanError) {
        if context == nil { context = MainContextSources.currentContext() }
        let startedAt = GLibMainLoop.monotonicSeconds()
        let firstTime = self.firstTime
        let speed = self.speed
        let clock = { firstTime + (GLibMainLoop.monotonicSeconds() - startedAt) * speed }
        schedule(in: 0.02, clock: clock, handler)
    }

    /// Sleeps until the next record is due (at least 20 ms, so a busy recording is released in batches), releases
    /// what is due, and schedules the next wake-up: a quiet stretch of the recording costs no wake-ups at all.
    private func schedule(in seconds: Double, clock: @escaping () -> Double, _ handler: @escaping (SourceEvent) -> Void)
    {
        let milliseconds = UInt32(min(max(seconds, 0.02), 3600) * 1000)
        timer = MainContextSources.addTimeout(milliseconds: milliseconds, context: context) { [weak self] in
            guard let self else { return false }
            let now = clock()
            self.release(until: now) { handler(.sighting($0)) }
            if self.isFinished {
                guard self.loops else {
                    self.timer = 0
                    handler(.state(.finished))
                    return false
                }
                self.loop(after: now)
            }
            // Stopped by the handler, or nothing left to play (an empty recording).
            guard self.timer != 0, self.position < self.records.count else { return false }
            let next = self.records[self.position].time + self.offset
            self.schedule(in: (next - now) / self.speed, clock: clock, handler)
            return false
        }
    }

    public func stop(_ done: @escaping () -> Void) {
        if timer != 0 { MainContextSources.remove(timer, context: context) }
        timer = 0
        done()
    }
}
