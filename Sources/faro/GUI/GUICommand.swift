import FaroApp
import FaroBluetooth
import FaroCore
import FaroNet
import FaroStore
import FaroUI
import FaroWeb
import Foundation

/// `faro [--source bluez|hci|replay FILE|demo] [--backend URL] [--demo]`: the window (a GtkApplication).
/// `--demo` is the offline demo: the demo recording plus a private faro-backend on loopback.
enum GUICommand {
    static let usage = "faro [--demo] [--source bluez|hci|replay FILE|demo] [--backend URL] [--speed X] [--no-tray] [--background]"

    @MainActor
    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let demo = args.flag("--demo")
        let service = args.flag("--gapplication-service")
        let noTray = args.flag("--no-tray")
        // The autostart entry's: monitoring starts, no window opens (the tray or a notification opens it).
        let background = args.flag("--background")
        let speed = try args.number("--speed", in: 0.01...10_000) ?? 1
        var sourceName = try args.option("--source") ?? (demo ? "demo" : nil)
        let replayFile = sourceName == "replay" ? try args.positional("FILE after --source replay") : nil
        let adapter = try args.option("--adapter")
        let device = try args.option("--device")
        var backendURL = try args.option("--backend")
        try args.finish()

        let env = ProcessInfo.processInfo.environment
        guard !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty else {
            throw CommandFailure(description: "no display to open the window on; for the terminal demo run "
                + "`faro scan --source demo` (or see `faro --help`)")
        }
        let database = try FaroDatabase(path: FaroDatabase.defaultPath())
        let stores = DatabaseStores(database: database)

        var demoBackend: DemoBackend?
        if demo, backendURL == nil {
            let backend = try DemoBackend.start()
            demoBackend = backend
            backendURL = backend.url
        }
        let configuration = try BackendSettings.resolve(option: backendURL, database: database)
        if let configuration {
            let deliverer = OutboxDeliverer(databasePath: database.path, configuration: configuration)
            deliverer.start()
            stores.deliverer = deliverer
        }
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
            case "bluez": return BlueZSource(options: BlueZSource.Options(adapter: adapter, powerOn: false))
            case "hci": return HCISource(device: device)
            default: return ReplaySource(records: records, name: name, loops: name == "demo", speed: speed)
            }
        }
        let catalog = BackendCatalog(configuration: configuration, databasePath: database.path,
                                     main: { body in FaroApplication.performOnMain(body) })
        let deviceID = (try? DeviceIDResolver.fromEnvironment().resolve().value) ?? ""
        var environment = GUIEnvironment(
            makeSource: makeSource, catalog: catalog, contacts: stores, registrations: stores, settings: stores,
            deviceID: deviceID, now: { MonotonicClock().now() }, tray: !noTray)
        environment.outbox = stores
        let site = SiteAdapters(database: database, stores: stores, deviceID: deviceID)
        environment.site = site
        environment.feedback = site
        let status = FaroApplication(environment: environment).run(service: service, background: background)
        stores.deliverer?.stop(timeout: 5)
        demoBackend?.stop()
        return status
    }
}

/// The private faro-backend of `faro --demo`: started on a free loopback port with a throwaway database, serving
/// the demo catalog and microsites, stopped when the window quits.
final class DemoBackend {
    let url: String
    private let process: Process
    private let folder: String

    private init(url: String, process: Process, folder: String) {
        self.url = url
        self.process = process
        self.folder = folder
    }

    static func start() throws -> DemoBackend {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("faro-backend").path
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            throw CommandFailure(description: "faro-backend is not next to faro (\(exe)); build it with `swift build`")
        }
        let folder = NSTemporaryDirectory() + "faro-demo-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: exe)
        var arguments = ["--port", "0", "--database", folder + "/backend.sqlite3"]
        if let data = DataDirectory.locate() { arguments += ["--data", data] }
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        try process.run()
        var buffer = Data()
        while true {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            let text = String(decoding: buffer, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                return DemoBackend(url: String(line.dropFirst("listening on ".count)), process: process, folder: folder)
            }
        }
        process.terminate()
        throw CommandFailure(description: "the demo faro-backend did not start: \(String(decoding: buffer, as: UTF8.self))")
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
