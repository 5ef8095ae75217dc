import FaroApp
import FaroCore
import FaroStore
import FaroWeb

// The store's errors as the values FaroApp's ports carry (`StoreError.problem`, FaroStore): the window words the
// problem, the English detail stays for logs and the terminal.
extension StorageFailure {
    init(_ error: StoreError) { self.init(error.problem, detail: error.description) }
}

extension ProfileStoreError {
    init(_ error: StoreError) { self.init(error.problem, detail: error.description) }
}

/// The web layer's errors as the values FaroApp's site ports carry.
extension SiteProblem {
    init(_ error: FetchError) {
        let megabytes = { (bytes: Int) in max(1, (bytes + (1 << 19)) >> 20) }
        switch error {
        case .invalidURL: self = .invalidAddress
        case .cancelled: self = .cancelled
        case .timedOut(let seconds): self = .timedOut(seconds: Int(seconds.rounded(.up)))
        case .httpStatus(let code, _): self = .httpStatus(code)
        case .tooLarge(let limit), .resourcesTooLarge(let limit), .archiveTooLarge(let limit):
            self = .tooLarge(megabytes: megabytes(limit))
        case .tooManyRedirects, .insecureRedirect, .unsupportedRedirect: self = .redirect
        case .untrustedCertificate, .tls, .unprotected: self = .insecure
        case .network: self = .unreachable
        }
    }
}

extension SiteError {
    /// Any error of a site action: the value when its type is known, `.other` otherwise; the English detail kept
    /// (with the device id scrubbed).
    init(_ error: any Error, knownID: String? = nil) {
        let detail = DeviceIDScrubber.scrub("\(error)", knownID: knownID)
        switch error {
        case let e as SiteError: self = e
        case let e as FetchError: self.init(SiteProblem(e), detail: detail)
        case let e as StoreError: self.init(.storage(e.problem), detail: detail)
        case let e as FileWriteError: self.init(.fileNotWritten(e.problem), detail: detail)
        case is ArchiveOpenError: self.init(.savedPageUnreadable, detail: detail)
        default: self.init(.other, detail: detail)
        }
    }
}
