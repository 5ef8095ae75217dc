import FaroTestSupport
import Foundation
import Testing

/// The terminal front end is a contract other tools read: these tests run the built `faro` binary for real.
@Suite("faro command line")
struct CLITests {
    let faro = Paths.executable("faro")
    let demo = Paths.data + "/demo/walk.jsonl"

    func run(_ args: [String], env: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(faro, args, environment: env, timeout: 60)
    }

    func json(_ line: Substring) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func decodeEveryKind() throws {
        let ad = try run(["decode", "--kind", "ad", "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"])
        #expect(ad.status == 0)
        #expect(
            ad.stdout == #"{"uuid": "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "major": 1, "minor": 2, "tx_power": -59}"#
                + "\n")

        let msd = try run(["decode", "--kind", "msd", "4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"])
        #expect(msd.stdout == ad.stdout)

        let hci = try run([
            "decode", "--kind", "hci",
            "043e2b02010301ce11ad4285f71f0201041bff4c000215a7ae2eb71f004168b99ba749bac1ca6400010001bb4eb9",
        ])
        #expect(hci.status == 0)
        #expect(
            hci.stdout
                == #"{"uuid": "a7ae2eb7-1f00-4168-b99b-a749bac1ca64", "major": 1, "minor": 1, "tx_power": -69, "address": "F7:85:42:AD:11:CE", "rssi": -71}"#
                + "\n")
    }

    @Test func decodeGuessesTheKind() throws {
        let r = try run(["decode", "4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"minor\": 2"))
    }

    @Test func decodeTwoBeaconsPrintsTwoLines() throws {
        let two =
            "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"
            + "1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000070009bb"
        let r = try run(["decode", two])
        #expect(r.stdout.split(separator: "\n").count == 2)
    }

    @Test func decodeReadsWhatRealCapturesContain() throws {
        // Govee H5182 (custom-components/ble_monitor issue #914): its advertisement and its iBeacon scan response
        // concatenated in one HCI report, 55 data bytes.
        let concatenated =
            "043e4302010001" + "6530303031ce" + "37" + "0201060303518214ff30306501000101e401865140ffff860898ffff"
            + "1aff4c000215494e54454c4c495f524f434b535f48575075f2ff0c" + "b1"
        let hci = try run(["decode", concatenated])
        #expect(hci.status == 0)
        #expect(
            hci.stdout
                == #"{"uuid": "494e5445-4c4c-495f-524f-434b535f4857", "major": 20597, "minor": 62207, "tx_power": 12, "address": "CE:31:30:30:30:65", "rssi": -79}"#
                + "\n")
        // A zero-padded advertisement (go-ble/ble pull request #115) with the iBeacon scan response after it.
        let padded =
            "020106030201a20c1601a200894198a19be587da0000000000000000"
            + "1aff4c000215494e54454c4c495f524f434b535f48575075f2ff0c"
        let ad = try run(["decode", "--kind", "ad", padded])
        #expect(ad.status == 0 && ad.stdout.contains(#""minor": 62207"#))
    }

    @Test(arguments: [
        (["decode", "0201060303aafe"], "no manufacturer-specific data"),
        (
            [
                "decode", "--kind", "hci",
                "043e27020104016530303031ce1c1aff4c000215494e54454c4c495f524f434b535f48575075f2ff0ca6",
            ],
            "report 1 claims 28 data bytes but the event has room for 27"
        ),
        (["decode", "--kind", "hci", "040e04010b2000"], "not an LE meta event"),
        (["decode", "zz"], "not a hex digit"),
        (["decode", "abc"], "odd number"),
    ])
    func decodeFailuresAreOneLineAndExit1(_ args: [String], _ reason: String) throws {
        let r = try run(args)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains(reason))
    }

    @Test func usageErrorsExit2() throws {
        #expect(try run(["decode", "--kind", "xyz", "00"]).status == 2)
        #expect(try run(["frobnicate"]).status == 2)
        #expect(try run(["range"]).status == 2)
    }

    @Test func rangeJSONTicksOncePerSecondNearestFirst() throws {
        let r = try run(["range", "--replay", demo, "--json"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count >= 120)
        var expectedT = 1.0
        var sawEight = false
        for line in lines {
            let tick = try json(line)
            #expect(tick["t"] as? Double == expectedT)
            expectedT += 1
            let beacons = try #require(tick["beacons"] as? [[String: Any]])
            if beacons.count >= 8 { sawEight = true }
            let distances = beacons.compactMap { $0["distance"] as? Double }
            #expect(distances == distances.sorted())
            for b in beacons {
                #expect(Set(b.keys) == ["uuid", "major", "minor", "address", "rssi", "distance", "proximity"])
                #expect(["immediate", "near", "far", "unknown"].contains(b["proximity"] as? String ?? ""))
            }
        }
        #expect(sawEight)
    }

    @Test func rangeFollowsTheWalk() throws {
        // The walker pauses in front of the bakery (100/3) from about t=38 s: it is the nearest beacon of the street
        // then (7/42 is on the desk, about 1 m away all along: docs/calibration.md).
        let r = try run(["range", "--replay", demo, "--json"])
        let tick = try #require(r.stdout.split(separator: "\n").map { try json($0) }.first { $0["t"] as? Double == 45 })
        let beacons = try #require(tick["beacons"] as? [[String: Any]])
        let desk = try #require(beacons.first { $0["major"] as? Int == 7 && $0["minor"] as? Int == 42 })
        #expect((desk["distance"] as? Double ?? 99) < 3)
        let nearest = try #require(beacons.first { $0["major"] as? Int != 7 })
        #expect(nearest["major"] as? Int == 100)
        #expect(nearest["minor"] as? Int == 3)
        #expect((nearest["distance"] as? Double ?? 99) < 4)
    }

    @Test func rangeTextTable() throws {
        let r = try run(["range", "--replay", demo])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("t=1.0s"))
        #expect(r.stdout.contains("≈ "))
    }

    @Test func badReplayLineNamesTheLine() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("bad.jsonl")
        let text = """
            {"t": 0.5, "address": "C0:FF:EE:00:00:01", "rssi": -60, "kind": "ad", "data": "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"}
            {"t": 0.7, "address": "C0:FF:EE:00:00:01", "rssi": -60, "kind": "ad", "data": "zz"}
            """
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try run(["range", "--replay", file])
        #expect(r.status == 1)
        #expect(r.stderr.contains("line 2"))
        #expect(r.stderr.split(separator: "\n").count == 1)
        let missing = try run(["range", "--replay", dir.file("nope.jsonl")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read"))
    }

    @Test func scanReplayRunsOnTheWallClock() throws {
        let r = try run(["scan", "--source", "replay", demo, "--json", "--duration", "3", "--speed", "20"])
        #expect(r.status == 0)
        let ts = try r.stdout.split(separator: "\n").map { try json($0)["t"] as? Double }
        #expect(ts == [1.0, 2.0, 3.0])
    }

    @Test func scanDemoFindsItsDataAndSaysItIsADemo() throws {
        let r = try run(
            ["scan", "--source", "demo", "--duration", "2", "--speed", "20"],
            env: ["FARO_DATA_DIR": Paths.data])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("Demo:"))
        #expect(r.stdout.contains("t=2.0s"))
    }

    @Test func scanRejectsUnknownSources() throws {
        let r = try run(["scan", "--source", "carrier-pigeon"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--source"))
    }
}
