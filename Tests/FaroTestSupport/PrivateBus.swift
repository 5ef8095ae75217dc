import Foundation

/// A private D-Bus daemon for one test: real peers (dbusmock's BlueZ, ModemManager, notification server) run on
/// it and Faro connects to it through `DBUS_SYSTEM_BUS_ADDRESS` / `DBUS_SESSION_BUS_ADDRESS`.
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    private let daemon: ChildProcess
    private let folder: TemporaryDirectory

    /// `serviceActivation` lets the bus start the desktop's activatable services (the accessibility bus that
    /// AT-SPI tests need); `environment` is added to the daemon's, so what it starts sees it too (`DISPLAY`);
    /// `extraPolicy` is appended to the default policy (a `<deny …/>` to play a distribution's restrictive rules).
    public init(serviceActivation: Bool = false, environment: [String: String] = [:], extraPolicy: String = "") throws {
        folder = try TemporaryDirectory("faro-bus")
        let config = folder.file("bus.conf")
        let text = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(folder.path)</listen>
            \(serviceActivation ? "  <standard_session_servicedirs/>" : "")
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
                \(extraPolicy)
              </policy>
            </busconfig>
            """
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        daemon = try ChildProcess(
            "/usr/bin/dbus-daemon", ["--config-file=\(config)", "--nofork", "--print-address=1"],
            environment: environment)
        guard let line = daemon.waitForLine(timeout: 10, { $0.hasPrefix("unix:") }) else {
            throw CocoaError(
                .executableLoad, userInfo: [NSLocalizedDescriptionKey: "dbus-daemon did not start: \(daemon.stderr)"])
        }
        address = line.trimmingCharacters(in: .whitespaces)
    }

    /// Environment that points both the system and the session bus of a child process at this daemon.
    public var environment: [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": address, "DBUS_SESSION_BUS_ADDRESS": address]
    }

    deinit {
        daemon.signal(SIGKILL)
        daemon.wait(timeout: 5)
    }
}
