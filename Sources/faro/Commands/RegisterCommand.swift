import Dispatch
import FaroApp
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
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let nombre = OptionSpec("--nombre N", "The business's name.")
        static let email = OptionSpec("--email E", "A contact e-mail address.")
        static let telefono = OptionSpec(
            "--telefono T", "A phone number of exactly 10 digits; spaces, dashes and parentheses are dropped.")
        static let backend = OptionSpec(
            "--backend URL", "The backend the row is queued for (else $FARO_BACKEND, else the backend-url setting).")
        static let declared = [nombre, email, telefono, backend]
    }

    static let help = CommandHelp(
        name: "register", synopsis: ["faro register --nombre N --email E --telefono T [--backend URL]"],
        summary: "\"Registrar mi negocio\" from the terminal: queue a registration in the outbox.",
        description: """
            Validates the fields like the window's form, commits the registration to the outbox (a row for the \
            backend table interested) and prints the row's id. Nothing is registered when a field is invalid: each \
            problem is named on stderr and the status is 1. Delivery is the outbox's business: the window delivers in \
            the background, 'faro outbox flush' delivers now.
            """,
        options: Option.declared,
        examples: [
            ExampleHelp(
                "faro register --nombre 'Panadería Santa Clara' --email hola@santaclara.mx --telefono '55 1234 5678'",
                "Queues the registration and prints its id; 'faro outbox flush' sends it.")
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let nombre = try args.option(Option.nombre) ?? ""
        let email = try args.option(Option.email) ?? ""
        let telefono = try args.option(Option.telefono) ?? ""
        let backend = try args.option(Option.backend)
        try args.finish()
        let database = try OutboxStoreAccess.open()
        let outbox = OutboxAdapter(database: database)
        // The row is queued for the configured backend (or for whichever delivers it when none is set yet). Only
        // the URL is needed: the key is read when the row is sent, so a locked keyring does not stop the queueing.
        outbox.backend = try BackendSettings.resolve(option: backend, database: database, readAppKey: false)?.baseURL
        let register = RegisterBusiness(outbox: outbox, clock: { SystemOutboxClock().now() })
        let id: String
        do throws(FormSubmissionError) {
            id = try register(nombre: nombre, email: email, telefono: telefono)
        } catch {
            switch error {
            case .invalid(let errors): throw CommandFailure(description: "nothing was registered: \(errors)")
            case .storage(let failure): throw CommandFailure(description: failure.description)
            }
        }
        Output.line(id)
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
