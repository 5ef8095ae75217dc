internal import CShim
import Dispatch
import FaroApp
import FaroBluetooth
import FaroCore
import FaroGLib
import FaroInstall
import FaroNet
import FaroStore
import FaroUI
import FaroWeb
import FoundationEssentials
import Glibc

/// `faro [options]` (GUIOptions): the window (a GtkApplication). `--demo` is the offline demo: the demo recording
/// plus a private faro-backend on loopback.
enum GUICommand {
    @MainActor
    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let options = try GUIOptions(&args)
        try args.finish()
        // Before any thread starts: the tray app's threads share one heap (docs/monitoring.md, "Memory").
        faro_malloc_one_arena()
        let (demo, service, noTray, background, speed) =
            (options.demo, options.service, options.noTray, options.background, options.speed)
        var sourceName = options.sourceName
        let (replayFile, adapter, device) = (options.replayFile, options.adapter, options.device)
        var backendURL = options.backendURL

        let env = ProcessInfo.processInfo.environment
        guard !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty else {
            throw CommandFailure(
                description: "no display to open the window on; for the terminal demo run "
                    + "`faro scan --source demo` (or see `faro --help`)")
        }
        // The demo never touches the user's own data: everything below reads the private profile's folders.
        let demoProfile = demo ? try DemoProfile.create() : nil
        defer { demoProfile?.remove() }
        let database = try FaroDatabase(path: FaroDatabase.defaultPath())
        let outbox = OutboxAdapter(database: database)
        let settings: any SettingsStore
        let opened = SettingsAccess.open(database: database)
        switch opened {
        case .success(let store): settings = store
        case .failure(let error):
            // Without the schema (an uninstalled build with no compiled schemas) the window still works; what it
            // would have kept in GSettings lasts for this run only.
            Output.error("faro: \(error); settings changed in this run are kept in Faro's database")
            settings = DatabaseSettingsAdapter(database: database)
        }

        var demoBackend: DemoBackend?
        if demo, backendURL == nil {
            let backend = try DemoBackend.start()
            demoBackend = backend
            backendURL = backend.url
        }
        let readAppKey = demoProfile == nil
        // The URL and the tables now; the stored app key on a thread of its own (AppKeyReading) once the window is
        // on screen, so the first frame never waits for the keyring. $FARO_APP_KEY, when set, is already in the
        // configuration.
        let configuration = try BackendSettings.resolve(
            option: backendURL, database: database, opened: opened, readAppKey: false)
        let appKey = readAppKey && configuration != nil && configuration?.appKey == nil ? AppKeyReading() : nil
        outbox.backend = configuration?.baseURL
        let deliverer = configuration.flatMap { configuration in
            appKey == nil
                ? WindowOutbox.deliverer(
                    databasePath: database.path, configuration: configuration,
                    environment: ProcessInfo.processInfo.environment) : nil
        }
        outbox.deliverer = deliverer
        if sourceName == nil {
            sourceName = (try? BlueZSource.isServiceRunning().get()) == true ? "bluez" : "demo"
        }
        let records: [ReplayRecord]
        switch sourceName {
        case "replay": records = try ReplayFile.load(replayFile ?? "")
        case "demo": records = try ReplayFile.load(try DataDirectory.demoRecording())
        default: records = []
        }
        let name = sourceName ?? "demo"
        let makeSource: @MainActor () -> any AdvertisementSource = {
            switch name {
            case "bluez":
                // --adapter, else the adapter chosen in Preferences, else the first powered one.
                let chosen = adapter ?? settings.string(SettingsKey.adapter)
                return BlueZSource(
                    options: BlueZSource.Options(adapter: chosen, powerOn: false, watchdog: GUICommand.watchdog()))
            case "hci": return HCISource(device: device)
            default: return ReplaySource(records: records, name: name, loops: name == "demo", speed: speed)
            }
        }
        let catalog = GUICommand.catalog(
            configuration: configuration, appKey: appKey, database: database, settings: settings)
        let deviceID = (try? DeviceIDResolver.fromEnvironment().resolve().value) ?? ""
        let wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
        var environment = GUIEnvironment(
            makeSource: makeSource, places: catalog.directory, settings: settings,
            useCases: FaroUseCases(
                profile: ContactProfileAdapter(database: database), outbox: outbox,
                flags: SiteFlagsAdapter(database: database), deviceID: deviceID, clock: wallClock),
            deviceID: deviceID, machineClock: { MonotonicClock().now() }, wallClock: wallClock, tray: !noTray)
        environment.outbox = outbox
        environment.connection = catalog.directory
        environment.uniqueInstance = demoProfile == nil
        environment.appID = InstalledAppID.resolve()
        // The network coming back (GNetworkMonitor, watched on a thread of its own from behind the first frame): the
        // catalog pulls and the outbox delivers at once.
        let directory = catalog.directory
        var network: NetworkWatch?
        environment.session = GUICommand.sessionConfiguration(settings)
        // The backend's URL, tables or app key changed while the window runs (`faro app-key set`, `gsettings set`,
        // or Reintentar after the key was refused): the outbox and the catalog carry on with the new configuration.
        let backend = BackendReload(
            current: configuration, outbox: outbox, catalog: catalog.service, databasePath: database.path,
            syncSettings: catalog.settings,
            resolve: {
                try BackendSettings.resolve(option: backendURL, database: database, opened: opened, readAppKey: false)
            },
            keyReading: readAppKey ? { AppKeyReading() } : nil)
        environment.reloadBackend = { backend.reload() }
        environment.appKeyStatus = backend.appKeyStatus
        appKey?.whenRead { read in FaroApplication.performOnMain { backend.appKeyRead(read) } }
        let backendKeys: Set<SettingsKey> = [
            .backendURL, .backendProtocol, .tableBeacons, .tableInterested, .tableContactame, .tableRateme,
        ]
        let watch = settings.observe { key in
            guard let changed = SettingsKey(rawValue: key), backendKeys.contains(changed) else { return }
            MainActor.assumeIsolated { backend.reload() }
        }
        defer { watch.cancel() }
        environment.site = SiteAdapters(database: database, deviceID: deviceID)
        let profile = DatabaseProfileAdapters(database: database)
        // Retention at start (with the rest of the store's maintenance), and again when the setting changes while
        // the window runs.
        let maintain = {
            _ = try? StoreMaintenance.run(
                on: database, now: wallClock(), visitsRetentionDays: VisitRetention.days(settings))
        }
        maintain()
        let retention = settings.observe { key in
            guard key == SettingsKey.visitsRetentionDays.rawValue else { return }
            VisitRetention.apply(settings: settings, to: database, now: wallClock())
        }
        defer { retention.cancel() }
        // A tray app runs for weeks: every ten minutes, what is past its time goes and the WAL is copied back into
        // the database file (docs/storage.md).
        let maintenance = MainContextSources.addSecondsTimeout(seconds: GUICommand.maintenanceInterval) {
            maintain()
            return true
        }
        defer { MainContextSources.remove(maintenance) }
        environment.calibrations = profile
        environment.visits = profile
        environment.visitHistory = profile
        environment.mutedPlaces = profile
        environment.adapterName = { source in
            if let bluez = source as? BlueZSource { return bluez.adapterAddress ?? "bluez" }
            if let hci = source as? HCISource { return hci.device ?? "hci" }
            return CalibrateCommand.replayAdapter
        }
        environment.probeConnection = { url, done in
            let table = settings.string(SettingsKey.tableBeacons) ?? "beacons"
            let setting = BackendProtocolSetting(settings.string(SettingsKey.backendProtocol) ?? "auto") ?? .auto
            let key = backend.appKey ?? ProcessInfo.processInfo.environment["FARO_APP_KEY"]
            let started = DetachedThread.start(name: "faro-probe") {
                let check = GUICommand.check(
                    BackendProbe.run(baseURL: url, appKey: key, catalogTable: table, setting: setting))
                FaroApplication.performOnMain { done(check) }
            }
            if !started { done(.noAnswer("no thread for the request")) }
        }
        if let demoProfile {
            Output.line("faro: demo on a private profile in \(demoProfile.folder) (removed on exit)")
        }
        // The keyring, the catalog's first pull, the outbox and the network watch start behind the window's first
        // frame (LaunchWork): the start pulls the catalog anyway, and the watch is only for the network coming back.
        // A sleep: the WAL is copied into the database file (what is written survives a battery running out); a
        // resume: the catalog pulls if a pull fell due while asleep.
        environment.beforeSleep = { _ = try? database.connection.execute("PRAGMA wal_checkpoint(PASSIVE)") }
        environment.afterResume = { catalog.service.resumedFromSleep() }
        environment.afterFirstFrame = {
            appKey?.start()
            deliverer?.start()
            catalog.service.start()
            network = NetworkWatch { available in
                guard available else { return }
                FaroApplication.performOnMain {
                    directory.reconnect()
                    outbox.deliverer?.retryNow()
                }
            }
        }
        let status = FaroApplication(environment: environment).run(service: service, background: background)
        // What the last minutes wrote reaches the database file before Faro quits.
        _ = try? database.checkpoint()
        network?.stop()
        catalog.service.stop(timeout: 5)
        outbox.deliverer?.stop(timeout: 5)
        demoBackend?.stop()
        return status
    }
}

extension GUICommand {
    /// The quiet-scanner watchdog's settings: the defaults (docs/monitoring.md), or with
    /// `FARO_WATCHDOG_SILENCE_SECONDS` a shorter silence, for tests and the soak.
    static func watchdog() -> ScanWatchdogConfiguration {
        var configuration = ScanWatchdogConfiguration()
        if let text = ProcessInfo.processInfo.environment["FARO_WATCHDOG_SILENCE_SECONDS"], let seconds = Double(text),
            seconds > 0
        {
            configuration.minimumSilence = seconds
            configuration.trafficWindow = max(seconds, 5)
            configuration.maximumWait = max(seconds * 8, 60)
        }
        return configuration
    }

    /// Seconds between two runs of the store's maintenance.
    static let maintenanceInterval: UInt32 = 600

    /// The window's catalog: the local copy at once, kept in sync with `configuration`'s backend on the catalog
    /// service's thread (at start, every `catalog-refresh-interval`, when the network is back, soon after an
    /// unknown beacon is seen); its updates reach the window through the main loop.
    @MainActor
    static func catalog(
        configuration: BackendConfiguration?, appKey: AppKeyReading?, database: FaroDatabase,
        settings: any SettingsStore
    ) -> (directory: CatalogDirectory, service: CatalogService, settings: CatalogSyncSettings) {
        var syncSettings = CatalogSyncSettings(environment: ProcessInfo.processInfo.environment)
        if let text = settings.string(SettingsKey.catalogRefreshInterval), let seconds = Double(text), seconds >= 60,
            ProcessInfo.processInfo.environment["FARO_CATALOG_SYNC_MINUTES"] == nil
        {
            syncSettings.period = seconds
        }
        let directory = CatalogDirectory()
        let path = database.path
        let chosen = syncSettings
        let service = CatalogService(
            settings: chosen, clock: SystemOutboxClock(),
            makeSyncer: syncerFactory(configuration, appKey: appKey, databasePath: path, settings: chosen),
            main: { body in FaroApplication.performOnMain { body() } },
            onUpdate: { [weak directory] update in MainActor.assumeIsolated { directory?.receive(update) } })
        directory.attach(service)
        return (directory, service, chosen)
    }

    /// Makes the catalog service's syncer for `configuration` (none without a backend). With `appKey`, the syncer
    /// waits for the stored key on the catalog's thread; a keyring that cannot be read means no key (as for the
    /// outbox: `BackendReload.appKeyRead` says why on stderr, and `faro app-key set` or Reintentar reads it again).
    static func syncerFactory(
        _ configuration: BackendConfiguration?, appKey: AppKeyReading? = nil, databasePath: String,
        settings: CatalogSyncSettings
    ) -> CatalogService.SyncerFactory {
        {
            guard var configuration else { return nil }
            if let appKey { configuration.appKey = (try? appKey.wait()) ?? nil }
            return try CatalogSync(databasePath: databasePath, configuration: configuration, settings: settings)
        }
    }

    /// FaroNet's probe outcome as the window's words take it.
    nonisolated static func check(_ outcome: BackendProbe.Result) -> ConnectionCheck {
        switch outcome {
        case .connected(let places, let generation):
            return .connected(places: places, generation: "\(generation.version) (\(generation.family))")
        case .refused(let status, _): return .refused(status: status)
        case .notHTTPS: return .notHTTPS
        case .noAnswer(let message): return .noAnswer(message)
        case .unusable(let message): return .unexpected(message)
        }
    }

    /// The exit period and cool-down of monitoring, from the settings (their defaults: `SettingsKey.defaultSeconds`
    /// when unset or unreadable). A cool-down of 0 announces every entry (docs/monitoring.md); an exit period is
    /// at least 1 s, as the schema's range says.
    static func sessionConfiguration(_ settings: any SettingsStore) -> BeaconSessionConfiguration {
        func seconds(_ key: SettingsKey, minimum: Double) -> Double {
            guard let text = settings.string(key), let value = Double(text), value >= minimum else {
                return key.defaultSeconds ?? 0
            }
            return value
        }
        let exit = seconds(.exitPeriod, minimum: 1)
        // Each beacon keeps 10 minutes of readings for its page and its CSV export (docs/beacon-page.md).
        return BeaconSessionConfiguration(
            ranging: RangingConfiguration(exitPeriod: exit, readings: ReadingHistoryLimits()),
            regions: RegionMonitorConfiguration(exitPeriod: exit, coolDown: seconds(.coolDown, minimum: 0)))
    }
}

/// The private faro-backend of `faro --demo`: started on a free loopback port with a throwaway database, serving
/// the demo catalog and microsites, stopped when the window quits.
final class DemoBackend {
    let url: String
    private let pid: pid_t
    /// The read end of the backend's stdout, kept open while it runs so that a later line never meets a closed pipe.
    private let output: Int32
    private let folder: String

    private init(url: String, pid: pid_t, output: Int32, folder: String) {
        self.url = url
        self.pid = pid
        self.output = output
        self.folder = folder
    }

    static func start() throws -> DemoBackend {
        // Beside the running binary (`/proc/self/exe`): `<prefix>/bin` installed, `.build/<configuration>` built.
        let exe = (RunningExecutable.directory ?? "/proc/self/exe: unreadable") + "/faro-backend"
        guard access(exe, X_OK) == 0 else {
            throw CommandFailure(description: "faro-backend is not next to faro (\(exe)); build it with `swift build`")
        }
        let folder = try DemoProfile.makeTemporaryFolder("faro-demo-backend")
        var arguments = [exe, "--port", "0", "--database", folder + "/backend.sqlite3"]
        if let data = DataDirectory.locate() { arguments += ["--data", data] }

        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            throw CommandFailure(description: "cannot start the demo faro-backend: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec, so that only the backend's dup2'd stdout stays open in the child.
        _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], STDOUT_FILENO)
        // The child starts with no signal blocked, whatever this process blocks.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, exe, &actions, &attributes, argv, environ)
        close(pipeFDs[1])
        guard spawned == 0 else {
            close(pipeFDs[0])
            throw CommandFailure(description: "cannot start \(exe): \(String(cString: strerror(spawned)))")
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            buffer += chunk[..<got]
            let text = String(decoding: buffer, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                return DemoBackend(
                    url: String(line.dropFirst("listening on ".count)), pid: pid, output: pipeFDs[0],
                    folder: folder)
            }
        }
        close(pipeFDs[0])
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: folder)
        throw CommandFailure(
            description: "the demo faro-backend did not start: \(String(decoding: buffer, as: UTF8.self))")
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        close(output)
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// The private profile of `faro --demo`: a fresh folder made by `mkdtemp` holding the demo's own database,
/// settings (GSettings' keyfile backend) and caches, removed on exit. Made before anything reads the XDG folders,
/// so the user's `$XDG_DATA_HOME/faro` is never opened; the backend settings of the user's environment are
/// dropped too, so the demo only ever talks to its own faro-backend.
final class DemoProfile {
    let folder: String

    private init(folder: String) { self.folder = folder }

    /// The files of the user's GTK configuration that give the demo window the user's own look: theme, dark
    /// style, animations, custom CSS and the file chooser's bookmarks. Copied, never linked, so the demo writes
    /// nothing back (docs/configuration.md).
    static let carriedLookFiles = ["gtk-3.0/settings.ini", "gtk-3.0/gtk.css", "gtk-3.0/bookmarks"]

    static func create() throws -> DemoProfile {
        let folder = try makeTemporaryFolder("faro-demo")
        let environment = ProcessInfo.processInfo.environment
        let userConfig =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["HOME"].map { $0 + "/.config" }
        for (variable, name) in [("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache")]
        {
            let path = folder + "/" + name
            guard mkdir(path, 0o700) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(atPath: folder)
                throw CommandFailure(description: "cannot make the demo profile folder \(path): \(reason)")
            }
            setenv(variable, path, 1)
        }
        if let userConfig { carryLook(from: userConfig, to: folder + "/config") }
        setenv("GSETTINGS_BACKEND", "keyfile", 1)
        for variable in [
            "FARO_BACKEND", "FARO_APP_KEY", "FARO_TABLE_BEACONS", "FARO_TABLE_INTERESTED", "FARO_TABLE_CONTACTAME",
            "FARO_TABLE_RATEME",
        ] {
            unsetenv(variable)
        }
        return DemoProfile(folder: folder)
    }

    /// Copies `carriedLookFiles` that exist under the user's config folder into the demo's; a file that cannot be
    /// copied only leaves the demo with GTK's defaults.
    static func carryLook(from userConfig: String, to demoConfig: String) {
        for name in carriedLookFiles {
            guard let bytes = FileManager.default.contents(atPath: userConfig + "/" + name) else { continue }
            let target = demoConfig + "/" + name
            let folder = String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)])
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: target, contents: bytes)
        }
    }

    /// A new, private (0700) folder under `$TMPDIR` (else /tmp) named `prefix-XXXXXX` by `mkdtemp`: never a
    /// guessable name another user could have made first.
    static func makeTemporaryFolder(_ prefix: String) throws -> String {
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((temporary + "/" + prefix + "-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else {
            throw CommandFailure(
                description: "cannot make a temporary folder in \(temporary): \(String(cString: strerror(errno)))")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
