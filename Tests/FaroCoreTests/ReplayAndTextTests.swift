import Testing

@testable import FaroCore

@Suite("Replay lines, hex and identities")
struct ReplayAndTextTests {
    @Test func parsesAReplayLine() throws {
        let line =
            #"{"t": 12.345, "address": "c0:ff:ee:00:00:01", "rssi": -67, "kind": "msd", "data": "4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"}"#
        let record = try #require(try ReplayReader.parse(line: Substring(line), number: 1))
        #expect(record.time == 12.345)
        #expect(record.address.description == "C0:FF:EE:00:00:01")
        #expect(record.rssi == -67)
        #expect(record.kind == .msd)
        #expect(record.data.count == 25)
        // Written back, it parses to the same record.
        #expect(try ReplayReader.parse(line: Substring(record.jsonLine), number: 1) == record)
    }

    @Test func blankAndCommentLinesAreSkipped() throws {
        #expect(try ReplayReader.parse(line: "   ", number: 1) == nil)
        #expect(try ReplayReader.parse(line: "# a comment", number: 2) == nil)
    }

    @Test(arguments: [
        ("not json", "not a JSON object"),
        (#"{"address": "C0:FF:EE:00:00:01", "rssi": -1, "data": ""}"#, "\"t\""),
        (#"{"t": 1, "address": "C0:FF:EE", "rssi": -1, "data": ""}"#, "\"address\""),
        (#"{"t": 1, "address": "C0:FF:EE:00:00:01", "rssi": -300, "data": ""}"#, "\"rssi\""),
        (#"{"t": 1, "address": "C0:FF:EE:00:00:01", "rssi": -1, "kind": "xyz", "data": ""}"#, "\"kind\""),
        (#"{"t": 1, "address": "C0:FF:EE:00:00:01", "rssi": -1, "data": "4g"}"#, "\"data\""),
    ])
    func badLinesNameTheProblem(_ line: String, _ mentions: String) {
        do {
            _ = try ReplayReader.parse(line: Substring(line), number: 7)
            Issue.record("accepted a bad line: \(line)")
        } catch {
            #expect(error.line == 7)
            #expect(error.description.hasPrefix("line 7: "))
            #expect(error.description.contains(mentions))
        }
    }

    @Test func timeMustNotGoBackwards() {
        let text = """
            {"t": 2, "address": "C0:FF:EE:00:00:01", "rssi": -60, "data": ""}
            {"t": 1, "address": "C0:FF:EE:00:00:01", "rssi": -60, "data": ""}
            """
        #expect(throws: ReplayError(line: 2, reason: "time 1.0 goes back before 2.0")) {
            try ReplayReader.parse(text: text)
        }
    }

    @Test(arguments: [
        ("not json", "not a JSON object"),
        (#"{"address": "C0:FF:EE:00:00:01", "rssi": -1, "data": ""}"#, "\"t\""),
        (#"{"t": 1, "address": "C0:FF:EE", "rssi": -1, "data": ""}"#, "\"address\""),
        (#"{"t": 1, "address": "C0:FF:EE:00:00:01", "rssi": -1, "data": "4g"}"#, "\"data\": 'g' at position 2"),
        (#"{"t": 1, "address": "C0:FF:EE:00:00:01", "rssi": -1, "data": "abc"}"#, "odd number of digits (3)"),
        ("\u{FEFF}" + #"{"t": 1, "address": "C0:FF:EE:00:00:01", "rssi": -1, "data": ""}"#, "not a JSON object"),
    ])
    func aFileNamesTheBadLineAndItsProblem(_ bad: String, _ mentions: String) {
        // The file is read from its bytes, the line from its text: both refuse it the same way.
        let good = #"{"t": 0.5, "address": "C0:FF:EE:00:00:01", "rssi": -60, "data": "0201"}"#
        let text = [good, "", "# comment", bad, good].joined(separator: "\n")
        do {
            _ = try ReplayReader.parse(text: text)
            Issue.record("accepted a bad file: \(bad)")
        } catch {
            #expect(error.line == 4)
            #expect(error.description.contains(mentions), "\(error)")
            do {
                _ = try ReplayReader.parse(line: Substring(bad), number: 4)
                Issue.record("the line reader accepted what the file reader refused: \(bad)")
            } catch let lineError {
                #expect(lineError == error)
            }
        }
    }

    @Test func aFileReadsAsItsLinesDo() throws {
        // Every form the line reader takes (spacing, case, dashes, a 0x prefix, separators in the data, Unicode
        // spaces around the object, a missing kind), and CRLF line ends, which the line reader never sees.
        let lines = [
            #"{"t": 0, "address": "C0:FF:EE:00:00:01", "rssi": -60, "kind": "ad", "data": "0201061aff4c00"}"#,
            #"  {"t":0.25,"address":"c0-ff-ee-00-00-02","rssi":-61,"data":"4C 00:02 15"}"# + "\t",
            "\u{00A0}" + #"{"t": 0.5, "address": "C0:FF:EE:00:00:03", "rssi": -62, "kind": "msd", "data": "0x4c00"}"#
                + "\u{2003}",
            #"{"kind": "hci", "data": "", "rssi": 0, "address": "+0:FF:EE:00:00:04", "t": 1e0}"#,
        ]
        let expected = try lines.enumerated().map { i, line in
            try #require(try ReplayReader.parse(line: Substring(line), number: i + 1))
        }
        #expect(try ReplayReader.parse(text: lines.joined(separator: "\n")) == expected)
        #expect(try ReplayReader.parse(text: lines.joined(separator: "\r\n") + "\r\n") == expected)
        #expect(expected[1].address.description == "C0:FF:EE:00:00:02" && expected[1].data == [0x4C, 0, 2, 0x15])
        #expect(expected[2].data == [0x4C, 0x00])
        #expect(try ReplayReader.parse(text: "") == [])
    }

    @Test func recordsWithTheSameAdvertisementShareOneCopyOfIt() throws {
        let beacon = "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"
        let text = (0..<50).map { i in
            let data = i % 5 == 4 ? "4c00" : beacon
            return #"{"t": \#(i), "address": "C0:FF:EE:00:00:0\#(i % 3)", "rssi": -60, "data": "\#(data)"}"#
        }.joined(separator: "\n")
        let records = try ReplayReader.parse(text: text)
        #expect(records.count == 50)
        let storage = Set(records.map { $0.data.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } })
        #expect(storage.count == 2)
        #expect(records[0].data == (try Hex.decode(beacon)) && records[4].data == [0x4C, 0x00])
        // A record changed afterwards gets its own copy; the others keep theirs.
        var changed = records
        changed[0].data[0] = 0
        #expect(changed[1].data == records[1].data && changed[0].data != records[1].data)
    }

    @Test func hex() throws {
        #expect(try Hex.decode("4C 00:02 15") == [0x4C, 0x00, 0x02, 0x15])
        #expect(try Hex.decode("0xff") == [0xFF])
        #expect(throws: Hex.Error.oddLength(3)) { try Hex.decode("abc") }
        #expect(throws: Hex.Error.invalidCharacter("g", position: 1)) { try Hex.decode("ag") }
        #expect(Hex.encode([0x00, 0xAB, 0xFF]) == "00abff")
    }

    @Test func uuidAndAddressText() {
        let uuid = BeaconUUID("FA20DE30-0B1E-4C5A-9B5E-D3A0BE0C0DE1")
        #expect(uuid?.description == "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1")
        #expect(BeaconUUID("fa20de300b1e4c5a9b5ed3a0be0c0de1") == uuid)
        #expect(BeaconUUID("fa20de30") == nil)
        #expect(BluetoothAddress("c0-ff-ee-00-00-01")?.description == "C0:FF:EE:00:00:01")
        #expect(BluetoothAddress("C0:FF:EE:00:00") == nil)
        #expect(BluetoothAddress("C0:FF:EE:00:00:0G") == nil)
    }

    @Test func kindGuess() {
        #expect(AdvertisementKind.guess(DeviceFrames.bytes(DeviceFrames.easiBeaconHCI)) == .hci)
        #expect(AdvertisementKind.guess(DeviceFrames.bytes("4c000215")) == .msd)
        #expect(AdvertisementKind.guess(DeviceFrames.bytes(DeviceFrames.canonical)) == .ad)
    }

    @Test func demoRecordingDecodes() throws {
        // The shipped demo recording is valid replay input, and its iBeacons decode.
        let path = #filePath.components(separatedBy: "/Tests/")[0] + "/data/demo/walk.jsonl"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let records = try ReplayReader.parse(text: text)
        #expect(records.count > 1000)
        let beacons = Set(
            records.compactMap { try? AdvertisementDecoder.decode($0.data, kind: $0.kind).get() }
                .flatMap { $0 }.map(\.beacon.identity))
        #expect(beacons.count == 9)
        #expect(Set(records.map(\.kind)) == [.ad, .msd, .hci])
    }
}
