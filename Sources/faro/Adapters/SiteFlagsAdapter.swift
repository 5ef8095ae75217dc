import FaroApp
import FaroCore
import FaroStore

/// Whether a site was sent the contact details or rated, from Faro's database, behind FaroApp's `SiteFlags`.
final class SiteFlagsAdapter: SiteFlags, @unchecked Sendable {
    let database: FaroDatabase

    init(database: FaroDatabase) { self.database = database }

    func contactSent(to url: String) throws(StorageFailure) -> Bool {
        do { return try database.siteState.state(url: url).contactSentAt != nil } catch {
            throw StorageFailure(error)
        }
    }

    func rating(of url: String) throws(StorageFailure) -> Int? {
        do { return try database.siteState.state(url: url).rating } catch { throw StorageFailure(error) }
    }

}
