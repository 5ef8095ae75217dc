import Dispatch
import FaroCore
import FaroNet
import FaroStore
import FoundationEssentials
import Glibc

/// `faro register --nombre N --email E --telefono T [--backend URL]`: "Registrar mi negocio" from the terminal.
/// Validated like the form, committed to the outbox (a row for table `interested`, queued for the configured
/// backend, or for whichever delivers it when none is configured yet), and the row's client id printed on stdout.
/// Delivery is the outbox's business (`faro outbox flush`, or the app's background delivery).
enum RegisterCommand {
    static let usage = "faro register --nombre N --email E --telefono T [--backend URL]"

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let nombre = try args.option("--nombre") ?? ""
        let email = try args.option("--email") ?? ""
        let telefono = try args.option("--telefono") ?? ""
        let backend = try args.option("--backend")
        try args.finish()
        let registration: BusinessRegistration
        switch BusinessRegistration.validate(nombre: nombre, email: email, telefono: telefono) {
        case .success(let r): registration = r
        case .failure(let errors):
            throw CommandFailure(description: "nothing was registered: \(errors)")
        }
        let database = try OutboxStoreAccess.open()
        let configuration = try BackendSettings.resolve(option: backend, database: database)
        let row: OutboxRow
        do {
            row = try database.outbox.submit(
                .interested(registration), now: SystemOutboxClock().now(), backend: configuration?.baseURL)
        } catch {
            throw CommandFailure(description: error.description)
        }
        Output.line(row.id)
        return 0
    }
}

/// Opening Faro's database for a terminal command, with the store's errors turned into one-line failures.
enum OutboxStoreAccess {
    static func open() throws(CommandFailure) -> FaroDatabase {
        do {
            return try FaroDatabase(path: FaroDatabase.defaultPath())
        } catch {
            throw CommandFailure(description: error.description)
        }
    }
}
