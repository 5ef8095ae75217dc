import FaroApp
import FaroCore
import FaroStore

/// "Mis datos de contacto" in Faro's database, behind FaroApp's `ContactProfileStore`.
final class ContactProfileAdapter: ContactProfileStore, @unchecked Sendable {
    let database: FaroDatabase

    init(database: FaroDatabase) { self.database = database }

    func loadContactDetails() throws(StorageFailure) -> ContactDetails? {
        do { return try database.contactProfile.load() } catch { throw StorageFailure(error) }
    }

    func saveContactDetails(_ details: ContactDetails, at time: Double) throws(StorageFailure) {
        do { try database.contactProfile.save(details, now: time) } catch { throw StorageFailure(error) }
    }

}
