/// A form field Faro validates; the raw value is the English name used in messages and JSON.
public enum FormField: String, Sendable, CaseIterable {
    case nombre, email, telefono, empresa, comentario
}
