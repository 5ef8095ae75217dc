/// Why scanning cannot start or go on, with what the user can do about it.
public enum ScanError: Error, Sendable, Equatable, CustomStringConvertible {
    // --- D-Bus and BlueZ ---
    /// The system bus could not be reached (no dbus-daemon, or a bad DBUS_SYSTEM_BUS_ADDRESS).
    case systemBusUnavailable(detail: String)
    /// `org.bluez` is not on the system bus and no source was named: the user has to choose one.
    case bluezNotRunning
    /// bluetoothd answered a call with an error Faro cannot work around.
    case bluezCallFailed(method: String, errorName: String, message: String)
    /// `--adapter` was not of the form `hciN`.
    case invalidAdapterName(String)

    // --- Raw HCI ---
    /// socket(AF_BLUETOOTH) failed with EAFNOSUPPORT: the kernel has no Bluetooth support loaded.
    case bluetoothNotInKernel
    /// No controller (ENODEV), or not the one asked for.
    case noAdapter(device: String?)
    /// The controller is down (ENETDOWN).
    case adapterDown(device: String)
    /// Raw HCI commands need CAP_NET_RAW (EPERM/EACCES); `executable` is the binary to give it to.
    case missingRawCapability(executable: String)
    /// The controller is in use (EBUSY, EIO, or status 0x0C Command Disallowed), usually by bluetoothd.
    case controllerBusy(device: String, detail: String)
    /// The controller did not answer a command in time.
    case controllerTimeout(device: String, command: String)
    /// A command was refused with an HCI status Faro has no advice for.
    case commandFailed(device: String, command: String, status: UInt8)
    /// Any other system call failure.
    case systemCallFailed(call: String, errno: Int32, message: String)
    /// `--device` was not of the form `hciN`.
    case invalidDeviceName(String)

    public var description: String {
        switch self {
        case .systemBusUnavailable(let detail):
            return "cannot reach the system D-Bus (\(detail)); start it, or scan without bluetoothd: "
                + "--source hci (raw HCI) or --source demo"
        case .bluezNotRunning:
            return "bluetoothd is not running (no org.bluez on the system bus): start it with "
                + "`sudo systemctl start bluetooth`, or choose --source hci (raw HCI, no bluetoothd needed) "
                + "or --source demo (simulated beacons)"
        case .bluezCallFailed(let method, let name, let message):
            return "bluetoothd refused \(method): \(message) (\(name)); try again, or use --source hci"
        case .invalidAdapterName(let name):
            return "--adapter must name an adapter like hci0, not '\(name)'"
        case .bluetoothNotInKernel:
            return "this kernel has no Bluetooth support (socket(AF_BLUETOOTH) failed: EAFNOSUPPORT); load it "
                + "with `sudo modprobe bluetooth`, or use --source demo"
        case .noAdapter(let device?):
            return "no Bluetooth adapter \(device) (ENODEV); list adapters with `hciconfig` or `bluetoothctl list` "
                + "and choose one with --device"
        case .noAdapter(nil):
            return "no Bluetooth adapter found (ENODEV); plug one in or unblock it (`rfkill unblock bluetooth`), "
                + "or use --source demo"
        case .adapterDown(let device):
            return "Bluetooth adapter \(device) is down (ENETDOWN); bring it up with `sudo hciconfig \(device) up`"
        case .missingRawCapability(let executable):
            return "raw HCI scanning needs the CAP_NET_RAW capability; grant it once with "
                + "`sudo setcap cap_net_raw,cap_net_admin+eip \(executable)`, or use --source bluez"
        case .controllerBusy(let device, let detail):
            return "Bluetooth adapter \(device) is busy (\(detail)), usually because bluetoothd is scanning; "
                + "use --source bluez instead"
        case .controllerTimeout(let device, let command):
            return "Bluetooth adapter \(device) did not answer \(command) in time; reset it "
                + "(`sudo hciconfig \(device) reset`) or use --source bluez"
        case .commandFailed(let device, let command, let status):
            let hex = String(status, radix: 16, uppercase: false)
            let code = hex.count < 2 ? "0" + hex : hex
            return "Bluetooth adapter \(device) refused \(command) with HCI status 0x\(code); use --source bluez"
        case .systemCallFailed(let call, let errno, let message):
            return "\(call) failed: \(message) (errno \(errno))"
        case .invalidDeviceName(let name):
            return "--device must name an adapter like hci0, not '\(name)'"
        }
    }
}
