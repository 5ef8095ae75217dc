import FaroApp
import FaroCore
import FoundationEssentials

/// What the GUI is built from: the scanner, the catalog, the stores and the use cases. The `faro` executable
/// assembles it (demo or real); FaroUI only wires it to widgets.
@MainActor
public struct GUIEnvironment {
    public var makeSource: @MainActor () -> any AdvertisementSource
    /// The catalogued places (they name rows and become monitoring regions).
    public var places: any PlaceDirectory
    public var settings: any SettingsStore
    public var useCases: FaroUseCases
    public var outbox: (any OutboxMonitor)?
    /// The microsites, Guardados, sharing ("Guardar", "Compartir").
    public var site: (any SiteServices)?
    /// The device id sent with content loads, shown in "Acerca de".
    public var deviceID: String
    /// Monotonic seconds of this machine.
    public var machineClock: @Sendable () -> Double
    /// Seconds since 1970 (pauses end at wall-clock times; rows are stamped with it).
    public var wallClock: @Sendable () -> Double
    public var timeZone: TimeZone
    /// Whether to show the tray icon (off in tests that have no tray host).
    public var tray: Bool
    /// One Faro per session (a second start hands over to the first); off for `faro --demo`, which runs beside a
    /// real Faro on its private profile.
    public var uniqueInstance = true
    /// The application id (FaroInstall's `AppIdentity`): the D-Bus name, the notifications' desktop entry, the
    /// icon and the autostart entry's name.
    public var appID = "io.github.faro.Faro"
    /// Whether the backend answers (the window's offline line), and "try again".
    public var connection: (any BackendConnection)?
    /// Whether the stored app key could be read (the window's line says when it could not).
    public var appKeyStatus: AppKeyStatus?
    /// Reads the backend's settings and app key again and applies them if they changed (`app.reload-backend`,
    /// which `faro app-key set` activates, and Reintentar).
    public var reloadBackend: (@MainActor () -> Void)?
    /// Monitoring's exit period and cool-down, and the session's other settings.
    public var session = BeaconSessionConfiguration()
    /// Calibrations and adapter offsets (docs/calibration.md).
    public var calibrations: (any CalibrationStore)?
    /// Where visits to catalogued places are recorded (docs/visits.md).
    public var visits: (any VisitRecorder)?
    /// The stored visits ("Lugares visitados").
    public var visitHistory: (any VisitHistory)?
    /// The muted places (docs/notifications.md): they raise no notification.
    public var mutedPlaces: (any MutedPlaceStore)?
    /// The name a source's adapter offset is kept under (its Bluetooth address, or `replay`).
    public var adapterName: @MainActor (any AdvertisementSource) -> String = { _ in "replay" }
    /// One catalog request to a backend URL, for "Probar conexión": runs off the main thread and calls back on it.
    public var probeConnection: (@MainActor (String, @escaping @MainActor (ConnectionCheck) -> Void) -> Void)?
    /// What the first frame does not need (the app key read, the catalog's worker, the outbox): run once, after the
    /// main window's first frame, at once without a window, or 2 s after start-up at the latest (`LaunchWork`).
    public var afterFirstFrame: (@MainActor () -> Void)?
    /// Whether to follow logind's sleep and resume (docs/monitoring.md).
    public var followsSleep = true
    /// Before the machine sleeps, after monitoring closed the visits: write out what the store holds.
    public var beforeSleep: (@MainActor () -> Void)?
    /// After the machine woke up, once scanning restarted: sync the catalog if it is due.
    public var afterResume: (@MainActor () -> Void)?

    public init(
        makeSource: @escaping @MainActor () -> any AdvertisementSource, places: any PlaceDirectory,
        settings: any SettingsStore, useCases: FaroUseCases, deviceID: String,
        machineClock: @escaping @Sendable () -> Double,
        wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        timeZone: TimeZone = .current, tray: Bool = true
    ) {
        self.makeSource = makeSource
        self.places = places
        self.settings = settings
        self.useCases = useCases
        self.outbox = nil
        self.site = nil
        self.deviceID = deviceID
        self.machineClock = machineClock
        self.wallClock = wallClock
        self.timeZone = timeZone
        self.tray = tray
    }
}
