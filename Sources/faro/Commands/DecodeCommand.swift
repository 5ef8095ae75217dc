import FaroCore

/// `faro decode [--kind ad|msd|hci] HEX`: one JSON object per iBeacon in one advertisement.
enum DecodeCommand {
    static let usage = "faro decode [--kind ad|msd|hci] HEX"

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let kindText = try args.option("--kind")
        let hex = try args.positional("HEX (the advertisement bytes)")
        try args.finish()
        let bytes: [UInt8]
        do { bytes = try Hex.decode(hex) } catch { throw CommandFailure(description: "bad hex: \(error)") }
        let kind: AdvertisementKind
        if let kindText {
            guard let k = AdvertisementKind(rawValue: kindText) else {
                throw UsageError(description: "--kind must be ad, msd or hci, not '\(kindText)'")
            }
            kind = k
        } else {
            kind = AdvertisementKind.guess(bytes)
        }
        switch AdvertisementDecoder.decode(bytes, kind: kind) {
        case .success(let sightings):
            for s in sightings { Output.line(JSON.sighting(s)) }
            return 0
        case .failure(let why):
            throw CommandFailure(description: "no valid iBeacon (\(kind.rawValue)): \(why)")
        }
    }
}
