import FaroCore
import Glibc

/// The HCI steps that can fail, for mapping a failure to what the user should do.
public enum HCIStep: String, Sendable {
    case openSocket = "socket(AF_BLUETOOTH)"
    case findAdapter = "finding an adapter"
    case openDevice = "opening the adapter"
    case setScanParameters = "LE Set Scan Parameters"
    case enableScan = "LE Set Scan Enable"
    case setFilter = "setting the HCI event filter"
    case read = "reading HCI events"
}

/// Maps raw-HCI failures (an errno, or an HCI command status) to `ScanError`s that say what to do. Pure.
public enum HCIErrorMapping {
    /// HCI status 0x0C: the controller refuses the command in its current state (usually: bluetoothd scans).
    public static let commandDisallowed: UInt8 = 0x0C

    /// The error for `errno` at `step` on `device` (nil: no device chosen yet); `executable` is the binary that
    /// needs CAP_NET_RAW.
    public static func error(errno code: Int32, step: HCIStep, device: String?, executable: String) -> ScanError {
        let name = device ?? "hci0"
        switch code {
        case EAFNOSUPPORT, EPROTONOSUPPORT:
            return .bluetoothNotInKernel
        case ENODEV:
            return .noAdapter(device: device)
        case ENETDOWN:
            return .adapterDown(device: name)
        case EPERM, EACCES:
            return .missingRawCapability(executable: executable)
        case EBUSY, EIO, EALREADY:
            return .controllerBusy(device: name, detail: "\(step.rawValue): \(message(for: code))")
        case ETIMEDOUT:
            return .controllerTimeout(device: name, command: step.rawValue)
        default:
            return .systemCallFailed(call: step.rawValue, errno: code, message: message(for: code))
        }
    }

    /// The error for a command that completed with a non-zero HCI `status`.
    public static func error(status: UInt8, step: HCIStep, device: String) -> ScanError {
        if status == commandDisallowed {
            return .controllerBusy(device: device, detail: "\(step.rawValue): Command Disallowed (HCI status 0x0c)")
        }
        return .commandFailed(device: device, command: step.rawValue, status: status)
    }

    /// strerror's text for `code`.
    public static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// The running executable's real path (what `setcap` must be given).
    public static func currentExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return CommandLine.arguments.first ?? "faro" }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
