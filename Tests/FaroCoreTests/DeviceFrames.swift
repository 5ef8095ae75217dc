@testable import FaroCore

/// Advertisements of real devices, as published in public bug reports and logs (the hex is a fact about the
/// device; the source is named on each), plus the canonical frame from Apple's specification.
enum DeviceFrames {
    /// Canonical AD structures: flags, then a 0x1A-long Apple MSD (AirLocate UUID, major 1, minor 2, −59 dBm).
    static let canonical = "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"

    /// easiBeacon, a whole HCI LE Advertising Report: the MSD is 0x1B long, a battery byte follows the power byte.
    /// Published in sandeepmistry/node-bleacon pull request #21.
    static let easiBeaconHCI =
        "043e2b02010301ce11ad4285f71f0201041bff4c000215a7ae2eb71f004168b99ba749bac1ca6400010001bb4eb9"

    /// Wellcore iBeacon as a stack that glues the scan response on hands it over: 47 bytes, beyond the 31 of one
    /// advertisement. Published in paypal/gatt issue #74.
    static let wellcoreGluedScanResponse =
        "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010000c5020a000416535143" + "07ff00000054" + "0000"

    /// Govee H5055 thermometer, Apple payload as BlueZ/bleak expose it (company id as key 76): UUID spells
    /// "INTELLI_ROCKS_HW". Published in Bluetooth-Devices/govee-ble issue #46.
    static let goveeH5055ApplePayload = "0215" + "494e54454c4c495f524f434b535f4857" + "5072" + "f2ff" + "c2"

    /// Govee H5108: the same UUID with a positive measured power byte (+12), a real-world oddity that must decode
    /// but cannot give a distance. Published in Bluetooth-Devices/govee-ble issue #71.
    static let goveeH5108ApplePayload = "0215" + "494e54454c4c495f524f434b535f4857" + "5075" + "f2ff" + "0c"

    /// A phone's iBeacon next to another company's data, from home-assistant/core issue #76862 (BlueZ form).
    static let phoneApplePayload = "0215" + "50765cb7d9ea4e2199a4fa879613a492" + "7620" + "216e" + "ce"

    /// An Apple "Nearby" frame (type 0x10) from a phone: Apple's company id, but not an iBeacon.
    static let appleNearby = "02011a0aff4c001005031c2a9f1e"

    /// An Eddystone-URL beacon: service data, no manufacturer data at all.
    static let eddystoneURL = "0201060303aafe0d16aafe10ee03676f6f676c6507"

    /// A beacon without the flags structure, which iOS still ranges (RadiusNetworks/android-ibeacon-service #6).
    static let noFlags = "1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"

    /// Govee H5182 meat thermometer, two whole HCI LE Advertising Report events from one device (A4-style random
    /// address CE:31:30:30:30:65), pasted by a user in custom-components/ble_monitor issue #914: its ADV_IND
    /// (Govee data, company bytes `30 30`) and its SCAN_RSP holding an iBeacon ("INTELLI_ROCKS_HW", major 0x5075,
    /// minor 0xF2FF, power +12).
    static let goveeH5182AdvertisementHCI =
        "043e28020100016530303031ce1c" + "0201060303518214ff30306501000101e401865140ffff860898ffff" + "b1"
    static let goveeH5182ScanResponseHCI =
        "043e27020104016530303031ce1b" + "1aff4c000215494e54454c4c495f524f434b535f48575075f2ff0c" + "a6"
    /// The AD data of those two events.
    static let goveeH5182AdvertisingData = "0201060303518214ff30306501000101e401865140ffff860898ffff"
    static let goveeH5182ScanResponseData = "1aff4c000215494e54454c4c495f524f434b535f48575075f2ff0c"

    /// An advertisement zero-padded past its last structure (flags, a 16-bit service UUID, service data, then eight
    /// zero bytes), from go-ble/ble pull request #115; on Linux its scan response follows the padding.
    static let zeroPaddedAdvertisement = "020106030201a20c1601a200894198a19be587da0000000000000000"

    /// Teltonika EYE sensor (7C:D9:F4:13:BA:D6), custom-components/ble_monitor issue #1222: its Eddystone-UID
    /// service data (zero bytes at the end of the structure) and its own manufacturer data (company 0x089A). Not
    /// an iBeacon: the sensor sends one only when configured for iBeacon mode.
    static let teltonikaEyeEddystone = "1716aafe00e8f8b7b046e6e155aaa3625bf1918c00550000"
    static let teltonikaEyeManufacturerData = "0eff9a0801b70b732800230100046b"

    /// A Microsoft (company 0x0006) manufacturer-data structure and a service-data structure zero-filled to its
    /// declared length, both logged by an ESP32 scanner in shmuelzon/esp32-ble2mqtt issue #70.
    static let microsoftManufacturerData = "1eff060001092006a416ca61c574e717006239bbc757943a1bc20e05ce8198"
    static let zeroFilledServiceData = "03039ffe17169ffe0000000000000000000000000000000000000000"

    static func bytes(_ hex: String) -> [UInt8] {
        (try? Hex.decode(hex)) ?? []
    }
}
