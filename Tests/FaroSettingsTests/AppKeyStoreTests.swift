import FaroSettings
import FaroTestSupport
import Foundation
import Testing

/// The app key is a secret: in the Secret Service when one is on the session bus (here a real GNOME Keyring on a
/// private bus), else in a file only its owner can read. Nothing ever prints it.
@Suite("App key store", .serialized)
struct AppKeyStoreTests {
    @Test func withoutASessionBusTheKeyGoesToAFileOnlyItsOwnerReads() throws {
        let folder = try TemporaryDirectory("faro-key")
        let environment = ["XDG_CONFIG_HOME": folder.file("config"), "DBUS_SESSION_BUS_ADDRESS": ""]
        let store = AppKeyStore.standard(environment: environment)
        #expect(store.location == .file(folder.file("config/faro/app-key")))
        #expect(try store.read() == nil)
        try store.store("  s3cret\n")
        #expect(try store.read() == "s3cret")
        var info = stat()
        #expect(stat(folder.file("config/faro/app-key"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(folder.file("config/faro"), &info) == 0 && info.st_mode & 0o777 == 0o700)
        try store.remove()
        #expect(try store.read() == nil)
        try store.remove()
    }

    @Test func aKeyFileOthersCanReadIsRefused() throws {
        let folder = try TemporaryDirectory("faro-key")
        let path = folder.file("app-key")
        try "s3cret\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)
        let store = AppKeyStore(location: .file(path))
        #expect(throws: AppKeyError.exposed(path: path, mode: 0o644)) { try store.read() }
        chmod(path, 0o600)
        #expect(try store.read() == "s3cret")
    }

    @Test func emptyAndMultiLineKeysAreRefused() throws {
        let folder = try TemporaryDirectory("faro-key")
        let store = AppKeyStore(location: .file(folder.file("app-key")))
        #expect(throws: AppKeyError.self) { try store.store(" \n") }
        #expect(throws: AppKeyError.self) { try store.store("one\ntwo") }
        #expect(!FileManager.default.fileExists(atPath: folder.file("app-key")))
    }

    /// A real Secret Service: gnome-keyring-daemon on a private session bus, its login keyring unlocked. No display
    /// is given to it or to Faro, so a keyring that needs unlocking cannot prompt (the prompter fails at once).
    final class Keyring {
        let bus: PrivateBus
        static let executable = "/usr/bin/gnome-keyring-daemon"
        var daemon: ChildProcess
        let folder: TemporaryDirectory
        var environment: [String: String] { Self.environment(bus: bus, folder: folder) }

        /// What the daemon and the Faro it serves run with: the bus, the keyring's folders, no display.
        private static func environment(bus: PrivateBus, folder: TemporaryDirectory) -> [String: String] {
            bus.environment.merging(
                [
                    "XDG_DATA_HOME": folder.file("data"), "XDG_CONFIG_HOME": folder.file("config"),
                    "XDG_RUNTIME_DIR": folder.file("runtime"), "HOME": folder.file("home"), "DISPLAY": "",
                    "WAYLAND_DISPLAY": "",
                ], uniquingKeysWith: { $1 })
        }

        init?() throws {
            guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
                if ProcessInfo.processInfo.environment["CI"] == "true" {
                    Issue.record("gnome-keyring-daemon is missing (scripts/install-deps.sh installs it)")
                }
                return nil
            }
            folder = try TemporaryDirectory("faro-keyring")
            for sub in ["data", "config", "runtime", "home"] {
                try FileManager.default.createDirectory(
                    atPath: folder.file(sub), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            bus = try PrivateBus()
            daemon = try Self.start(folder: folder, bus: bus, unlocked: true)
        }

        /// Stops the daemon and starts another on the same keyrings, the login keyring locked or unlocked.
        func restart(locked: Bool) throws {
            daemon.signal(SIGTERM)
            _ = daemon.wait(timeout: 10)
            daemon = try Self.start(folder: folder, bus: bus, unlocked: !locked)
        }

        /// Stores `key` with `faro app-key set` while the keyring is open, then serves it locked.
        func storeThenLock(_ key: String) throws {
            let set = try ChildProcess.run(
                Paths.executable("faro"), ["app-key", "set"], environment: environment, stdin: Data((key + "\n").utf8))
            try #require(set.status == 0, "\(set.stderr)")
            try restart(locked: true)
        }

        /// --unlock reads the login keyring's password from stdin, creating the keyring on first use.
        private static func start(folder: TemporaryDirectory, bus: PrivateBus, unlocked: Bool) throws -> ChildProcess {
            let env = environment(bus: bus, folder: folder)
            let daemon = try ChildProcess(
                executable, ["--foreground", "--components=secrets"] + (unlocked ? ["--unlock"] : []),
                environment: env, stdin: unlocked ? Data("faro-test".utf8) : nil)
            let owned = try ChildProcess.run(
                "/usr/bin/gdbus", ["wait", "--session", "--timeout", "20", "org.freedesktop.secrets"], environment: env,
                timeout: 30)
            try #require(owned.status == 0, "gnome-keyring-daemon did not start: \(daemon.stderr)")
            return daemon
        }

        deinit { daemon.signal(SIGTERM) }
    }

    @Test func withASecretServiceTheKeyGoesIntoTheKeyring() throws {
        guard let keyring = try Keyring() else { return }
        let faro = Paths.executable("faro")
        let location = try ChildProcess.run(faro, ["app-key"], environment: keyring.environment)
        #expect(location.stdout.contains("kept in the Secret Service"), "\(location.stdout)\(location.stderr)")
        #expect(location.stdout.contains("No app key is stored."))
        let set = try ChildProcess.run(
            faro, ["app-key", "set"], environment: keyring.environment, stdin: Data("k3y-from-stdin\n".utf8))
        #expect(set.status == 0, "\(set.stderr)")
        #expect(!set.stdout.contains("k3y-from-stdin") && !set.stderr.contains("k3y-from-stdin"))
        // Another Secret Service client finds it under Faro's attributes; no file was written.
        let lookup = try ChildProcess.run(
            "/usr/bin/secret-tool", ["lookup", "kind", "app-key"], environment: keyring.environment)
        #expect(lookup.stdout == "k3y-from-stdin", "\(lookup.stderr)")
        #expect(!FileManager.default.fileExists(atPath: keyring.folder.file("config/faro/app-key")))
        let help = try ChildProcess.run(faro, ["--help"], environment: keyring.environment)
        #expect(help.stdout.contains("kept in the Secret Service"), "\(help.stdout)")
        let clear = try ChildProcess.run(faro, ["app-key", "clear"], environment: keyring.environment)
        #expect(clear.status == 0, "\(clear.stderr)")
        let gone = try ChildProcess.run(
            "/usr/bin/secret-tool", ["lookup", "kind", "app-key"], environment: keyring.environment)
        #expect(gone.stdout.isEmpty)
    }

    /// Storing a key in a keyring that stays locked fails with what to do, not only the service's words.
    @Test func storingIntoALockedKeyringSaysHowToGoOn() throws {
        guard let keyring = try Keyring() else { return }
        let faro = Paths.executable("faro")
        try keyring.storeThenLock("k3y")
        let store = try ChildProcess.run(
            faro, ["app-key", "set"], environment: keyring.environment, stdin: Data("other\n".utf8), timeout: 30)
        #expect(store.status == 1, "\(store.stdout)\(store.stderr)")
        #expect(store.stderr.contains("the keyring that keeps the app key is locked: unlock it"), "\(store.stderr)")
        #expect(store.stderr.contains("$FARO_APP_KEY"))
    }

    /// A key kept in a locked keyring is neither "not stored" nor cleared: both say it is locked and what to do, and
    /// the key is still there once the keyring is open again.
    @Test func aKeyInALockedKeyringIsNotTakenForNone() throws {
        guard let keyring = try Keyring() else { return }
        let faro = Paths.executable("faro")
        try keyring.storeThenLock("k3y-locked")
        let show = try ChildProcess.run(faro, ["app-key"], environment: keyring.environment, timeout: 30)
        #expect(show.status == 1, "\(show.stdout)\(show.stderr)")
        #expect(!show.stdout.contains("No app key is stored"), "\(show.stdout)")
        #expect(show.stderr.contains("the keyring that keeps the app key is locked: unlock it"), "\(show.stderr)")
        let clear = try ChildProcess.run(faro, ["app-key", "clear"], environment: keyring.environment, timeout: 30)
        #expect(clear.status == 1, "\(clear.stdout)\(clear.stderr)")
        #expect(!clear.stdout.contains("No app key is stored now"), "\(clear.stdout)")
        #expect(clear.stderr.contains("$FARO_APP_KEY"), "\(clear.stderr)")
        // A command that needs the backend says why it has no key, instead of going on without one.
        let sync = try ChildProcess.run(
            faro, ["catalog", "sync", "--backend", "http://127.0.0.1:9"], environment: keyring.environment, timeout: 30)
        #expect(
            sync.stderr.contains("cannot read the app key: the keyring that keeps the app key is locked"),
            "\(sync.stdout)\(sync.stderr)")
        // Queueing a registration needs no key (it is read when the row is sent): the locked keyring does not stop it.
        let register = try ChildProcess.run(
            faro,
            [
                "register", "--nombre", "Llavero SA", "--email", "hola@ejemplo.mx", "--telefono", "5512345678",
                "--backend", "http://127.0.0.1:9",
            ], environment: keyring.environment, timeout: 30)
        #expect(register.status == 0 && !register.stdout.isEmpty, "\(register.stdout)\(register.stderr)")
        let list = try ChildProcess.run(
            faro, ["catalog", "--backend", "http://127.0.0.1:9"], environment: keyring.environment, timeout: 30)
        #expect(list.status == 0, "\(list.stdout)\(list.stderr)")
        try keyring.restart(locked: false)
        let kept = try ChildProcess.run(
            "/usr/bin/secret-tool", ["lookup", "kind", "app-key"], environment: keyring.environment)
        #expect(kept.stdout == "k3y-locked", "\(kept.stderr)")
        let unlocked = try ChildProcess.run(faro, ["app-key"], environment: keyring.environment)
        #expect(unlocked.stdout.contains("An app key is stored."), "\(unlocked.stdout)\(unlocked.stderr)")
    }

    /// With no key stored, reading one opens no encrypted session (its key exchange keeps libgcrypt resident in a
    /// tray app all day); with a key stored, the read opens one to fetch it. Seen by dbus-monitor on the bus.
    @Test func readingWhenNoKeyIsStoredOpensNoSession() throws {
        guard let keyring = try Keyring() else { return }
        let monitor = try ChildProcess(
            "/usr/bin/dbus-monitor",
            ["--session", "interface='org.freedesktop.Secret.Service',member='OpenSession'"],
            environment: keyring.environment)
        defer { monitor.signal(SIGTERM) }
        // dbus-monitor gives up its name once it has become a monitor.
        try #require(monitor.waitForLine(timeout: 20) { $0.contains("member=NameLost") } != nil, "\(monitor.stderr)")
        let sessions = { monitor.stdout.components(separatedBy: "member=OpenSession").count - 1 }
        let faro = Paths.executable("faro")

        let none = try ChildProcess.run(faro, ["app-key"], environment: keyring.environment)
        #expect(none.stdout.contains("No app key is stored."), "\(none.stdout)\(none.stderr)")
        let set = try ChildProcess.run(
            faro, ["app-key", "set"], environment: keyring.environment, stdin: Data("k3y\n".utf8))
        try #require(set.status == 0, "\(set.stderr)")
        // The store's own session is the monitor's proof that it sees OpenSession at all.
        let afterStore = try #require(Self.settle(sessions), "dbus-monitor saw no session for the store")
        let stored = try ChildProcess.run(faro, ["app-key"], environment: keyring.environment)
        #expect(stored.stdout.contains("An app key is stored."), "\(stored.stdout)\(stored.stderr)")
        #expect(Self.settle(sessions, above: afterStore) == afterStore + 1, "\(monitor.stdout)")
        #expect(afterStore == 1, "the read with no key stored opened a session: \(monitor.stdout)")
    }

    /// The count once it is above `floor` and has not moved for half a second (within 10 s), or nil.
    private static func settle(_ count: () -> Int, above floor: Int = 0) -> Int? {
        var last = -1
        for _ in 0..<100 {
            let now = count()
            if now > floor && now == last { return now }
            last = now
            usleep(500_000)
        }
        return nil
    }

    /// The key reaches the backend: one that demands ZUMO-API-KEY accepts the row only once the key is stored.
    @Test func theStoredKeyIsSentToTheBackend() throws {
        guard let keyring = try Keyring() else { return }
        let fixture = try SchemaFixture()
        var environment = keyring.environment
        for key in ["GSETTINGS_SCHEMA_DIR", "GSETTINGS_BACKEND"] { environment[key] = fixture.environment[key] }
        let backend = try BackendProcess(["--app-key", "k3y"], environment: environment)
        defer { backend.stop() }
        let url = backend.url
        let faro = Paths.executable("faro")
        let registered = try ChildProcess.run(
            faro, ["register", "--nombre", "Bo Café", "--email", "bo@cafe.mx", "--telefono", "5512345678"],
            environment: environment)
        #expect(registered.status == 0, "\(registered.stderr)")
        let refused = try ChildProcess.run(
            faro, ["outbox", "flush", "--backend", url, "--timeout", "5"], environment: environment)
        #expect(!refused.stdout.contains("delivered: 1"), "\(refused.stdout)\(refused.stderr)")
        _ = try ChildProcess.run(faro, ["app-key", "set"], environment: environment, stdin: Data("k3y\n".utf8))
        let delivered = try ChildProcess.run(
            faro, ["outbox", "flush", "--backend", url, "--timeout", "20", "--retry-failed"], environment: environment)
        #expect(delivered.status == 0, "\(delivered.stdout)\(delivered.stderr)")
        #expect(delivered.stdout.contains("delivered: 1"))
    }
}
