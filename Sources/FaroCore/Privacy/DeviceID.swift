/// The device id Faro puts in content URLs (docs/content-view.md), and where it came from.
public struct DeviceID: Sendable, Equatable, CustomStringConvertible {
    /// Where the id came from.
    public enum Source: String, Sendable, Equatable {
        /// The `EquipmentIdentifier` of the first ModemManager modem: a real IMEI on 3GPP modems.
        case modem
        /// The app-specific id derived from `/etc/machine-id` (never the raw machine id).
        case machine
    }

    public var value: String
    public var source: Source

    public init(value: String, source: Source) {
        self.value = value
        self.source = source
    }

    /// "IMEI 356938035643809 (modem)" or "Device id 1dee…8a86 (derived from this computer's machine id)": what
    /// "Acerca de" shows.
    public var description: String {
        switch source {
        case .modem: return "IMEI \(value) (from the modem)"
        case .machine: return "Device id \(value) (derived from this computer's machine id)"
        }
    }
}

/// The pure half of the machine-derived device id, computed exactly as systemd's
/// `sd_id128_get_machine_app_specific` (and `systemd-id128 machine-id --app-specific=APP`) does: HMAC-SHA256 with
/// the 16 machine-id bytes as key over the 16 app-id bytes, first 16 bytes of the digest, marked as a version-4
/// UUID, written as 32 lower-case hex digits. The HMAC itself is computed by the adapter (GLib).
public enum AppSpecificID {
    /// Faro's own 128-bit application id (fixed forever: changing it changes every user's device id).
    public static let faroAppID: [UInt8] = hexBytes("7c961c2794164911910c4e877a24e7f0")

    /// Why a machine id was refused.
    public enum MachineIDError: Error, Equatable, Sendable, CustomStringConvertible {
        case malformed(String)
        case uninitialized

        public var description: String {
            switch self {
            case .malformed(let text):
                return "the machine id \"\(text.prefix(40))\" is not 32 hexadecimal digits (see machine-id(5))"
            case .uninitialized:
                return
                    "the machine id is not initialized yet (all zeros or \"uninitialized\"); run systemd-machine-id-setup"
            }
        }
    }

    /// The 16 bytes of a machine-id file's content: 32 hex digits (dashes tolerated), trailing newline allowed.
    public static func parseMachineID(_ text: String) throws(MachineIDError) -> [UInt8] {
        let trimmed = text.trimming(charactersIn: " \t\n\r")
        if trimmed == "uninitialized" { throw .uninitialized }
        let digits = trimmed.filter { $0 != "-" }
        guard digits.utf8.count == 32, digits.utf8.allSatisfy({ PercentEncoding.hexValue($0) != nil }) else {
            throw .malformed(trimmed)
        }
        let bytes = hexBytes(digits)
        if bytes.allSatisfy({ $0 == 0 }) { throw .uninitialized }
        return bytes
    }

    /// The app-specific id from an HMAC-SHA256 digest (32 bytes) of the app id keyed by the machine id.
    public static func id(fromDigest digest: [UInt8]) -> String {
        var bytes = Array(digest.prefix(16))
        while bytes.count < 16 { bytes.append(0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return bytes.map { byte in
            PercentEncoding.hexDigit(byte >> 4).lowercased() + PercentEncoding.hexDigit(byte & 0x0F).lowercased()
        }.joined()
    }

    /// Bytes of a string of hex digit pairs (invalid pairs become 0; callers validate first).
    static func hexBytes(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        return stride(from: 0, to: utf8.count - 1, by: 2).map { i in
            (PercentEncoding.hexValue(utf8[i]) ?? 0) << 4 | (PercentEncoding.hexValue(utf8[i + 1]) ?? 0)
        }
    }
}
