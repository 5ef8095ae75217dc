import FaroCore

/// Why a form's submission did not go through, with what the user needs to act: the fields to fix, or the store
/// that failed (nothing was saved either way).
public enum FormSubmissionError: Error, Equatable, Sendable {
    /// Some fields are invalid; nothing was saved.
    case invalid(FormErrors)
    /// The fields were fine but could not be kept.
    case storage(StorageFailure)
}

/// "Mis datos de contacto": validate the four fields (docs/forms.md), then keep them on this device.
public struct SaveContactDetails: Sendable {
    private let store: any ContactProfileStore
    private let clock: @Sendable () -> Double

    /// `clock` gives seconds since 1970.
    public init(store: any ContactProfileStore, clock: @escaping @Sendable () -> Double) {
        self.store = store
        self.clock = clock
    }

    /// What is kept now, to fill the form (nil when nothing is, or it cannot be read).
    public func current() -> ContactDetails? { (try? store.loadContactDetails()) ?? nil }

    public func callAsFunction(nombre: String, email: String, telefono: String, empresa: String)
        throws(FormSubmissionError) -> ContactDetails
    {
        let details: ContactDetails
        switch ContactDetails.validate(nombre: nombre, email: email, telefono: telefono, empresa: empresa) {
        case .failure(let errors): throw .invalid(errors)
        case .success(let valid): details = valid
        }
        do {
            try store.saveContactDetails(details, at: clock())
        } catch {
            throw .storage(error)
        }
        return details
    }
}

/// "Registrar mi negocio": validate nombre, email and teléfono (docs/forms.md), then commit an `interested` row
/// to the outbox. Returns the row's client id.
public struct RegisterBusiness: Sendable {
    private let outbox: any OutboxWriter
    private let clock: @Sendable () -> Double

    public init(outbox: any OutboxWriter, clock: @escaping @Sendable () -> Double) {
        self.outbox = outbox
        self.clock = clock
    }

    public func callAsFunction(nombre: String, email: String, telefono: String) throws(FormSubmissionError) -> String {
        let registration: BusinessRegistration
        switch BusinessRegistration.validate(nombre: nombre, email: email, telefono: telefono) {
        case .failure(let errors): throw .invalid(errors)
        case .success(let valid): registration = valid
        }
        do {
            return try outbox.commit(OutboxRows.registration(registration), at: clock(), marking: nil)
        } catch {
            throw .storage(error)
        }
    }
}
