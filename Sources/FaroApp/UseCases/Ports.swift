import FaroCore

/// Where the use cases keep and send things. FaroApp only names what it needs; the executable implements these
/// over FaroStore (SQLite) and FaroWeb (the network), and tests over plain memory.

/// "Mis datos de contacto", kept only on this device.
public protocol ContactProfileStore: AnyObject, Sendable {
    func loadContactDetails() throws(StorageFailure) -> ContactDetails?
    func saveContactDetails(_ details: ContactDetails, at time: Double) throws(StorageFailure)
}

/// The persistent outbox (docs/outbox.md): a row is committed here before anything says "sent".
public protocol OutboxWriter: AnyObject, Sendable {
    /// Commits `submission` under a new client id and returns the id. With `mark`, the site's "sent"/"rated"
    /// flag is written in the same transaction, so the flag and the row never disagree after a crash.
    func commit(_ submission: OutboxSubmission, at time: Double, marking mark: SiteMark?) throws(StorageFailure)
        -> String
}

/// The per-site flags: "Enviar mis datos" is offered once, "Calificar sitio" hides itself once rated.
public protocol SiteFlags: AnyObject, Sendable {
    func contactSent(to url: String) throws(StorageFailure) -> Bool
    func rating(of url: String) throws(StorageFailure) -> Int?
}

/// A store that could not do what was asked (the database is locked, read-only, full, or newer than this Faro).
/// `problem` is what the window words (`StorageProblem.message`); `description` the English detail for logs.
public struct StorageFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var problem: StorageProblem
    public var description: String

    public init(_ problem: StorageProblem, detail: String) {
        self.problem = problem
        self.description = detail
    }
}
