import FaroCore

/// `faro decode [--kind ad|msd|hci] HEX`: one JSON object per iBeacon in one advertisement.
enum DecodeCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let kind = OptionSpec(
            "--kind ad|msd|hci",
            "What HEX is: ad, the raw AD structures of an advertisement; msd, manufacturer-specific data starting "
                + "with the little-endian company id (4c00 0215 ...); hci, a whole HCI LE Advertising Report event "
                + "starting at the packet indicator (04 3e). Without it the form is guessed.")
        static let hex = OptionSpec("HEX", "The advertisement's bytes in hexadecimal; spaces and colons are allowed.")
        static let declared = [kind, hex]
    }

    static let help = CommandHelp(
        name: "decode", synopsis: ["faro decode [--kind ad|msd|hci] HEX"],
        summary: "Decode one advertisement and print the iBeacons in it as JSON.",
        description: """
            Decodes one Bluetooth LE advertisement given in hexadecimal and prints one JSON object per iBeacon found \
            in it: uuid (lower case, with dashes), major, minor and tx_power (the measured power at 1 m, in dBm); for \
            an HCI event also the address and rssi. When the input holds no valid iBeacon it prints nothing and exits \
            with status 1, the reason on stderr.
            """,
        options: Option.declared,
        examples: [
            ExampleHelp(
                "faro decode 4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5",
                "Prints {\"uuid\": \"e2c56db5-dffb-48d2-b060-d0f5a71096e0\", \"major\": 1, \"minor\": 2, \"tx_power\": -59}."
            )
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let kindText = try args.option(Option.kind)
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
        case .success(let beacons):
            for beacon in beacons { Output.line(JSON.decoded(beacon)) }
            return 0
        case .failure(let why):
            throw CommandFailure(description: "no valid iBeacon (\(kind.rawValue)): \(why)")
        }
    }
}
