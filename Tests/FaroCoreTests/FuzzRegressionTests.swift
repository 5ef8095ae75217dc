import Foundation
import Testing

@testable import FaroCore

/// Replays the fuzzer's seeds and every input that ever crashed it (Tests/Fuzz/regressions), checking the same
/// properties the fuzz target checks, so a fixed crash stays fixed without running the fuzzer.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static var inputs: [(String, [UInt8])] {
        let root = #filePath.components(separatedBy: "/Tests/")[0] + "/Tests/Fuzz"
        var out: [(String, [UInt8])] = []
        for folder in ["seeds", "regressions"] {
            let dir = root + "/" + folder
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                if let data = FileManager.default.contents(atPath: dir + "/" + name) { out.append((name, Array(data))) }
            }
        }
        return out
    }

    @Test func thereAreInputs() {
        #expect(Self.inputs.count >= 10)
    }

    /// What `AdvertisementDecoder.forEachBeacon` finds in `bytes` of `kind`, and why it found nothing.
    static func sightings(_ bytes: [UInt8], _ kind: AdvertisementKind) -> ([IBeacon], DecodeFailure?) {
        var found: [IBeacon] = []
        let (any, why) = bytes.withUnsafeBytes { p in
            (
                AdvertisementDecoder.forEachBeacon(in: p, kind: kind) { found.append($0.beacon) },
                AdvertisementDecoder.rejection(of: p, kind: kind)
            )
        }
        #expect(any == !found.isEmpty)
        #expect((why == nil) == any, "the reason disagrees with the hot path (\(kind))")
        return (found, why)
    }

    /// The fuzz target's properties (Tests/Fuzz/DecoderFuzz.swift), for every form the input could be read as.
    @Test(arguments: inputs.map(\.0))
    func replay(_ name: String) throws {
        let input = try #require(Self.inputs.first { $0.0 == name }?.1)
        let bytes = Array(input.dropFirst())
        // AD data, and the same data as the one report of an HCI event.
        let (ad, adWhy) = Self.sightings(bytes, .ad)
        #expect((adWhy == nil) == !ad.isEmpty)
        if bytes.count <= 243 {
            let report: [UInt8] = [0x00, 0x01, 1, 2, 3, 4, 5, 6, UInt8(bytes.count)] + bytes + [0xC4]
            let (inEvent, _) = Self.sightings([0x04, 0x3E, UInt8(report.count + 2), 0x02, 0x01] + report, .hci)
            #expect(inEvent == ad, "the HCI form disagrees with the AD form on \(name)")
        }
        // Manufacturer data, and the same block as one AD structure.
        let (msd, _) = Self.sightings(bytes, .msd)
        if bytes.count <= 254 {
            #expect(Self.sightings([UInt8(bytes.count + 1), 0xFF] + bytes, .ad).0 == msd)
        }
        // An HCI event: its beacons are its reports' beacons, or none when it is broken.
        let (event, eventWhy) = Self.sightings(bytes, .hci)
        switch HCIEventParser.reports(in: bytes) {
        case .failure(let rejection):
            #expect(event.isEmpty && eventWhy == .hci(rejection))
        case .success(let reports):
            #expect(event == reports.flatMap { Self.sightings($0.data, .ad).0 })
        }
    }
}
