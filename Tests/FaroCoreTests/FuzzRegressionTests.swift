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

    @Test(arguments: inputs.map(\.0))
    func replay(_ name: String) throws {
        let input = try #require(Self.inputs.first { $0.0 == name }?.1)
        let bytes = Array(input.dropFirst())
        let all = IBeaconDecoder.decodeAdvertisingData(bytes)
        let first = bytes.withUnsafeBytes { IBeaconDecoder.firstIBeacon(inAdvertisingData: $0) }
        switch (all, first) {
        case (.success(let beacons), .success(let beacon)): #expect(beacons.first == beacon)
        case (.failure(let a), .failure(let b)): #expect(a == b)
        default: Issue.record("firstIBeacon and decodeAdvertisingData disagree on \(name)")
        }
        _ = IBeaconDecoder.decodeManufacturerData(bytes)
        _ = AdvertisementDecoder.decode(bytes, kind: .hci)
        _ = IBeaconDecoder.decode(companyID: 0x004C, payload: bytes)
    }
}
