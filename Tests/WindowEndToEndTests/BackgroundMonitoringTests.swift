import FaroTestSupport
import Foundation
import Testing

/// Background monitoring, zone-entry notifications, the tray and "Start at login", on the real `faro` under Xvfb
/// with a private session bus: python-dbusmock plays the notification server (with and without the "actions"
/// capability), bluetoothd (Tests/FaroBluetoothTests/Templates/bluez_faro.py) and a StatusNotifierWatcher
/// (Tests/UI/status_notifier_watcher.py); a real faro-backend names the places. The app is driven through the
/// actions GtkApplication exports on the bus (what the window menu and the tray use) and observed through the
/// mocks' recorded calls and AT-SPI (Tests/UI/faro_desktop.py).
@Suite("Background monitoring", .serialized)
struct BackgroundMonitoringTests {
    static let uuid = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"
    static let helper = Paths.packageRoot + "/Tests/UI/faro_desktop.py"
    static let appPath = "/io/github/faro/Faro"
    static let appID = "io.github.faro.Faro"

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// A private X server, a private bus (session and system alike, with the accessibility bus activatable), a
    /// faro-backend and a data folder: one desktop per test, everything stopped when it goes away.
    final class Desktop {
        let home: TemporaryDirectory
        let display: String
        let xvfb: ChildProcess
        let bus: PrivateBus
        let backend: WindowTests.Backend
        var peers: [ChildProcess] = []
        /// The language Faro and its helpers run in: `en` (the default) or `es` (the test locale
        /// `scripts/make-locales.sh` builds).
        var language = "en"

        /// `backendArguments` go to the desktop's faro-backend (faults: `--refuse-for 20`, `--app-key K` …).
        init(backendArguments: [String] = []) throws {
            home = try TemporaryDirectory("faro-mon")
            try FileManager.default.createDirectory(atPath: home.file("runtime"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: home.file("home"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                atPath: home.file("config/gtk-3.0"), withIntermediateDirectories: true)
            try "[Settings]\ngtk-enable-animations=false\n".write(
                toFile: home.file("config/gtk-3.0/settings.ini"),
                atomically: true, encoding: .utf8)
            var number = 150
            while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
                || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
            { number += 1 }
            display = ":\(number)"
            xvfb = try ChildProcess(
                "/usr/bin/Xvfb", [display, "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"])
            var ready = false
            for _ in 0..<100 where !ready {
                ready = try ChildProcess.run("/usr/bin/xdpyinfo", ["-display", display], timeout: 5).status == 0
                if !ready { Thread.sleep(forTimeInterval: 0.05) }
            }
            guard ready else { throw Failure(description: "Xvfb did not start on \(display)") }
            bus = try PrivateBus(
                serviceActivation: true,
                environment: ["DISPLAY": display, "XDG_RUNTIME_DIR": home.file("runtime")])
            backend = try WindowTests.Backend(backendArguments)
        }

        /// What every process of this desktop runs with.
        var environment: [String: String] {
            var env = home.xdgEnvironment
            env.merge(bus.environment) { $1 }
            env["DISPLAY"] = display
            env["XDG_RUNTIME_DIR"] = home.file("runtime")
            env["GDK_BACKEND"] = "x11"
            env["GTK_A11Y"] = "atspi"
            env["GTK_THEME"] = "Adwaita"
            env["LANG"] = language == "es" ? "es_MX.UTF-8" : "C.UTF-8"
            env["LANGUAGE"] = language
            env["LOCPATH"] = Paths.packageRoot + "/build/locales"
            env["FARO_LOCALE_DIR"] = Paths.packageRoot + "/build/locale"
            return env
        }

        /// Starts a python-dbusmock peer and waits until it owns `name`.
        func mock(_ name: String, _ arguments: [String]) throws {
            let peer = try ChildProcess("/usr/bin/python3", ["-m", "dbusmock"] + arguments, environment: environment)
            peers.append(peer)
            for _ in 0..<200 {
                if try ChildProcess.run(
                    "/usr/bin/gdbus",
                    [
                        "call", "--session", "--dest", "org.freedesktop.DBus",
                        "--object-path", "/org/freedesktop/DBus", "--method",
                        "org.freedesktop.DBus.NameHasOwner", name,
                    ],
                    environment: environment, timeout: 5
                ).stdout.contains("true") {
                    return
                }
                if !peer.process.isRunning { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            throw Failure(description: "dbusmock did not take \(name): \(peer.stderr)")
        }

        /// The notification server; `actions` adds the "actions" capability (clickable notifications).
        func notificationServer(actions: Bool) throws {
            var arguments = ["--session", "--template", "notification_daemon"]
            if actions { arguments += ["-p", #"{"capabilities": "body actions icon-static persistence"}"#] }
            try mock("org.freedesktop.Notifications", arguments)
            daemons[.notifications] = peers.last
        }

        /// The peers a test can stop, as hung daemons.
        enum Daemon: String {
            case notifications = "notification server"
            case networkManager = "NetworkManager"
            case keyring = "gnome-keyring-daemon"
        }

        /// The ones this desktop started (`notificationServer`, `networkManager`, `keyring`).
        private var daemons: [Daemon: ChildProcess] = [:]

        /// Stops `daemon` (`paused`, SIGSTOP), so that calls to it wait unanswered as with a hung daemon, or lets
        /// it go on answering them (SIGCONT).
        func pause(_ daemon: Daemon, _ paused: Bool) throws {
            let process = try #require(daemons[daemon], "no \(daemon.rawValue) on this desktop")
            process.signal(paused ? SIGSTOP : SIGCONT)
        }

        /// NetworkManager on the desktop's system bus (python-dbusmock's template: connected, full connectivity),
        /// which GIO's network monitor then watches instead of the kernel's routes.
        func networkManager() throws {
            try mock("org.freedesktop.NetworkManager", ["--system", "--template", "networkmanager"])
            daemons[.networkManager] = peers.last
        }

        /// Sets NetworkManager's global state (20 disconnected, 70 connected with full connectivity), as when a
        /// network goes or comes.
        func setNetworkState(_ state: Int) throws {
            try gdbus(
                "org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager",
                "org.freedesktop.DBus.Mock.SetGlobalConnectionState", ["\(state)"])
        }

        /// A real Secret Service on this desktop: gnome-keyring-daemon, its login keyring unlocked (the bus would
        /// otherwise start one whose locked keyring waits for a password prompt no one answers). Called again, it
        /// stops the running daemon and serves the same keyrings anew, `locked` (as after a login that did not
        /// unlock them) or unlocked.
        func keyring(locked: Bool = false) throws {
            if let earlier = daemons[.keyring] {
                earlier.signal(SIGTERM)
                _ = earlier.wait(timeout: 10)
            }
            let daemon = try ChildProcess(
                "/usr/bin/gnome-keyring-daemon",
                ["--foreground", "--components=secrets"] + (locked ? [] : ["--unlock"]),
                environment: environment, stdin: locked ? nil : Data("faro-test".utf8))
            peers.append(daemon)
            daemons[.keyring] = daemon
            let owned = try ChildProcess.run(
                "/usr/bin/gdbus", ["wait", "--session", "--timeout", "20", "org.freedesktop.secrets"],
                environment: environment, timeout: 30)
            try #require(owned.status == 0, "gnome-keyring-daemon did not start: \(daemon.stderr)")
        }

        /// The real `faro` on this desktop.
        func faro(_ arguments: [String]) throws -> ChildProcess {
            try ChildProcess(
                Paths.executable("faro"), arguments + ["--backend", backend.url], environment: environment)
        }

        /// `gdbus call --session …`; throws when the call fails.
        @discardableResult
        func gdbus(_ dest: String, _ path: String, _ method: String, _ arguments: [String] = []) throws -> String {
            let r = try ChildProcess.run(
                "/usr/bin/gdbus",
                [
                    "call", "--session", "--dest", dest, "--object-path", path,
                    "--method", method,
                ] + arguments,
                environment: environment, timeout: 10)
            guard r.status == 0 else { throw Failure(description: "\(method): \(r.stderr)") }
            return r.stdout
        }

        /// One command of Tests/UI/faro_desktop.py, its JSON answer decoded.
        @discardableResult func desktop(_ arguments: [String]) throws -> Any {
            let r = try ChildProcess.run(
                "/usr/bin/python3", [BackgroundMonitoringTests.helper] + arguments,
                environment: environment, timeout: 30)
            guard r.status == 0 else { throw Failure(description: "faro_desktop.py \(arguments): \(r.stderr)") }
            return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8), options: [.fragmentsAllowed])
        }

        /// The recorded Notify calls: app_name, replaces_id, icon, summary, body, actions, hints, timeout.
        func notifyCalls() throws -> [[Any]] {
            try desktop(["calls", "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "Notify"])
                as? [[Any]] ?? []
        }

        /// The Notify calls that announce a zone entry (not the one-time "keeps running" notice).
        func zoneNotifications() throws -> [[Any]] {
            try notifyCalls().filter { ($0[3] as? String ?? "").hasPrefix("You are near") }
        }

        /// Clicks the notification `id` (or one of its buttons) the way a notification server reports it.
        func invoke(_ id: Int, _ action: String = "default") throws {
            try gdbus(
                "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                "org.freedesktop.DBus.Mock.EmitSignal",
                ["org.freedesktop.Notifications", "ActionInvoked", "us", "[<uint32 \(id)>, <'\(action)'>]"])
        }

        /// The window through AT-SPI: how many frames are showing, whether the beacon list, Saved or a site is
        /// shown, and whether the site's header offers "Detalles".
        func window() throws -> (frames: Int, beacons: Bool, saved: Bool, site: Bool, details: Bool) {
            let state = try desktop(["window"]) as? [String: Any] ?? [:]
            return (
                state["frames"] as? Int ?? -1, state["beacons"] as? Bool ?? false, state["saved"] as? Bool ?? false,
                state["site"] as? Bool ?? false, state["details"] as? Bool ?? false
            )
        }

        /// Whether monitoring is on, as the exported `app.monitoring` action's state says.
        func monitoring() throws -> Bool? {
            let text = try gdbus(
                BackgroundMonitoringTests.appID, BackgroundMonitoringTests.appPath,
                "org.gtk.Actions.Describe", ["monitoring"])
            if text.contains("[<true>]") { return true }
            if text.contains("[<false>]") { return false }
            return nil
        }

        func setState(_ action: String, _ on: Bool) throws {
            try gdbus(
                BackgroundMonitoringTests.appID, BackgroundMonitoringTests.appPath, "org.gtk.Actions.SetState",
                [action, on ? "<true>" : "<false>", "{}"])
        }

        func activate(_ action: String) throws {
            try gdbus(
                BackgroundMonitoringTests.appID, BackgroundMonitoringTests.appPath, "org.gtk.Actions.Activate",
                [action, "[]", "{}"])
        }

        /// Waits until the app's exported actions answer (it has registered on the bus and started up).
        func waitForApp(_ app: ChildProcess) throws {
            for _ in 0..<150 {
                if (try? monitoring()) != nil { return }
                if !app.process.isRunning { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            throw Failure(description: "faro did not come up: \(app.stdout)\(app.stderr)")
        }

        deinit {
            for peer in peers.reversed() {
                peer.signal(SIGKILL)
                peer.wait(timeout: 5)
            }
            xvfb.signal(SIGTERM)
            if xvfb.wait(timeout: 5) == nil {
                xvfb.signal(SIGKILL)
                xvfb.wait(timeout: 5)
            }
        }
    }

    /// Waits up to `timeout` seconds for `condition`; errors on the way count as "not yet".
    @discardableResult
    static func eventually(_ timeout: Double = 15, _ condition: () throws -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? condition()) == true { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return (try? condition()) == true
    }

    /// Stops `faro` like a session ending (SIGTERM) and waits for it.
    static func stop(_ app: ChildProcess) -> Int32? {
        app.signal(SIGTERM)
        guard let status = app.wait(timeout: 10) else {
            app.signal(SIGKILL)
            app.wait(timeout: 5)
            return nil
        }
        return status
    }

    /// A recording: Café La Parroquia (100/1) from 0.5 s, Librería El Péndulo (100/2) joining at 6 s, both
    /// advertising four times a second for `seconds`; the café's RSSI at time t is `cafeRSSI(t)`.
    static func recording(
        in folder: TemporaryDirectory, seconds: Double = 60, name: String = "two-places.jsonl",
        cafeRSSI: (Double) -> Int = { _ in -60 }
    ) throws -> String {
        let hex = uuid.replacingOccurrences(of: "-", with: "")
        var lines: [String] = []
        var t = 0.5
        while t < seconds {
            lines.append(
                #"{"t": \#(t), "address": "C0:FF:EE:00:00:01", "rssi": \#(cafeRSSI(t)), "kind": "ad", "data": "0201061aff4c000215\#(hex)00640001c5"}"#
            )
            if t >= 6 {
                lines.append(
                    #"{"t": \#(t + 0.05), "address": "C0:FF:EE:00:00:02", "rssi": -62, "kind": "ad", "data": "0201061aff4c000215\#(hex)00640002c3"}"#
                )
            }
            t += 0.25
        }
        let path = folder.file(name)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: notifications

    @Test func aZoneEntryRaisesOneNotificationThatIsUpdatedAndOpensTheBeaconList() throws {
        let desktop = try Desktop()
        try desktop.notificationServer(actions: true)
        let app = try desktop.faro(["--source", "replay", try Self.recording(in: desktop.home), "--no-tray"])
        defer { _ = Self.stop(app) }
        try desktop.waitForApp(app)

        // The first catalogued place: exactly one Notify, before the second place comes in range.
        #expect(Self.eventually { try desktop.zoneNotifications().count >= 1 }, "\(app.stderr)")
        let first = try desktop.zoneNotifications()
        #expect(first.count == 1)
        let call = try #require(first.first)
        #expect(call[0] as? String == Self.appID)
        #expect(call[1] as? Int == 0)  // a new notification
        #expect(call[3] as? String == "You are near Café La Parroquia")
        #expect(call[4] as? String == "Café de olla y pan dulce")
        #expect(call[5] as? [String] == ["default", "Open", "view-site", "View site", "mute-place", "Mute this place"])
        let hints = try #require(call[6] as? [String: Any])
        #expect(hints["category"] as? String == "device")
        #expect(hints["desktop-entry"] as? String == Self.appID)
        #expect(hints["urgency"] as? Int == 1)

        // The second place seconds later updates that notification in place (replaces_id = its id, 1).
        #expect(Self.eventually { try desktop.zoneNotifications().count >= 2 })
        let second = try #require(try desktop.zoneNotifications().last)
        #expect(second[1] as? Int == 1)
        #expect(second[3] as? String == "You are near 2 places")
        #expect(second[4] as? String == "Librería El Péndulo, Café La Parroquia")
        #expect(
            second[5] as? [String] == ["default", "Open", "view-site", "View site", "mute-place", "Mute this place"])

        // Away from the beacon list, a click on the notification brings the window back to it.
        #expect(Self.eventually { try desktop.window().frames == 1 })
        _ = try desktop.desktop(["show-saved"])
        #expect(Self.eventually { try desktop.window().saved })
        try desktop.invoke(1)
        #expect(
            Self.eventually {
                let w = try desktop.window()
                return w.frames == 1 && w.beacons && !w.saved
            })

        // Closed, the window goes away but Faro goes on, and says so once.
        let closed = try desktop.desktop(["close", String(app.process.processIdentifier)]) as? Int
        #expect((closed ?? 0) >= 1)
        #expect(Self.eventually { try desktop.window().frames == 0 })
        #expect(app.process.isRunning)
        #expect(
            Self.eventually {
                try desktop.notifyCalls().filter { $0[3] as? String == "Faro keeps looking for places" }.count == 1
            })
        // A click now opens a new window on the beacon list.
        try desktop.invoke(1)
        #expect(
            Self.eventually {
                let w = try desktop.window()
                return w.frames == 1 && w.beacons
            })
        // "View site" opens the place named first (the latest entry) in the content view, whose header offers the
        // page of the place's beacon.
        try desktop.invoke(1, "view-site")
        #expect(
            Self.eventually {
                let w = try desktop.window()
                return w.site && !w.beacons && w.details
            })
        // Still one notification for both places: updated, never stacked.
        let all = try desktop.zoneNotifications()
        #expect(all.count == 2)
        #expect(all.filter { $0[1] as? Int == 0 }.count == 1)
    }

    @Test func aNotificationServerThatDoesNotAnswerLeavesTheWindowAnswering() throws {
        let desktop = try Desktop()
        try desktop.notificationServer(actions: true)
        // Stopped, as a hung server: calls to it wait unanswered (up to D-Bus's 25 s each).
        try desktop.pause(.notifications, true)
        let app = try desktop.faro(["--source", "replay", try Self.recording(in: desktop.home), "--no-tray"])
        defer { _ = Self.stop(app) }
        try desktop.waitForApp(app)

        // The first place is entered from 0.5 s on, the second from 6 s: with the notification to the first still
        // unanswered, the window goes on answering AT-SPI and lists the second.
        #expect(
            Self.eventually(15) {
                (try desktop.desktop(["texts"]) as? [String] ?? []).contains { $0.contains("Librería El Péndulo") }
            }, "the window froze on the notification server")
        #expect(try desktop.monitoring() == true)
        #expect(try desktop.window().beacons)

        // Once the server answers, the first place's notification is shown, then updated in place with both: the
        // entries that came meanwhile are one update, not a second notification.
        try desktop.pause(.notifications, false)
        #expect(Self.eventually(20) { try desktop.zoneNotifications().count >= 2 }, "\(app.stderr)")
        Thread.sleep(forTimeInterval: 1)
        let calls = try desktop.zoneNotifications()
        #expect(calls.count == 2)
        #expect(calls.first?[1] as? Int == 0)
        #expect(calls.first?[3] as? String == "You are near Café La Parroquia")
        #expect(calls.last?[1] as? Int == 1)
        #expect(calls.last?[3] as? String == "You are near 2 places")
        #expect(
            calls.last?[5] as? [String] == [
                "default", "Open", "view-site", "View site", "mute-place", "Mute this place",
            ])

        // Its actions still reach the window: a click brings back the beacon list.
        _ = try desktop.desktop(["show-saved"])
        #expect(Self.eventually { try desktop.window().saved })
        try desktop.invoke(1)
        #expect(Self.eventually { try desktop.window().beacons })
    }

    @Test func withoutTheActionsCapabilityTheNotificationCarriesNoActions() throws {
        let desktop = try Desktop()
        try desktop.notificationServer(actions: false)
        let app = try desktop.faro([
            "--source", "replay", try Self.recording(in: desktop.home), "--no-tray", "--background",
        ])
        defer { _ = Self.stop(app) }
        try desktop.waitForApp(app)
        #expect(Self.eventually { try desktop.zoneNotifications().count >= 1 }, "\(app.stderr)")
        let call = try #require(try desktop.zoneNotifications().first)
        #expect(call[3] as? String == "You are near Café La Parroquia")
        #expect(call[4] as? String == "Café de olla y pan dulce")
        #expect((call[5] as? [String])?.isEmpty == true)
        let hints = try #require(call[6] as? [String: Any])
        #expect(hints["category"] as? String == "device")
        #expect(hints["desktop-entry"] as? String == Self.appID)
        // Started in the background: monitoring runs, no window was opened.
        #expect(try desktop.window().frames == 0)
    }

    // MARK: on, off, paused

    @Test func pausingAndTurningOffStopDiscoveryAndNotificationsAndTheChoiceSurvivesARestart() throws {
        let desktop = try Desktop()
        try desktop.notificationServer(actions: true)
        let template = Paths.packageRoot + "/Tests/FaroBluetoothTests/Templates/bluez_faro.py"
        var env = desktop.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        let bluez = try ChildProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", template],
            environment: env)
        desktop.peers.append(bluez)
        #expect(
            Self.eventually(10) {
                (try? desktop.gdbus("org.bluez", "/", "org.bluez.Mock.AddAdapter", ["hci0", "Faro test"])) != nil
            })
        func calls(_ method: String) throws -> Int {
            (try desktop.desktop(["calls", "--system", "org.bluez", "/org/bluez/hci0", method]) as? [Any] ?? []).count
        }
        func beacon(_ minor: Int, _ address: String) throws {
            try desktop.gdbus(
                "org.bluez", "/", "org.bluez.Mock.AddBeacon",
                ["hci0", address, Self.uuid, "uint16 100", "uint16 \(minor)", "byte 197", "int16 -60"])
        }
        /// Advertises `minor` a few times a second until `done` holds or `seconds` pass.
        func advertise(_ minor: Int, _ address: String, for seconds: Double, until done: () throws -> Bool) -> Bool {
            Self.eventually(seconds) {
                try desktop.gdbus(
                    "org.bluez", "/", "org.bluez.Mock.Advertise",
                    ["hci0", address, Self.uuid, "uint16 100", "uint16 \(minor)", "byte 197", "int16 -60"])
                return try done()
            }
        }
        func discovering() throws -> Bool {
            try desktop.gdbus(
                "org.bluez", "/org/bluez/hci0", "org.freedesktop.DBus.Properties.Get",
                ["org.bluez.Adapter1", "Discovering"]
            ).contains("true")
        }

        var app = try desktop.faro(["--source", "bluez", "--no-tray", "--background"])
        try desktop.waitForApp(app)
        #expect(try desktop.monitoring() == true)
        #expect(Self.eventually { try calls("StartDiscovery") == 1 && discovering() })
        try beacon(1, "C0:FF:EE:00:00:01")
        #expect(advertise(1, "C0:FF:EE:00:00:01", for: 15) { try desktop.zoneNotifications().count == 1 })

        // Paused for an hour: discovery stops, a new place raises nothing.
        try desktop.activate("pause-hour")
        #expect(Self.eventually { try calls("StopDiscovery") == 1 && !discovering() })
        #expect(try desktop.monitoring() == false)
        try beacon(2, "C0:FF:EE:00:00:02")
        #expect(!advertise(2, "C0:FF:EE:00:00:02", for: 2) { try desktop.zoneNotifications().count > 1 })

        // Back on: discovery resumes, and the place in range is announced.
        try desktop.setState("monitoring", true)
        #expect(Self.eventually { try calls("StartDiscovery") == 2 && discovering() })
        #expect(advertise(2, "C0:FF:EE:00:00:02", for: 15) { try desktop.zoneNotifications().count == 2 })
        #expect((try desktop.zoneNotifications().last?[3] as? String)?.contains("2 places") == true)

        // Off: discovery stops, nothing is announced.
        try desktop.setState("monitoring", false)
        #expect(Self.eventually { try calls("StopDiscovery") == 2 && !discovering() })
        try beacon(3, "C0:FF:EE:00:00:03")
        #expect(!advertise(3, "C0:FF:EE:00:00:03", for: 2) { try desktop.zoneNotifications().count > 2 })
        #expect(Self.stop(app) == 0)

        // Restarted in the background with monitoring off, Faro has nothing to do and leaves.
        let background = try desktop.faro(["--source", "bluez", "--no-tray", "--background"])
        #expect(background.wait(timeout: 15) == 0, "\(background.stderr)")
        #expect(try calls("StartDiscovery") == 2)
        // Opened with its window, monitoring is still off, and turning it on resumes discovery.
        app = try desktop.faro(["--source", "bluez", "--no-tray"])
        defer { _ = Self.stop(app) }
        try desktop.waitForApp(app)
        #expect(try desktop.monitoring() == false)
        // Once its window is on screen the app has been through all of its start-up: no discovery was started.
        #expect(Self.eventually { try desktop.window().frames == 1 })
        #expect(try calls("StartDiscovery") == 2)
        try desktop.setState("monitoring", true)
        #expect(Self.eventually { try calls("StartDiscovery") == 3 && discovering() })
    }

    // MARK: tray

    @Test func theTrayItemRegistersWithTheWatcherAndItsMenuTogglesMonitoring() throws {
        let desktop = try Desktop()
        try desktop.notificationServer(actions: true)
        try desktop.mock(
            "org.kde.StatusNotifierWatcher",
            ["--session", "--template", Paths.packageRoot + "/Tests/UI/status_notifier_watcher.py"])
        let app = try desktop.faro(["--source", "replay", try Self.recording(in: desktop.home)])
        defer { _ = Self.stop(app) }
        try desktop.waitForApp(app)
        let owner = try desktop.gdbus(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetNameOwner",
            [Self.appID])
        #expect(
            Self.eventually {
                let items = try desktop.gdbus(
                    "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                    "org.kde.StatusNotifierWatcher.Mock.GetRegisteredItems")
                let unique = owner.split(separator: "'").dropFirst().first.map(String.init) ?? "?"
                return items.contains("'\(unique)', '/org/ayatana/NotificationItem/")
            })

        func entry(_ label: String) throws -> [String: Any]? {
            (try desktop.desktop(["tray-menu"]) as? [[String: Any]])?.first { $0["label"] as? String == label }
        }
        let labels = (try desktop.desktop(["tray-menu"]) as? [[String: Any]] ?? []).compactMap {
            $0["label"] as? String
        }
        #expect(labels.contains("_Open Faro") && labels.contains("Pause for one _hour") && labels.contains("_Quit"))
        let check = try #require(try entry("Background _monitoring"))
        #expect(check["toggle-type"] as? String == "checkmark")
        #expect(check["toggle-state"] as? Int == 1)

        _ = try desktop.desktop(["tray-click", "Background _monitoring"])
        #expect(Self.eventually { try desktop.monitoring() == false })
        #expect(Self.eventually { try entry("Background _monitoring")?["toggle-state"] as? Int == 0 })
        _ = try desktop.desktop(["tray-click", "Background _monitoring"])
        #expect(Self.eventually { try desktop.monitoring() == true })
        #expect(Self.eventually { try entry("Background _monitoring")?["toggle-state"] as? Int == 1 })
        // The window menu and the tray agree: a pause from the tray turns the exported action off too.
        _ = try desktop.desktop(["tray-click", "Pause for one _hour"])
        #expect(Self.eventually { try desktop.monitoring() == false })
        #expect(Self.eventually { try entry("Background _monitoring")?["toggle-state"] as? Int == 0 })
        // Paused, Faro stays in the tray with its window closed, and "Open Faro" opens the window again.
        #expect(Self.eventually { try desktop.window().frames == 1 })
        _ = try desktop.desktop(["close", String(app.process.processIdentifier)])
        #expect(Self.eventually { try desktop.window().frames == 0 })
        #expect(app.process.isRunning)
        _ = try desktop.desktop(["tray-click", "_Open Faro"])
        #expect(
            Self.eventually {
                let w = try desktop.window()
                return w.frames == 1 && w.beacons
            })
    }

    // MARK: autostart

    @Test func startAtLoginWritesAnAutostartEntryThatStartsFaroWithoutAWindow() throws {
        let desktop = try Desktop()
        try desktop.notificationServer(actions: true)
        let recording = try Self.recording(in: desktop.home)
        let extra = ["--source", "replay", recording, "--no-tray", "--backend", desktop.backend.url]
        let app = try desktop.faro(["--source", "replay", recording, "--no-tray"])
        try desktop.waitForApp(app)
        // The window menu offers it as a check item, beside background monitoring.
        #expect(Self.eventually { try desktop.window().frames == 1 })
        let items = try desktop.desktop(["menu"]) as? [[String: String]] ?? []
        #expect(items.contains(["name": "Start at login", "role": "check box"]), "\(items)")
        #expect(items.contains(["name": "Background monitoring", "role": "check box"]), "\(items)")
        let entry = desktop.home.file("config/autostart/io.github.faro.Faro.desktop")
        #expect(!FileManager.default.fileExists(atPath: entry))
        #expect(
            try desktop.gdbus(Self.appID, Self.appPath, "org.gtk.Actions.Describe", ["autostart"]).contains("[<false>]")
        )

        try desktop.setState("autostart", true)
        #expect(Self.eventually(5) { FileManager.default.fileExists(atPath: entry) })
        #expect(
            try desktop.gdbus(Self.appID, Self.appPath, "org.gtk.Actions.Describe", ["autostart"]).contains("[<true>]"))
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        #expect(lines.contains("[Desktop Entry]"))
        #expect(lines.contains("Type=Application"))
        #expect(lines.contains("X-GNOME-Autostart-enabled=true"))
        let exec = try #require(lines.first { $0.hasPrefix("Exec=") })
        let binary = URL(fileURLWithPath: Paths.executable("faro")).resolvingSymlinksInPath().path
        #expect(exec == "Exec=\(binary) --background")
        #expect(Self.stop(app) == 0)

        // What the session runs at login (plus this test's source and backend): Faro monitors without a window.
        let words = exec.dropFirst("Exec=".count).split(separator: " ").map(String.init)
        let login = try ChildProcess(words[0], Array(words.dropFirst()) + extra, environment: desktop.environment)
        defer { _ = Self.stop(login) }
        try desktop.waitForApp(login)
        #expect(try desktop.monitoring() == true)
        #expect(Self.eventually { try desktop.zoneNotifications().count >= 1 })
        #expect(Self.eventually(5) { try desktop.window().frames == 0 })
        // Activated later (the launcher, a notification), it opens the window.
        try desktop.gdbus(Self.appID, Self.appPath, "org.gtk.Application.Activate", ["{}"])
        #expect(
            Self.eventually {
                let w = try desktop.window()
                return w.frames == 1 && w.beacons
            })

        try desktop.setState("autostart", false)
        #expect(Self.eventually(5) { !FileManager.default.fileExists(atPath: entry) })
    }
}
