import FaroCore

/// Why a site action failed: `problem` is the value the window words (`SiteProblem.message`), `description` the
/// English detail for logs and the terminal.
public struct SiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problem: SiteProblem
    public var description: String

    public init(_ problem: SiteProblem, detail: String) {
        self.problem = problem
        self.description = detail
    }
}

/// What kept a site from loading, saving, opening, exporting or being deleted.
public enum SiteProblem: Equatable, Sendable {
    /// No connection to the site (name lookup, refused, reset).
    case unreachable
    /// The site did not answer in time.
    case timedOut(seconds: Int)
    /// The site answered with an HTTP error.
    case httpStatus(Int)
    /// The page, its resources or the saved archive exceed what Faro keeps (megabytes).
    case tooLarge(megabytes: Int)
    /// A redirect Faro does not follow (too many, to plain http, to something not a web address).
    case redirect
    /// The secure connection failed (certificate, TLS), or pages cannot be loaded safely here.
    case insecure
    /// The address is not a web address.
    case invalidAddress
    /// The load was stopped.
    case cancelled
    /// The saved page is no longer in Guardados.
    case savedPageGone
    /// The saved page cannot be read.
    case savedPageUnreadable
    /// The exported file could not be written.
    case fileNotWritten(FileWriteProblem)
    /// The profile database failed.
    case storage(StorageProblem)
    /// Anything else.
    case other

    /// In the user's language, to follow "The site could not be loaded: " and the like.
    public func message(_ localize: Localizer) -> String {
        switch self {
        case .unreachable: return localize("the site could not be reached; check the connection.")
        case .timedOut(let seconds): return localize.format("the site did not answer within %@ s.", String(seconds))
        case .httpStatus(let code): return localize.format("the site answered with error %@.", String(code))
        case .tooLarge(let megabytes): return localize.format("it is larger than %@ MB.", String(megabytes))
        case .redirect: return localize("the site sent Faro to an address it does not follow.")
        case .insecure: return localize("the secure connection to the site failed.")
        case .invalidAddress: return localize("the site's address is not valid.")
        case .cancelled: return localize("the load was stopped.")
        case .savedPageGone: return localize("that saved page is gone.")
        case .savedPageUnreadable: return localize("the saved page cannot be read.")
        case .fileNotWritten(let problem): return problem.message(localize)
        case .storage(let problem): return problem.message(localize)
        case .other: return localize("something went wrong.")
        }
    }
}

extension FileWriteProblem {
    /// In the user's language.
    public func message(_ localize: Localizer) -> String {
        switch self {
        case .noSuchFolder: return localize("The folder does not exist.")
        case .permissionDenied: return localize("Faro may not write there.")
        case .diskFull: return localize("The disk is full.")
        case .isFolder: return localize("A folder has that name.")
        case .other: return localize("The file could not be written.")
        }
    }
}
