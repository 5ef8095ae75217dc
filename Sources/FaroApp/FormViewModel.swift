import FaroCore

/// Where "Mis datos de contacto" are kept (only on this device).
public protocol ContactDetailsStore: AnyObject {
    func loadContactDetails() throws -> ContactDetails?
    func saveContactDetails(_ details: ContactDetails) throws
}

/// Where "Registrar mi negocio" rows go: committed to the outbox before the form says "sent". Returns the row id.
public protocol RegistrationOutbox: AnyObject {
    func submit(_ registration: BusinessRegistration) throws -> String
}

/// The inline messages of a form, one per field that failed, already translated.
public struct FormMessages: Equatable, Sendable {
    public var byField: [FormField: String]

    public init(_ errors: FormErrors, localize: Localizer) {
        var byField: [FormField: String] = [:]
        for problem in errors.problems where byField[problem.field] == nil {
            var text = localize(problem.msgid)
            for argument in problem.arguments {
                if let range = text.firstRange(of: "%@") { text.replaceSubrange(range, with: argument) }
            }
            byField[problem.field] = text
        }
        self.byField = byField
    }

    /// Messages given directly (a storage failure, say), already translated.
    public init(byField: [FormField: String]) { self.byField = byField }

    public subscript(field: FormField) -> String? { byField[field] }
}

/// The disclaimer under the contact fields (PRODUCT.md §8); its Spanish translation is the customer's text verbatim.
public let contactDisclaimerMsgid =
    "*Your details are stored on your device and shared with the authors of the sites you choose, so that they can get in touch with you."
