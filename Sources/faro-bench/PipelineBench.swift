import FaroApp
import FaroCommandLine
import FaroCore
import Glibc

/// `faro-bench pipeline`: advertisements through exactly the path the window takes. Each is decoded by the
/// production decoder (`AdvertisementDecoder.forEachBeacon`, what every source calls), handed to a `BeaconSessionRunner` (its own thread, as in the window) and ranged there; once
/// per synthetic second the runner ticks and the window's `BeaconListStage` builds the 1,000-row list. The figure is
/// advertisements per second of the whole process's CPU time (both threads).
enum PipelineBench {
    static func run(beacons: Int, adverts: Int, repeats: Int, places placeCount: Int) {
        var generator = SplitMix64(seed: 42)
        let frames = SyntheticFrames(beacons: beacons, generator: &generator)
        var rssis = [Int8](repeating: 0, count: 4096)
        for i in rssis.indices { rssis[i] = Int8(-50 - Int(generator.next() % 40)) }
        var places: [BeaconIdentity: CatalogPlace] = [:]
        frames.bytes.withUnsafeBytes { all in
            for b in 0..<min(placeCount, beacons) {
                let advert = UnsafeRawBufferPointer(rebasing: all[(b * 30)..<(b * 30 + 30)])
                _ = AdvertisementDecoder.forEachBeacon(in: advert, kind: .ad) { decoded in
                    let beacon = decoded.beacon
                    places[beacon.identity] = CatalogPlace(
                        identity: beacon.identity, cliente: "Lugar \(b)", titulo: "Sitio \(b)",
                        url: "https://example.com/\(b)")
                }
            }
        }
        var times: [Double] = []
        var check = 0
        for _ in 0..<repeats {
            let result = runOnce(frames: frames, beacons: beacons, adverts: adverts, rssis: rssis, places: places)
            times.append(result.cpuSeconds)
            check &+= result.check
        }
        let median = times.sorted()[times.count / 2]
        Output.line(
            "pipeline_cpu_adverts_per_s=\(String(cFormat: "%.1f", Double(adverts) / median)) beacons=\(beacons) "
                + "adverts=\(adverts) places=\(places.count) check=\(check)")
    }

    /// Collects what the runner delivers and lets the producer wait for each tick, as the window's 1 Hz tick
    /// never overtakes its own result.
    final class Collector: @unchecked Sendable {
        let condition = ConditionLock()
        var ticks = 0
        var rows = 0
        var regionEvents = 0

        func take(_ outputs: [BeaconListOutput]) {
            condition.lock()
            for output in outputs {
                switch output {
                case .region: regionEvents += 1
                case .ranged:
                    ticks += 1
                }
            }
            condition.broadcast()
            condition.unlock()
        }

        /// A list the stage published (before its tick's outputs).
        func took(_ list: BeaconListUpdate) {
            condition.lock()
            rows += list.model.rows.count
            condition.unlock()
        }

        func wait(forTicks n: Int) {
            condition.lock()
            while ticks < n { condition.wait() }
            condition.unlock()
        }
    }

    static func runOnce(
        frames: SyntheticFrames, beacons: Int, adverts: Int, rssis: [Int8], places: [BeaconIdentity: CatalogPlace]
    ) -> (cpuSeconds: Double, check: Int) {
        let collector = Collector()
        let configuration = BeaconSessionConfiguration(filter: SightingFilter(minimumRSSI: -100))
        let runner = BeaconSessionRunner(
            session: BeaconSession(configuration: configuration),
            stage: BeaconListStage(localize: .english, publish: { collector.took($0) }),
            inputs: BeaconListInputs(state: .scanning, listWanted: true), machineClock: { 0 }, autoTick: false,
            hop: { $0() }, deliver: { collector.take($0) })
        runner.setCatalog(CatalogIndex(Array(places.values)))
        // The places come back as one (empty) list first; the timed run starts after it.
        collector.wait(forTicks: 1)
        collector.condition.withLock {
            collector.ticks = 0
            collector.rows = 0
        }
        let perSecond = beacons * 10
        var ticks = 0
        let t0 = ProcessCPUClock.now()
        frames.bytes.withUnsafeBytes { all in
            for i in 0..<adverts {
                let b = i % beacons
                let advert = UnsafeRawBufferPointer(rebasing: all[(b * 30)..<(b * 30 + 30)])
                let time = Double(i) / Double(perSecond)
                let address = BluetoothAddress(value: UInt64(b))
                let rssi = rssis[i & 4095]
                _ = AdvertisementDecoder.forEachBeacon(in: advert, kind: .ad) { decoded in
                    runner.observe(BeaconSighting(decoded, heardFrom: address, rssi: rssi, at: time))
                }
                if (i + 1) % perSecond == 0 {
                    runner.tickNow()
                    ticks += 1
                    collector.wait(forTicks: ticks)
                }
            }
        }
        let cpu = ProcessCPUClock.now() - t0
        runner.stop()
        return (cpu, collector.rows &+ collector.regionEvents)
    }
}

/// CPU seconds used by the whole process (every thread), for benchmarks that span threads.
enum ProcessCPUClock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
