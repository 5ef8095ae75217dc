import FaroCore

/// Why "Enviar mis datos" or "Calificar sitio" did not go through.
public enum SiteFeedbackError: Error, Equatable, Sendable, CustomStringConvertible {
    /// "Enviar mis datos" needs "Mis datos de contacto" first.
    case noContactDetails
    /// This site already has the user's details, or a rating: at most one of each per site.
    case alreadyDone
    /// The comment is too long (or otherwise invalid).
    case invalidComment(FieldProblem)
    /// A rating is a whole number of stars from 0 to 5.
    case invalidRating(Int)
    /// The store failed; nothing was queued.
    case storage(StorageFailure)

    /// In English (logs, the terminal).
    public var description: String { message(.english) }

    /// In the user's language.
    public func message(_ localize: Localizer) -> String {
        switch self {
        case .noContactDetails: return localize("Enter your contact details first (My contact details).")
        case .alreadyDone: return localize("This site already has it.")
        case .invalidComment(let problem): return FormMessages.fill(localize(problem.msgid), problem.arguments)
        case .invalidRating(let stars): return localize.format("A rating is 0 to 5 stars, not %@.", String(stars))
        case .storage(let failure): return localize("Could not save: ") + failure.problem.message(localize)
        }
    }
}

/// "Enviar mis datos" (docs/forms.md): the contact details kept on this device and an optional comment, committed
/// to the outbox as a `contactame` row together with the site's "sent" flag; offered once per site.
public struct SendContactDetails: Sendable {
    private let profile: any ContactProfileStore
    private let outbox: any OutboxWriter
    private let flags: any SiteFlags
    private let clock: @Sendable () -> Double

    public init(
        profile: any ContactProfileStore, outbox: any OutboxWriter, flags: any SiteFlags,
        clock: @escaping @Sendable () -> Double
    ) {
        self.profile = profile
        self.outbox = outbox
        self.flags = flags
        self.clock = clock
    }

    /// How the option shows for `place`: nil (hidden) without contact details; otherwise whether this site
    /// already has them (shown, disabled: "Datos enviados").
    public func offer(for place: CatalogPlace) -> Bool? {
        guard (try? profile.loadContactDetails()) != nil else { return nil }
        return (try? flags.contactSent(to: place.url)) ?? false
    }

    /// Queues the request; returns the row's client id.
    @discardableResult
    public func callAsFunction(to place: CatalogPlace, comentario: String) throws(SiteFeedbackError) -> String {
        let comment: String
        switch FormRules.optionalText(comentario, field: .comentario, limit: FormRules.maxCommentLength) {
        case .failure(let problem): throw .invalidComment(problem)
        case .success(let text): comment = text
        }
        do {
            guard let contact = try profile.loadContactDetails() else { throw SiteFeedbackError.noContactDetails }
            guard try !flags.contactSent(to: place.url) else { throw SiteFeedbackError.alreadyDone }
            let row = OutboxRows.contactRequest(to: place, contact: contact, comentario: comment, at: clock())
            return try outbox.commit(row, at: clock(), marking: .contactSent(url: place.url))
        } catch let error as SiteFeedbackError {
            throw error
        } catch let error as StorageFailure {
            throw .storage(error)
        } catch {
            throw .storage(StorageFailure(.other, detail: "\(error)"))
        }
    }
}

/// "Calificar sitio" (docs/forms.md): 0–5 stars, stored locally first (the outbox row and the site's "rated"
/// flag in one transaction) and sent later; hidden once the site is rated.
public struct RateSite: Sendable {
    private let outbox: any OutboxWriter
    private let flags: any SiteFlags
    private let deviceID: String
    private let clock: @Sendable () -> Double

    public init(
        outbox: any OutboxWriter, flags: any SiteFlags, deviceID: String, clock: @escaping @Sendable () -> Double
    ) {
        self.outbox = outbox
        self.flags = flags
        self.deviceID = deviceID
        self.clock = clock
    }

    /// Whether the option is offered for `place` (not rated yet).
    public func isOffered(for place: CatalogPlace) -> Bool { (try? flags.rating(of: place.url)) == .some(nil) }

    /// Queues the rating; returns the row's client id.
    @discardableResult
    public func callAsFunction(_ place: CatalogPlace, stars: Int) throws(SiteFeedbackError) -> String {
        guard OutboxSubmission.validRating(stars) else { throw .invalidRating(stars) }
        do {
            guard try flags.rating(of: place.url) == nil else { throw SiteFeedbackError.alreadyDone }
            let row = OutboxRows.rating(of: place, stars: stars, deviceID: deviceID, at: clock())
            return try outbox.commit(row, at: clock(), marking: .rated(url: place.url, rating: stars))
        } catch let error as SiteFeedbackError {
            throw error
        } catch let error as StorageFailure {
            throw .storage(error)
        } catch {
            throw .storage(StorageFailure(.other, detail: "\(error)"))
        }
    }
}
